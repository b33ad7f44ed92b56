"""A Celery task whose claim fails because the database is down is retried, and the turn runs.

A real worker process (``tests.support.celery_worker``, offline model) reaches
PostgreSQL only through a ``TcpGate`` that starts closed: its first claim
fails on a connection the server "hung up". The task retries it
(``Task.retry`` with a countdown, acks_late); the test opens the gate after
the worker's first attempt, and the retried claim runs the whole turn once.
Needs ``CHARLOTTE_TEST_DATABASE_URL`` and ``CHARLOTTE_TEST_REDIS_URL``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from tests.support.celery_harness import (
    TURN,
    WORKER_START,
    Broker,
    Database,
    open_session,
    postgres_database,
    wait_until,
    worker,
)
from tests.support.databases import POSTGRES_ENV
from tests.support.tcp_gate import TcpGate

from charlotte.events import EventTypes
from charlotte.runtime import Turns
from charlotte.storage import DatabaseEventLog


@pytest.fixture
def database() -> Iterator[Database]:
    url = os.environ.get(POSTGRES_ENV, "").strip()
    if not url:
        pytest.skip(f"{POSTGRES_ENV} is not set: the database-down retry needs PostgreSQL")
    with postgres_database(url, "charlotte_retry") as made:
        yield made


@pytest.fixture
def gate(database: Database) -> Iterator[TcpGate]:
    server = sa.make_url(database.url)
    made = TcpGate(server.host or "127.0.0.1", server.port or 5432)
    yield made
    made.close()


def behind(database: Database, gate: TcpGate) -> Database:
    """The same database, reached through the gate (what the worker opens)."""
    url = sa.make_url(database.url).set(host="127.0.0.1", port=gate.port)
    return Database(url.render_as_string(hide_password=False), database.schema, database.engine)


@pytest.mark.redis
@pytest.mark.slow
def test_a_claim_that_fails_while_the_database_is_down_is_retried_and_runs(
    database: Database, gate: TcpGate, tmp_path: Path
) -> None:
    broker = Broker.fresh()
    try:
        with worker(tmp_path, behind(database, gate), broker, "offline") as w:
            turns = Turns(database.engine, broker.queue_for_turns())
            session = open_session(database.engine)
            turn = turns.send(session.id, session.tenant, "Build the bakery landing page", "ann")

            # The worker's claim failed while the database was down (its
            # sweeper tries the database too); then the database comes back.
            wait_until(
                lambda: "the database failed its run" in w.output(),
                WORKER_START,
                "the worker's first claim",
                w,
            )
            assert turns.get(turn.id) is not None
            gate.open()

            def ended() -> str | None:
                found = turns.get(turn.id)
                return None if found is None or found.active else found.status

            status = wait_until(ended, TURN, "the retried turn to end", w)
            log = DatabaseEventLog().read(database.engine, session.id, 0, 10_000)
            types = [e.type for e in log]
            assert status == "finished", [(e.type, dict(e.payload)) for e in log][-3:]
            assert types.count(EventTypes.TURN_STARTED) == 1
            assert types[-1] == EventTypes.TURN_FINISHED
            assert "retry 1 in 1s" in w.output()
            # The session takes a new turn.
            again = turns.send(session.id, session.tenant, "Add opening hours", "ann")
            assert wait_until(
                lambda: (t := turns.get(again.id)) is not None and not t.active,
                TURN,
                "the next turn",
                w,
            )
    finally:
        broker.clear()
