"""SQLite engine set-up: pragmas, BEGIN IMMEDIATE for writers, deferred reads, savepoints."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import sqlalchemy as sa
from tests.support.databases import new_session, sqlite_engine_at

from charlotte.errors import StorageError
from charlotte.events import AGENT_ACTOR, EventTypes
from charlotte.storage import (
    DatabaseEventLog,
    create_tables,
    open_engine,
    read_connection,
    transaction,
)
from charlotte.storage.tables import sessions


def _pragma(conn: sa.Connection, name: str) -> object:
    return conn.exec_driver_sql(f"PRAGMA {name}").scalar()


def test_sqlite_connections_use_wal_foreign_keys_and_a_busy_timeout(tmp_path: Path) -> None:
    engine = sqlite_engine_at(tmp_path / "db.sqlite", busy_timeout_ms=1234)
    try:
        with engine.connect() as conn:
            assert _pragma(conn, "journal_mode") == "wal"
            assert _pragma(conn, "foreign_keys") == 1
            assert _pragma(conn, "busy_timeout") == 1234
            assert _pragma(conn, "synchronous") == 1  # NORMAL
    finally:
        engine.dispose()


def test_write_transactions_take_the_write_lock_when_they_begin(tmp_path: Path) -> None:
    engine = sqlite_engine_at(tmp_path / "db.sqlite", busy_timeout_ms=20)
    create_tables(engine)
    try:
        # The first writer has not executed anything yet, and already holds
        # the lock: a second writer cannot begin (SQLite would otherwise let
        # both read, then fail one of them on its first write).
        with transaction(engine), pytest.raises(StorageError) as raised, transaction(engine):
            pass
        assert raised.value.code == "database_busy"
    finally:
        engine.dispose()


@contextmanager
def _another_writer(engine: sa.Engine) -> Iterator[list[float]]:
    """A thread holds a write transaction for the block; the list gets the time it committed."""
    holding, release = threading.Event(), threading.Event()
    committed: list[float] = []

    def hold() -> None:
        with transaction(engine):
            holding.set()
            release.wait(5)
        committed.append(time.monotonic())

    thread = threading.Thread(target=hold)
    thread.start()
    try:
        assert holding.wait(5)
        yield committed
    finally:
        release.set()
        thread.join(5)


def test_a_writer_of_this_process_waits_for_the_one_before_it_in_line_not_in_sqlite(tmp_path: Path) -> None:
    engine = sqlite_engine_at(tmp_path / "db.sqlite", busy_timeout_ms=5_000)
    create_tables(engine)
    with engine.connect(), engine.connect():
        pass  # two connections in the pool: the second writer's checkout opens none
    begun: list[float] = []

    def beginning(_conn: object, _cursor: object, statement: str, *_rest: object) -> None:
        if statement == "BEGIN IMMEDIATE":
            begun.append(time.monotonic())

    sa.event.listen(engine, "before_cursor_execute", beginning)
    try:
        with _another_writer(engine) as committed:
            second = threading.Thread(target=_write_nothing, args=(engine,))
            second.start()
            time.sleep(0.2)
            # The second writer has not begun: it waits in line, not in SQLite's
            # busy handler (which sleeps up to 100 ms between its retries).
            assert len(begun) == 1
        second.join(5)
        assert len(begun) == 2
        assert begun[1] - committed[0] < 0.05
    finally:
        engine.dispose()


def _write_nothing(engine: sa.Engine) -> None:
    with transaction(engine):
        pass


def test_a_writer_waiting_in_line_past_the_busy_timeout_is_database_busy(tmp_path: Path) -> None:
    engine = sqlite_engine_at(tmp_path / "db.sqlite", busy_timeout_ms=100)
    create_tables(engine)
    try:
        with _another_writer(engine):
            started = time.monotonic()
            with pytest.raises(StorageError) as raised:
                _write_nothing(engine)
            waited = time.monotonic() - started
        assert raised.value.code == "database_busy"
        assert 0.09 <= waited < 2
    finally:
        engine.dispose()


def test_readers_do_not_wait_for_a_writer(tmp_path: Path) -> None:
    engine = sqlite_engine_at(tmp_path / "db.sqlite", busy_timeout_ms=20)
    create_tables(engine)
    session_id = new_session(engine).id
    try:
        with transaction(engine) as writer:
            DatabaseEventLog().append(
                writer, session_id, EventTypes.TEXT_DELTA, {"text": "x"}, actor=AGENT_ACTOR
            )

            # Neither a read-only connection nor read(engine) waits; both see
            # only what was committed.
            with read_connection(engine) as reader:
                count = reader.execute(
                    sa.select(sa.func.count()).select_from(sessions)
                ).scalar_one()
            assert count == 1
            assert DatabaseEventLog().read(engine, session_id) == []
        assert [e.seq for e in DatabaseEventLog().read(engine, session_id)] == [1]
    finally:
        engine.dispose()


def test_a_savepoint_rolls_back_alone(sqlite_engine: sa.Engine) -> None:
    session_id = new_session(sqlite_engine).id
    log = DatabaseEventLog()
    with transaction(sqlite_engine) as conn:
        log.append(conn, session_id, EventTypes.TEXT_DELTA, {"text": "kept"}, actor=AGENT_ACTOR)
        savepoint = conn.begin_nested()
        log.append(conn, session_id, EventTypes.TEXT_DELTA, {"text": "undone"}, actor=AGENT_ACTOR)
        savepoint.rollback()
        log.append(conn, session_id, EventTypes.TEXT_DELTA, {"text": "after"}, actor=AGENT_ACTOR)

    read = log.read(sqlite_engine, session_id)
    assert [(e.seq, e.payload["text"]) for e in read] == [(1, "kept"), (2, "after")]


def test_an_in_memory_database_works_for_one_thread() -> None:
    engine = open_engine("sqlite://")
    try:
        create_tables(engine)
        session_id = new_session(engine).id
        with transaction(engine) as conn:
            seq = DatabaseEventLog().append(
                conn, session_id, EventTypes.TEXT_DELTA, {"text": "x"}, actor=AGENT_ACTOR
            )
        assert seq == 1
    finally:
        engine.dispose()


def test_postgresql_urls_use_psycopg_3() -> None:
    for url in (
        "postgresql://u@localhost/db",
        "postgres://u@localhost/db",
        "postgresql+psycopg://u@localhost/db",
    ):
        engine = open_engine(url)
        assert engine.url.drivername == "postgresql+psycopg"
        engine.dispose()


@pytest.mark.parametrize(
    ("url", "options"),
    [
        ("mysql://u@localhost/db", {}),
        ("not a url", {}),
        ("postgresql+psycopg2://u@localhost/db", {}),
        ("sqlite+pysqlcipher:///x.db", {}),
        ("sqlite:///x.db", {"schema": "other"}),
        ("postgresql://u@localhost/db", {"schema": 'bad"name'}),
    ],
)
def test_other_databases_are_unsupported(url: str, options: dict[str, str]) -> None:
    with pytest.raises(StorageError) as raised:
        open_engine(url, **options)
    assert raised.value.code == "unsupported_database"


def test_an_unreachable_server_is_unavailable() -> None:
    # Port 1 on loopback refuses connections at once.
    engine = open_engine(
        "postgresql://nobody@127.0.0.1:1/none", connect_args={"connect_timeout": 2}
    )
    try:
        with pytest.raises(StorageError) as raised, transaction(engine):
            pass
        assert raised.value.code == "unavailable"
        assert "127.0.0.1" not in str(raised.value)
    finally:
        engine.dispose()


def test_a_sqlite_file_gets_its_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The default URL is relative to the working directory: an empty folder must do.
    monkeypatch.chdir(tmp_path)
    engine = open_engine("sqlite:///./.charlotte/nested/charlotte.db")
    try:
        create_tables(engine)
    finally:
        engine.dispose()
    assert (tmp_path / ".charlotte" / "nested" / "charlotte.db").is_file()


@pytest.mark.parametrize("make", ["folder", "file_as_parent"])
def test_a_sqlite_path_that_cannot_be_a_file_is_database_path(tmp_path: Path, make: str) -> None:
    if make == "folder":
        (tmp_path / "db").mkdir()
        url = f"sqlite:///{tmp_path / 'db'}"
    else:
        (tmp_path / "plain").write_text("x", encoding="utf-8")
        url = f"sqlite:///{tmp_path / 'plain' / 'charlotte.db'}"
    with pytest.raises(StorageError) as raised:
        open_engine(url)
    assert raised.value.code == "database_path"
    assert str(tmp_path) not in str(raised.value)


def test_postgresql_without_psycopg_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    # A None entry makes ``import psycopg`` fail as it does where the extra is not installed.
    monkeypatch.setitem(sys.modules, "psycopg", None)
    with pytest.raises(StorageError) as raised:
        open_engine("postgresql://u@localhost/db")
    assert raised.value.code == "driver_missing"
    assert "charlotte[postgres]" in raised.value.message
