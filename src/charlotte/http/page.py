"""The builder page's files (shipped in ``charlotte/web``) and the headers they are served with.

Each adapter serves them under its own prefix; the page names its files by
relative URLs, so any prefix works. ``page-base.css`` is
``charlotte.page.render.BASE_CSS``: one source for the preview and the
published page.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Final

from charlotte.page.render import BASE_CSS

__all__ = ["PAGE_BASE_CSS", "PAGE_HEADERS", "WEB_ASSETS", "WEB_MODULES", "web_file"]

#: The modules ``builder.js`` imports, in ``web/js/`` (one concern each; see docs/builder.md).
WEB_MODULES: Final = (
    "api",
    "canvas",
    "changes",
    "chat",
    "contrast",
    "css",
    "dom",
    "draft",
    "editing",
    "editor",
    "edits",
    "fields",
    "findings",
    "highlight",
    "history",
    "history_groups",
    "hrefs",
    "inspector",
    "meta",
    "ops",
    "order",
    "outline",
    "palette",
    "placing",
    "panels",
    "preview",
    "publish",
    "quality",
    "render",
    "review",
    "sessions",
    "settings",
    "start",
    "store",
    "stream",
    "structure",
    "styles",
    "tree",
    "undo",
    "worddiff",
    "words",
)
#: The page's own files and their types: a fixed list, so a request names one
#: of these or nothing (no path from a URL ever reaches the file system). A
#: module script must be served as JavaScript or browsers refuse it.
WEB_ASSETS: Final = {
    "index.html": "text/html; charset=utf-8",
    "builder.css": "text/css; charset=utf-8",
    "builder.js": "text/javascript; charset=utf-8",
    **{f"js/{name}.js": "text/javascript; charset=utf-8" for name in WEB_MODULES},
}
#: The rules a standalone page starts from, served beside the page.
PAGE_BASE_CSS: Final = "page-base.css"
#: The page loads only its own files; the preview frame's inline page styles
#: need 'unsafe-inline' for styles (a srcdoc frame inherits this policy), and
#: page images may come from the host's asset library on any origin.
PAGE_HEADERS: Final = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src * data:; frame-src 'self'; frame-ancestors 'self'; base-uri 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
}


@cache
def web_file(name: str) -> tuple[bytes, str]:
    """``(body, media type)`` of one of the page's files (``WEB_ASSETS`` or ``PAGE_BASE_CSS``)."""
    if name == PAGE_BASE_CSS:
        return BASE_CSS.encode(), "text/css; charset=utf-8"
    media_type = WEB_ASSETS[name]
    resource = resources.files("charlotte.web")
    for part in name.split("/"):
        resource = resource.joinpath(part)
    return resource.read_bytes(), media_type
