"""Sweeper: besides sweeping, it re-delivers turns left queued; the first pass recovers what predates the start."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta

import sqlalchemy as sa
from tests.support.databases import new_session

from charlotte.events import utc_now
from charlotte.runtime import InlineQueue, Turns
from charlotte.runtime.sweeper import Sweeper

WAIT = 30.0


class Calls:
    """A sweep and re-delivery port that records what it was asked."""

    def __init__(self, fail_first: bool = False) -> None:
        self.cutoffs: list[datetime | None] = []
        self.fail_first = fail_first
        self.changed = threading.Condition()

    def sweep(self, now: datetime | None = None) -> list[str]:
        return []

    def redeliver(self, queued_before: datetime | None = None) -> list[str]:
        with self.changed:
            self.cutoffs.append(queued_before)
            self.changed.notify_all()
        if self.fail_first and len(self.cutoffs) == 1:
            raise OSError("database down")
        return []

    def wait_for(self, count: int) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: len(self.cutoffs) >= count, WAIT)


def test_the_first_pass_passes_the_start_and_later_passes_none() -> None:
    born = utc_now()
    calls = Calls()
    sweeper = Sweeper(calls, interval_seconds=0.01, redeliver=calls, recover_before=born)
    with sweeper:
        assert calls.wait_for(3)
    assert calls.cutoffs[:3] == [born, None, None]


def test_a_first_pass_that_failed_recovers_at_the_next() -> None:
    born = utc_now()
    calls = Calls(fail_first=True)
    with Sweeper(calls, interval_seconds=0.01, redeliver=calls, recover_before=born):
        assert calls.wait_for(3)
    assert calls.cutoffs[:3] == [born, born, None]


def test_without_the_port_nothing_is_redelivered() -> None:
    calls = Calls()
    sweeper = Sweeper(calls, interval_seconds=0.01)
    assert sweeper.redeliver_once() == []
    assert calls.cutoffs == []


def test_redeliver_once_hands_a_left_queued_turn_to_the_queue(sqlite_engine: sa.Engine) -> None:
    session_id = new_session(sqlite_engine, tenant="tenant-a").id
    turn = Turns(sqlite_engine, InlineQueue(lambda _: None)).send(session_id, "tenant-a", "Hi", "user-1")
    handed: list[str] = []
    turns = Turns(sqlite_engine, InlineQueue(handed.append), heartbeat_timeout=timedelta(seconds=30))
    sweeper = Sweeper(turns, interval_seconds=30, redeliver=turns, recover_before=utc_now())

    assert sweeper.redeliver_once() == [turn.id]
    assert sweeper.redeliver_once() == []  # the start was recovered; it is younger than the timeout
    assert handed == [turn.id]
