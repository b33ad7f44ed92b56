"""The soak: 20 sessions x 10 offline turns through Celery and PostgreSQL, under abuse.

Two real worker processes (``tests.support.celery_worker``, offline model)
run the turns; one driver thread per session sends them one after the
other, races human edits against the agent and sometimes stops a turn. A
third of the way in, one worker is SIGKILLed while both are mid-turn: the
sweeper must fail its turn ``worker_lost``, and a replacement worker takes
over. Afterwards every session must be idle and take a new turn, every event
log must be gap-free and schema-valid, and every draft must be a valid page
equal to its op history replayed onto the initial empty draft.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import timedelta
from pathlib import Path
from typing import Final

import pytest
from tests.support.celery_harness import (
    REDIS_ENV,
    Broker,
    Database,
    Worker,
    open_session,
    postgres_database,
    wait_until,
    worker,
)
from tests.support.databases import POSTGRES_ENV
from tests.support.soak import Figures, SoakDriver, active_turns, check_session, running_count

from charlotte.drafts.workspace import Workspace
from charlotte.runtime import Sweeper, Turns

SESSIONS: Final = 20
TURNS_PER_SESSION: Final = 10
TURN_DEADLINE: Final = 120.0  # a cold worker imports Celery and the model runtime first
# Workers beat every 0.2 s; 5 s keeps a live turn from being swept when a
# loaded 2-core CI machine delays a beat, at the price of a slower sweep after the kill.
HEARTBEAT_TIMEOUT: Final = timedelta(seconds=5)

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]


@pytest.fixture(scope="module")
def database() -> Iterator[Database]:
    url = os.environ.get(POSTGRES_ENV, "").strip()
    if not url:
        pytest.skip(f"{POSTGRES_ENV} is not set: the soak needs PostgreSQL")
    if not os.environ.get(REDIS_ENV, "").strip():
        pytest.skip(f"{REDIS_ENV} is not set: the soak needs Redis")
    with postgres_database(url, "charlotte_soak", pool_size=SESSIONS + 5) as made:
        yield made


def _kill_one_mid_turn(
    workers: list[Worker], driver_done: threading.Event, session_ids: list[str], figures: Figures,
    database: Database, after_turns: int,
) -> Worker | None:
    """Once ``after_turns`` turns were sent, SIGKILL a worker while both run a turn."""
    pause = threading.Event()
    while not driver_done.is_set():
        if figures.turns_sent >= after_turns and running_count(database.engine, session_ids) >= 2:
            victim = workers[0]
            victim.kill()
            figures.add("workers_killed")
            return victim
        pause.wait(0.005)
    return None


def _worker_failures(folder: Path) -> str:
    """What the workers logged about failed turns (the tracebacks behind ``run_failed``)."""
    found: list[str] = []
    for log in sorted(folder.glob("worker-*.log")):
        lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
        for at, line in enumerate(lines):
            if "failed (correlation" in line or "Traceback" in line:
                found.append(f"{log.name}: " + "\n".join(lines[at : at + 40]))
    return "\n\n".join(found) or "no failure in the worker logs"


def test_soak_twenty_sessions_through_celery_and_postgres(
    database: Database, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    started = time.monotonic()
    broker = Broker.fresh()
    queue = broker.queue_for_turns()
    turns = Turns(database.engine, queue, heartbeat_timeout=HEARTBEAT_TIMEOUT)
    workspace = Workspace(database.engine)
    sessions = [open_session(database.engine) for _ in range(SESSIONS)]
    session_ids = [s.id for s in sessions]
    figures = Figures()
    driver = SoakDriver(
        database.engine, turns, workspace, figures,
        turns_per_session=TURNS_PER_SESSION, turn_deadline=TURN_DEADLINE,
    )
    try:
        with ExitStack() as stack, Sweeper(turns, interval_seconds=0.5):
            workers = [
                stack.enter_context(worker(tmp_path, database, broker, "offline", heartbeat_seconds="0.2"))
                for _ in range(2)
            ]
            threads = [
                threading.Thread(target=driver.run_session, args=(s, i), name=f"soak-{i}")
                for i, s in enumerate(sessions)
            ]
            for thread in threads:
                thread.start()
            done = threading.Event()
            killed = _kill_one_mid_turn(
                workers, done, session_ids, figures, database, SESSIONS * TURNS_PER_SESSION // 3
            )
            if killed is not None:
                # The dead worker's unstarted message, if it held one, is
                # restored by a replacement that gives up on unacked messages
                # after a second; a redelivered turn that already ran is refused by its claim.
                stack.enter_context(worker(
                    tmp_path, database, broker, "offline", heartbeat_seconds="0.2",
                    visibility_timeout="1", restore_interval="1",
                ))
            for thread in threads:
                thread.join(timeout=TURN_DEADLINE * TURNS_PER_SESSION)
            done.set()
            assert not [t.name for t in threads if t.is_alive()], "driver threads still running"
            assert driver.failures == []

            # No turn stuck: everything queued or running ends (the sweeper included).
            wait_until(lambda: not active_turns(database.engine, session_ids), TURN_DEADLINE, "no active turn")

            # Every session is usable: a new turn runs to its end.
            fresh = [turns.send(s.id, s.tenant, "One more pass", "ann") for s in sessions]
            wait_until(
                lambda: all(not (t := turns.get(f.id)) or not t.active for f in fresh),
                TURN_DEADLINE, "the fresh turns to end",
            )
            ended = [turns.get(f.id) for f in fresh]
            assert [t.status for t in ended if t is not None] == ["finished"] * SESSIONS
        problems: list[str] = []
        for session in sessions:
            found, events, ops = check_session(database.engine, session)
            problems += [f"{session.id}: {p}" for p in found]
            figures.add("events_checked", events)
            figures.add("ops_replayed", ops)
    finally:
        broker.clear()

    with capsys.disabled():
        print()
        for line in figures.lines():
            print(line)
        print(f"soak: {SESSIONS} sessions x {TURNS_PER_SESSION} turns in {time.monotonic() - started:.1f} s")
    assert problems == [], "\n".join(problems[:20])
    assert figures.turns_sent == SESSIONS * TURNS_PER_SESSION
    assert figures.workers_killed == 1
    # One worker died: at most its one turn was lost, and only that way does a turn fail.
    assert figures.worker_lost <= 1
    assert figures.turns_failed == figures.worker_lost, _worker_failures(tmp_path)
    assert figures.edits_raced > 0 and figures.stops > 0
    # A raced edit either lands or finds its revision stale: anything else
    # (a deadlock's busy, a storage conflict) is a bug in how writers meet.
    assert figures.edits_refused == 0, figures.other_codes
    assert figures.turns_finished + figures.turns_stopped + figures.turns_failed == figures.turns_sent
