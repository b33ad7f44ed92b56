"""Benchmark: event appends, 1 writer on SQLite and 8 concurrent writers on PostgreSQL.

Run with ``.venv/bin/python -m bench.events``; prints the figures as JSON.
Every append is its own transaction (as a tool write's event is). PostgreSQL
runs when ``CHARLOTTE_TEST_DATABASE_URL`` is set, in a throwaway schema;
otherwise its figure is None. ``events_gap_free`` proves that every session's
seqs came out exactly 1..N.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from tests.support.databases import named_postgres_schema

from charlotte.events import AGENT_ACTOR, EventTypes
from charlotte.storage import (
    DatabaseEventLog,
    SessionStore,
    create_tables,
    open_engine,
    transaction,
)

SQLITE_APPENDS = 3_000
PG_WRITERS = 8
PG_APPENDS_PER_WRITER = 500
PAYLOAD = {"text": "A warm welcome to the bakery on the corner. "}


def _session(engine: sa.Engine) -> str:
    with transaction(engine) as conn:
        return SessionStore().create(conn, tenant="bench", page="home", created_by="bench").id


def _append(engine: sa.Engine, log: DatabaseEventLog, session_id: str) -> None:
    with transaction(engine) as conn:
        log.append(conn, session_id, EventTypes.TEXT_DELTA, PAYLOAD, actor=AGENT_ACTOR)


def _gap_free(engine: sa.Engine, session_id: str, expected: int) -> bool:
    seqs: list[int] = []
    log = DatabaseEventLog()
    while batch := log.read(engine, session_id, after_seq=seqs[-1] if seqs else 0, limit=5_000):
        seqs.extend(event.seq for event in batch)
    return seqs == list(range(1, expected + 1))


def bench_sqlite(appends: int = SQLITE_APPENDS) -> tuple[float, bool]:
    """events/s for one writer on a file SQLite database, and whether seq stayed gap-free."""
    with tempfile.TemporaryDirectory() as folder:
        engine = open_engine(f"sqlite:///{Path(folder) / 'events.db'}")
        try:
            create_tables(engine)
            session_id = _session(engine)
            log = DatabaseEventLog()
            for _ in range(50):  # warm the pool and the statement cache
                _append(engine, log, session_id)
            started = time.perf_counter()
            for _ in range(appends):
                _append(engine, log, session_id)
            elapsed = time.perf_counter() - started
            return appends / elapsed, _gap_free(engine, session_id, appends + 50)
        finally:
            engine.dispose()


def bench_postgres(
    url: str, writers: int = PG_WRITERS, per_writer: int = PG_APPENDS_PER_WRITER
) -> tuple[float, bool]:
    """events/s for ``writers`` threads appending to one session, and gap-freeness."""
    with named_postgres_schema(url, "charlotte_bench", pool_size=PG_WRITERS) as (_schema, engine):
        create_tables(engine)
        session_id = _session(engine)
        log = DatabaseEventLog()
        start = threading.Barrier(writers + 1)

        def writer() -> None:
            with engine.connect():
                pass  # open this thread's pooled connection before timing
            start.wait(timeout=60)
            for _ in range(per_writer):
                _append(engine, log, session_id)

        with ThreadPoolExecutor(max_workers=writers) as pool:
            futures = [pool.submit(writer) for _ in range(writers)]
            start.wait(timeout=60)
            started = time.perf_counter()
            for future in futures:
                future.result()
            elapsed = time.perf_counter() - started
        total = writers * per_writer
        return total / elapsed, _gap_free(engine, session_id, total)


def run() -> dict[str, Any]:
    """Run the benchmark; returns the figures."""
    sqlite_rate, sqlite_gap_free = bench_sqlite()
    url = os.environ.get("CHARLOTTE_TEST_DATABASE_URL", "").strip()
    pg_rate: float | None = None
    pg_gap_free = True
    if url:
        pg_rate, pg_gap_free = bench_postgres(url)
    return {
        "events_per_s_sqlite": round(sqlite_rate, 1),
        "events_per_s_pg_8_writers": None if pg_rate is None else round(pg_rate, 1),
        "events_gap_free": sqlite_gap_free and pg_gap_free,
        "postgres": "measured" if url else "skipped: CHARLOTTE_TEST_DATABASE_URL is not set",
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
