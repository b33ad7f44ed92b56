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
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import pytest
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
from charlotte.handle import CharlotteSession
from charlotte.runtime import InlineQueue, Turns
from charlotte.runtime.modes import BUILDER_MODE
from charlotte.settings import Settings

REDIS_ENV: Final = "CHARLOTTE_TEST_REDIS_URL"
ROOT: Final = Path(__file__).resolve().parents[2]
WORKER_START: Final = 90.0  # a cold worker imports Celery and the model runtime
TURN: Final = 60.0
# The worker beats every 0.5 s; 2.5 s without a beat means it is gone.
HEARTBEAT: Final = 0.5

pytestmark = [pytest.mark.redis, pytest.mark.slow]


def _redis_url() -> str:
    url = os.environ.get(REDIS_ENV, "").strip()
    if not url:
        pytest.skip(f"{REDIS_ENV} is not set: Celery/Redis tests skipped")
    return url


@dataclass(frozen=True)
class Deployment:
    """The settings both processes share, this run's queue and key prefix, and the web side."""

    settings: Settings
    queue: str
    prefix: str
    web: Charlotte
    worker: subprocess.Popen[bytes]
    log: Path

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")[-4000:]


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
    redis = _redis_url()
    tmp = tmp_path_factory.mktemp("host-worker")
    postgres = os.environ.get(POSTGRES_ENV, "").strip()
    if postgres:
        with named_postgres_schema(postgres, "charlotte_host") as (schema, _engine):
            yield from _deploy(tmp, _settings(redis, postgres, schema))
    else:
        yield from _deploy(tmp, _settings(redis, f"sqlite:///{tmp / 'charlotte.db'}", None))


def _deploy(tmp: Path, settings: Settings) -> Iterator[Deployment]:
    tag = uuid.uuid4().hex[:10]
    queue, prefix = f"charlotte-host-{tag}", f"charlotte-host-{tag}:"
    web = host_charlotte(settings)
    try:
        web.migrate()
        assert isinstance(web.queue, CeleryQueue)
        isolate(web.queue.app, queue, prefix)
        log = tmp / "worker.log"
        command = [
            sys.executable, "-m", "tests.support.celery_worker", "--mode=host",
            f"--database-url={settings.database_url}", f"--broker-url={settings.broker_url}",
            f"--queue={queue}", f"--key-prefix={prefix}", f"--heartbeat-seconds={HEARTBEAT}",
        ]
        if settings.database_schema is not None:
            command.append(f"--schema={settings.database_schema}")
        with log.open("wb") as sink:
            worker = subprocess.Popen(
                command, cwd=ROOT, stdout=sink, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
            )
        try:
            yield Deployment(settings, queue, prefix, web, worker, log)
        finally:
            worker.terminate()
            try:
                worker.wait(timeout=15)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait(timeout=15)
            _clear(settings.broker_url or "", prefix)
    finally:
        web.close()


def _clear(url: str, prefix: str) -> None:
    import redis

    client = redis.Redis.from_url(url)
    try:
        for key in client.scan_iter(match=f"{prefix}*"):
            client.delete(key)
    finally:
        client.close()


def _wait(check: Callable[[], Any], timeout: float, what: str, d: Deployment) -> Any:
    deadline = time.monotonic() + timeout
    pause = threading.Event()
    while True:
        found = check()
        if found:
            return found
        if d.worker.poll() is not None:
            pytest.fail(f"worker exited ({d.worker.returncode}) before {what}:\n{d.output()}")
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout}s waiting for {what}:\n{d.output()}")
        pause.wait(0.05)


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

    status = _wait(_turn_end(deployment, turn["id"]), WORKER_START + TURN, "the turn to end", deployment)
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

    status = _wait(_turn_end(deployment, turn["id"]), WORKER_START + TURN, "the turn to end", deployment)
    log = _events_of_turn(handle, turn["id"])
    assert (status, log[-1]) == ("failed", ("run.failed", {"code": HOST_REFUSAL})), log
    # Refused before any model call: no run, no write.
    assert [t for t, _ in log] == ["turn.queued", "turn.started", "run.failed"]
    assert handle.draft()["revision"] == 0
    # The session takes the next turn.
    again = handle.send("Build the bakery landing page")
    assert _wait(_turn_end(deployment, again["id"]), TURN, "the next turn", deployment) == "finished"
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

    _wait(_turn_end(deployment, queued.id), WORKER_START + TURN, "the sweep", deployment)

    lost = turns.get(queued.id)
    assert lost is not None and (lost.status, lost.error_code) == ("failed", "worker_lost")
    log = _events_of_turn(handle, queued.id)
    assert log[-1] == ("run.failed", {"code": "worker_lost"})
    assert [t for t, _ in log] == ["turn.queued", "turn.started", "run.failed"]
