"""``Api``: the whole HTTP contract of charlotte, without a web framework.

``Api(charlotte).handle(method, path, query, body, user, tenant,
envelope=...)`` answers a ``Response(status, json, headers)`` (``text`` and
its ``Content-Type`` for the one answer that is not JSON, the published
page's standalone document; a 304 has no body); the ASGI
adapter only adds the body limit while reading, the ``Envelope`` (content
type, ``Origin``, ``Sec-Fetch-Site``, the server's own origin), the host's
user and tenant, and the live stream. The routes are
``charlotte.http.routes.ROUTES``: each names its handler
(``charlotte.http.handlers``) and the body and query it reads
(``charlotte.http.specs``), so handling a request is finding its route and
running it. The OpenAPI 3.1 document (``charlotte/schema/openapi.v1.json``) is
written from the same table (``charlotte.http.openapi``) and served at
``GET /openapi.json``.

In order, a request is: matched (unknown path 404 ``not_found``, wrong
method 405 ``method_not_allowed`` with the path's methods in the ``Allow``
header and the body's ``allow``), size-checked (413 ``body_too_large``),
checked against cross-site forgery (``charlotte.http.csrf``: 415
``unsupported_media_type`` for a state-changing request that is not JSON,
empty or not; 403 ``cross_site`` for one a browser sent from another site's
page), given a user (None: 401 ``unauthorized``) and a tenant (None: 403
``forbidden``; the published page's routes ask the host's authorizer for
``read_published`` instead, which allows anyone by default), its session looked up (404 ``not_found``), its body then its
query decoded (400 ``invalid_json`` / ``invalid_request``; an unknown body key
is refused on every route) and its handler run. Errors are
``{"error": {"code", "message"}}`` with ``message = MESSAGES[code]`` (``charlotte.errors``),
plus ``revision`` for ``stale_revision``, ``at`` (an op index) when known, and
``field`` (the request field, e.g. ``brief``) when a refusal names one:

===  =============================================================
304  (no body) ``If-None-Match`` names the published page's ``ETag``
400  ``invalid_json``, ``invalid_request``, ``invalid_page_key``
401  ``unauthorized``
403  ``forbidden``, ``cross_site``
404  ``not_found`` (unknown route, unknown session, another tenant's,
     a page not published)
405  ``method_not_allowed`` (``Allow`` header; ``allow`` in the body)
409  ``busy``, ``stale_revision``, ``no_open_change_set``,
     ``publish_refused``, ``guide_mode_stale``, ``conflicted`` (with
     ``nodes``), ``already_undone``, ``not_own_edit``, ``empty_page``,
     ``quality_gate`` (with ``findings`` and ``codes``)
413  ``body_too_large``
415  ``unsupported_media_type``
422  every other refusal and page-document code (``unsafe_link``,
     ``css_fetch``, ``node_not_found``, …)
500  ``internal``: ``invalid_state`` (a corrupt stored page) and any
     unexpected exception, logged with a correlation id (also sent in
     the ``X-Correlation-Id`` header), never its message
503  ``queue_unavailable``: the turn queue (a Celery broker) did not take
     a sent turn; the turn ended failed with that code, the session is idle
===  =============================================================

>>> api = Api(charlotte)                                             # doctest: +SKIP
>>> api.handle("GET", f"/sessions/{sid}/draft", {}, b"", user, "acme", envelope=JSON_REQUEST).status  # doctest: +SKIP
200
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from charlotte.errors import MESSAGES, PageSessionError, QueueUnavailable, Refused, code_of
from charlotte.http.csrf import JSON_REQUEST, Envelope, refusal
from charlotte.http.handlers import Request, Response, openapi_document
from charlotte.http.routes import ROUTES, STREAM_ROUTE, Match, Route, match

if TYPE_CHECKING:
    from charlotte.app import Charlotte

__all__ = [
    "DEFAULT_MAX_BODY",
    "JSON_REQUEST",
    "ROUTES",
    "STATUS_OF",
    "STREAM_ROUTE",
    "Api",
    "Envelope",
    "Response",
    "error_body",
    "method_not_allowed",
    "openapi_document",
]

log = logging.getLogger(__name__)

#: The largest request body the API reads (bytes).
DEFAULT_MAX_BODY: Final = 256 * 1024

#: The HTTP status of each error code that is not a 422.
STATUS_OF: Final[Mapping[str, int]] = {
    "invalid_json": 400,
    "invalid_request": 400,
    "invalid_page_key": 400,
    "unauthorized": 401,
    "forbidden": 403,
    "cross_site": 403,
    "not_found": 404,
    "method_not_allowed": 405,
    "busy": 409,
    "stale_revision": 409,
    "no_open_change_set": 409,
    "publish_refused": 409,
    "guide_mode_stale": 409,
    "conflicted": 409,
    "already_undone": 409,
    "not_own_edit": 409,
    "empty_page": 409,
    "quality_gate": 409,
    "body_too_large": 413,
    "unsupported_media_type": 415,
    "internal": 500,
    "queue_unavailable": 503,
}


def error_body(code: str, **extra: int | str) -> dict[str, Any]:
    """``{"error": {"code", "message", …extra}}`` with the fixed sentence of ``code``."""
    error: dict[str, Any] = {"code": code, "message": MESSAGES[code]}
    error.update(extra)
    return {"error": error}


def error_response(code: str, *, status: int | None = None, **extra: int | str) -> Response:
    """The error response for ``code`` (status from ``STATUS_OF``, else 422)."""
    return Response(status or STATUS_OF.get(code, 422), error_body(code, **extra))


def method_not_allowed(allowed: tuple[str, ...]) -> Response:
    """405 ``method_not_allowed``: the path's methods in the ``Allow`` header and the body's ``allow``."""
    allow = ", ".join(allowed)
    return Response(405, error_body("method_not_allowed", allow=allow), {"Allow": allow})


class Api:
    """The framework-free HTTP API over one ``Charlotte`` (see module docstring)."""

    def __init__(self, charlotte: Charlotte, *, max_body: int = DEFAULT_MAX_BODY) -> None:
        if type(max_body) is not int or max_body < 1:
            raise ValueError("max_body must be a positive integer")
        self.charlotte = charlotte
        self.max_body = max_body
        #: Origins whose pages may send state-changing requests (``Settings.trusted_origins``).
        self.trusted_origins = frozenset(charlotte.settings.trusted_origins)

    def handle(
        self,
        method: str,
        path: str,
        query: Mapping[str, str],
        body: bytes,
        user: object,
        tenant: str | None,
        *,
        envelope: Envelope,
    ) -> Response:
        """Answer one request; never raises, never puts an exception's text in a body.

        ``envelope`` is what the transport saw around the body (``JSON_REQUEST``
        for a caller that is not a browser); see ``charlotte.http.csrf``.
        """
        template = "?"
        try:
            found = match(method, path)
            if found is None:
                return error_response("not_found")
            if found.route is None:
                return method_not_allowed(found.allowed)
            route = found.route
            template = route.template
            if not isinstance(body, bytes | bytearray):
                return error_response("invalid_request")
            if len(body) > self.max_body:
                return error_response("body_too_large")
            if not isinstance(envelope, Envelope):
                return error_response("invalid_request")
            refused = refusal(
                envelope,
                changes_state=route.changes_state,
                has_body=bool(body.strip()),
                trusted=self.trusted_origins,
            )
            if refused is not None:
                return error_response(refused)
            if route.needs_user:
                if user is None:
                    return error_response("unauthorized")
                if not isinstance(tenant, str) or not tenant:
                    return error_response("forbidden")
            return self._run(route, found, query, bytes(body), user, tenant or "", envelope)
        except Refused as refused:
            return _refusal(refused)
        except PageSessionError as error:
            return _page_error(error, method, template)
        except QueueUnavailable:
            # Not our fault nor the caller's: the broker is down; the turn is already failed.
            return error_response("queue_unavailable")
        except Exception as error:
            return _internal(error, method, template)

    def _run(
        self,
        route: Route,
        found: Match,
        query: Mapping[str, str],
        body: bytes,
        user: object,
        tenant: str,
        envelope: Envelope,
    ) -> Response:
        """Look the session up, parse the body, then the query, and call the route's handler."""
        session = None
        if route.names_session:
            # Before the body: another tenant's session is a 404 whatever was sent.
            session = self.charlotte.find(found.session_id or "", tenant, user=user)
            if session is None:
                raise Refused("not_found")
        parsed = route.body.parse(body)
        request = Request(
            self.charlotte,
            user,
            tenant,
            session,
            found.turn_id or "",
            parsed,
            route.query.parse(query) if route.query is not None else {},
            found.page or "",
            envelope,
        )
        answer = route.handler(request)
        return answer if isinstance(answer, Response) else Response(route.success, answer)


def _refusal(refused: Refused) -> Response:
    extra: dict[str, int | str] = {}
    if refused.at is not None:
        extra["at"] = refused.at
    named = refused.detail.get("field") if refused.detail else None
    if isinstance(named, str):
        extra["field"] = named
    body = error_body(refused.code, **extra)
    nodes = refused.detail.get("nodes") if refused.detail else None
    if refused.code == "conflicted" and isinstance(nodes, list):
        # Which nodes later edits touched: node ids or ``#meta``/``#theme``/``#order``.
        body["error"]["nodes"] = [str(node) for node in nodes[:100]]
    findings = refused.detail.get("findings") if refused.detail else None
    codes = refused.detail.get("codes") if refused.detail else None
    if refused.code == "quality_gate" and isinstance(findings, list) and isinstance(codes, list):
        # The gate's findings: fixed sentences of ours and node ids, never an exception's words.
        body["error"]["findings"] = findings[:200]
        body["error"]["codes"] = codes
    return Response(STATUS_OF.get(refused.code, 422), body)


def _page_error(error: PageSessionError, method: str, template: str) -> Response:
    if error.code == "invalid_state":
        # A corrupt stored page is the host's problem, not the caller's mistake.
        return _internal(error, method, template)
    extra: dict[str, int] = {}
    if error.code == "stale_revision" and isinstance(error.detail, Mapping):
        revision = error.detail.get("revision")
        if isinstance(revision, int):
            extra["revision"] = revision
    if error.at is not None:
        extra["at"] = error.at
    return error_response(error.code, **extra)


def _internal(error: BaseException, method: str, template: str) -> Response:
    correlation = uuid.uuid4().hex
    log.error(
        "%s %s failed with %s (correlation id %s)",
        method if isinstance(method, str) else "?",
        template,
        code_of(error),
        correlation,
        exc_info=error,
    )
    return Response(500, error_body("internal"), {"X-Correlation-Id": correlation})
