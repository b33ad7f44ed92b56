"""Cross-site request forgery: the requests another site's page could make a browser send, refused.

A page on another site can make a signed-in person's browser send a POST here,
cookies included. Without asking first (a CORS preflight) it can only send a
"simple request": no body, or a ``text/plain``, form or multipart one. Two
rules close that door:

1. Every route that changes state (every POST) takes only a JSON media type
   (``application/json`` or ``application/*+json``), **empty bodies
   included**: 415 ``unsupported_media_type``. A browser sends that type to
   another origin only after a preflight, and charlotte answers none (it
   sends no CORS headers), so the browser never sends the request itself. A
   non-empty body on any other route needs the JSON type too.
2. A state-changing request a browser marks as sent from elsewhere is 403
   ``cross_site``, unless ``Settings.trusted_origins`` lists the request's
   ``Origin``: ``Sec-Fetch-Site`` other than ``same-origin`` or ``none``
   (``same-site``, ``cross-site``); or, from a browser that sends no
   ``Sec-Fetch-Site``, an ``Origin`` that is not the server's own (``null``
   included). Every current browser sends ``Sec-Fetch-Site``, and it is the
   browser's own judgement, so a proxy that changes the scheme or ``Host``
   the server sees does not make the builder page's own requests look
   cross-site.

A request with neither header is not a browser's (a server, curl, a test
client) and passes rule 2; it still needs the JSON type. Reads (GET) are not
checked: another site's page cannot read their answers. The transport hands
these facts over in an ``Envelope`` (the ASGI adapter builds one from the
request); ``Api.handle`` applies the rules after routing, before the host's
user and tenant are asked for. ``docs/security.md`` says the same for hosts.
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass
from typing import Final

from charlotte.page.hrefs import serialised_origin

__all__ = ["JSON_REQUEST", "Envelope", "is_json_media", "refusal"]

# Longest header value read; a longer one is not a valid type or origin anyway.
_MAX_HEADER: Final = 1_024
# Sec-Fetch-Site values that say the request did not come from another page's site.
_OWN_FETCH_SITES: Final = frozenset({"same-origin", "none"})


@dataclass(frozen=True, slots=True)
class Envelope:
    """What the transport saw around a request's body: header values as sent, None when absent."""

    content_type: str | None = None
    origin: str | None = None
    #: The ``Sec-Fetch-Site`` header.
    fetch_site: str | None = None
    #: ``scheme://host[:port]`` the request was addressed to (the transport's scheme and ``Host``).
    server_origin: str | None = None
    #: The ``If-None-Match`` header (a conditional read of a published page; not a cross-site fact).
    if_none_match: str | None = None


#: A JSON request from a caller that is not a browser (Python code, tests): passes both rules.
JSON_REQUEST: Final = Envelope(content_type="application/json")


def is_json_media(content_type: str | None) -> bool:
    """True for ``application/json`` and ``application/*+json``, parameters (charset) allowed."""
    if not isinstance(content_type, str) or len(content_type) > _MAX_HEADER:
        return False
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (media.startswith("application/") and media.endswith("+json"))


def refusal(
    envelope: Envelope, *, changes_state: bool, has_body: bool, trusted: Set[str]
) -> str | None:
    """The code to refuse the request with (``unsupported_media_type``, ``cross_site``), or None.

    ``trusted`` holds origins as ``serialised_origin`` spells them
    (``Settings.trusted_origins`` already does).

    >>> refusal(Envelope("text/plain"), changes_state=True, has_body=False, trusted=set())
    'unsupported_media_type'
    >>> refusal(Envelope("application/json", origin="https://evil.example", server_origin="https://cms.example"),
    ...         changes_state=True, has_body=True, trusted=set())
    'cross_site'
    """
    if (changes_state or has_body) and not is_json_media(envelope.content_type):
        return "unsupported_media_type"
    if changes_state and _from_elsewhere(envelope, trusted):
        return "cross_site"
    return None


def _from_elsewhere(envelope: Envelope, trusted: Set[str]) -> bool:
    origin = _spelled(envelope.origin)
    if origin is not None and origin in trusted:
        return False
    fetch_site: object = envelope.fetch_site
    if fetch_site is not None:
        # The browser's own word: it knows the page's origin even when a proxy
        # in front of the server changes the scheme or the Host it sees.
        return not isinstance(fetch_site, str) or fetch_site.strip().lower() not in _OWN_FETCH_SITES
    if envelope.origin is None:
        return False
    return origin is None or origin != _spelled(envelope.server_origin)


def _spelled(origin: object) -> str | None:
    if not isinstance(origin, str) or len(origin) > _MAX_HEADER:
        return None
    return serialised_origin(origin.strip())
