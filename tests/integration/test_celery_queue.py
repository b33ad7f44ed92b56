"""The Celery turn queue against a real Redis and a real worker process.

Needs ``CHARLOTTE_TEST_REDIS_URL`` (skipped with the reason otherwise). The
database both processes open is PostgreSQL when ``CHARLOTTE_TEST_DATABASE_URL``
is set (a schema of its own), else a SQLite file in a temp folder. Each worker
listens on a queue name of its own, runs on loopback, and is always ended in
a ``finally``; every wait polls with a deadline.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from tests.support.celery_harness import (
    ROOT,
    TURN,
    WORKER_START,
    Broker,
    Database,
    Worker,
    database_in,
    open_session,
    wait_until,
    worker,
)
from tests.support.celery_worker import BLOCK_OPS

from charlotte.app import Charlotte
from charlotte.contrib.celery import (
    TASK_NAME,
    VISIBILITY_TIMEOUT_SECONDS,
    CeleryQueue,
    celery_app,
)
from charlotte.errors import QueueUnavailable
from charlotte.events import Event, EventTypes
from charlotte.runtime import Turns
from charlotte.settings import Settings
from charlotte.storage import (
    DatabaseEventLog,
    DatabasePageRepository,
    SessionRecord,
    read_connection,
)


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    with database_in(tmp_path_factory.mktemp("celery"), "charlotte_celery") as made:
        yield made


@pytest.fixture
def lone_database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    """A database no other worker of this module sweeps (every worker sweeps its database)."""
    with database_in(tmp_path_factory.mktemp("lone"), "charlotte_celery") as made:
        yield made


def events(engine: sa.Engine, session: SessionRecord) -> list[Event]:
    return DatabaseEventLog().read(engine, session.id, 0, 10_000)


def draft(engine: sa.Engine, session: SessionRecord) -> tuple[dict[str, Any], int] | None:
    with read_connection(engine) as conn:
        return DatabasePageRepository().load_draft(conn, session.tenant, session.page)


def ended(turns: Turns, turn_id: str) -> Callable[[], str | None]:
    def check() -> str | None:
        turn = turns.get(turn_id)
        return None if turn is None or turn.active else turn.status

    return check


# -- configuration (no broker needed) ---------------------------------------------------


def test_the_app_acks_late_never_requeues_a_lost_worker_and_speaks_json() -> None:
    app = celery_app(Settings(broker_url="redis://127.0.0.1:1/0"), lambda: lambda _: None)

    conf = app.conf
    assert (conf.task_acks_late, conf.task_reject_on_worker_lost) == (True, False)
    assert conf.broker_transport_options["visibility_timeout"] == VISIBILITY_TIMEOUT_SECONDS
    assert VISIBILITY_TIMEOUT_SECONDS >= 6 * 3600
    assert (conf.task_serializer, list(conf.accept_content)) == ("json", ["json"])
    assert conf.worker_prefetch_multiplier == 1
    task = app.tasks[TASK_NAME]
    assert (task.acks_late, task.reject_on_worker_lost, task.ignore_result) == (True, False, True)


def test_the_task_runs_the_factorys_function_built_once_and_contains_failures() -> None:
    built: list[int] = []
    ran: list[str] = []

    def factory() -> Callable[[str], None]:
        built.append(1)

        def run(turn_id: str) -> None:
            if turn_id == "bad":
                raise RuntimeError("secret-host:5432")
            ran.append(turn_id)

        return run

    app = celery_app(Settings(broker_url="redis://127.0.0.1:1/0"), factory)
    task = app.tasks[TASK_NAME]

    assert built == []  # a producer never builds the runner
    for turn_id in ("t1", "bad", "t2"):
        task.run(turn_id)
    assert (ran, built) == (["t1", "t2"], [1])


def test_a_worker_app_is_built_by_charlotte_only(tmp_path: Path) -> None:
    # One place wires a worker: Charlotte(settings).worker_app(); its task runs this instance's runner.
    threads = Charlotte(Settings(database_url=f"sqlite:///{tmp_path / 'thread.db'}"))
    with threads, pytest.raises(ValueError):
        threads.worker_app()
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'celery.db'}",
        queue="celery",
        broker_url="redis://127.0.0.1:1/0",
    )
    with Charlotte(settings) as charlotte:
        app = charlotte.worker_app()
        assert TASK_NAME in app.tasks and app is charlotte.worker_app()
    # A publish-only app has no task to run.
    assert TASK_NAME not in celery_app(Settings(broker_url="redis://127.0.0.1:1/0")).tasks
    import charlotte.contrib.celery as module
    import charlotte.runtime.runner as runner

    assert not hasattr(module, "worker_app_from") and not hasattr(
        runner.TurnRunner, "from_settings"
    )


def test_an_unreachable_broker_is_a_coded_error() -> None:
    queue = CeleryQueue(celery_app(Settings(broker_url="redis://127.0.0.1:1/0")))

    with pytest.raises(QueueUnavailable) as raised:
        queue.enqueue("t1")

    assert raised.value.code == "queue_unavailable"
    assert "127.0.0.1" not in str(raised.value)


def test_the_queue_imports_the_brokers_transport_when_made_and_connects_to_nothing() -> None:
    # Under a burst of first turns, every send would otherwise wait on the one
    # import of the broker's transport inside the first. A fresh interpreter:
    # this one has imported it already.
    probe = (
        "import sys; from charlotte.contrib.celery import CeleryQueue, celery_app; "
        "from charlotte.settings import Settings; "
        "assert 'kombu.transport.redis' not in sys.modules; "
        "CeleryQueue(celery_app(Settings(broker_url='redis://127.0.0.1:1/0'))); "
        "print('kombu.transport.redis' in sys.modules)"
    )
    found = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert found.stdout.strip() == "True"


def test_core_imports_without_celery() -> None:
    probe = (
        "import sys, charlotte, charlotte.runtime, charlotte.runtime.queues, "
        "charlotte.runtime.sweeper; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('celery', 'kombu', 'redis')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert out.stdout.strip() == "[]"


# -- a real worker ------------------------------------------------------------------


@pytest.fixture(scope="module")
def offline_worker(
    database: Database, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Worker, CeleryQueue]]:
    broker = Broker.fresh()
    try:
        with worker(tmp_path_factory.mktemp("offline"), database, broker, "offline") as w:
            yield w, broker.queue_for_turns()
    finally:
        broker.clear()


@pytest.mark.redis
@pytest.mark.slow
def test_a_worker_process_runs_a_full_turn(
    database: Database, offline_worker: tuple[Worker, CeleryQueue]
) -> None:
    w, queue = offline_worker
    turns = Turns(database.engine, queue)
    session = open_session(database.engine)

    turn = turns.send(session.id, session.tenant, "Build the bakery landing page", "ann")

    status = wait_until(ended(turns, turn.id), WORKER_START + TURN, "the turn to end", w)
    log = events(database.engine, session)
    assert status == "finished", [(e.type, dict(e.payload)) for e in log][-3:]
    types = [e.type for e in log]
    assert types[:2] == [EventTypes.TURN_QUEUED, EventTypes.TURN_STARTED]
    assert types[-1] == EventTypes.TURN_FINISHED
    assert EventTypes.PAGE_CHANGED in types and EventTypes.RUN_FAILED not in types
    assert [e.seq for e in log] == list(range(1, len(log) + 1))
    stored = draft(database.engine, session)
    assert stored is not None and stored[1] > 0 and stored[0]["nodes"]


@pytest.mark.redis
@pytest.mark.slow
def test_a_turn_delivered_three_times_runs_once(
    database: Database, offline_worker: tuple[Worker, CeleryQueue]
) -> None:
    w, queue = offline_worker
    turns = Turns(database.engine, queue)
    session = open_session(database.engine)
    marker_session = open_session(database.engine)

    turn = turns.send(session.id, session.tenant, "Build the bakery landing page", "ann")
    queue.enqueue(turn.id)
    queue.enqueue(turn.id)
    # One worker, one message at a time, first in first out: once this later
    # turn has ended, both extra deliveries have been handled.
    marker = turns.send(marker_session.id, marker_session.tenant, "Build it", "ann")

    assert wait_until(ended(turns, marker.id), WORKER_START + 2 * TURN, "the marker turn", w)
    finished = turns.get(turn.id)
    assert finished is not None and finished.status == "finished"
    types = [e.type for e in events(database.engine, session)]
    assert types.count(EventTypes.TURN_STARTED) == 1
    assert types.count(EventTypes.TURN_FINISHED) == 1
    assert types.count(EventTypes.RUN_STARTED) == 1


@pytest.mark.redis
@pytest.mark.slow
def test_a_worker_killed_mid_turn_is_swept_worker_lost_and_never_rerun(
    lone_database: Database, tmp_path: Path
) -> None:
    # Its own database: the module's offline worker would sweep this turn
    # (and hand a waiting one to its own broker) before the test does.
    database = lone_database
    broker = Broker.fresh()
    queue = broker.queue_for_turns()
    # The worker beats every 0.2 s; 2 s without a beat means it is gone.
    turns = Turns(database.engine, queue, heartbeat_timeout=timedelta(seconds=2))
    session = open_session(database.engine)
    reached = tmp_path / "reached"
    handled = tmp_path / "handled"
    try:
        with worker(
            tmp_path, database, broker, "block", reached=str(reached), heartbeat_seconds="0.2"
        ) as w:
            turn = turns.send(session.id, session.tenant, "Build it", "ann")
            wait_until(reached.exists, WORKER_START + TURN, "the turn to block in its tool call", w)
            # Alive and beating: the sweeper leaves it alone.
            assert turns.sweep() == []
            running = turns.get(turn.id)
            assert running is not None and running.status == "running"

            w.kill()

            swept = wait_until(
                lambda: [t for t in turns.sweep() if t == turn.id], TURN, "the sweep", w, dead=True
            )
        after_sweep = events(database.engine, session)
        draft_after_sweep = draft(database.engine, session)

        # A new worker that gives up on unacked messages after 1 s redelivers
        # the dead worker's message: the claim refuses it, nothing runs again.
        # Then the freed session takes a new turn, and that worker runs it.
        with worker(
            tmp_path,
            database,
            broker,
            "offline",
            handled=str(handled),
            visibility_timeout="1",
            restore_interval="1",
        ) as w2:
            wait_until(
                lambda: handled.exists() and turn.id in handled.read_text().split(),
                WORKER_START + TURN,
                "the lost turn's redelivery",
                w2,
            )
            after_redelivery = events(database.engine, session)
            again = turns.send(session.id, session.tenant, "Try again", "ann")
            assert wait_until(ended(turns, again.id), TURN, "the new turn", w2) == "finished"
    finally:
        broker.clear()

    assert swept == [turn.id]
    lost = turns.get(turn.id)
    assert lost is not None and (lost.status, lost.error_code) == ("failed", "worker_lost")
    assert [(e.type, dict(e.payload)) for e in after_sweep][-1] == (
        EventTypes.RUN_FAILED,
        {"turn_id": turn.id, "code": "worker_lost"},
    )
    assert [e.type for e in after_sweep].count(EventTypes.PAGE_CHANGED) == 1
    # Exactly the committed tool write: one applied batch, its two nodes.
    assert draft_after_sweep is not None
    document, revision = draft_after_sweep
    assert revision == len(BLOCK_OPS)
    assert set(document["nodes"]) == {"hero", "title"}
    assert document["nodes"]["title"]["props"]["content"] == "Rosa's Bakery"
    # The redelivery changed nothing; every later event belongs to the new turn.
    assert after_redelivery == after_sweep
    later = events(database.engine, session)[len(after_sweep) :]
    assert later[0].type == EventTypes.TURN_QUEUED and later[0].payload["turn_id"] == again.id
    assert [e.type for e in later].count(EventTypes.TURN_STARTED) == 1
    assert all(e.payload.get("turn_id") in (None, again.id) for e in later)
