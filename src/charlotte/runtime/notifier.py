"""``Notifier``: the live feed of the event logs, one per ``Charlotte`` instance.

Never one per client. A single background thread watches only the sessions
that have subscribers, with one query per tick for all of them
(``SessionStore.last_seqs``: ``SELECT id, last_seq … WHERE id IN (…)``);
when sessions advanced it reads their new events *once*, all in one query on
the tick's connection (``DatabaseEventLog.read_many``), into a small
per-session cache, and wakes their subscribers, each of which waits on its own
threading/asyncio primitive. After the query a tick looks only at the
sessions that advanced (an idle session costs its row in the query, no
more), stores them all, then wakes every waiting reader at once: one call
into each event loop, whatever the number of its readers. A stream frames
each cached event once for every reader of its session
(``Subscription.rendered``). Should that read fail (or for a host's own
``EventLog``), each session is read on its own: should that fail for one, it
is logged under a correlation id, by code and type only, and that session's
readers are woken to read the log themselves; every other session is served
as usual. The stream
(``charlotte.http.asgi``) frames what it sends with ``charlotte.http.sse``.

Ticks begin every ``interval`` (50 ms by default; a tick's own time does not
lengthen the period while it is under half of it), so delivery delay is at most one interval plus one
query and the fan-out. ``bench/stream.py`` measures it end to end (events
committed by another process; 100 clients of a real uvicorn server on one
session, and 1,000 over 100 sessions; a 2-core machine). While nobody is
subscribed the thread sleeps and runs no queries. PostgreSQL could replace
the polling with LISTEN/NOTIFY, but only if every writer sent NOTIFY in its
transaction; one indexed query per tick costs little.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterable
from itertools import islice

import sqlalchemy as sa

from charlotte.errors import StorageError, code_of
from charlotte.events import Event
from charlotte.storage import DatabaseEventLog, EventLog, SessionStore, Units
from charlotte.storage.eventlog import MAX_READ

__all__ = ["Notifier", "Subscription"]

logger = logging.getLogger(__name__)


class _Watch:
    """What the notifier knows about one watched session (guarded by the notifier's lock)."""

    __slots__ = ("base", "events", "frames", "latest", "render", "subscribers")

    def __init__(self) -> None:
        self.latest: int | None = None  # last_seq at the last tick; None before the first
        self.base = 0  # the cache holds the events of seqs base+1 … latest
        self.events: deque[Event] = deque()
        # The cached events as ``render`` made them (by seq), for every reader.
        self.render: Callable[[Event], bytes] | None = None
        self.frames: dict[int, bytes] = {}
        self.subscribers: set[Subscription] = set()


class Subscription:
    """One reader's interest in one session; wakes when the session's log passes ``position``."""

    def __init__(self, notifier: Notifier, session_id: str, watch: _Watch) -> None:
        self.session_id = session_id
        self._notifier = notifier
        self._watch = watch
        self._position = 0
        self._closed = False
        self._armed = False
        self._flag = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._event: asyncio.Event | None = None

    @property
    def position(self) -> int:
        """The last seq the reader has delivered (see ``seen``)."""
        return self._position

    @property
    def closed(self) -> bool:
        """True once the subscription or its notifier was closed."""
        return self._closed

    def seen(self, seq: int) -> None:
        """Record that the reader has delivered every event up to ``seq``."""
        self._position = max(self._position, seq)

    def pending(self) -> bool:
        """True when the notifier knows of events after ``position``."""
        latest = self._watch.latest
        return latest is not None and latest > self._position

    def cached(self, after: int) -> list[Event] | None:
        """The events with seq > ``after`` from the notifier's cache, or None.

        None means the cache does not reach back that far: read the log instead.
        """
        return self._notifier._cached(self._watch, after)

    def rendered(self, after: int, render: Callable[[Event], bytes]) -> list[tuple[int, bytes]] | None:
        """Like ``cached``: each event's seq and ``render(event)``, made once for every reader.

        ``render`` must be a pure function of the event, the same one for
        every reader of the session (the stream's framing): ten readers of a
        session then frame each event once, not ten times.
        """
        return self._notifier._rendered(self._watch, after, render)

    def wait(self, timeout: float) -> bool:
        """Block until events after ``position`` are known (True) or ``timeout`` passes (False)."""
        self._flag.clear()
        # Arm before looking: the notifier updates ``latest`` before it reads
        # ``_armed``, so either this check sees the new seq or the notifier
        # sees the armed flag and wakes us.
        self._armed = True
        if self.pending() or self._closed:
            return self.pending()
        self._flag.wait(timeout)
        return self.pending()

    async def wait_async(self, timeout: float) -> bool:
        """Like ``wait``, without blocking the event loop."""
        if self._event is None:
            self._event = asyncio.Event()
            self._loop = asyncio.get_running_loop()
        self._event.clear()
        self._armed = True
        if self.pending() or self._closed:
            return self.pending()
        # The timeout sets the event too (a plain timer: cheaper than a
        # timeout scope, and this runs once per event a stream sends).
        timer = asyncio.get_running_loop().call_later(timeout, self._event.set)
        try:
            await self._event.wait()
        finally:
            timer.cancel()
        return self.pending()

    def close(self) -> None:
        """Stop watching; the notifier forgets a session with no subscribers left."""
        if not self._closed:
            self._closed = True
            self._notifier._unsubscribe(self)
        self._wake()

    def _wake(self) -> None:
        _wake_all([self])

    def _disarm(self) -> tuple[asyncio.AbstractEventLoop, asyncio.Event] | None:
        """Wake a thread waiting in ``wait``; the loop and event of one in ``wait_async``.

        Runs on the notifier's thread: only a reader that is waiting is woken,
        so a slow reader costs no cross-thread call per tick.
        """
        if not self._armed:
            return None
        self._armed = False
        self._flag.set()
        loop, event = self._loop, self._event
        return None if loop is None or event is None else (loop, event)


def _wake_all(subscriptions: Iterable[Subscription]) -> None:
    """Wake every waiting reader of ``subscriptions``: one call into each event loop, not one per reader.

    Each cross-thread call writes to the loop's wake-up pipe and hands the
    loop the interpreter lock: a thousand readers on one loop cost a thousand
    of both, one per reader, when woken one at a time.
    """
    by_loop: dict[asyncio.AbstractEventLoop, list[asyncio.Event]] = {}
    for subscription in subscriptions:
        found = subscription._disarm()
        if found is not None:
            by_loop.setdefault(found[0], []).append(found[1])
    for loop, events in by_loop.items():
        # A closed loop means its readers no longer wait.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(_set_each, events)


def _set_each(events: list[asyncio.Event]) -> None:
    for event in events:
        event.set()


class Notifier:
    """Wakes stream subscribers when their session's event log grows: one thread, one query per tick.

    ``events`` is the event log it reads the new events from (a
    ``DatabaseEventLog`` by default).

    >>> notifier = Notifier(engine)                      # doctest: +SKIP
    >>> subscription = notifier.subscribe(session_id)    # doctest: +SKIP
    >>> await subscription.wait_async(15.0)              # doctest: +SKIP
    """

    def __init__(
        self,
        engine: sa.Engine,
        *,
        interval: float = 0.05,
        cache_size: int = 1000,
        events: EventLog | None = None,
    ) -> None:
        if not interval > 0:
            raise ValueError("interval must be > 0")
        if not 0 <= cache_size <= MAX_READ:
            raise ValueError(f"cache_size must be between 0 and {MAX_READ}")
        self._engine = engine
        self._units = Units(engine)
        self._interval = interval
        self._cache_size = cache_size
        self._log: EventLog = events if events is not None else DatabaseEventLog()
        self._sessions = SessionStore()
        self._lock = threading.Lock()
        self._kick = threading.Event()
        self._watches: dict[str, _Watch] = {}
        self._thread: threading.Thread | None = None
        self._closed = False
        self.ticks = 0  # tick count, for tests and benchmarks

    def subscribe(self, session_id: str) -> Subscription:
        """Watch ``session_id``; starts the background thread on first use."""
        with self._lock:
            if self._closed:
                raise RuntimeError("the notifier is closed")
            watch = self._watches.setdefault(session_id, _Watch())
            subscription = Subscription(self, session_id, watch)
            watch.subscribers.add(subscription)
            if self._thread is None:
                # A daemon: a host that never closes charlotte must still be able to exit.
                self._thread = threading.Thread(
                    target=self._run, name="charlotte-notifier", daemon=True
                )
                self._thread.start()
        self._kick.set()
        return subscription

    def subscriber_count(self, session_id: str | None = None) -> int:
        """How many subscriptions are open (on one session, or in all)."""
        with self._lock:
            if session_id is not None:
                watch = self._watches.get(session_id)
                return 0 if watch is None else len(watch.subscribers)
            return sum(len(watch.subscribers) for watch in self._watches.values())

    def close(self, timeout: float = 5.0) -> None:
        """Stop the thread and wake every subscriber (their ``closed`` turns True)."""
        with self._lock:
            self._closed = True
            subscribers = [s for watch in self._watches.values() for s in watch.subscribers]
            thread = self._thread
        for subscription in subscribers:
            subscription._closed = True
        _wake_all(subscribers)
        self._kick.set()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def _unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            watch = self._watches.get(subscription.session_id)
            if watch is not None:
                watch.subscribers.discard(subscription)
                if not watch.subscribers:
                    del self._watches[subscription.session_id]

    def _cached(self, watch: _Watch, after: int) -> list[Event] | None:
        with self._lock:
            if watch.latest is None or after < watch.base:
                return None
            return list(islice(watch.events, after - watch.base, None))

    def _rendered(
        self, watch: _Watch, after: int, render: Callable[[Event], bytes]
    ) -> list[tuple[int, bytes]] | None:
        with self._lock:
            if watch.latest is None or after < watch.base:
                return None
            events = list(islice(watch.events, after - watch.base, None))
            if watch.render is None:
                watch.render = render
            shared = watch.render is render
            known = [watch.frames.get(event.seq) for event in events] if shared else [None] * len(events)
        # Rendered outside the lock; two readers may both render a new event (the same bytes).
        found = [
            (event.seq, render(event) if frame is None else frame)
            for event, frame in zip(events, known, strict=True)
        ]
        if shared and None in known:
            with self._lock:
                for (seq, frame), was in zip(found, known, strict=True):
                    # Only seqs the cache still holds: pruning drops them with their events.
                    if was is None and watch.base < seq <= watch.base + len(watch.events):
                        watch.frames[seq] = frame
        return found

    def _run(self) -> None:
        began = time.monotonic()
        while True:
            with self._lock:
                if self._closed:
                    return
                watched = list(self._watches)
            # Idle (nobody subscribed): sleep until a subscribe or close. Else the
            # next tick is due one interval after the last one began (a tick's own
            # time does not lengthen the period), but never sooner than half an
            # interval after it ended: a slow database is not polled back to back.
            if watched:
                self._kick.wait(max(self._interval / 2, began + self._interval - time.monotonic()))
            else:
                self._kick.wait()
            self._kick.clear()
            if not watched:
                continue
            began = time.monotonic()
            try:
                self._tick(watched)
            except StorageError as error:
                # Keep serving: the next tick retries. The code only, never a message.
                logger.warning("notifier tick failed: %s", code_of(error))
            except Exception as error:
                # A dead thread would leave every stream waiting for good.
                logger.error("notifier tick failed: %s", type(error).__name__)
            self.ticks += 1

    def _tick(self, watched: list[str]) -> None:
        with self._units.reading() as conn:
            latest = self._sessions.last_seqs(conn, watched)
            with self._lock:
                # Only the sessions that advanced (or are seen for the first
                # time): an idle session costs its row in the one query, no more.
                plans = [
                    (session_id, watch, watch.latest, last_seq)
                    for session_id, last_seq in latest.items()
                    if (watch := self._watches.get(session_id)) is not None
                    and (watch.latest is None or last_seq > watch.latest)
                ]
            wanted = {
                session_id: (known, last_seq)
                for session_id, _watch, known, last_seq in plans
                if known is not None and last_seq - known <= self._cache_size
            }
            found = self._read_new(conn, wanted) if wanted else {}
        waiting: list[Subscription] = []
        with self._lock:
            for session_id, watch, known, last_seq in plans:
                self._store(watch, known, last_seq, found.get(session_id))
                waiting.extend(s for s in watch.subscribers if s.position < last_seq)
        # Every session stored first, then every waiting reader woken at once.
        _wake_all(waiting)

    def _read_new(
        self, conn: sa.Connection, wanted: dict[str, tuple[int, int]]
    ) -> dict[str, list[Event] | None]:
        """The new events of every session that advanced (seqs after, upto], each or None.

        The database log reads them all in one query on the tick's connection;
        should that fail, or for a host's log, each session is read on its own,
        so that one session's log stalls no other (its readers, given None, go
        to the log themselves).
        """
        if not wanted:
            return {}
        # Exactly the database log: a subclass (a host's adapter) may read differently.
        if type(self._log) is DatabaseEventLog:
            try:
                return dict(self._log.read_many(conn, wanted))
            except Exception as error:
                _report("(several)", error)
        found: dict[str, list[Event] | None] = {}
        for session_id, (known, last_seq) in wanted.items():
            try:
                found[session_id] = self._log.read(self._engine, session_id, known, last_seq - known)
            except Exception as error:
                _report(session_id, error)
                found[session_id] = None
        return found

    def _store(self, watch: _Watch, known: int | None, last_seq: int, events: list[Event] | None) -> None:
        if known is not None and last_seq <= known:
            return
        if events is None or known is None or len(events) != last_seq - known:
            # First sight, or too many at once: cache nothing, readers go to the log.
            watch.events.clear()
            watch.frames.clear()
            watch.base = last_seq
        else:
            watch.events.extend(events)
            overflow = len(watch.events) - self._cache_size
            for _ in range(max(0, overflow)):
                watch.frames.pop(watch.events.popleft().seq, None)
            watch.base = last_seq - len(watch.events)
        watch.latest = last_seq


def _report(session_id: str, error: Exception) -> None:
    """Log one session's failed read: its code, its type and a correlation id, no message."""
    logger.warning(
        "notifier: events of session %s not read: %s %s (correlation id %s)",
        session_id,
        code_of(error),
        type(error).__name__,
        uuid.uuid4().hex,
    )
