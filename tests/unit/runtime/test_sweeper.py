"""Sweeper: a turn whose worker died is failed ``worker_lost`` within one interval."""

from __future__ import annotations

import logging
import threading
import time
from datetime import datetime, timedelta

import pytest
import sqlalchemy as sa
from tests.support.databases import new_session

from charlotte.events import EventTypes, utc_now
from charlotte.runtime import InlineQueue, Turns
from charlotte.runtime.sweeper import Sweeper
from charlotte.storage import DatabaseEventLog, SessionStore, transaction
from charlotte.storage.tables import turns as turns_table

WAIT = 30.0
TENANT = "tenant-a"


class _Watched:
    """Wraps a sweep function; signals each sweep and the turns it failed."""

    def __init__(self, sweep: object) -> None:
        self._sweep = sweep
        self.calls = 0
        self.swept: list[str] = []
        self.changed = threading.Condition()

    def sweep(self, now: datetime | None = None) -> list[str]:
        try:
            result: list[str] = self._sweep(now)  # type: ignore[operator]
            with self.changed:
                self.swept.extend(result)
            return result
        finally:
            with self.changed:
                self.calls += 1
                self.changed.notify_all()

    def wait_for(self, predicate: object, timeout: float = WAIT) -> bool:
        with self.changed:
            return self.changed.wait_for(predicate, timeout)  # type: ignore[arg-type]


def _running_turn(engine: sa.Engine, turns: Turns) -> tuple[str, str]:
    session_id = new_session(engine, tenant=TENANT).id
    turn = turns.send(session_id, TENANT, "Build a bakery page", "user-1")
    assert turns.claim(turn.id) is not None
    return session_id, turn.id


def _age_heartbeat(engine: sa.Engine, turn_id: str, by: timedelta) -> None:
    # What a dead worker leaves behind: a heartbeat that stopped moving.
    with transaction(engine) as conn:
        conn.execute(
            sa.update(turns_table)
            .where(turns_table.c.id == turn_id)
            .values(heartbeat_at=utc_now() - by)
        )


def test_a_stale_turn_is_failed_worker_lost_within_one_interval(sqlite_engine: sa.Engine) -> None:
    turns = Turns(sqlite_engine, InlineQueue(lambda _: None), heartbeat_timeout=timedelta(seconds=30))
    session_id, turn_id = _running_turn(sqlite_engine, turns)
    watched = _Watched(turns.sweep)
    interval = 0.5
    sweeper = Sweeper(watched, interval_seconds=interval)
    sweeper.start()
    try:
        # The first sweep finds a fresh heartbeat and leaves the turn alone.
        assert watched.wait_for(lambda: watched.calls >= 1)
        assert watched.swept == []
        _age_heartbeat(sqlite_engine, turn_id, timedelta(minutes=5))
        aged_at = time.monotonic()

        assert watched.wait_for(lambda: turn_id in watched.swept)
        elapsed = time.monotonic() - aged_at
    finally:
        assert sweeper.stop(timeout=WAIT) is True

    # One interval, plus slack for a loaded machine.
    assert elapsed < interval + 2.0
    ended = turns.get(turn_id)
    assert ended is not None and (ended.status, ended.error_code) == ("failed", "worker_lost")
    with transaction(sqlite_engine) as conn:
        session = SessionStore().get(conn, session_id, TENANT)
    assert session is not None and session.status == "idle"
    # The lost turn is never re-run; the session takes a new turn.
    assert turns.claim(turn_id) is None
    second = turns.send(session_id, TENANT, "Try again", "user-1")
    log = DatabaseEventLog().read(sqlite_engine, session_id)
    assert [(e.type, dict(e.payload)) for e in log] == [
        (EventTypes.TURN_QUEUED, {"turn_id": turn_id, "message": "Build a bakery page"}),
        (EventTypes.TURN_STARTED, {"turn_id": turn_id}),
        (EventTypes.RUN_FAILED, {"turn_id": turn_id, "code": "worker_lost"}),
        (EventTypes.TURN_QUEUED, {"turn_id": second.id, "message": "Try again"}),
    ]


def test_sweep_once_sweeps_in_the_callers_thread(sqlite_engine: sa.Engine) -> None:
    turns = Turns(sqlite_engine, InlineQueue(lambda _: None), heartbeat_timeout=timedelta(seconds=30))
    _, fresh = _running_turn(sqlite_engine, turns)
    _, stale = _running_turn(sqlite_engine, turns)
    _age_heartbeat(sqlite_engine, stale, timedelta(seconds=31))
    sweeper = Sweeper(turns, interval_seconds=60)

    assert sweeper.sweep_once() == [stale]
    assert sweeper.sweep_once() == []
    assert not sweeper.running
    fresh_turn = turns.get(fresh)
    assert fresh_turn is not None and fresh_turn.status == "running"


def test_stop_wakes_the_sweeper_at_once_and_it_does_not_spin() -> None:
    watched = _Watched(lambda now: [])
    sweeper = Sweeper(watched, interval_seconds=3600)
    sweeper.start()
    assert watched.wait_for(lambda: watched.calls >= 1)
    assert sweeper.running
    # A spinning loop would sweep again within this bounded look.
    assert not watched.wait_for(lambda: watched.calls >= 2, timeout=0.3)

    started = time.monotonic()
    assert sweeper.stop(timeout=WAIT) is True

    assert time.monotonic() - started < 5.0
    assert not sweeper.running
    # An hour's interval: one sweep at start, none while waiting.
    assert watched.calls == 1


def test_a_failing_sweep_is_logged_and_sweeping_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    failures = iter([RuntimeError("database went away: secret-host")])

    def sweep(now: datetime | None) -> list[str]:
        for error in failures:
            raise error
        return ["t1"]

    watched = _Watched(sweep)
    sweeper = Sweeper(watched, interval_seconds=0.01)
    with caplog.at_level(logging.WARNING, logger="charlotte.runtime.sweeper"):
        sweeper.start()
        try:
            assert watched.wait_for(lambda: watched.calls >= 3)
        finally:
            assert sweeper.stop(timeout=WAIT) is True

    [failed] = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert "correlation id" in failed.getMessage() and failed.exc_info is not None
    assert watched.swept[:2] == ["t1", "t1"]


def test_the_interval_must_be_positive_and_finite() -> None:
    for interval in (0, -1, float("inf"), float("nan"), True):
        with pytest.raises(ValueError):
            Sweeper(_Watched(lambda now: []), interval_seconds=interval)


def test_a_sweeper_starts_once() -> None:
    sweeper = Sweeper(_Watched(lambda now: []), interval_seconds=3600)
    assert sweeper.stop() is True  # never started: nothing to join
    with sweeper, pytest.raises(RuntimeError):
        sweeper.start()
    assert not sweeper.running
