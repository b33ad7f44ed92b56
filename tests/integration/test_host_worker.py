"""A host's own ``Charlotte`` as a Celery worker: ``Charlotte.worker_app()`` in a real process.

The web side and the worker both build ``host_charlotte(settings)``
(``tests.support.celery_worker``): a host mode and per-turn caps that refuse
an over-budget turn. Turns go from the web side's session handles through a
real Redis to a real worker process. Needs ``CHARLOTTE_TEST_REDIS_URL``
(skipped with the reason otherwise); the database is PostgreSQL (a schema of
its own) when ``CHARLOTTE_TEST_DATABASE_URL`` is set, else a SQLite file.
Every wait polls with a deadline; the worker is always ended.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import pytest
from tests.support.celery_harness import (
    TURN,
    WORKER_START,
    Broker,
    Database,
    Worker,
    wait_until,
    worker,
)
from tests.support.celery_worker import (
    HOST_MODE,
    HOST_REFUSAL,
    OVER_BUDGET,
    host_charlotte,
    isolate,
)
from tests.support.databases import POSTGRES_ENV, named_postgres_schema

from charlotte.app import Charlotte
from charlotte.contrib.celery import CeleryQueue
from charlotte.runtime import InlineQueue, Turns
from charlotte.runtime.modes import BUILDER_MODE
from charlotte.session import CharlotteSession
from charlotte.settings import Settings

# The worker beats every 0.5 s; 2.5 s without a beat means it is gone.
HEARTBEAT: Final = 0.5

pytestmark = [pytest.mark.redis, pytest.mark.slow]


@dataclass(frozen=True)
class Deployment:
    """The settings both processes share, the web side, and the worker process."""

    settings: Settings
    web: Charlotte
    worker: Worker


def _settings(redis: str, database_url: str, schema: str | None) -> Settings:
    return Settings(
        database_url=database_url,
        database_schema=schema,
        broker_url=redis,
        queue="celery",
        model="offline",
        heartbeat_seconds=HEARTBEAT,
        heartbeat_timeout_seconds=HEARTBEAT * 5,
    )


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    broker = Broker.fresh()
    tmp = tmp_path_factory.mktemp("host-worker")
    postgres = os.environ.get(POSTGRES_ENV, "").strip()
    if postgres:
        with named_postgres_schema(postgres, "charlotte_host") as (schema, _engine):
            yield from _deploy(tmp, broker, _settings(broker.url, postgres, schema))
    else:
        yield from _deploy(tmp, broker, _settings(broker.url, f"sqlite:///{tmp / 'charlotte.db'}", None))


def _deploy(tmp: Path, broker: Broker, settings: Settings) -> Iterator[Deployment]:
    web = host_charlotte(settings)
    try:
        web.migrate()
        assert isinstance(web.queue, CeleryQueue)
        isolate(web.queue.app, broker.queue, broker.prefix)
        database = Database(settings.database_url, settings.database_schema, web.engine)
        with worker(tmp, database, broker, "host", heartbeat_seconds=str(HEARTBEAT)) as running:
            yield Deployment(settings, web, running)
    finally:
        broker.clear()
        web.close()


def _open(d: Deployment, *, mode: str = HOST_MODE) -> CharlotteSession:
    return (
        d.web.for_user("ann").tenant("acme").page(f"page-{uuid.uuid4().hex[:8]}")
        .brief("A landing page for Rosa's Bakery: menu, opening hours and contact.")
        .facts({"name": "Rosa's Bakery", "phone": "+1 555 0100"})
        .mode(mode).open()
    )


def _turn_end(d: Deployment, turn_id: str) -> Callable[[], str | None]:
    """The turn's final status once it has ended, else None."""

    def check() -> str | None:
        turn = d.web.turns.get(turn_id)
        return None if turn is None or turn.active else turn.status

    return check


def _events_of_turn(handle: CharlotteSession, turn_id: str) -> list[tuple[str, dict[str, Any]]]:
    # run.* events carry no turn id: take every event from the turn's turn.queued on.
    log = handle.events(0, 1000)
    start = next(i for i, e in enumerate(log) if e["payload"].get("turn_id") == turn_id)
    return [(e["type"], e["payload"]) for e in log[start:]]


def test_the_worker_runs_a_turn_in_the_hosts_mode(deployment: Deployment) -> None:
    handle = _open(deployment)

    turn = handle.send("Build the bakery landing page")

    status = wait_until(_turn_end(deployment, turn["id"]), WORKER_START + TURN, "the turn to end", deployment.worker)
    log = _events_of_turn(handle, turn["id"])
    types = [t for t, _ in log]
    # A worker without the host's mode registry fails this turn not_found.
    assert (status, "run.failed" in types) == ("finished", False), log[-3:]
    assert types[:2] == ["turn.queued", "turn.started"]
    assert types[-1] == "turn.finished" and "page.changed" in types
    assert handle.draft()["revision"] > 0


def test_the_hosts_caps_refuse_an_over_budget_turn_on_the_worker(deployment: Deployment) -> None:
    # charlotte's own mode: only the host's context_using factory can refuse this turn.
    handle = _open(deployment, mode=BUILDER_MODE)

    turn = handle.send(f"Add a gallery, we are {OVER_BUDGET}")

    status = wait_until(_turn_end(deployment, turn["id"]), WORKER_START + TURN, "the turn to end", deployment.worker)
    log = _events_of_turn(handle, turn["id"])
    assert (status, log[-1]) == ("failed", ("run.failed", {"turn_id": turn["id"], "code": HOST_REFUSAL})), log
    # Refused before any model call: no run, no write.
    assert [t for t, _ in log] == ["turn.queued", "turn.started", "run.failed"]
    assert handle.draft()["revision"] == 0
    # The session takes the next turn.
    again = handle.send("Build the bakery landing page")
    assert wait_until(_turn_end(deployment, again["id"]), TURN, "the next turn", deployment.worker) == "finished"
    assert _events_of_turn(handle, again["id"])[-1][0] == "turn.finished"


def test_the_workers_sweeper_fails_a_turn_whose_heartbeat_went_stale(deployment: Deployment) -> None:
    web = deployment.web
    # Only the worker process sweeps: the web side of a Celery deployment does not.
    assert web.sweeper is None
    handle = _open(deployment)
    # A turn claimed by a "worker" that never beats: queued without the broker, then claimed here.
    turns = Turns(web.engine, InlineQueue(lambda _turn_id: None))
    queued = turns.send(handle.id, handle.tenant, "Build it", "ann")
    assert turns.claim(queued.id) is not None

    wait_until(_turn_end(deployment, queued.id), WORKER_START + TURN, "the sweep", deployment.worker)

    lost = turns.get(queued.id)
    assert lost is not None and (lost.status, lost.error_code) == ("failed", "worker_lost")
    log = _events_of_turn(handle, queued.id)
    assert log[-1] == ("run.failed", {"turn_id": queued.id, "code": "worker_lost"})
    assert [t for t, _ in log] == ["turn.queued", "turn.started", "run.failed"]
