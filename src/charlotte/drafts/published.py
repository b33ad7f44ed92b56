"""The published page as a site serves it: ``PublishedPage``, read cheaply by ``PublishedPages``.

A site asks for a page's published copy on every request, so the read is one
indexed statement: the page's row of ``charlotte_published_pages`` (the
revision published, and when; ``storage.PublishedPageStore``). A render cache
keyed by (tenant, page, revision) holds what was made of that revision; only
a revision it does not hold loads the document (from the page repository,
charlotte's or the host's) and renders it. The cache is bounded (LRU) and
belongs to one ``PublishedPages`` (one per ``Charlotte``): nothing is
process-global. The row is read first on every call, so a publish is seen by
the next read; a cached render is never served for a revision that is no
longer the published one.

What a site gets (``docs/hosting.md``): the body wrapped in
``<div class="cms-page" lang="…">``, the stylesheet (the base rules scoped to
that wrapper, then the page's own), the head tags, the title, the language
and a strong ETag derived from the tenant, the page, the revision, the site
origin and the version of charlotte (a new renderer invalidates every ETag).

``PublishHooks``: what runs once after each publish has committed.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from importlib import metadata
from typing import Any, Final

import sqlalchemy as sa

from charlotte.events import format_at
from charlotte.page.assets import AssetLibrary
from charlotte.page.css import emit_css
from charlotte.page.document import (
    PAGE_CLASS,
    page_lang,
    page_title,
    render_head,
    render_page,
    scoped_base_css,
)
from charlotte.page.render import escape_text, render_html, style_text
from charlotte.storage import PageRepository, PublishedPageStore, PublishedRow

__all__ = ["CACHED_PAGES", "PublishHook", "PublishHooks", "PublishedPage", "PublishedPages"]

log = logging.getLogger(__name__)

#: The most renders one ``PublishedPages`` keeps (least recently read dropped first).
CACHED_PAGES: Final = 256

#: ``fn(tenant, page, revision)``: called once after each publish commits.
PublishHook = Callable[[str, str, int], object]


@dataclass(frozen=True, slots=True)
class PublishedPage:
    """A page's published copy as a site serves it (see ``docs/hosting.md``)."""

    tenant: str
    page: str
    revision: int
    #: When this revision was published (aware UTC).
    published_at: datetime
    #: The body: the page's roots inside ``<div class="cms-page" lang="…">``.
    html: str
    #: The base rules scoped to ``.cms-page``, then the page's own stylesheet (safe inside ``<style>``).
    css: str
    #: The head tags (title, description, canonical, ``og:*``, robots), each escaped.
    head: str
    #: The page's title ("" when it has none).
    title: str
    #: The page's language tag (``en`` when it names none).
    lang: str
    #: A strong ETag, quoted (``"…"``): changes with the revision and with charlotte's version.
    etag: str

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (``GET /pages/{page}/published``): everything but the tenant and the ETag."""
        return {
            "page": self.page,
            "revision": self.revision,
            "published_at": format_at(self.published_at),
            "html": self.html,
            "css": self.css,
            "head": self.head,
            "title": self.title,
            "lang": self.lang,
        }


class PublishHooks:
    """The host's publish hooks: each called once per publish, after the commit; a failure undoes nothing."""

    def __init__(self) -> None:
        self._hooks: tuple[PublishHook, ...] = ()
        self._lock = threading.Lock()

    def add(self, hook: PublishHook) -> None:
        """Call ``hook(tenant, page, revision)`` after every later publish."""
        with self._lock:
            self._hooks = (*self._hooks, hook)

    def run(self, tenant: str, page: str, revision: int) -> None:
        """Call every hook in the order added; one that raises is logged (its type only) and the next runs."""
        for hook in self._hooks:
            try:
                hook(tenant, page, revision)
            except Exception as error:
                # The publish has committed: nothing to undo. The type only, never the
                # message (it may carry data that must not reach a log).
                log.error("a publish hook failed with %s (revision %d)", type(error).__name__, revision)


class PublishedPages:
    """Reads published pages through one indexed read and a bounded render cache (see module docstring)."""

    def __init__(
        self,
        pages: PageRepository,
        *,
        assets: AssetLibrary,
        site_origin: str | None,
        store: PublishedPageStore | None = None,
        cached: int = CACHED_PAGES,
    ) -> None:
        self.pages = pages
        self.assets = assets
        self.site_origin = site_origin
        self.store = store if store is not None else PublishedPageStore()
        self._cached = cached
        self._cache: OrderedDict[tuple[str, str, int], tuple[PublishedPage, str]] = OrderedDict()
        self._lock = threading.Lock()

    def read(self, conn: sa.Connection, tenant: str, page: str) -> tuple[PublishedPage, str] | None:
        """The published page and its standalone HTML document (``render_page``), or None.

        None before the page's first publish; the key is checked by the caller,
        who opened the read on ``conn``.
        """
        row = self.store.get(conn, tenant, page)
        if row is None:
            return None
        hit = self._hit((tenant, page, row.revision))
        if hit is not None:
            return hit
        loaded = self.pages.load_published(conn, tenant, page)
        for _ in range(3):
            if loaded is None or loaded[1] == row.revision:
                break
            # A publish committed between the two reads (PostgreSQL reads each
            # statement's own snapshot): read the row it wrote.
            newer = self.store.get(conn, tenant, page)
            if newer is None:
                return None
            row = newer
            loaded = self.pages.load_published(conn, tenant, page)
        if loaded is None:
            # The row outlived its copy (a host repository that dropped it): nothing to serve.
            return None
        doc, revision = loaded
        rendered = self._render(PublishedRow(tenant, page, revision, row.published_at), doc)
        self._keep((tenant, page, revision), rendered)
        return rendered

    def listing(self, conn: sa.Connection, tenant: str) -> list[dict[str, Any]]:
        """``[{page, revision, published_at}]`` of the tenant's published pages, by page key (one read)."""
        rows = self.store.of_tenant(conn, tenant)
        return [
            {"page": row.page, "revision": row.revision, "published_at": format_at(row.published_at)}
            for row in rows
        ]

    def _hit(self, key: tuple[str, str, int]) -> tuple[PublishedPage, str] | None:
        with self._lock:
            found = self._cache.get(key)
            if found is not None:
                self._cache.move_to_end(key)
            return found

    def _keep(self, key: tuple[str, str, int], rendered: tuple[PublishedPage, str]) -> None:
        with self._lock:
            self._cache[key] = rendered
            self._cache.move_to_end(key)
            while len(self._cache) > self._cached:
                self._cache.popitem(last=False)

    def _render(self, row: PublishedRow, doc: dict[str, Any]) -> tuple[PublishedPage, str]:
        body = render_html(doc, assets=self.assets)
        page_css = emit_css(doc)
        lang = page_lang(doc)
        published = PublishedPage(
            tenant=row.tenant,
            page=row.page,
            revision=row.revision,
            published_at=row.published_at,
            html=f'<div class="{PAGE_CLASS}" lang="{escape_text(lang)}">{body}</div>',
            css=scoped_base_css() + style_text(page_css),
            head=str(render_head(doc, assets=self.assets, site_origin=self.site_origin)),
            title=page_title(doc),
            lang=lang,
            etag=_etag(self.site_origin, row.tenant, row.page, row.revision),
        )
        document = render_page(
            doc, assets=self.assets, site_origin=self.site_origin, body=body, page_css=page_css
        )
        return published, document


def _etag(site_origin: str | None, tenant: str, page: str, revision: int) -> str:
    # JSON keeps the parts apart whatever text a tenant holds.
    key = json.dumps([_version(), site_origin, tenant, page, revision], ensure_ascii=True)
    return f'"{hashlib.sha256(key.encode()).hexdigest()[:32]}"'


@cache
def _version() -> str:
    try:
        return metadata.version("charlotte")
    except metadata.PackageNotFoundError:
        return "unknown"
