"""A turn left ``queued`` never holds its session: it is picked up again, stopped at once, or retried.

- A host process killed (SIGKILL) while a turn waited in its thread queue:
  the next ``Charlotte`` on the same SQLite file runs that turn on start-up,
  and its sweeper ends the killed process's running turn ``worker_lost``.
- A live process still holding the turn in its queue: the other process runs
  it, and the first one's late delivery is a no-op (one ``turn.started``).
- ``stop`` on a queued turn ends it at once with ``turn.stopped``.
- A claim that fails on a database error (SQLite's write lock held by
  another connection) is retried by the thread queue, and the turn runs.

After each, the session takes a new turn. Real processes, real SQLite, the
real runner with a scripted model; every wait has a deadline.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final, TypeVar

import pytest
from tests.support.dead_host import BRIEF, settings_for
from tests.support.runner_harness import Harness
from tests.support.waiting import wait_until

from charlotte.app import Charlotte
from charlotte.events import EventTypes, schema_errors
from charlotte.runtime import InlineQueue, Turns
from charlotte.runtime.queues import ThreadQueue
from charlotte.session import CharlotteSession
from charlotte.storage import DatabaseEventLog, create_tables, open_engine
from charlotte.testing import ScriptedModel, ToolCall

ROOT: Final = Path(__file__).resolve().parents[2]
WAIT: Final = 20.0
T = TypeVar("T")


def ended(turns: Turns, turn_id: str) -> Callable[[], str | None]:
    def check() -> str | None:
        turn = turns.get(turn_id)
        return None if turn is None or turn.active else turn.status

    return check


def log_of(charlotte: Charlotte, session_id: str) -> list[tuple[str, dict[str, Any]]]:
    read = DatabaseEventLog().read(charlotte.engine, session_id, 0, 1000)
    assert [e.seq for e in read] == list(range(1, len(read) + 1))
    assert [schema_errors(e) for e in read] == [[] for _ in read]
    return [(e.type, dict(e.payload)) for e in read]


def quick_model() -> ScriptedModel:
    return ScriptedModel([ToolCall("cms_facts", {})])


def takes_a_new_turn(charlotte: Charlotte, session: CharlotteSession) -> None:
    again = session.send("Once more")
    assert wait_until(ended(charlotte.turns, again["id"]), WAIT, "the next turn") == "finished"


class Gate:
    """A scripted step that waits until the test opens the gate (bounded)."""

    def __init__(self) -> None:
        self.reached = threading.Event()
        self.opened = threading.Event()

    def __call__(self, _results: list[Any]) -> dict[str, Any]:
        self.reached.set()
        self.opened.wait(WAIT)
        return {}


def busy_host(path: Path, gate: Gate) -> tuple[Charlotte, CharlotteSession, CharlotteSession, str]:
    """A host whose one worker is held by the gate, and a second session whose turn waits behind it."""
    charlotte = Charlotte(
        settings_for(str(path)),
        model_factory=lambda: ScriptedModel([ToolCall("cms_read", gate)]),
    )
    charlotte.migrate()
    held, waiting = (
        charlotte.for_user("ann").tenant("acme").page(page).brief(BRIEF).open() for page in ("home", "about")
    )
    held.send("Build the home page")
    assert gate.reached.wait(WAIT)
    queued = waiting.send("Build the about page")
    assert queued["status"] == "queued"
    return charlotte, held, waiting, queued["id"]


@pytest.fixture
def gate() -> Iterator[Gate]:
    made = Gate()
    yield made
    made.opened.set()


def test_a_turn_queued_in_a_killed_process_runs_in_the_next_one(tmp_path: Path) -> None:
    path = tmp_path / "dead.db"
    with subprocess.Popen(
        [sys.executable, "-m", "tests.support.dead_host", str(path)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
    ) as host:
        # Should it hang before printing, the kill ends the read too.
        bound = threading.Timer(60, host.kill)
        bound.start()
        try:
            assert host.stdout is not None
            line = host.stdout.readline().decode()
        finally:
            bound.cancel()
            os.kill(host.pid, signal.SIGKILL)
            host.wait(timeout=30)
    placed = json.loads(line)
    (running_session, running_turn), (queued_session, queued_turn) = placed["running"], placed["queued"]

    successor = Charlotte(settings_for(str(path)), model_factory=quick_model)
    try:
        successor.migrate()  # the first use starts the sweeper, which recovers what was queued
        turns = successor.turns
        assert wait_until(ended(turns, queued_turn), WAIT, "the left-behind turn") == "finished"
        assert wait_until(ended(turns, running_turn), WAIT, "the killed turn's sweep") == "failed"
        killed = turns.get(running_turn)
        assert killed is not None and killed.error_code == "worker_lost"

        log = log_of(successor, queued_session)
        assert [t for t, _ in log].count(EventTypes.TURN_STARTED) == 1
        assert log[-1][0] == EventTypes.TURN_FINISHED
        assert {k: log[-1][1][k] for k in ("turn_id", "ready")} == {"turn_id": queued_turn, "ready": False}
        for session_id in (queued_session, running_session):
            session = successor.find(session_id, "acme", user="ann")
            assert session is not None and session.status()["status"] == "idle"
            takes_a_new_turn(successor, session)
    finally:
        successor.close()


def test_a_turn_a_live_process_still_holds_runs_once(tmp_path: Path, gate: Gate) -> None:
    path = tmp_path / "live.db"
    first, held, waiting, turn_id = busy_host(path, gate)
    second = Charlotte(settings_for(str(path)), model_factory=quick_model)
    try:
        second.migrate()
        assert wait_until(ended(second.turns, turn_id), WAIT, "the other process to run it") == "finished"

        # The first process's worker gets to its copy of the turn: nothing to claim.
        gate.opened.set()
        assert wait_until(lambda: first.turns.get(turn_id) and held.status()["status"] == "idle", WAIT, "the held turn")
        first.close()
        log = log_of(second, waiting.id)
        assert [t for t, _ in log].count(EventTypes.TURN_STARTED) == 1
        assert [t for t, _ in log].count(EventTypes.TURN_FINISHED) == 1
        session = second.find(waiting.id, "acme", user="ann")
        assert session is not None
        takes_a_new_turn(second, session)
    finally:
        gate.opened.set()
        first.close()
        second.close()


def test_stop_ends_a_queued_turn_at_once(tmp_path: Path, gate: Gate) -> None:
    charlotte, _, waiting, turn_id = busy_host(tmp_path / "stop.db", gate)
    try:
        answer = waiting.stop()

        assert answer == {"stop_requested": True, "status": "idle"}
        turn = charlotte.turns.get(turn_id)
        assert turn is not None and turn.status == "stopped" and turn.finished_at is not None
        log = log_of(charlotte, waiting.id)
        assert log[-1] == (EventTypes.TURN_STOPPED, {"turn_id": turn_id})
        assert EventTypes.TURN_STARTED not in [t for t, _ in log]
        assert waiting.stop()["stop_requested"] is False  # nothing left to stop

        # The session takes a new turn at once; the stopped one, reaching the
        # worker after it, is never started.
        again = waiting.send("Build it after all")
        gate.opened.set()
        assert wait_until(ended(charlotte.turns, again["id"]), WAIT, "the new turn") == "finished"
        types = [t for t, _ in log_of(charlotte, waiting.id)]
        assert types.count(EventTypes.TURN_STARTED) == 1
        stopped = charlotte.turns.get(turn_id)
        assert stopped is not None and stopped.status == "stopped" and stopped.started_at is None
    finally:
        gate.opened.set()
        charlotte.close()


class Retries(logging.Handler):
    """Counts the thread queue's "retry" warnings."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.seen = threading.Event()

    def emit(self, record: logging.LogRecord) -> None:
        if "retry" in record.getMessage():
            self.seen.set()


def test_a_claim_that_fails_on_a_database_error_is_retried(tmp_path: Path) -> None:
    path = tmp_path / "locked.db"
    engine = open_engine(f"sqlite:///{path}", busy_timeout_ms=100)
    create_tables(engine)
    harness = Harness(engine, script=[ToolCall("cms_facts", {})])
    queue = ThreadQueue(harness.runner.run, workers=1)
    retries = Retries()
    logging.getLogger("charlotte.runtime.queues").addHandler(retries)
    lock = sqlite3.connect(path, isolation_level=None, timeout=5)
    try:
        session = harness.open()
        # Committed, then handed to the queue while another writer holds the database.
        turn = Turns(engine, InlineQueue(lambda _: None)).send(session.id, session.tenant, "Build it", "ann")
        lock.execute("BEGIN IMMEDIATE")
        queue.enqueue(turn.id)
        # The claim gives up on the lock after 100 ms; the writer lets go once
        # the queue says it will try again (or after a bound, so the outcome decides).
        assert retries.seen.wait(5.0), "the queue never said it would try again"
        lock.execute("ROLLBACK")

        assert wait_until(ended(harness.turns, turn.id), WAIT, "the retried turn") == "finished"
        types = harness.types(session)
        assert types.count(EventTypes.TURN_STARTED) == 1 and types[-1] == EventTypes.TURN_FINISHED
        again = Turns(engine, queue).send(session.id, session.tenant, "Again", "ann")
        assert wait_until(ended(harness.turns, again.id), WAIT, "the next turn") == "finished"
    finally:
        if lock.in_transaction:
            lock.execute("ROLLBACK")
        lock.close()
        logging.getLogger("charlotte.runtime.queues").removeHandler(retries)
        assert queue.close(timeout=WAIT)
        engine.dispose()
