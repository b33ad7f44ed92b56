"""``charlotte worker`` as an operator runs it: the CLI process takes turns from Redis.

Needs ``CHARLOTTE_TEST_REDIS_URL`` (skipped with the reason otherwise). The
worker gets its database and broker from the environment, exactly as the
README's scaling-out section says; it uses a Redis database number of its own
so its default queue never meets other tests' messages.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from tests.support.celery_harness import Worker, redis_url, wait_until

from charlotte.contrib.celery import CeleryQueue, celery_app
from charlotte.events import EventTypes
from charlotte.runtime import Turns
from charlotte.runtime.guide import build_guide
from charlotte.settings import Settings
from charlotte.storage import DatabaseEventLog, SessionStore, open_engine, transaction
from charlotte.storage import migrate as run_migrations


def _broker() -> str:
    url = redis_url()
    base = url.rsplit("/", 1)[0] if url.count("/") > 2 else url
    return f"{base}/13"


@pytest.mark.redis
def test_the_cli_worker_runs_a_queued_turn(tmp_path: Path) -> None:
    broker = _broker()
    database = f"sqlite:///{tmp_path / 'charlotte.db'}"
    run_migrations(database)
    engine = open_engine(database)
    env = {k: v for k, v in os.environ.items() if not k.startswith("CHARLOTTE_")}
    env.update(CHARLOTTE_DATABASE_URL=database, CHARLOTTE_BROKER_URL=broker)
    log = tmp_path / "worker.log"
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "charlotte.cli", "worker", "--concurrency", "1"],
            cwd=tmp_path, env=env, stdout=sink, stderr=subprocess.STDOUT,
        )
    worker = Worker(process, log)
    try:
        with transaction(engine) as conn:
            session = SessionStore().create(
                conn, tenant="acme", page="home", created_by="ann",
                brief="A landing page for Rosa's Bakery: menu and contact.",
                facts={"name": "Rosa's Bakery"}, guide_hash=build_guide("").hash,
            )
        queue = CeleryQueue(celery_app(Settings(broker_url=broker)))
        Turns(engine, queue).send(session.id, "acme", "Build it", "ann")

        def types() -> list[str]:
            return [e.type for e in DatabaseEventLog().read(engine, session.id, 0, 1000)]

        wait_until(lambda: EventTypes.TURN_FINISHED in types(), 120, "the turn to finish", worker)
        assert EventTypes.PAGE_CHANGED in types()
    finally:
        worker.end()
        engine.dispose()
