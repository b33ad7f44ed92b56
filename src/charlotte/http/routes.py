"""The route table of the HTTP API and the matcher that finds a request's route.

``ROUTES`` is the one list of what the API answers; the OpenAPI document is
checked against it by a test. ``STREAM_ROUTE`` is served by the ASGI adapter
(Server-Sent Events cannot be a status + JSON answer) but belongs to the
same contract, so the document describes it too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from charlotte.policy.text import is_person_text

__all__ = ["ROUTES", "STREAM_ROUTE", "Match", "Route", "match"]


@dataclass(frozen=True, slots=True)
class Route:
    """One route: method, path template (``{id}`` = session id), the handler's name, the success status."""

    method: str
    template: str
    action: str
    success: int = 200
    #: True when the route reads a JSON object body; other routes take none (or ``{}``).
    takes_body: bool = False
    #: False when the body may be left out (``publish``: its ``revision`` is optional).
    body_required: bool = True
    #: False only for routes any caller may read (the OpenAPI document).
    needs_user: bool = True

    @property
    def changes_state(self) -> bool:
        """True for every route that writes (every POST): ``charlotte.http.csrf`` applies."""
        return self.method != "GET"


ROUTES: Final[tuple[Route, ...]] = (
    Route("GET", "/openapi.json", "openapi", needs_user=False),
    Route("GET", "/sessions", "list_sessions"),
    Route("POST", "/sessions", "open_session", 201, takes_body=True),
    Route("GET", "/sessions/{id}", "status"),
    Route("POST", "/sessions/{id}/turns", "send", 202, takes_body=True),
    Route("POST", "/sessions/{id}/stop", "stop"),
    Route("GET", "/sessions/{id}/events", "events"),
    Route("GET", "/sessions/{id}/messages", "messages"),
    Route("POST", "/sessions/{id}/turns/{turn_id}/undo", "undo_turn"),
    Route("GET", "/sessions/{id}/history", "history"),
    Route("POST", "/sessions/{id}/restore", "restore", takes_body=True),
    Route("POST", "/sessions/{id}/reset", "reset", takes_body=True),
    Route("GET", "/sessions/{id}/draft", "draft"),
    Route("POST", "/sessions/{id}/edits", "edit", takes_body=True),
    Route("POST", "/sessions/{id}/edits/undo", "undo_edit", takes_body=True),
    Route("GET", "/sessions/{id}/palette", "palette"),
    Route("GET", "/sessions/{id}/palette/section", "palette_section"),
    Route("GET", "/sessions/{id}/change-set", "change_set"),
    Route("POST", "/sessions/{id}/change-set/approve", "approve"),
    Route("POST", "/sessions/{id}/change-set/reject", "reject"),
    Route("POST", "/sessions/{id}/change-set/reject-nodes", "reject_nodes", takes_body=True),
    Route("GET", "/sessions/{id}/publish-preview", "publish_preview"),
    Route("POST", "/sessions/{id}/publish", "publish", takes_body=True, body_required=False),
    Route("GET", "/sessions/{id}/published", "published"),
)

#: The live stream: served by the adapters (``charlotte.http.follow``), described in the OpenAPI document.
STREAM_ROUTE: Final = ("GET", "/sessions/{id}/stream")

_MAX_PATH: Final = 2_048


@dataclass(frozen=True, slots=True)
class Match:
    """The outcome of matching: a route with its session (and turn) id, or the methods the path allows."""

    route: Route | None
    session_id: str | None = None
    allowed: tuple[str, ...] = ()
    turn_id: str | None = None


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
            return Match(route, found.get("{id}"), turn_id=found.get("{turn_id}"))
        allowed.append(route.method)
    if allowed:
        return Match(None, allowed=tuple(sorted(set(allowed))))
    return None


def _fit(template: str, segments: list[str]) -> dict[str, str] | None:
    """The ``{id}`` / ``{turn_id}`` segments when ``segments`` fit ``template``, else None."""
    parts = template.split("/")[1:]
    if len(parts) != len(segments):
        return None
    found: dict[str, str] = {}
    for part, segment in zip(parts, segments, strict=True):
        if part in ("{id}", "{turn_id}"):
            if not segment:
                return None
            found[part] = segment
        elif part != segment:
            return None
    return found
