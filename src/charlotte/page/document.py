"""The page as a document a site serves: its head tags, its language, its base rules.

Pure: what ``render_html`` gives the body, this gives the rest, from the
page's ``meta`` (the fancy-cms format's ``title`` and its ``seo`` map:
``description``, ``lang``, ``canonical``, ``image``; read and bounded by
``page.seo``, see ``docs/hosting.md``).

- ``render_head(doc, assets=, site_origin=)``: ``<title>``, the description,
  the canonical link, ``og:title``/``og:description``/``og:image``/``og:type``
  and ``robots``, each escaped; no tag for an empty field.
- ``page_lang(doc)``: the page's language, ``DEFAULT_LANG`` when it names none
  (or names one that is no BCP 47 tag).
- ``scoped_base_css()``: the base rules (``BASE_CSS``) for a page inside a
  host's own page: each rule only inside ``.cms-page`` (the published body's
  wrapper), so they cannot restyle what the host renders around it.
- ``render_page(doc, assets=)``: the standalone HTML5 document, ``<html lang>``.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from markupsafe import Markup

from charlotte.page.assets import AssetLibrary
from charlotte.page.css import emit_css
from charlotte.page.model import DEFAULT_TITLE
from charlotte.page.render import BASE_CSS, escape_text, render_html, style_text
from charlotte.page.seo import is_lang, is_same_site_path, page_meta

__all__ = [
    "DEFAULT_LANG",
    "PAGE_CLASS",
    "page_lang",
    "page_title",
    "render_head",
    "render_page",
    "scoped_base_css",
]

#: The language of a page that names none.
DEFAULT_LANG: Final = "en"
#: The class of the element a published body is wrapped in (``scoped_base_css`` styles inside it).
PAGE_CLASS: Final = "cms-page"


def _line(text: str) -> str:
    """A head field as one line: runs of whitespace (line breaks included) become one space."""
    return " ".join(text.split())


def page_title(doc: object) -> str:
    """The page's title (``meta.title``), empty for none or the format's default ``Untitled``."""
    title = _line(page_meta(doc).title)
    return "" if title == DEFAULT_TITLE else title


def page_lang(doc: object) -> str:
    """The page's language tag (``meta.seo.lang``, ``page.seo.is_lang``), else ``DEFAULT_LANG``."""
    lang = page_meta(doc).lang
    return lang if is_lang(lang) else DEFAULT_LANG


def render_head(
    doc: object, *, assets: AssetLibrary, site_origin: str | None = None, title: str | None = None
) -> Markup:
    """The head tags of the page, each escaped; none for an empty field (see module docstring).

    ``site_origin`` (``https://example.com``) makes the canonical link absolute;
    ``title`` stands in for the page's own.
    """
    return Markup("\n".join(_tags(doc, assets, site_origin, title, always_title=False)))


def _tags(
    doc: object, assets: AssetLibrary, site_origin: str | None, title: str | None, *, always_title: bool
) -> list[str]:
    meta = page_meta(doc)
    title = page_title(doc) if title is None else title
    description = _line(meta.description)
    canonical = meta.canonical
    image = meta.image
    tags: list[str] = []
    if title or always_title:
        tags.append(f"<title>{escape_text(title)}</title>")
    if description:
        tags.append(f'<meta name="description" content="{escape_text(description)}">')
    if is_same_site_path(canonical):
        origin = (site_origin or "").rstrip("/")
        tags.append(f'<link rel="canonical" href="{escape_text(origin + canonical)}">')
    tags.append('<meta property="og:type" content="website">')
    if title:
        tags.append(f'<meta property="og:title" content="{escape_text(title)}">')
    if description:
        tags.append(f'<meta property="og:description" content="{escape_text(description)}">')
    if image and assets.exists(image):
        tags.append(f'<meta property="og:image" content="{escape_text(assets.url(image))}">')
    tags.append('<meta name="robots" content="index,follow">')
    return tags


@cache
def scoped_base_css() -> str:
    """``BASE_CSS`` with every rule inside ``.cms-page``; ``body`` rules become the wrapper's own."""
    scoped: list[str] = []
    for line in BASE_CSS.splitlines():
        selectors, _, rest = line.partition("{")
        if not rest:
            continue
        parts = []
        for selector in selectors.split(","):
            selector = selector.strip()
            if selector in ("html", "body"):
                parts.append(f".{PAGE_CLASS}")
            elif selector == "*":
                parts += [f".{PAGE_CLASS}", f".{PAGE_CLASS} *"]
            else:
                parts.append(f".{PAGE_CLASS} {selector}")
        scoped.append(f"{', '.join(dict.fromkeys(parts))} {{{rest}")
    return "\n".join(scoped) + "\n"


def render_page(
    doc: object,
    *,
    assets: AssetLibrary,
    title: str | None = None,
    site_origin: str | None = None,
    body: str | None = None,
    page_css: str | None = None,
) -> str:
    """A complete HTML5 document: ``<html lang>``, the head tags, ``BASE_CSS``, the page's stylesheet, its roots in ``<main>``.

    ``title`` (when given) stands in for the page's own; the document always has a ``<title>``.
    ``site_origin`` makes the canonical link absolute (as in ``render_head``). ``body`` and
    ``page_css``: ``render_html(doc)`` and ``emit_css(doc)`` when the caller already has them
    (the published page renders its body once for its two forms).
    """
    head = "\n".join(_tags(doc, assets, site_origin, title, always_title=True))
    body = render_html(doc, assets=assets) if body is None else body
    page_css = emit_css(doc) if page_css is None else page_css
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{escape_text(page_lang(doc))}">\n<head>\n'
        '<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"{head}\n"
        f"<style data-charlotte-base>{BASE_CSS}</style>\n"
        f"<style data-cms-styles>{style_text(page_css)}</style>\n"
        "</head>\n"
        # The page is the document's main content: one <main> landmark, as axe and screen
        # readers expect of a whole page (a host's own template brings its own landmarks).
        f"<body><main>{body}</main></body>\n"
        "</html>\n"
    )
