"""``Notifier``: the live feed of the event logs, one per ``Charlotte`` instance.

Never one per client. A single background thread watches only the sessions
that have subscribers, with one query per tick for all of them
(``SessionStore.last_seqs``: ``SELECT id, last_seq … WHERE id IN (…)``);
when sessions advanced it reads their new events *once*, all in one query on
the tick's connection (``DatabaseEventLog.read_many``), into a small
per-session cache, and wakes their subscribers, each of which waits on its own
threading/asyncio primitive. Should that read fail (or for a host's own
``EventLog``), each session is read on its own: should that fail for one, it
is logged under a correlation id, by code and type only, and that session's
readers are woken to read the log themselves; every other session is served
as usual. The stream
(``charlotte.http.asgi``) frames what it sends with ``charlotte.http.sse``.

Delivery delay is at most one tick (``interval``, 50 ms by
default) plus one query and the fan-out. ``bench/stream.py`` measures it end
to end (events committed by another process, 100 clients of a real uvicorn
server on one session, a 2-core machine). While nobody is subscribed the
thread sleeps and runs no queries. PostgreSQL could replace the polling with
LISTEN/NOTIFY, but only if every writer sent NOTIFY in its transaction; one
indexed query per tick costs little.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import uuid
from collections import deque
from itertools import islice

import sqlalchemy as sa

from charlotte.errors import StorageError, code_of
from charlotte.events import Event
from charlotte.storage import DatabaseEventLog, EventLog, SessionStore, read_connection
from charlotte.storage.eventlog import MAX_READ

__all__ = ["Notifier", "Subscription"]

logger = logging.getLogger(__name__)


class _Watch:
    """What the notifier knows about one watched session (guarded by the notifier's lock)."""

    __slots__ = ("base", "events", "latest", "subscribers")

    def __init__(self) -> None:
        self.latest: int | None = None  # last_seq at the last tick; None before the first
        self.base = 0  # the cache holds the events of seqs base+1 … latest
        self.events: deque[Event] = deque()
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
        try:
            async with asyncio.timeout(timeout):
                await self._event.wait()
        except TimeoutError:
            pass
        return self.pending()

    def close(self) -> None:
        """Stop watching; the notifier forgets a session with no subscribers left."""
        if not self._closed:
            self._closed = True
            self._notifier._unsubscribe(self)
        self._wake()

    def _wake(self) -> None:
        # Runs on the notifier's thread: only wake a reader that is waiting,
        # so a slow reader costs no cross-thread call per tick.
        if not self._armed:
            return
        self._armed = False
        self._flag.set()
        loop, event = self._loop, self._event
        if loop is not None and event is not None:
            # A closed loop means the reader no longer waits.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(event.set)


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
            subscription._wake()
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

    def _run(self) -> None:
        while True:
            with self._lock:
                if self._closed:
                    return
                watched = list(self._watches)
            # Idle (nobody subscribed): sleep until a subscribe or close.
            self._kick.wait(self._interval if watched else None)
            self._kick.clear()
            if not watched:
                continue
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
        plans: list[tuple[str, _Watch, int | None, int]] = []
        with read_connection(self._engine) as conn:
            latest = self._sessions.last_seqs(conn, watched)
            for session_id, last_seq in latest.items():
                with self._lock:
                    watch = self._watches.get(session_id)
                    known = None if watch is None else watch.latest
                if watch is not None:
                    plans.append((session_id, watch, known, last_seq))
            wanted = {
                session_id: (known, last_seq)
                for session_id, _watch, known, last_seq in plans
                if known is not None and 0 < last_seq - known <= self._cache_size
            }
            found = self._read_new(conn, wanted)
        for session_id, watch, known, last_seq in plans:
            events = found.get(session_id)
            with self._lock:
                self._store(watch, known, last_seq, events)
                waiting = [s for s in watch.subscribers if s.position < last_seq]
            for subscription in waiting:
                subscription._wake()

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
            watch.base = last_seq
        else:
            watch.events.extend(events)
            overflow = len(watch.events) - self._cache_size
            for _ in range(max(0, overflow)):
                watch.events.popleft()
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
