"""One client's live stream of a session's log, without a web framework.

``open_stream`` checks what a stream needs (a user, a tenant, bounds a
reader may name, the session in that tenant, the ``view`` ability) and
answers a ``Follow`` or the error code to answer instead. ``Follow.frames``
is the stream's body, an async iterator of SSE chunks
(``charlotte.http.sse``): the replay after ``Last-Event-ID`` (or
``?after=``), then live frames from the ``Notifier``'s cache
(``charlotte.runtime.notifier``), a heartbeat after ``heartbeat_seconds`` of
silence. It ends when the client goes (the server cancels it), when the
notifier closes, when read access is withdrawn (checked on every log read
and at every heartbeat), or after ``?until=<seq>`` or ``?limit=<n>``
events; its subscription is closed however it ends.

Each adapter (``charlotte.http.asgi`` for Starlette,
``charlotte.contrib.django`` for Django) hands over how it runs a blocking
call off the event loop (``RunBlocking``): the host's hooks and the
database are blocking.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any, Final

from charlotte.errors import Refused
from charlotte.http.sse import format_event, heartbeat, parse_last_event_id
from charlotte.runtime.notifier import Notifier, Subscription
from charlotte.session import CharlotteSession

if TYPE_CHECKING:
    from charlotte.app import Charlotte

__all__ = [
    "DEFAULT_HEARTBEAT_SECONDS",
    "STREAM_HEADERS",
    "Follow",
    "RunBlocking",
    "open_stream",
    "stream_bounds",
]

#: Seconds of silence after which the stream sends a heartbeat comment.
DEFAULT_HEARTBEAT_SECONDS: Final = 15.0

#: Runs a blocking call off the event loop and awaits its answer.
RunBlocking = Callable[[Callable[[], Any]], Awaitable[Any]]

#: Headers of every stream answer.
STREAM_HEADERS: Final = {
    "Cache-Control": "no-cache",
    # Proxies such as nginx would otherwise hold events back in their buffers.
    "X-Accel-Buffering": "no",
}

# Events one replay read fetches (CharlotteSession.events allows up to 1,000).
_REPLAY_BATCH: Final = 500
_BACKOFF_SECONDS: Final = 0.1
_MAX_COUNT_DIGITS: Final = 10


async def open_stream(
    charlotte: Charlotte,
    notifier: Notifier,
    run: RunBlocking,
    *,
    session_id: str,
    user: object,
    tenant: str | None,
    last_event_id: str | None,
    query: Mapping[str, str],
    heartbeat_seconds: float,
) -> Follow | str:
    """The stream of ``session_id`` for ``user``, or the error code to answer instead."""
    if user is None:
        return "unauthorized"
    if tenant is None:
        return "forbidden"
    try:
        after, until, limit = stream_bounds(last_event_id, query)
    except ValueError:
        return "invalid_request"
    # One trip off the loop for the lookup and the first read: under a burst
    # of requests each trip waits its turn behind the others.
    opened = await run(partial(_open, charlotte, notifier, session_id, tenant, user, after))
    if isinstance(opened, str):
        return opened
    handle, subscription, first = opened
    return Follow(handle, subscription, run, heartbeat_seconds, (after, until, limit), first)


def _open(
    charlotte: Charlotte, notifier: Notifier, session_id: str, tenant: str, user: object, after: int
) -> tuple[CharlotteSession, Subscription, list[dict[str, Any]]] | str:
    """The session's handle, its subscription and the events after ``after``; or the error code."""
    handle = charlotte.find(session_id, tenant, user=user)
    if handle is None:
        return "not_found"
    # Subscribe before the first read: an event committed in between still wakes us.
    subscription = notifier.subscribe(handle.id)
    try:
        first = handle.events(after, _REPLAY_BATCH)
    except Refused as refused:
        subscription.close()
        return refused.code
    except BaseException:
        subscription.close()
        raise
    return handle, subscription, first


def stream_bounds(
    last_event_id: str | None, query: Mapping[str, str]
) -> tuple[int, int | None, int | None]:
    """``(after, until, limit)``; ``Last-Event-ID`` wins over ``?after=`` (a reconnect sends it).

    ``ValueError`` for anything but decimal counts (``limit`` at least 1).
    """
    after = (
        parse_last_event_id(last_event_id) if last_event_id is not None else _count(query, "after")
    )
    until = _count(query, "until") if "until" in query else None
    limit = _count(query, "limit") if "limit" in query else None
    if limit is not None and limit < 1:
        raise ValueError("limit must be at least 1")
    return after, until, limit


def _count(query: Mapping[str, str], name: str) -> int:
    raw = query.get(name, "0")
    if not (raw.isascii() and raw.isdigit()) or len(raw) > _MAX_COUNT_DIGITS:
        raise ValueError(f"{name} must be a non-negative integer")
    return parse_last_event_id(raw)


class Follow:
    """One client's stream: replay from the log, then live frames from the notifier's cache."""

    def __init__(
        self,
        handle: CharlotteSession,
        subscription: Subscription,
        run: RunBlocking,
        heartbeat_seconds: float,
        bounds: tuple[int, int | None, int | None],
        first: list[dict[str, Any]],
    ) -> None:
        self.handle = handle
        self.subscription = subscription
        self.run = run
        self.heartbeat_seconds = heartbeat_seconds
        self.cursor, self.until, self.remaining = bounds
        self.first = first
        # The reader starts at ``after``: without this, a stream resumed at the
        # newest seq would look behind forever and never wait.
        subscription.seen(self.cursor)

    async def frames(self) -> AsyncIterator[bytes]:
        """The stream's chunks; closes the subscription however the stream ends."""
        subscription = self.subscription
        try:
            batch = [(event["seq"], format_event(event)) for event in self.first]
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

    def replay(self) -> bytes:
        """The replayed frames within the bounds, for a server that cannot hold the stream open.

        Closes the subscription: the reader comes back with ``Last-Event-ID``.
        """
        try:
            chunk, _ = self._take([(event["seq"], format_event(event)) for event in self.first])
        finally:
            self.subscription.close()
        return chunk

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
            await self.run(self.handle.status)
        except Refused:
            return False
        return True

    async def _next_batch(self) -> list[tuple[int, bytes]]:
        cursor = self.cursor
        cached = self.subscription.rendered(cursor, format_event)
        if cached is not None:
            # The cache holds consecutive seqs starting right after ``cursor``,
            # each framed once for every stream of the session.
            return cached
        try:
            events = await self.run(partial(self.handle.events, cursor, _REPLAY_BATCH))
        except Refused:
            # Read access withdrawn or the session gone: end the stream.
            self.subscription.close()
            return []
        return [(event["seq"], format_event(event)) for event in events]
