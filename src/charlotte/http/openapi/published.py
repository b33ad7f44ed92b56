"""The OpenAPI parts of the published page's routes: their answers, the 304 and the headers.

``GET /pages/{page}/published`` answers ``PublishedPage`` (JSON) and
``GET /pages/{page}/published.html`` a ``PublishedDocument`` (HTML); both
carry an ``ETag`` and the host's ``Cache-Control``, and a matching
``If-None-Match`` answers 304 with no body (``docs/hosting.md``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

__all__ = ["CACHE_HEADERS", "NOT_MODIFIED", "PAGE_PARAMETER", "PUBLISHED_ANSWERS"]

_TEXT: Final = {"type": "string"}

#: The answers' schemas (merged into ``components.schemas``).
PUBLISHED_ANSWERS: Final[Mapping[str, dict[str, Any]]] = {
    "PublishedPage": {
        "type": "object",
        "properties": {
            "page": {"type": "string", "minLength": 1, "maxLength": 200},
            "revision": {"type": "integer", "minimum": 0, "description": "the revision published"},
            "published_at": {"type": "string", "format": "date-time"},
            "html": {
                "type": "string",
                "description": 'the body, inside `<div class="cms-page" lang="…">`',
            },
            "css": {
                "type": "string",
                "description": "the base rules scoped to `.cms-page`, then the page's own stylesheet",
            },
            "head": {
                "type": "string",
                "description": "the head tags (title, description, canonical, og:*, robots), escaped",
            },
            "title": {"type": "string", "description": "the page's title (empty when none)"},
            "lang": {"type": "string", "description": "the page's language tag (`en` when none)"},
        },
        "required": ["page", "revision", "published_at", "html", "css", "head", "title", "lang"],
        "additionalProperties": False,
    },
    "PublishedDocument": {
        **_TEXT,
        "description": "the standalone HTML document of the published page",
    },
}

#: The headers of a published page's answer (200 and 304).
CACHE_HEADERS: Final[Mapping[str, dict[str, Any]]] = {
    "ETag": {"description": "strong validator of the published revision", "schema": _TEXT},
    "Cache-Control": {"description": "Settings.published_cache_control", "schema": _TEXT},
}

#: The 304 answer (``components.responses``).
NOT_MODIFIED: Final[Mapping[str, Any]] = {
    "description": "`If-None-Match` names the current `ETag`: no body.",
    "headers": dict(CACHE_HEADERS),
}

#: The ``{page}`` path parameter (``components.parameters``).
PAGE_PARAMETER: Final[tuple[str, dict[str, Any]]] = (
    "PageKey",
    {
        "name": "page",
        "in": "path",
        "required": True,
        "schema": {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$"},
    },
)
