"""The ASGI adapter: charlotte's HTTP API as a Starlette app (mountable in FastAPI).

It only adds what a framework-free ``Api`` cannot do: the body limit (a
``Content-Length`` over it, or the first chunk past it, answers 413
``body_too_large`` before the rest is read), the request's ``Envelope`` for
the cross-site rules the ``Api`` applies (``Content-Type``, ``Origin``,
``Sec-Fetch-Site`` and the origin the request was addressed to: the scheme
uvicorn reports, the ``Host`` header; see ``charlotte.http.csrf``), the host's
user and tenant (``Charlotte.resolve_user`` / ``resolve_tenant`` on the
Starlette request), and the live stream ``GET /sessions/{id}/stream``.

The stream is Server-Sent Events (``charlotte.http.sse``): it checks the
session exists in the tenant and the user may ``view`` it (else the coded
JSON errors of the API), replays the events after ``Last-Event-ID`` (or
``?after=``), then follows the log through the one ``Notifier`` of this
charlotte (``charlotte.runtime.feed``): new events come from the notifier's
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

import asyncio
import logging
import re
import uuid
from collections.abc import AsyncIterator, Mapping
from importlib import resources
from typing import TYPE_CHECKING, Any, Final

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from charlotte.errors import Refused
from charlotte.http.api import DEFAULT_MAX_BODY, Api, error_body, error_response, method_not_allowed
from charlotte.http.csrf import Envelope
from charlotte.http.sse import format_event, heartbeat, parse_last_event_id
from charlotte.page.render import BASE_CSS
from charlotte.runtime.feed import Notifier, Subscription
from charlotte.session import CharlotteSession

if TYPE_CHECKING:
    from charlotte.app import Charlotte

__all__ = ["DEFAULT_HEARTBEAT_SECONDS", "create_app"]

#: Seconds of silence after which the stream sends a heartbeat comment.
DEFAULT_HEARTBEAT_SECONDS: Final = 15.0

# Events one replay read fetches (CharlotteSession.events allows up to 1,000).
_REPLAY_BATCH: Final = 500
_BACKOFF_SECONDS: Final = 0.1
_STREAM_PATH: Final = re.compile(r"/sessions/([^/]+)/stream")
_COUNT: Final = re.compile(r"[0-9]{1,10}")
_STREAM_HEADERS: Final = {
    "Cache-Control": "no-cache",
    # Proxies such as nginx would otherwise hold events back in their buffers.
    "X-Accel-Buffering": "no",
}

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
        for name in _WEB_ASSETS
    ]
    page_routes.append(Route("/page-base.css", endpoint=_page_base_css, methods=["GET"]))
    return Starlette(routes=[*page_routes, Route("/{path:path}", endpoint=adapter)])


#: The builder page's files (shipped in ``charlotte/web``) and their types. A
#: module script must be served as JavaScript or browsers refuse it.
_WEB_ASSETS: Final = {
    "index.html": "text/html; charset=utf-8",
    "builder.css": "text/css; charset=utf-8",
    "builder.js": "text/javascript; charset=utf-8",
}
#: The page loads only its own files; the preview frame's inline page styles
#: need 'unsafe-inline' for styles (a srcdoc frame inherits this policy), and
#: page images may come from the host's asset library on any origin.
_PAGE_HEADERS: Final = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src * data:; frame-src 'self'; frame-ancestors 'self'; base-uri 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
}


async def _page_base_css(_request: Request) -> Response:
    # One source for the preview and the published page: render.BASE_CSS.
    return Response(BASE_CSS, media_type="text/css; charset=utf-8", headers=dict(_PAGE_HEADERS))


def _web_asset(name: str) -> Any:
    body = resources.files("charlotte.web").joinpath(name).read_bytes()
    media_type = _WEB_ASSETS[name]

    async def endpoint(_request: Request) -> Response:
        return Response(body, media_type=media_type, headers=dict(_PAGE_HEADERS))

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
        user, tenant = await self.identify(request)
        query = {key: value for key, value in request.query_params.items()}
        envelope = _envelope(request)
        answer = await run_in_threadpool(
            self.api.handle, request.method, path, query, body, user, tenant, envelope=envelope
        )
        return JSONResponse(answer.json, answer.status, headers=answer.headers)

    async def identify(self, request: Request) -> tuple[Any, str | None]:
        """The host's user and tenant for ``request`` (host callbacks may block: a thread)."""
        charlotte = self.charlotte
        user = await run_in_threadpool(charlotte.resolve_user, request)
        tenant = await run_in_threadpool(charlotte.resolve_tenant, request)
        return user, tenant

    async def stream(self, request: Request, session_id: str) -> Response:
        user, tenant = await self.identify(request)
        if user is None:
            return _error("unauthorized")
        if tenant is None:
            return _error("forbidden")
        try:
            after, until, limit = _stream_query(request)
        except ValueError:
            return _error("invalid_request")
        handle = await run_in_threadpool(self.charlotte.find, session_id, tenant, user=user)
        if handle is None:
            return _error("not_found")
        # Subscribe before the first read: an event committed in between still wakes us.
        subscription = self.notifier.subscribe(handle.id)
        try:
            first = await run_in_threadpool(handle.events, after, _REPLAY_BATCH)
        except Refused as refused:
            subscription.close()
            return _error(refused.code)
        except BaseException:
            subscription.close()
            raise
        follow = _Follow(handle, subscription, self.heartbeat_seconds, after, until, limit)
        return StreamingResponse(
            follow.frames(first), media_type="text/event-stream", headers=_STREAM_HEADERS
        )


class _Follow:
    """One client's stream: replay from the log, then live frames from the notifier's cache."""

    def __init__(
        self,
        handle: CharlotteSession,
        subscription: Subscription,
        heartbeat_seconds: float,
        after: int,
        until: int | None,
        limit: int | None,
    ) -> None:
        self.handle = handle
        self.subscription = subscription
        self.heartbeat_seconds = heartbeat_seconds
        self.cursor = after
        self.until = until
        self.remaining = limit
        # The reader starts at ``after``: without this, a stream resumed at the
        # newest seq would look behind forever and never wait.
        subscription.seen(after)

    async def frames(self, first: list[dict[str, Any]]) -> AsyncIterator[bytes]:
        """The stream's chunks; closes the subscription however the stream ends."""
        subscription = self.subscription
        try:
            batch = [(event["seq"], format_event(event)) for event in first]
            while True:
                if batch:
                    chunk, done = self._take(batch)
                    if chunk:
                        yield chunk
                    if done:
                        return
                elif subscription.closed:
                    return
                elif not await subscription.wait_async(self.heartbeat_seconds):
                    # Idle: the moment to learn whether the reader may still view.
                    if not await self._may_view():
                        return
                    yield heartbeat()
                batch = await self._next_batch()
                if not batch and subscription.pending():
                    # The log shows less than the notifier saw (a deleted session):
                    # pause instead of spinning; the next read ends or resumes.
                    await asyncio.sleep(_BACKOFF_SECONDS)
        finally:
            subscription.close()

    def _take(self, batch: list[tuple[int, bytes]]) -> tuple[bytes, bool]:
        """The frames to send now, and whether the stream's bound is reached."""
        taken: list[bytes] = []
        for seq, frame in batch:
            if seq <= self.cursor:  # never send a seq twice
                continue
            taken.append(frame)
            self.cursor = seq
            if self.remaining is not None:
                self.remaining -= 1
            if (self.until is not None and seq >= self.until) or self.remaining == 0:
                return b"".join(taken), True
        self.subscription.seen(self.cursor)
        return b"".join(taken), False

    async def _may_view(self) -> bool:
        try:
            await run_in_threadpool(self.handle.status)
        except Refused:
            return False
        return True

    async def _next_batch(self) -> list[tuple[int, bytes]]:
        cursor = self.cursor
        cached = self.subscription.cached(cursor)
        if cached is not None:
            # The cache holds consecutive seqs starting right after ``cursor``.
            return [(event.seq, format_event(event)) for event in cached]
        try:
            events = await run_in_threadpool(self.handle.events, cursor, _REPLAY_BATCH)
        except Refused:
            # Read access withdrawn or the session gone: end the stream.
            self.subscription.close()
            return []
        return [(event["seq"], format_event(event)) for event in events]


def _stream_query(request: Request) -> tuple[int, int | None, int | None]:
    """``(after, until, limit)``; ``Last-Event-ID`` wins over ``?after=`` (a reconnect sends it)."""
    query = request.query_params
    header = request.headers.get("last-event-id")
    after = parse_last_event_id(header) if header is not None else _count(query, "after")
    until = _count(query, "until") if "until" in query else None
    limit = _count(query, "limit") if "limit" in query else None
    if limit is not None and limit < 1:
        raise ValueError("limit must be at least 1")
    return after, until, limit


def _count(query: Mapping[str, str], name: str) -> int:
    raw = query.get(name, "0")
    if _COUNT.fullmatch(raw) is None:
        raise ValueError(f"{name} must be a non-negative integer")
    return parse_last_event_id(raw)


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
    )


def _error(code: str, *, status: int | None = None) -> JSONResponse:
    answer = error_response(code, status=status)
    return JSONResponse(answer.json, answer.status, headers=answer.headers)


def _internal(error: BaseException) -> JSONResponse:
    correlation = uuid.uuid4().hex
    # The type only: an exception's message may carry data that must not reach a log.
    log.error("request failed with %s (correlation id %s)", type(error).__name__, correlation)
    return JSONResponse(error_body("internal"), 500, headers={"X-Correlation-Id": correlation})

