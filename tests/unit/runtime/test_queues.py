"""Turn queues: the inline queue and its example; ``ThreadQueue``: worker threads, bounded concurrency, failures contained, clean close."""

from __future__ import annotations

import doctest
import logging
import threading
import time
from datetime import timedelta

import pytest
import sqlalchemy as sa
from tests.support.databases import new_session

from charlotte.events import EventTypes
from charlotte.runtime import Turns, queues
from charlotte.runtime.queues import ThreadQueue
from charlotte.storage import DatabaseEventLog

WAIT = 30.0


def test_turns_run_on_worker_threads_in_order_of_arrival() -> None:
    ran: list[tuple[str, str]] = []
    queue = ThreadQueue(lambda t: ran.append((t, threading.current_thread().name)), workers=1)

    for turn_id in ("t1", "t2", "t3"):
        queue.enqueue(turn_id)

    assert queue.close(timeout=WAIT) is True
    assert [t for t, _ in ran] == ["t1", "t2", "t3"]
    assert {name for _, name in ran} == {"charlotte-turns-1"}
    assert threading.current_thread().name not in {name for _, name in ran}


def test_up_to_workers_turns_run_at_once_and_no_more() -> None:
    lock = threading.Lock()
    gate = threading.Event()
    both_in = threading.Event()
    active = 0
    most = 0
    started: list[str] = []

    def run(turn_id: str) -> None:
        nonlocal active, most
        with lock:
            active += 1
            most = max(most, active)
            started.append(turn_id)
            if active == 2:
                both_in.set()
        gate.wait(WAIT)
        with lock:
            active -= 1

    queue = ThreadQueue(run, workers=2, name="bounded")
    for number in range(5):
        queue.enqueue(f"t{number}")
    assert queue.workers == 2
    assert len([t for t in threading.enumerate() if t.name.startswith("bounded-")]) == 2

    # Two turns are inside run at the same time; the others wait for a worker.
    assert both_in.wait(WAIT)
    with lock:
        assert sorted(started) == ["t0", "t1"]
    gate.set()
    assert queue.close(timeout=WAIT) is True
    assert most == 2
    assert sorted(started) == [f"t{n}" for n in range(5)]


def test_a_run_that_raises_does_not_stop_later_turns(caplog: pytest.LogCaptureFixture) -> None:
    ran: list[str] = []

    def run(turn_id: str) -> None:
        if turn_id.startswith("bad"):
            raise RuntimeError("secret-host:5432 refused")
        ran.append(turn_id)

    queue = ThreadQueue(run, workers=1)
    with caplog.at_level(logging.ERROR, logger="charlotte.runtime.queues"):
        for turn_id in ("bad-1", "good-1", "bad-2", "good-2"):
            queue.enqueue(turn_id)
        assert queue.close(timeout=WAIT) is True

    assert ran == ["good-1", "good-2"]
    records = [r for r in caplog.records if r.name == "charlotte.runtime.queues"]
    assert [r.args[0] for r in records if isinstance(r.args, tuple)] == ["bad-1", "bad-2"]
    assert all("correlation id" in r.getMessage() for r in records)
    assert all(r.exc_info is not None for r in records)
    # Each failure has its own correlation id.
    assert len({r.getMessage() for r in records}) == 2


def test_close_joins_the_workers_after_the_queued_turns() -> None:
    gate = threading.Event()
    ran: list[str] = []

    def run(turn_id: str) -> None:
        gate.wait(WAIT)
        ran.append(turn_id)

    queue = ThreadQueue(run, workers=2)
    queue.enqueue("t1")
    queue.enqueue("t2")
    queue.enqueue("t3")

    # Still blocked: a bounded close reports the workers alive.
    assert queue.close(timeout=0.05) is False
    with pytest.raises(RuntimeError):
        queue.enqueue("t4")
    gate.set()
    assert queue.close(timeout=WAIT) is True
    assert sorted(ran) == ["t1", "t2", "t3"]
    assert not any(t.is_alive() for t in threading.enumerate() if t.name.startswith("charlotte-turns-"))


def test_workers_must_be_a_positive_integer() -> None:
    for workers in (0, -1, True, 1.5):
        with pytest.raises(ValueError):
            ThreadQueue(lambda _: None, workers=workers)  # type: ignore[arg-type]


def test_the_same_turn_delivered_twice_runs_once(sqlite_engine: sa.Engine) -> None:
    session_id = new_session(sqlite_engine).id
    both = threading.Barrier(2)
    ran: list[str] = []
    skipped: list[str] = []
    holder: list[Turns] = []

    def run(turn_id: str) -> None:
        turns = holder[0]
        # Both deliveries reach the claim together: only the database decides.
        both.wait(WAIT)
        if turns.claim(turn_id) is None:
            skipped.append(turn_id)
            return
        ran.append(turn_id)
        turns.finish(turn_id, ready=True)

    queue = ThreadQueue(run, workers=2)
    turns = Turns(sqlite_engine, queue, heartbeat_timeout=timedelta(seconds=30))
    holder.append(turns)

    turn = turns.send(session_id, "tenant-a", "Build a bakery page", "user-1")
    # Delivered again once a worker holds the first delivery (an id still
    # waiting in the queue is not queued twice).
    deadline = time.monotonic() + WAIT
    while both.n_waiting < 1 and time.monotonic() < deadline:
        time.sleep(0.005)
    queue.enqueue(turn.id)
    assert queue.close(timeout=WAIT) is True

    assert (ran, skipped) == ([turn.id], [turn.id])
    types = [e.type for e in DatabaseEventLog().read(sqlite_engine, session_id)]
    assert types == [EventTypes.TURN_QUEUED, EventTypes.TURN_STARTED, EventTypes.TURN_FINISHED]


def test_docstring_examples_hold() -> None:
    result = doctest.testmod(queues)
    assert result.attempted > 0
    assert result.failed == 0
