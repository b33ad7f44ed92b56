"""What each route does once its request is matched, authorised and parsed.

A handler takes a ``Request`` (the ``Charlotte``, the host's user and tenant,
the session the path names, the parsed body and query) and answers the JSON
body of the route's success status. It raises what the layers below raise
(``Refused``, ``PageSessionError``, ``QueueUnavailable``); ``Api.handle``
turns those into coded answers. Each route in ``charlotte.http.routes.ROUTES``
names its handler.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any, Final

from charlotte.access import PublishedRequest, page_sessions, published_key
from charlotte.errors import Refused
from charlotte.http.csrf import Envelope

if TYPE_CHECKING:
    from charlotte.app import Charlotte
    from charlotte.drafts.published import PublishedPage
    from charlotte.session import CharlotteSession

__all__ = ["HTML", "Handler", "Request", "Response", "openapi_document"]

#: The media type of ``GET /pages/{page}/published.html``.
HTML: Final = "text/html; charset=utf-8"


@dataclass(frozen=True, slots=True)
class Response:
    """An answer of the API: status, JSON body, extra headers; ``text`` for a body that is not JSON.

    ``text`` goes out as it is, with the ``Content-Type`` its headers name; a
    304 goes out with no body at all.
    """

    status: int
    json: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)
    text: str | None = None


@dataclass(frozen=True, slots=True)
class Request:
    """One request as a handler gets it: matched, authorised, its body and query parsed."""

    charlotte: Charlotte
    user: object
    #: The request's tenant ("" on a route any caller may read: none is asked for).
    tenant: str
    #: The session the path's ``{id}`` names in the tenant, when the route has one and it exists.
    found: CharlotteSession | None
    #: The path's ``{turn_id}`` ("" when the route has none).
    turn_id: str
    body: dict[str, Any]
    query: dict[str, Any]
    #: The path's ``{page}`` ("" when the route has none).
    page: str = ""
    #: What the transport saw around the request (``If-None-Match``).
    envelope: Envelope = field(default_factory=Envelope)

    @property
    def session(self) -> CharlotteSession:
        """The session the path names; ``not_found`` when there is none in this tenant."""
        if self.found is None:
            raise Refused("not_found")
        return self.found


#: A route's handler: the request in, the success answer's JSON body (or a whole ``Response``) out.
Handler = Callable[[Request], "dict[str, Any] | Response"]


@cache
def openapi_document() -> dict[str, Any]:
    """The OpenAPI 3.1 document shipped in ``charlotte/schema/openapi.v1.json``."""
    text = resources.files("charlotte").joinpath("schema/openapi.v1.json").read_text("utf-8")
    document: dict[str, Any] = json.loads(text)
    return document


def openapi(request: Request) -> dict[str, Any]:
    """``GET /openapi.json``: the document, to any caller."""
    # A copy: the cached document must survive a caller that edits its answer.
    return copy.deepcopy(openapi_document())


def list_sessions(request: Request) -> dict[str, Any]:
    """``GET /sessions``: the tenant's sessions of one page the user may view."""
    query = request.query
    return page_sessions(
        request.charlotte,
        request.tenant,
        query["page"],
        request.user,
        limit=query["limit"],
        before=query["before"],
    )


def open_session(request: Request) -> dict[str, Any]:
    """``POST /sessions``: a new session of the request's tenant."""
    body = request.body
    handle = (
        request.charlotte.for_user(request.user)
        .tenant(request.tenant)
        .page(body["page"])
        .brief(body["brief"])
        .facts(body.get("facts") or {})
        .approve_on_save(body.get("approve_on_save", False))
        .open()
    )
    try:
        session = handle.status()
    except Refused:
        # Allowed to open but not to view: say what was created, nothing more.
        session = {"id": handle.id, "tenant": handle.tenant, "page": body["page"], "status": "idle"}
    return {"session": session}


def status(request: Request) -> dict[str, Any]:
    """``GET /sessions/{id}``."""
    return {"session": request.session.status()}


def send(request: Request) -> dict[str, Any]:
    """``POST /sessions/{id}/turns``: a queued turn."""
    return {"turn": request.session.send(request.body["message"])}


def stop(request: Request) -> dict[str, Any]:
    """``POST /sessions/{id}/stop``."""
    return request.session.stop()


def events(request: Request) -> dict[str, Any]:
    """``GET /sessions/{id}/events``: the events after a seq, and the next cursor."""
    after = request.query["after"]
    found = request.session.events(after, request.query["limit"])
    return {"events": found, "next_after": found[-1]["seq"] if found else after}


def messages(request: Request) -> dict[str, Any]:
    """``GET /sessions/{id}/messages``: the newest ended turns, and the older page's cursor."""
    limit = request.query["limit"]
    turns = request.session.messages(limit, request.query["before"])
    # A full page may have older turns before it: their cursor is its oldest seq.
    return {"turns": turns, "next_before": turns[0]["seq"] if len(turns) == limit else None}


def undo_turn(request: Request) -> dict[str, Any]:
    """``POST /sessions/{id}/turns/{turn_id}/undo``."""
    return request.session.undo_turn(request.turn_id)


def history(request: Request) -> dict[str, Any]:
    """``GET /sessions/{id}/history``."""
    return request.session.history(request.query["limit"], request.query["before"])


def restore(request: Request) -> dict[str, Any]:
    """``POST /sessions/{id}/restore``."""
    return request.session.restore(request.body["revision"], request.body["basedOn"])


def reset(request: Request) -> dict[str, Any]:
    """``POST /sessions/{id}/reset``."""
    return request.session.reset(request.body["basedOn"])


def draft(request: Request) -> dict[str, Any]:
    """``GET /sessions/{id}/draft``."""
    return request.session.draft()


def edit(request: Request) -> dict[str, Any]:
    """``POST /sessions/{id}/edits``: a person's ops on the draft."""
    return request.session.edit(request.body["ops"], request.body["basedOn"])


def undo_edit(request: Request) -> dict[str, Any]:
    """``POST /sessions/{id}/edits/undo``."""
    return request.session.undo_edit(request.body["from"], request.body["to"])


def palette(request: Request) -> dict[str, Any]:
    """``GET /sessions/{id}/palette``."""
    return request.session.palette()


def palette_section(request: Request) -> dict[str, Any]:
    """``GET /sessions/{id}/palette/section``."""
    return request.session.palette_section(request.query["kind"], request.query["after"])


def change_set(request: Request) -> dict[str, Any]:
    """``GET /sessions/{id}/change-set``."""
    return {"change_set": request.session.change_set()}


def approve(request: Request) -> dict[str, Any]:
    """``POST /sessions/{id}/change-set/approve``."""
    return {"resolution": request.session.approve()}


def reject(request: Request) -> dict[str, Any]:
    """``POST /sessions/{id}/change-set/reject``."""
    return {"resolution": request.session.reject()}


def reject_nodes(request: Request) -> dict[str, Any]:
    """``POST /sessions/{id}/change-set/reject-nodes``."""
    return request.session.reject_nodes(request.body["nodes"])


def publish_preview(request: Request) -> dict[str, Any]:
    """``GET /sessions/{id}/publish-preview``."""
    return {"preview": request.session.publish_preview()}


def publish(request: Request) -> dict[str, Any]:
    """``POST /sessions/{id}/publish``."""
    return request.session.publish(
        revision=request.body.get("revision"), override=request.body.get("override", ())
    )


def published(request: Request) -> dict[str, Any]:
    """``GET /sessions/{id}/published``; ``not_found`` before the first publish."""
    found = request.session.published()
    if found is None:
        raise Refused("not_found")
    return found


def published_page(request: Request) -> Response:
    """``GET /pages/{page}/published``: the published page as JSON, with its ETag."""
    found = _published(request, document=False)
    if isinstance(found, Response):
        return found
    return Response(200, found[0].to_dict(), _cache_headers(request, found[0]))


def published_document(request: Request) -> Response:
    """``GET /pages/{page}/published.html``: the standalone document of the published page."""
    found = _published(request, document=True)
    if isinstance(found, Response):
        return found
    headers = {"Content-Type": HTML, **_cache_headers(request, found[0])}
    return Response(200, {}, headers, text=found[1])


def _published(request: Request, *, document: bool) -> Response | tuple[PublishedPage, str]:
    """The page and its document, or the 304 answer; refusals raised (see ``docs/hosting.md``)."""
    charlotte = request.charlotte
    if not request.tenant:
        raise Refused("forbidden")
    key: PublishedRequest = published_key(request.tenant, request.page)
    if not charlotte.allows(request.user, "read_published", key):
        raise Refused("unauthorized" if request.user is None else "forbidden")
    if document:
        found = charlotte.published_document(key.tenant, key.page)
    else:
        page = charlotte.published_page(key.tenant, key.page)
        found = None if page is None else (page, "")
    if found is None:
        raise Refused("not_found")
    if _matches(request.envelope.if_none_match, found[0].etag):
        return Response(304, {}, _cache_headers(request, found[0]))
    return found


def _cache_headers(request: Request, page: PublishedPage) -> dict[str, str]:
    return {"ETag": page.etag, "Cache-Control": request.charlotte.settings.published_cache_control}


def _matches(if_none_match: str | None, etag: str) -> bool:
    """True when ``If-None-Match`` names ``etag`` or is ``*`` (RFC 9110: weak comparison)."""
    if not if_none_match:
        return False
    for candidate in if_none_match[:4_096].split(","):
        candidate = candidate.strip()
        if candidate == "*" or candidate.removeprefix("W/") == etag:
            return True
    return False
