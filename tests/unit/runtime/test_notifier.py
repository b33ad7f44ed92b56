"""The Notifier: one thread, one query per tick for every watched session, wakes only who waits."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy import event
from tests.support.databases import new_session
from tests.support.waiting import eventually

from charlotte.events import AGENT_ACTOR, Event, EventTypes
from charlotte.runtime.notifier import Notifier, Subscription
from charlotte.storage import DatabaseEventLog, transaction

LOG = DatabaseEventLog()


def _append(engine: sa.Engine, session_id: str, count: int = 1) -> None:
    with transaction(engine) as conn:
        for index in range(count):
            LOG.append(conn, session_id, EventTypes.TEXT_DELTA, {"text": f"t{index}"}, actor=AGENT_ACTOR)


def _wakes_promptly(subscription: Subscription) -> None:
    """The wait ends by a wake-up, well before its timeout."""
    started = time.monotonic()
    assert subscription.wait(10.0)
    assert time.monotonic() - started < 5.0


@pytest.fixture(params=["sqlite", "postgres"])
def engine(request: pytest.FixtureRequest) -> sa.Engine:
    """The same notifier tests on SQLite and on PostgreSQL (skipped without a server URL)."""
    found: sa.Engine = request.getfixturevalue(f"{request.param}_engine")
    return found


@pytest.fixture
def notifier(engine: sa.Engine) -> Iterator[Notifier]:
    made = Notifier(engine, interval=0.02)
    yield made
    made.close()


def _ticked(notifier: Notifier) -> None:
    """Wait until the notifier has completed one more tick than now (so it knows every watch)."""
    start = notifier.ticks
    eventually(lambda: notifier.ticks >= start + 2)


def test_subscriber_wakes_when_its_session_advances(engine: sa.Engine, notifier: Notifier) -> None:
    session = new_session(engine)
    subscription = notifier.subscribe(session.id)
    _ticked(notifier)
    assert not subscription.pending()
    _append(engine, session.id)
    _wakes_promptly(subscription)
    subscription.seen(1)
    assert not subscription.pending()


def test_wait_times_out_when_nothing_happens(engine: sa.Engine, notifier: Notifier) -> None:
    session = new_session(engine)
    subscription = notifier.subscribe(session.id)
    _ticked(notifier)
    assert subscription.wait(0.05) is False


def test_events_committed_before_the_first_tick_are_not_missed(
    engine: sa.Engine, notifier: Notifier
) -> None:
    session = new_session(engine)
    # Committed before the watch exists, so surely before the tick that first
    # looks at it (appending after subscribe would race that tick).
    _append(engine, session.id, 2)
    subscription = notifier.subscribe(session.id)
    _wakes_promptly(subscription)
    # First sight caches nothing: the reader replays from the log.
    assert subscription.cached(0) is None
    assert subscription.pending()


def test_new_events_are_read_once_into_the_cache(engine: sa.Engine, notifier: Notifier) -> None:
    session = new_session(engine)
    subscription = notifier.subscribe(session.id)
    _ticked(notifier)
    _append(engine, session.id, 3)
    _wakes_promptly(subscription)
    eventually(lambda: len(subscription.cached(0) or []) == 3)
    events = subscription.cached(0)
    assert events is not None
    assert [event.seq for event in events] == [1, 2, 3]
    assert subscription.cached(2) == events[2:]
    assert subscription.cached(3) == []
    assert events[0].payload == {"text": "t0"}
    # One object per event for every reader: read once, not once per subscriber.
    other = notifier.subscribe(session.id)
    assert other.cached(0) is not None and all(a is b for a, b in zip(other.cached(0) or [], events, strict=True))


def test_cache_keeps_only_the_newest_frames(engine: sa.Engine) -> None:
    notifier = Notifier(engine, interval=0.02, cache_size=2)
    try:
        session = new_session(engine)
        subscription = notifier.subscribe(session.id)
        _ticked(notifier)
        _append(engine, session.id, 1)
        _ticked(notifier)
        _append(engine, session.id, 2)
        _ticked(notifier)
        assert subscription.cached(0) is None  # seq 1 fell out: read the log
        assert subscription.cached(1) is not None
        _append(engine, session.id, 5)  # more than the cache holds at once
        _ticked(notifier)
        assert subscription.cached(3) is None
        assert subscription.cached(8) == []
    finally:
        notifier.close()


def test_one_query_per_tick_whatever_the_number_of_subscribers(engine: sa.Engine) -> None:
    statements: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if "charlotte_sessions" in statement:
            statements.append(statement)

    event.listen(engine, "before_cursor_execute", record)
    notifier = Notifier(engine, interval=0.02)
    try:
        sessions = [new_session(engine) for _ in range(5)]
        subscriptions = [notifier.subscribe(s.id) for s in sessions for _ in range(20)]
        assert notifier.subscriber_count() == 100
        _ticked(notifier)
        statements.clear()
        before = notifier.ticks
        _ticked(notifier)
        ticks = notifier.ticks - before
        assert ticks >= 2
        # A tick may be under way when we read the counters: allow one.
        assert ticks <= len(statements) <= ticks + 1
        for subscription in subscriptions:
            subscription.close()
    finally:
        notifier.close()
        event.remove(engine, "before_cursor_execute", record)


def test_idle_notifier_runs_no_queries(engine: sa.Engine, notifier: Notifier) -> None:
    session = new_session(engine)
    subscription = notifier.subscribe(session.id)
    _ticked(notifier)
    subscription.close()
    assert notifier.subscriber_count(session.id) == 0
    eventually(lambda: notifier._kick.is_set() is False)
    ticks = notifier.ticks
    # Nobody subscribed: the thread sleeps until a subscribe or close.
    assert not notifier._kick.wait(0.1)
    assert notifier.ticks <= ticks + 1


def test_wait_async_wakes_the_event_loop_reader(engine: sa.Engine, notifier: Notifier) -> None:
    session = new_session(engine)

    async def follow() -> bool:
        subscription = notifier.subscribe(session.id)
        await asyncio.to_thread(_ticked, notifier)
        writer = threading.Thread(target=_append, args=(engine, session.id))
        writer.start()
        started = time.monotonic()
        woke = await subscription.wait_async(10.0)
        writer.join()
        subscription.close()
        return woke and time.monotonic() - started < 5.0

    assert asyncio.run(follow())


def test_wait_async_times_out(engine: sa.Engine, notifier: Notifier) -> None:
    session = new_session(engine)

    async def follow() -> bool:
        subscription = notifier.subscribe(session.id)
        await asyncio.to_thread(_ticked, notifier)
        return await subscription.wait_async(0.05)

    assert asyncio.run(follow()) is False


def test_closing_the_notifier_wakes_waiters_and_stops_the_thread(
    engine: sa.Engine,
) -> None:
    notifier = Notifier(engine, interval=0.02)
    session = new_session(engine)
    subscription = notifier.subscribe(session.id)
    _ticked(notifier)
    result: list[bool] = []
    waiter = threading.Thread(target=lambda: result.append(subscription.wait(30.0)))
    waiter.start()
    eventually(lambda: subscription._armed)
    notifier.close()
    waiter.join(5.0)
    assert not waiter.is_alive()
    assert subscription.closed
    assert notifier._thread is not None and not notifier._thread.is_alive()
    with pytest.raises(RuntimeError):
        notifier.subscribe(session.id)


def test_a_notifier_nobody_subscribed_to_never_ticks(engine: sa.Engine, notifier: Notifier) -> None:
    session = new_session(engine)
    assert notifier.subscriber_count(session.id) == 0
    assert notifier.ticks == 0


def test_a_failing_tick_keeps_the_thread_serving(engine: sa.Engine, notifier: Notifier) -> None:
    session = new_session(engine)
    subscription = notifier.subscribe(session.id)
    _ticked(notifier)
    original = notifier._tick
    failures: list[int] = []

    def fail_once(watched: list[str]) -> None:
        if not failures:
            failures.append(1)
            raise KeyError("not a storage error")
        original(watched)

    notifier._tick = fail_once  # type: ignore[method-assign]
    _append(engine, session.id)
    _wakes_promptly(subscription)
    assert failures == [1]


def test_one_events_query_per_tick_for_every_session_that_advanced(engine: sa.Engine) -> None:
    # Twelve sessions advance between two ticks: their new events come in one
    # read, not one per session (and not one connection checkout per session).
    statements: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if "FROM charlotte_events" in statement:
            statements.append(statement)

    # A tick only when kicked, so that all the rows are in before it reads.
    notifier = Notifier(engine, interval=3_600)

    def tick() -> None:
        start = notifier.ticks
        notifier._kick.set()
        eventually(lambda: notifier.ticks > start)

    try:
        sessions = [new_session(engine) for _ in range(12)]
        subscriptions = [notifier.subscribe(s.id) for s in sessions]
        for session in sessions:
            _append(engine, session.id)
        tick()  # each session seen once: nothing cached yet
        tick()
        event.listen(engine, "before_cursor_execute", record)
        for session in sessions:
            _append(engine, session.id, 2)
        statements.clear()
        tick()
        assert len(statements) == 1
        for session, subscription in zip(sessions, subscriptions, strict=True):
            found = subscription.cached(1)
            assert found is not None and [e.seq for e in found] == [2, 3], session.id
    finally:
        event.remove(engine, "before_cursor_execute", record)
        notifier.close()


def test_a_failing_batch_read_falls_back_to_each_session_on_its_own(
    engine: sa.Engine, notifier: Notifier
) -> None:
    sessions = [new_session(engine) for _ in range(3)]
    subscriptions = [notifier.subscribe(s.id) for s in sessions]
    _ticked(notifier)

    def broken(_conn: Any, _wanted: Any) -> Any:
        raise sa.exc.OperationalError("SELECT", {}, Exception("gone"))

    notifier._log.read_many = broken  # type: ignore[attr-defined]
    for session in sessions:
        _append(engine, session.id)
    for subscription in subscriptions:
        _wakes_promptly(subscription)
        found = subscription.cached(0)
        assert found is not None and [e.seq for e in found] == [1]


def _kicked(notifier: Notifier) -> None:
    """One more tick of a notifier that ticks only when kicked."""
    start = notifier.ticks
    notifier._kick.set()
    eventually(lambda: notifier.ticks > start)


def test_every_waiting_reader_of_a_loop_is_woken_by_one_call_into_it(engine: sa.Engine) -> None:
    # Thirty readers of three sessions wait on one event loop: a tick that
    # sees all three advance wakes them with one cross-thread call, not thirty.
    notifier = Notifier(engine, interval=3_600)
    sessions = [new_session(engine) for _ in range(3)]

    async def follow() -> tuple[list[bool], int]:
        loop = asyncio.get_running_loop()
        from_notifier: list[object] = []
        original = loop.call_soon_threadsafe

        def counted(callback: Any, *args: Any, **kwargs: Any) -> Any:
            if threading.current_thread().name == "charlotte-notifier":
                from_notifier.append(callback)
            return original(callback, *args, **kwargs)

        loop.call_soon_threadsafe = counted  # type: ignore[method-assign]
        subscriptions = [notifier.subscribe(s.id) for s in sessions for _ in range(10)]
        await asyncio.to_thread(_kicked, notifier)
        await asyncio.to_thread(_kicked, notifier)  # every session seen
        waits = [asyncio.create_task(s.wait_async(10.0)) for s in subscriptions]
        await asyncio.sleep(0)  # every reader armed and waiting
        for session in sessions:
            _append(engine, session.id)
        await asyncio.to_thread(_kicked, notifier)
        woke = await asyncio.wait_for(asyncio.gather(*waits), 10.0)
        for subscription in subscriptions:
            subscription.close()
        return woke, len(from_notifier)

    try:
        woke, calls = asyncio.run(follow())
    finally:
        notifier.close()
    assert all(woke) and len(woke) == 30
    assert calls == 1


def test_a_cached_event_is_rendered_once_for_every_reader(engine: sa.Engine) -> None:
    notifier = Notifier(engine, interval=3_600, cache_size=3)
    session = new_session(engine)
    subscriptions = [notifier.subscribe(session.id) for _ in range(10)]
    rendered: list[int] = []

    def render(found: Event) -> bytes:
        rendered.append(found.seq)
        return f"frame {found.seq}".encode()

    try:
        _kicked(notifier)
        _kicked(notifier)
        _append(engine, session.id, 2)
        _kicked(notifier)
        frames = [s.rendered(0, render) for s in subscriptions]
        assert frames == [[(1, b"frame 1"), (2, b"frame 2")]] * 10
        assert rendered == [1, 2]  # once each, for ten readers
        assert subscriptions[0].rendered(1, render) == [(2, b"frame 2")] and rendered == [1, 2]
        # Another rendering is never handed the shared frames, nor stored.
        assert subscriptions[0].rendered(0, lambda found: b"other") == [(1, b"other"), (2, b"other")]
        assert subscriptions[1].rendered(0, render) == frames[0] and rendered == [1, 2]
        # Frames leave with their events: the cache holds three, so do the frames.
        _append(engine, session.id, 2)
        _kicked(notifier)
        assert subscriptions[0].rendered(0, render) is None  # seq 1 fell out: read the log
        assert subscriptions[0].rendered(1, render) == [(2, b"frame 2"), (3, b"frame 3"), (4, b"frame 4")]
        assert sorted(subscriptions[0]._watch.frames) == [2, 3, 4]
    finally:
        notifier.close()


def test_a_tick_looks_only_at_the_readers_of_sessions_that_advanced(
    engine: sa.Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Fifty watched sessions, ten readers each; one advances. The tick's work
    # after its one query is that session's readers, not all five hundred.
    notifier = Notifier(engine, interval=3_600)
    sessions = [new_session(engine) for _ in range(50)]
    subscriptions = [notifier.subscribe(s.id) for s in sessions for _ in range(10)]
    looked: list[int] = []
    position = Subscription.position

    def counted(self: Subscription) -> int:
        if threading.current_thread().name == "charlotte-notifier":
            looked.append(1)
        return position.fget(self)  # type: ignore[no-any-return, attr-defined]

    try:
        _kicked(notifier)
        _kicked(notifier)  # every session seen (a tick reads the watched sessions before it waits)
        monkeypatch.setattr(Subscription, "position", property(counted))
        _append(engine, sessions[7].id)
        _kicked(notifier)
        assert len(looked) == 10
        _kicked(notifier)  # nothing advanced: nobody looked at
        assert len(looked) == 10
        assert [s.pending() for s in subscriptions].count(True) == 10
    finally:
        notifier.close()


def test_ticks_keep_their_interval_when_a_tick_takes_a_while(engine: sa.Engine) -> None:
    # A tick that takes 40 % of the interval: the next one still begins one
    # interval after the last began (not an interval after it ended).
    def slow(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if threading.current_thread().name == "charlotte-notifier" and "charlotte_sessions" in statement:
            time.sleep(0.08)

    notifier = Notifier(engine, interval=0.2)
    event.listen(engine, "before_cursor_execute", slow)
    try:
        session = new_session(engine)
        notifier.subscribe(session.id)
        eventually(lambda: notifier.ticks >= 1)
        start = notifier.ticks
        time.sleep(3.0)
        # Every 0.2 s: about fifteen; an interval after each tick's end (0.28 s): at most eleven.
        assert notifier.ticks - start >= 13
    finally:
        notifier.close()
        event.remove(engine, "before_cursor_execute", slow)
