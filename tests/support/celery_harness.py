"""Real Celery workers for the tests: a Redis broker of a test run's own, worker processes, waits.

Shared by ``tests/integration/test_celery_queue.py``, ``test_host_worker.py``
and the soak. Needs ``CHARLOTTE_TEST_REDIS_URL`` (``redis_url`` skips the
calling test with the reason otherwise). A ``Broker`` has a queue name and
Redis key prefix no other run uses; ``refusing_broker`` is a broker URL
whose port refuses every connection (a broker that is down); ``worker`` starts a
``tests.support.celery_worker`` process and always ends it; ``wait_until``
polls with a deadline (``tests.support.waiting``) and fails with the worker's output.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, TypeVar

import pytest
import sqlalchemy as sa
from tests.support import waiting
from tests.support.databases import POSTGRES_ENV, named_postgres_schema, unshared_session

from charlotte.contrib.celery import CeleryQueue, celery_app
from charlotte.runtime.guide import build_guide
from charlotte.settings import Settings
from charlotte.storage import SessionRecord, create_tables, open_engine

REDIS_ENV: Final = "CHARLOTTE_TEST_REDIS_URL"
ROOT: Final = Path(__file__).resolve().parents[2]
WORKER_START: Final = 90.0  # a cold worker imports Celery and the model runtime
TURN: Final = 60.0
T = TypeVar("T")


def redis_url() -> str:
    """The test Redis URL, or skip the calling test with the reason."""
    url = os.environ.get(REDIS_ENV, "").strip()
    if not url:
        pytest.skip(f"{REDIS_ENV} is not set: Celery/Redis tests skipped")
    return url


@dataclass(frozen=True)
class Database:
    """What both processes open: a URL, an optional PostgreSQL schema, and our engine."""

    url: str
    schema: str | None
    engine: sa.Engine


@contextmanager
def postgres_database(
    url: str, prefix: str, prepare: Callable[[sa.Engine], None] = create_tables, **options: Any
) -> Iterator[Database]:
    """A fresh PostgreSQL schema ``{prefix}_<random>`` at ``url``, its tables made by ``prepare``."""
    with named_postgres_schema(url, prefix, **options) as (schema, engine):
        prepare(engine)
        yield Database(url, schema, engine)


@contextmanager
def database_in(
    folder: Path, prefix: str, prepare: Callable[[sa.Engine], None] = create_tables
) -> Iterator[Database]:
    """``postgres_database`` when ``CHARLOTTE_TEST_DATABASE_URL`` is set, else a SQLite file in ``folder``."""
    url = os.environ.get(POSTGRES_ENV, "").strip()
    if url:
        with postgres_database(url, prefix, prepare) as made:
            yield made
        return
    path = folder / "charlotte.db"
    engine = open_engine(f"sqlite:///{path}")
    try:
        prepare(engine)
        yield Database(f"sqlite:///{path}", None, engine)
    finally:
        engine.dispose()


@contextmanager
def refusing_broker() -> Iterator[str]:
    """A Redis broker URL on a loopback port that refuses every connection (bound, never listening)."""
    with socket.socket() as held:
        # Held bound for the test: no other process can start listening there.
        held.bind(("127.0.0.1", 0))
        yield f"redis://127.0.0.1:{held.getsockname()[1]}/0"


@dataclass(frozen=True)
class Broker:
    """A Redis URL, plus a key prefix and queue name no other run uses."""

    url: str
    prefix: str
    queue: str

    @classmethod
    def fresh(cls) -> Broker:
        tag = uuid.uuid4().hex[:10]
        return cls(redis_url(), f"charlotte-test-{tag}:", f"charlotte-test-{tag}")

    def queue_for_turns(self) -> CeleryQueue:
        app = celery_app(
            Settings(broker_url=self.url),
            queue=self.queue,
            transport_options={"global_keyprefix": self.prefix},
        )
        return CeleryQueue(app)

    def clear(self) -> None:
        import redis

        client = redis.Redis.from_url(self.url)
        try:
            for key in client.scan_iter(match=f"{self.prefix}*"):
                client.delete(key)
        finally:
            client.close()


class Worker:
    """One ``tests.support.celery_worker`` process; its output goes to a file."""

    def __init__(self, process: subprocess.Popen[bytes], log: Path) -> None:
        self.process = process
        self.log = log

    def output(self) -> str:
        text = self.log.read_text(encoding="utf-8", errors="replace")
        return text[-4000:]

    def kill(self) -> None:
        """SIGKILL: no cleanup, no ack, no last heartbeat."""
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)

    def end(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=15)


@contextmanager
def worker(
    tmp: Path, database: Database, broker: Broker, mode: str, **extra: str
) -> Iterator[Worker]:
    log = tmp / f"worker-{uuid.uuid4().hex[:8]}.log"
    command = [
        sys.executable,
        "-m",
        "tests.support.celery_worker",
        f"--database-url={database.url}",
        f"--broker-url={broker.url}",
        f"--queue={broker.queue}",
        f"--key-prefix={broker.prefix}",
        f"--mode={mode}",
        *(f"--{name.replace('_', '-')}={value}" for name, value in extra.items()),
    ]
    if database.schema is not None:
        command.append(f"--schema={database.schema}")
    with log.open("wb") as sink:
        process = subprocess.Popen(
            command, cwd=ROOT, stdout=sink, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
        )
    running = Worker(process, log)
    try:
        yield running
    finally:
        running.end()


def wait_until(
    check: Callable[[], T | None],
    timeout: float,
    what: str,
    w: Worker | None = None,
    *,
    dead: bool = False,
) -> T:
    """``tests.support.waiting.wait_until``, failing with the worker's output.

    With a worker ``w``: one that exits first fails the wait at once, unless
    it is ``dead`` on purpose.
    """

    def broken() -> str | None:
        if w is None or dead or w.process.poll() is None:
            return None
        return f"worker exited ({w.process.returncode}) before {what}:\n{w.output()}"

    def detail() -> str:
        return "" if w is None else f":\n{w.output()}"

    return waiting.wait_until(check, timeout, what, broken=broken, detail=detail)


def open_session(
    engine: sa.Engine, *, brief: str = "A landing page for Rosa's Bakery"
) -> SessionRecord:
    return unshared_session(
        engine,
        created_by="ann",
        brief=brief,
        facts={"name": "Rosa's Bakery", "phone": "+1 555 0100"},
        guide_hash=build_guide("").hash,
    )
