"""The published page by its key, on every database: the store, and ``Charlotte.published_page``.

``PublishedPageStoreContract`` (a subclass gives ``engine``, charlotte's tables
created): the rows of ``charlotte_published_pages``. ``PublishedPagesContract``
(a subclass gives ``settings``, a fresh database): what a site reads through
``Charlotte`` (the row written with the publish, the render cache never
serving a revision that is no longer published, the hooks, the listing).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from tests.support.databases import unique

from charlotte import Charlotte, CharlotteSession, Refused, Settings
from charlotte.storage import PublishedPageStore, PublishedRow, transaction
from charlotte.storage.engine import read_connection

AT = datetime(2026, 5, 1, 12, 30, tzinfo=UTC)

HERO = [
    {"t": "set_meta", "patch": {"title": "Rosa's <Bakery>", "seo": {"description": "Bread & cake", "lang": "pt-PT"}}},
    {"t": "insert_node", "node": {"id": "hero", "type": "section", "parent": None}},
    {"t": "insert_node", "node": {"id": "title", "type": "heading", "parent": "hero",
                                  "props": {"content": "Rosa's Bakery", "level": 1}}},
    {"t": "insert_node", "node": {"id": "cta", "type": "button", "parent": "hero",
                                  "props": {"label": "Visit us", "href": "#hero"}}},
    {"t": "set_style", "id": "hero", "breakpoint": "base", "patch": {"background": "#fff7ed"}},
]  # fmt: skip


class PublishedPageStoreContract:
    """What every database must show of ``PublishedPageStore``."""

    @pytest.fixture
    def engine(self) -> sa.Engine:  # pragma: no cover - overridden per backend
        raise NotImplementedError

    def test_a_record_reads_back_by_key_and_a_later_one_replaces_it(self, engine: sa.Engine) -> None:
        store, tenant, page = PublishedPageStore(), unique("t"), unique("p")
        with read_connection(engine) as conn:
            assert store.get(conn, tenant, page) is None
        with transaction(engine) as conn:
            store.record(conn, tenant, page, 3, AT)
        with transaction(engine) as conn:
            store.record(conn, tenant, page, 7, AT + timedelta(minutes=1))
        with read_connection(engine) as conn:
            assert store.get(conn, tenant, page) == PublishedRow(tenant, page, 7, AT + timedelta(minutes=1))
            assert store.get(conn, unique("other"), page) is None

    def test_a_rolled_back_record_leaves_nothing(self, engine: sa.Engine) -> None:
        store, tenant = PublishedPageStore(), unique("t")
        with pytest.raises(RuntimeError), transaction(engine) as conn:
            store.record(conn, tenant, "home", 1, AT)
            raise RuntimeError("roll back")
        with read_connection(engine) as conn:
            assert store.get(conn, tenant, "home") is None

    def test_the_listing_is_the_tenants_pages_by_key(self, engine: sa.Engine) -> None:
        store, tenant, other = PublishedPageStore(), unique("t"), unique("t")
        with transaction(engine) as conn:
            for page, revision in (("zeta", 2), ("about", 5), ("home", 9)):
                store.record(conn, tenant, page, revision, AT)
            store.record(conn, other, "elsewhere", 1, AT)
        with read_connection(engine) as conn:
            listed = store.of_tenant(conn, tenant)
            assert [(row.page, row.revision) for row in listed] == [("about", 5), ("home", 9), ("zeta", 2)]
            assert [row.page for row in store.of_tenant(conn, tenant, limit=1)] == ["about"]
            assert all(row.published_at == AT for row in listed)


class PublishedPagesContract:
    """What every database must show of ``Charlotte.published_page`` and its neighbours."""

    @pytest.fixture
    def settings(self) -> Settings:  # pragma: no cover - overridden per backend
        raise NotImplementedError

    @pytest.fixture
    def app(self, settings: Settings) -> Iterator[Charlotte]:
        charlotte = Charlotte(settings)
        charlotte.migrate()
        yield charlotte
        charlotte.close()

    def built(self, app: Charlotte, page: str = "home", tenant: str = "acme") -> CharlotteSession:
        handle = app.for_user("ann").tenant(tenant).page(page).brief("A bakery").open()
        handle.edit(HERO, 0)
        return handle

    def test_none_before_the_first_publish_then_the_page_as_a_site_serves_it(self, app: Charlotte) -> None:
        handle = self.built(app)
        assert app.published_page("acme", "home") is None
        revision = handle.publish()["revision"]
        page = app.published_page("acme", "home")
        assert page is not None
        assert (page.tenant, page.page, page.revision) == ("acme", "home", revision)
        assert page.published_at.tzinfo is not None
        assert page.html.startswith('<div class="cms-page" lang="pt-PT"><') and page.html.endswith("</div>")
        assert 'data-cms="cta"' in page.html
        assert page.css.startswith(".cms-page") and ".cms-page .cms-button" in page.css
        # The base rules first, then the page's own stylesheet, unscoped (its selectors name its nodes).
        assert page.css.index(".cms-page .cms-button") < page.css.index("#fff7ed")
        assert "<title>Rosa&#39;s &lt;Bakery&gt;</title>" in page.head
        assert '<meta name="description" content="Bread &amp; cake">' in page.head
        assert (page.title, page.lang) == ("Rosa's <Bakery>", "pt-PT")
        assert page.etag.startswith('"') and page.etag.endswith('"') and len(page.etag) > 10

    def test_another_tenants_page_is_not_found_and_a_bad_key_is_refused(self, app: Charlotte) -> None:
        self.built(app).publish()
        assert app.published_page("globex", "home") is None
        assert app.published_pages("globex") == []
        for bad in ("-home", "a/b", "", "a b", "x" * 201, 7):
            with pytest.raises(Refused) as refused:
                app.published_page("acme", bad)  # type: ignore[arg-type]
            assert refused.value.code == "invalid_page_key"
        with pytest.raises(Refused) as refused:
            app.published_page(" ", "home")
        assert refused.value.code == "invalid_request"

    def test_a_publish_changes_the_etag_calls_each_hook_once_and_the_cache_serves_the_new_revision(
        self, app: Charlotte
    ) -> None:
        calls: list[tuple[str, str, int]] = []
        app.on_publish(lambda tenant, page, revision: calls.append((tenant, page, revision)))
        handle = self.built(app)
        first = handle.publish()["revision"]
        assert calls == [("acme", "home", first)]
        before = app.published_page("acme", "home")
        assert before is not None and app.published_page("acme", "home") is before  # cached
        handle.edit([{"t": "set_node_props", "id": "cta", "patch": {"label": "Come in"}}], first)
        assert app.published_page("acme", "home") is before  # the draft moved, not the published copy
        second = handle.publish()["revision"]
        after = app.published_page("acme", "home")
        assert after is not None and after.revision == second != first
        assert after.etag != before.etag and "Come in" in after.html and "Visit us" not in after.html
        assert calls == [("acme", "home", first), ("acme", "home", second)]

    def test_a_raising_hook_undoes_nothing_is_logged_by_type_and_the_next_hook_runs(
        self, app: Charlotte, caplog: pytest.LogCaptureFixture
    ) -> None:
        later: list[int] = []

        def failing(tenant: str, page: str, revision: int) -> None:
            raise ValueError("secret-message-never-logged")

        app.on_publish(failing).on_publish(lambda tenant, page, revision: later.append(revision))
        handle = self.built(app)
        with caplog.at_level(logging.ERROR):
            revision = handle.publish()["revision"]
        assert later == [revision]
        page = app.published_page("acme", "home")
        assert page is not None and page.revision == revision
        assert "ValueError" in caplog.text and "secret-message-never-logged" not in caplog.text
        with pytest.raises(TypeError):
            app.on_publish("not callable")  # type: ignore[arg-type]

    def test_a_refused_publish_calls_no_hook_and_records_nothing(self, app: Charlotte) -> None:
        calls: list[Any] = []
        app.on_publish(lambda *args: calls.append(args))
        handle = app.for_user("ann").tenant("acme").page("empty").brief("Nothing yet").open()
        with pytest.raises(Refused):
            handle.publish()  # empty_page
        assert calls == [] and app.published_page("acme", "empty") is None

    def test_the_async_read_and_the_listing(self, app: Charlotte) -> None:
        self.built(app, "home").publish()
        self.built(app, "about").publish()
        page = asyncio.run(app.published_page_async("acme", "home"))
        assert page is not None and page == app.published_page("acme", "home")
        assert asyncio.run(app.published_page_async("acme", "never")) is None
        listed = app.published_pages("acme")
        assert [row["page"] for row in listed] == ["about", "home"]
        assert all(isinstance(row["revision"], int) and row["published_at"].endswith("Z") for row in listed)
