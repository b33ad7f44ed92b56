"""The ASGI adapter: charlotte's HTTP API as a Starlette app (mountable in FastAPI).

It only adds what a framework-free ``Api`` cannot do: the body limit (a
``Content-Length`` over it, or the first chunk past it, answers 413
``body_too_large`` before the rest is read), the request's ``Envelope`` for
the cross-site rules the ``Api`` applies (``Content-Type``, ``Origin``,
``Sec-Fetch-Site`` and the origin the request was addressed to: the scheme
uvicorn reports, the ``Host`` header; see ``charlotte.http.csrf``), the host's
user and tenant (``Charlotte.resolve_user`` / ``resolve_tenant`` on the
Starlette request), and the live stream ``GET /sessions/{id}/stream``. An
answer goes out as JSON, as its ``text`` (the published page's HTML document)
or, for a 304, with no body.

The stream is Server-Sent Events (``charlotte.http.follow``, shared with the
Django adapter; framing in ``charlotte.http.sse``): it checks the
session exists in the tenant and the user may ``view`` it (else the coded
JSON errors of the API), replays the events after ``Last-Event-ID`` (or
``?after=``), then follows the log through the one ``Notifier`` of this
charlotte (``charlotte.runtime.notifier``): new events come from the notifier's
cache, read once for every client, and nobody polls per client. A comment heartbeat goes out after
``heartbeat_seconds`` of silence; the stream ends when the client goes,
when the notifier closes, when read access is withdrawn (checked on every
log read and at every heartbeat), or, for bounded
readers such as in-process test clients, after ``?until=<seq>`` or
``?limit=<n>`` events.

>>> app = create_app(charlotte)               # doctest: +SKIP
>>> fastapi_app.mount("/builder", app)        # doctest: +SKIP
"""

from __future__ import annotations

import logging
import re
import uuid
from typing import TYPE_CHECKING, Any, Final

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from charlotte.http.api import DEFAULT_MAX_BODY, Api, error_body, error_response, method_not_allowed
from charlotte.http.api import Response as ApiResponse
from charlotte.http.csrf import Envelope, refusal
from charlotte.http.follow import DEFAULT_HEARTBEAT_SECONDS, STREAM_HEADERS, open_stream
from charlotte.http.page import PAGE_BASE_CSS, PAGE_HEADERS, WEB_ASSETS, web_file
from charlotte.runtime.notifier import Notifier

if TYPE_CHECKING:
    from charlotte.app import Charlotte

__all__ = ["DEFAULT_HEARTBEAT_SECONDS", "create_app"]


_STREAM_PATH: Final = re.compile(r"/sessions/([^/]+)/stream")

log = logging.getLogger(__name__)


def create_app(
    charlotte: Charlotte,
    *,
    max_body: int = DEFAULT_MAX_BODY,
    heartbeat_seconds: float = DEFAULT_HEARTBEAT_SECONDS,
    notifier: Notifier | None = None,
) -> Starlette:
    """The Starlette app serving ``charlotte``'s API and live stream.

    ``notifier`` defaults to the charlotte's own (``charlotte.notifier``),
    which ``charlotte.close()`` closes.
    """
    if type(max_body) is not int or max_body < 1:
        raise ValueError("max_body must be a positive integer")
    if not heartbeat_seconds > 0:
        raise ValueError("heartbeat_seconds must be > 0")
    if notifier is None:
        notifier = charlotte.notifier
    adapter = _Adapter(charlotte, Api(charlotte, max_body=max_body), notifier, heartbeat_seconds)
    page_routes = [
        Route(f"/{name}" if name != "index.html" else "/", endpoint=_web_asset(name), methods=["GET"])
        for name in WEB_ASSETS
    ]
    page_routes.append(Route(f"/{PAGE_BASE_CSS}", endpoint=_web_asset(PAGE_BASE_CSS), methods=["GET"]))
    page_routes.append(Route("/mcp", endpoint=_Mcp(charlotte)))
    return Starlette(routes=[*page_routes, Route("/{path:path}", endpoint=adapter)])


class _Mcp:
    """``/mcp``: the MCP server for outside agents (``charlotte.mcp.server``; the ``mcp`` extra).

    The host's resolvers see the request, as for the API (MCP clients send a
    bearer token, no cookie). A browser's request from another site is
    refused first, by the API's own rules (``charlotte.http.csrf``): the
    host's resolver may read a cookie. Without the extra installed: 404.
    """

    def __init__(self, charlotte: Charlotte) -> None:
        self.charlotte = charlotte
        self.trusted = frozenset(charlotte.settings.trusted_origins)
        self.endpoint: Any = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        code = refusal(_envelope(request), changes_state=request.method == "POST", has_body=False, trusted=self.trusted)
        if code is None and self.endpoint is None:
            try:
                # Imported here: the MCP SDK is an optional extra (and loads only when /mcp is asked).
                from charlotte.mcp.server import HttpEndpoint, build_server, http_identify
            except ImportError:
                code = "not_found"
            else:
                self.endpoint = HttpEndpoint(build_server(self.charlotte, http_identify(self.charlotte)))
        if code is not None:
            await _error(code)(scope, receive, send)
            return
        await self.endpoint(scope, receive, send)


def _web_asset(name: str) -> Any:
    body, media_type = web_file(name)

    async def endpoint(_request: Request) -> Response:
        return Response(body, media_type=media_type, headers=dict(PAGE_HEADERS))

    return endpoint


class _Adapter:
    """One ASGI endpoint for every path and method: the stream, or the ``Api``."""

    def __init__(
        self, charlotte: Charlotte, api: Api, notifier: Notifier, heartbeat_seconds: float
    ) -> None:
        self.charlotte = charlotte
        self.api = api
        self.notifier = notifier
        self.heartbeat_seconds = heartbeat_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        path = "/" + str(request.path_params.get("path", ""))
        stream = _STREAM_PATH.fullmatch(path)
        try:
            if stream is not None and request.method == "GET":
                response = await self.stream(request, stream.group(1))
            elif stream is not None:
                answer = method_not_allowed(("GET",))
                response = JSONResponse(answer.json, answer.status, headers=answer.headers)
            else:
                response = await self.call_api(request, path)
        except Exception as error:
            response = _internal(error)
        await response(scope, receive, send)

    async def call_api(self, request: Request, path: str) -> Response:
        body = await _limited_body(request, self.api.max_body)
        if isinstance(body, Response):
            return body
        query = {key: value for key, value in request.query_params.items()}
        envelope = _envelope(request)
        # One trip to the thread pool for the host's hooks and the call: under a
        # burst each trip waits its turn behind every other request's.
        answer = await run_in_threadpool(self._answer, request, path, query, body, envelope)
        return _response(answer)

    def _answer(
        self, request: Request, path: str, query: dict[str, str], body: bytes, envelope: Envelope
    ) -> Any:
        user, tenant = self.identify(request)
        return self.api.handle(request.method, path, query, body, user, tenant, envelope=envelope)

    def identify(self, request: Request) -> tuple[Any, str | None]:
        """The host's user and tenant for ``request`` (host callbacks may block: call it in a thread)."""
        return self.charlotte.resolve_user(request), self.charlotte.resolve_tenant(request)

    async def stream(self, request: Request, session_id: str) -> Response:
        user, tenant = await run_in_threadpool(self.identify, request)
        opened = await open_stream(
            self.charlotte,
            self.notifier,
            run_in_threadpool,
            session_id=session_id,
            user=user,
            tenant=tenant,
            last_event_id=request.headers.get("last-event-id"),
            query=request.query_params,
            heartbeat_seconds=self.heartbeat_seconds,
        )
        if isinstance(opened, str):
            return _error(opened)
        return StreamingResponse(
            opened.frames(), media_type="text/event-stream", headers=dict(STREAM_HEADERS)
        )


async def _limited_body(request: Request, limit: int) -> bytes | Response:
    """The body, or the 413 answer as soon as it is known to exceed ``limit``."""
    declared = request.headers.get("content-length")
    if declared is not None:
        digits = declared.strip()
        if not (digits.isascii() and digits.isdigit()):
            return _error("invalid_request")
        if int(digits) > limit:
            return _error("body_too_large")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            # Stop here: the rest of an oversized body is never read.
            return _error("body_too_large")
    return bytes(body)


def _envelope(request: Request) -> Envelope:
    headers = request.headers
    host = headers.get("host")
    return Envelope(
        content_type=headers.get("content-type"),
        origin=headers.get("origin"),
        fetch_site=headers.get("sec-fetch-site"),
        server_origin=f"{request.url.scheme}://{host}" if host else None,
        if_none_match=headers.get("if-none-match"),
    )


def _response(answer: ApiResponse) -> Response:
    """The Starlette response of an ``Api`` answer: JSON, a text body (HTML), or a bodiless 304."""
    if answer.status == 304:
        return Response(status_code=304, headers=answer.headers)
    if answer.text is not None:
        return Response(answer.text, answer.status, headers=answer.headers)
    return JSONResponse(answer.json, answer.status, headers=answer.headers)


def _error(code: str, *, status: int | None = None) -> JSONResponse:
    answer = error_response(code, status=status)
    return JSONResponse(answer.json, answer.status, headers=answer.headers)


def _internal(error: BaseException) -> JSONResponse:
    correlation = uuid.uuid4().hex
    # The type only: an exception's message may carry data that must not reach a log.
    log.error("request failed with %s (correlation id %s)", type(error).__name__, correlation)
    return JSONResponse(error_body("internal"), 500, headers={"X-Correlation-Id": correlation})

