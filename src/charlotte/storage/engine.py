"""Engines for SQLite (embedded default) and PostgreSQL, and transaction helpers.

SQLite: WAL journal (readers never block the writer), foreign keys on, a busy
timeout, and every transaction opened with ``BEGIN IMMEDIATE``. SQLAlchemy
drops ``FOR UPDATE`` on SQLite, so row locks do not exist there; taking the
database's write lock when the transaction *begins* is what serialises writers
(and avoids the deadlock of two readers both upgrading to writers). A
connection marked read-only (``read_connection``) begins a plain deferred
transaction instead, so the live stream's readers never wait for writers.
The writers of one process (the server's request threads, the thread queue's
turns) queue for a file's write lock on a lock of the engine's own first
(``_Writers``), each woken the moment the one before commits: SQLite's busy
handler would put them to sleep between retries, so writers arriving
together waited long after the lock was free (the figures:
``docs/performance.md``, "Figures by part", ``storage/engine.py``). Writers
in other processes still meet on the busy timeout.

PostgreSQL: ``postgresql+psycopg://`` (``postgresql://`` is read as psycopg 3),
READ COMMITTED; writers lock the rows they change (see ``DatabaseEventLog``).

>>> engine = open_engine("sqlite:///charlotte.db")     # doctest: +SKIP
>>> with transaction(engine) as conn:                 # doctest: +SKIP
...     log.append(conn, session_id, EventTypes.TEXT_DELTA, {"text": "Hi"}, actor="agent")
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy import event

from charlotte.errors import StorageError
from charlotte.storage._direct import begin_with
from charlotte.storage._translate import translated

__all__ = ["READ_ONLY", "SCHEMA", "engine_schema", "open_engine", "quoted_identifier", "read_connection", "transaction"]

#: Execution option that marks a connection as read-only (SQLite: deferred BEGIN).
READ_ONLY: Final = "charlotte_read_only"

#: Execution option holding the PostgreSQL schema an engine keeps charlotte's tables in.
SCHEMA: Final = "charlotte_schema"

#: Execution option holding a SQLite file engine's ``_Writers``.
_WRITERS: Final = "charlotte_writers"

_DEFAULT_BUSY_TIMEOUT_MS: Final = 30_000


class _Writers:
    """This process's queue for one SQLite file's write lock (see the module docstring).

    Re-entrant, so a thread that opens a write transaction inside its own
    meets SQLite's busy timeout as it always did, not a deadlock here. Waits
    at most the busy timeout, then ``StorageError("database_busy")``.
    """

    __slots__ = ("_lock", "_seconds")

    def __init__(self, seconds: float) -> None:
        self._lock = threading.RLock()
        self._seconds = seconds

    @contextmanager
    def held(self) -> Iterator[None]:
        if not self._lock.acquire(timeout=self._seconds):
            raise StorageError("database_busy")
        try:
            yield
        finally:
            self._lock.release()


def open_engine(
    url: str | sa.URL,
    *,
    busy_timeout_ms: int = _DEFAULT_BUSY_TIMEOUT_MS,
    schema: str | None = None,
    **options: Any,
) -> sa.Engine:
    """An engine for ``sqlite:///path`` or ``postgresql+psycopg://…``, configured for charlotte.

    ``busy_timeout_ms`` is how long a SQLite writer waits for the write lock.
    A SQLite file's folder is created when missing (the default
    ``sqlite:///./.charlotte/charlotte.db`` works in an empty folder); a path
    that is a folder, or whose folder cannot be made, is
    ``StorageError("database_path")``. A PostgreSQL URL without psycopg
    installed is ``StorageError("driver_missing")`` (the ``postgres`` extra).
    ``schema`` (PostgreSQL only) puts charlotte's tables in that schema (it
    becomes the connection's ``search_path``). Other keyword arguments go to
    ``sqlalchemy.create_engine``.
    """
    try:
        parsed = sa.make_url(url)
    except sa.exc.ArgumentError as error:
        raise StorageError("unsupported_database") from error
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        if schema is not None:
            raise StorageError("unsupported_database")
        if parsed.drivername != "sqlite":
            raise StorageError("unsupported_database")
        _prepare_sqlite_file(parsed.database)
        if parsed.database not in (None, "", ":memory:"):
            execution_options = dict(options.pop("execution_options", {}))
            execution_options[_WRITERS] = _Writers(max(busy_timeout_ms, 0) / 1000)
            options["execution_options"] = execution_options
        with translated():
            engine = sa.create_engine(parsed, **options)
        _configure_sqlite(engine, busy_timeout_ms)
        return engine
    if backend == "postgresql":
        if parsed.drivername != "postgresql+psycopg":
            raise StorageError("unsupported_database")
        if schema is not None:
            connect_args = dict(options.pop("connect_args", {}))
            connect_args["options"] = f"-c search_path={quoted_identifier(schema)}"
            options["connect_args"] = connect_args
            # Remembered on the engine so ``migrate`` can create the schema.
            execution_options = dict(options.pop("execution_options", {}))
            execution_options[SCHEMA] = schema
            options["execution_options"] = execution_options
        options.setdefault("pool_pre_ping", True)
        try:
            with translated():
                return sa.create_engine(parsed, **options)
        except ImportError as error:
            # SQLAlchemy imports the driver here: psycopg is the postgres extra.
            raise StorageError("driver_missing") from error
    raise StorageError("unsupported_database")


def _prepare_sqlite_file(database: str | None) -> None:
    """Create a SQLite file's folder; refuse a path that is a folder (``database_path``)."""
    if database in (None, "", ":memory:") or database.startswith("file:"):
        return
    path = Path(database)
    try:
        if path.is_dir():
            raise StorageError("database_path")
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        # A parent that is a file, no permission, a read-only disk.
        raise StorageError("database_path") from error


def engine_schema(engine: sa.Engine) -> str | None:
    """The PostgreSQL schema ``open_engine(..., schema=...)`` put the engine on, or None."""
    schema = engine.get_execution_options().get(SCHEMA)
    return schema if isinstance(schema, str) else None


def quoted_identifier(name: str) -> str:
    """``name`` as a double-quoted SQL identifier; ``unsupported_database`` when it cannot be one."""
    if not name or '"' in name or "\x00" in name:
        raise StorageError("unsupported_database")
    return f'"{name}"'


def _configure_sqlite(engine: sa.Engine, busy_timeout_ms: int) -> None:
    timeout = int(busy_timeout_ms)
    in_memory = engine.url.database in (None, "", ":memory:")

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Take BEGIN away from the sqlite3 module; the "begin" hook below emits it.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout = {timeout}")
            cursor.execute("PRAGMA foreign_keys = ON")
            if not in_memory:
                cursor.execute("PRAGMA journal_mode = WAL")
                # NORMAL is durable against application crashes in WAL mode and
                # only risks the last commits on power loss; FULL costs an fsync
                # per commit.
                cursor.execute("PRAGMA synchronous = NORMAL")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: sa.Connection) -> None:
        read_only = conn.get_execution_options().get(READ_ONLY, False)
        begin_with(conn, "BEGIN" if read_only else "BEGIN IMMEDIATE")


@contextmanager
def transaction(engine: sa.Engine) -> Iterator[sa.Connection]:
    """A write transaction: commits when the block ends, rolls back if it raises.

    Errors from the database, including those raised at BEGIN or COMMIT, leave
    as ``StorageError``. On a SQLite file, the process's writers queue first
    (``_Writers``).
    """
    writers = engine.get_execution_options().get(_WRITERS)
    queue = writers.held() if isinstance(writers, _Writers) else nullcontext()
    with queue, translated(), engine.begin() as conn:
        yield conn


@contextmanager
def read_connection(engine: sa.Engine) -> Iterator[sa.Connection]:
    """A connection for reads only: on SQLite it never waits for the write lock."""
    with translated(), engine.connect() as conn:
        conn.execution_options(**{READ_ONLY: True})
        with conn.begin():
            yield conn
