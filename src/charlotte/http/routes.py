"""The route table of the HTTP API and the matcher that finds a request's route.

``ROUTES`` is the one list of what the API answers: each ``Route`` names its
handler (``charlotte.http.handlers``), the body and query it reads
(``charlotte.http.specs``), its success status and answer, and the error
statuses beyond those every route shares; ``Api.handle`` runs it and
``charlotte.http.openapi`` writes the OpenAPI document from it.
``STREAM_ROUTE`` is served by the adapters (Server-Sent Events cannot be a
status + JSON answer) but belongs to the same contract, so the document
describes it too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from charlotte.http import handlers
from charlotte.http.handlers import Handler
from charlotte.http.specs import (
    EDIT,
    EMPTY,
    EVENTS,
    HISTORY,
    MESSAGES,
    OPEN_SESSION,
    PALETTE_SECTION,
    PUBLISH,
    REJECT_NODES,
    RESET,
    RESTORE,
    SEND,
    SESSIONS,
    UNDO_EDIT,
    Body,
    Query,
)
from charlotte.policy.text import is_person_text

__all__ = ["ROUTES", "STREAM_ROUTE", "Match", "Route", "match"]


@dataclass(frozen=True, slots=True)
class Route:
    """One route: method, path template (``{id}`` = session id), what it reads, does and answers."""

    method: str
    template: str
    #: The route's name in code (and in tests' ids); ``operation_id`` is its name in the document.
    action: str
    handler: Handler
    operation_id: str
    summary: str
    #: The schema of the success answer (a component of the document).
    answer: str
    success: int = 200
    body: Body = EMPTY
    #: None: the query string is not read.
    query: Query | None = None
    #: Error statuses beyond those every route of its kind may answer (409, 422, 503).
    refusals: tuple[int, ...] = ()
    #: False only for routes any caller may read (the OpenAPI document) or the host's
    #: authorizer decides alone (a published page: ``read_published``).
    needs_user: bool = True
    #: The success answer's media type (the published page's document is HTML).
    media_type: str = "application/json"
    #: True when the answer carries an ``ETag`` and ``If-None-Match`` may answer 304.
    conditional: bool = False

    @property
    def changes_state(self) -> bool:
        """True for every route that writes (every POST): ``charlotte.http.csrf`` applies."""
        return self.method != "GET"

    @property
    def takes_body(self) -> bool:
        """True when the route reads a JSON object with fields; other routes take none (or ``{}``)."""
        return bool(self.body.fields)

    @property
    def body_required(self) -> bool:
        """False when the body may be left out (``publish``: its ``revision`` is optional)."""
        return self.body.required

    @property
    def names_page(self) -> bool:
        """True when the path names a published page (``{page}``)."""
        return "{page}" in self.template

    @property
    def names_session(self) -> bool:
        """True when the path names a session (``{id}``): unknown in the tenant is 404."""
        return "{id}" in self.template


ROUTES: Final[tuple[Route, ...]] = (
    Route(
        "GET", "/openapi.json", "openapi", handlers.openapi,
        "getOpenApi", "This document.", "OpenApiDocument", needs_user=False,
    ),
    Route(
        "GET", "/sessions", "list_sessions", handlers.list_sessions,
        "listSessions", "The tenant's sessions of one page, newest first (each one the user may view).",
        "SessionListResponse", query=SESSIONS,
    ),
    Route(
        "POST", "/sessions", "open_session", handlers.open_session,
        "openSession", "Open a session on one page of the request's tenant.",
        "SessionResponse", 201, OPEN_SESSION,
    ),
    Route(
        "GET", "/sessions/{id}", "status", handlers.status,
        "getSession", "The session's status.", "SessionResponse",
    ),
    Route(
        "POST", "/sessions/{id}/turns", "send", handlers.send,
        "sendTurn", "Send a message: queues a turn.", "TurnResponse", 202, SEND, refusals=(409, 503),
    ),
    Route(
        "POST", "/sessions/{id}/stop", "stop", handlers.stop,
        "stopTurn", "Ask the running or queued turn to stop.", "StopResponse",
    ),
    Route(
        "GET", "/sessions/{id}/events", "events", handlers.events,
        "listEvents", "Events after a seq.", "EventsResponse", query=EVENTS,
    ),
    Route(
        "GET", "/sessions/{id}/messages", "messages", handlers.messages,
        "listMessages", "The conversation: the newest ended turns, oldest first.",
        "MessagesResponse", query=MESSAGES,
    ),
    Route(
        "POST", "/sessions/{id}/turns/{turn_id}/undo", "undo_turn", handlers.undo_turn,
        "undoTurn", "Take back one ended turn's draft changes as the person's write (one event).",
        "EditResponse", refusals=(409, 422),
    ),
    Route(
        "GET", "/sessions/{id}/history", "history", handlers.history,
        "draftHistory", "The draft's revisions, newest first, grouped by agent turn and by person.",
        "HistoryResponse", query=HISTORY,
    ),
    Route(
        "POST", "/sessions/{id}/restore", "restore", handlers.restore,
        "restoreRevision",
        "The draft becomes what it was at `revision`, as the person's write on `basedOn`.",
        "EditResponse", body=RESTORE, refusals=(409, 422),
    ),
    Route(
        "POST", "/sessions/{id}/reset", "reset", handlers.reset,
        "resetDraft",
        "The draft becomes the published copy again, as the person's write on `basedOn`.",
        "EditResponse", body=RESET, refusals=(409, 422),
    ),
    Route(
        "GET", "/sessions/{id}/draft", "draft", handlers.draft,
        "getDraft", "The draft and its HTML.", "DraftResponse",
    ),
    Route(
        "POST", "/sessions/{id}/edits", "edit", handlers.edit,
        "editDraft", "A person's edit of the draft.", "EditResponse", body=EDIT, refusals=(409, 422),
    ),
    Route(
        "POST", "/sessions/{id}/edits/undo", "undo_edit", handlers.undo_edit,
        "undoEdit",
        "Take back revisions `from` … `to` of the person's own earlier write (the builder's Ctrl+Z),"
        " as a new write of that person; redo is the same call on the undo's range.",
        "EditResponse", body=UNDO_EDIT, refusals=(409, 422),
    ),
    Route(
        "GET", "/sessions/{id}/palette", "palette", handlers.palette,
        "palette",
        "What a person may add: every node type with its props and bounds, the style keys, and the"
        " section kinds (with whether the brief and facts feed each).",
        "PaletteResponse",
    ),
    Route(
        "GET", "/sessions/{id}/palette/section", "palette_section", handlers.palette_section,
        "paletteSection",
        "The insert ops of one new section built from the brief and facts in the page's current"
        " look; nothing is written (send the ops through /edits).",
        "PaletteSectionResponse", query=PALETTE_SECTION, refusals=(422,),
    ),
    Route(
        "GET", "/sessions/{id}/change-set", "change_set", handlers.change_set,
        "getChangeSet", "The open change set and its diff (null when none).", "ChangeSetResponse",
    ),
    Route(
        "POST", "/sessions/{id}/change-set/approve", "approve", handlers.approve,
        "approveChangeSet",
        "Approve the open change set (a conflict is a resolution, not an error).",
        "ResolutionResponse", refusals=(409,),
    ),
    Route(
        "POST", "/sessions/{id}/change-set/reject", "reject", handlers.reject,
        "rejectChangeSet", "Reject the open change set.", "ResolutionResponse", refusals=(409,),
    ),
    Route(
        "POST", "/sessions/{id}/change-set/reject-nodes", "reject_nodes", handlers.reject_nodes,
        "rejectChangeSetNodes",
        "Take some nodes' changes out of the open change set before approving: the set is"
        " rejected and a new open set holds the kept changes.",
        "RejectNodesResponse", body=REJECT_NODES, refusals=(409,),
    ),
    Route(
        "GET", "/sessions/{id}/publish-preview", "publish_preview", handlers.publish_preview,
        "publishPreview",
        "What publishing now would change: the published copy against the draft, node by node.",
        "PublishPreviewResponse",
    ),
    Route(
        "POST", "/sessions/{id}/publish", "publish", handlers.publish,
        "publish",
        "Publish the draft (the only publish route); with `revision`, only if the draft is still"
        " at that revision.",
        "PublishResponse", body=PUBLISH, refusals=(409, 422),
    ),
    Route(
        "GET", "/sessions/{id}/published", "published", handlers.published,
        "getPublished", "The published copy and its HTML (404 before the first publish).",
        "PublishedResponse",
    ),
    Route(
        "GET", "/pages/{page}/published", "published_page", handlers.published_page,
        "getPublishedPage",
        "The page's published copy as a site serves it: body, stylesheet, head tags (tenant from"
        " the request; the authorizer's `read_published`, anyone by default). `ETag`; a matching"
        " `If-None-Match` answers 304.",
        "PublishedPage", refusals=(401, 403, 404), needs_user=False, conditional=True,
    ),
    Route(
        "GET", "/pages/{page}/published.html", "published_document", handlers.published_document,
        "getPublishedDocument",
        "The published page as a standalone HTML document; the same `ETag` rules.",
        "PublishedDocument", refusals=(401, 403, 404), needs_user=False,
        media_type=handlers.HTML, conditional=True,
    ),
)

#: The live stream: served by the adapters (``charlotte.http.follow``), described in the OpenAPI document.
STREAM_ROUTE: Final = ("GET", "/sessions/{id}/stream")

_MAX_PATH: Final = 2_048


@dataclass(frozen=True, slots=True)
class Match:
    """The outcome of matching: a route with its session (and turn) id or page, or the methods the path allows."""

    route: Route | None
    session_id: str | None = None
    allowed: tuple[str, ...] = ()
    turn_id: str | None = None
    page: str | None = None


def match(method: str, path: str) -> Match | None:
    """The route for ``method path``; a ``Match`` without route (405) or None (404)."""
    if not isinstance(path, str) or len(path) > _MAX_PATH or not path.startswith("/"):
        return None
    if not is_person_text(path):
        # A lone surrogate or a NUL names nothing that can exist (no column holds one).
        return None
    segments = path.split("/")[1:]
    allowed: list[str] = []
    for route in ROUTES:
        found = _fit(route.template, segments)
        if found is None:
            continue
        if route.method == method:
            return Match(route, found.get("{id}"), turn_id=found.get("{turn_id}"), page=found.get("{page}"))
        allowed.append(route.method)
    if allowed:
        return Match(None, allowed=tuple(sorted(set(allowed))))
    return None


def _fit(template: str, segments: list[str]) -> dict[str, str] | None:
    """The ``{id}`` / ``{turn_id}`` / ``{page}`` segments when ``segments`` fit ``template``, else None."""
    parts = template.split("/")[1:]
    if len(parts) != len(segments):
        return None
    found: dict[str, str] = {}
    for part, segment in zip(parts, segments, strict=True):
        if part in ("{id}", "{turn_id}", "{page}"):
            if not segment:
                return None
            found[part] = segment
        elif part != segment:
            return None
    return found
