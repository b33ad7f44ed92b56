"""WAL checkpoints beside the writers (``storage/checkpoints.py``), on real SQLite files."""

from __future__ import annotations

import itertools
import os
import shutil
import sqlite3
import threading
import time
from pathlib import Path

import sqlalchemy as sa

from charlotte.storage import open_engine, transaction
from charlotte.storage.checkpoints import BACKSTOP_PAGES, CHECKPOINT_PAGES, WalCheckpoints

_ROW = "x" * 4000  # about a page a row
_COPIES = itertools.count()


def _wal_file(path: Path, rows: int) -> sqlite3.Connection:
    """A WAL-mode file whose last write left ``rows`` pages or so in the WAL (autocheckpoint off)."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.execute("CREATE TABLE t (v TEXT)")
    conn.execute("BEGIN")
    conn.executemany("INSERT INTO t VALUES (?)", [(_ROW,)] * rows)
    conn.execute("COMMIT")
    return conn


def _rows_in_main_file(path: Path, tmp: Path) -> int:
    """Rows the database file holds without its WAL: what checkpoints copied into it.

    -1 while a checkpoint is writing the file (the copy is torn).
    """
    alone = tmp / f"alone-{next(_COPIES)}.db"
    shutil.copyfile(path, alone)
    conn = sqlite3.connect(alone)
    try:
        return int(conn.execute("SELECT count(*) FROM t").fetchone()[0])
    except sqlite3.OperationalError:  # not even the table reached the file
        return 0
    except sqlite3.DatabaseError:
        return -1
    finally:
        conn.close()


def _until(check: object, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if callable(check) and check():
            return True
        time.sleep(0.01)
    return False


def test_a_large_wal_is_checkpointed_on_the_thread_then_the_thread_ends(tmp_path: Path) -> None:
    path = tmp_path / "big.db"
    writer = _wal_file(path, 60)
    checkpoints = WalCheckpoints(str(path), busy_timeout_ms=1000, pages=20, idle=0.1)
    assert _rows_in_main_file(path, tmp_path) == 0  # all of it is still in the WAL
    checkpoints.written()
    assert checkpoints.running
    assert _until(lambda: _rows_in_main_file(path, tmp_path) == 60)
    assert _until(lambda: not checkpoints.running)  # idle: the thread ended
    writer.close()


def test_a_small_wal_starts_no_thread(tmp_path: Path) -> None:
    path = tmp_path / "small.db"
    writer = _wal_file(path, 3)
    checkpoints = WalCheckpoints(str(path), busy_timeout_ms=1000, pages=20)
    checkpoints.written()
    assert not checkpoints.running
    assert _rows_in_main_file(path, tmp_path) == 0
    writer.close()


def test_close_stops_the_thread_and_a_later_write_starts_another(tmp_path: Path) -> None:
    path = tmp_path / "close.db"
    writer = _wal_file(path, 60)
    checkpoints = WalCheckpoints(str(path), busy_timeout_ms=1000, pages=20, idle=30.0)
    checkpoints.written()
    assert _until(lambda: _rows_in_main_file(path, tmp_path) == 60)
    assert checkpoints.running  # waiting for more writes, for up to 30 s
    started = time.monotonic()
    checkpoints.close()
    assert not checkpoints.running and time.monotonic() - started < 2
    checkpoints.written()
    assert checkpoints.running
    checkpoints.close()
    writer.close()


def test_a_checkpoint_that_fails_raises_nothing_and_creates_no_file(tmp_path: Path) -> None:
    # The database file was deleted under the engine; a large WAL file is left.
    path = tmp_path / "gone.db"
    Path(str(path) + "-wal").write_bytes(b"\0" * (30 * 4200))
    checkpoints = WalCheckpoints(str(path), busy_timeout_ms=1000, pages=20, idle=0.1)
    checkpoints.written()
    assert checkpoints.running
    assert _until(lambda: not checkpoints.running)
    assert not path.exists()  # opened read-write only: never made again, empty


def test_a_file_engine_checkpoints_past_the_writers_and_keeps_the_backstop(tmp_path: Path) -> None:
    path = tmp_path / "engine.db"
    engine = open_engine(f"sqlite:///{path}")
    try:
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == BACKSTOP_PAGES
        with transaction(engine) as conn:
            conn.exec_driver_sql("CREATE TABLE t (v TEXT)")
        rows = CHECKPOINT_PAGES + 200
        with transaction(engine) as conn:
            conn.execute(sa.text("INSERT INTO t VALUES (:v)"), [{"v": _ROW}] * rows)
        # The commit left its pages in the WAL (SQLite's own rule would have copied them
        # back before the commit returned); the engine's thread copies them.
        assert _until(lambda: _rows_in_main_file(path, tmp_path) == rows)
        writers = engine.get_execution_options()["charlotte_writers"]
        assert writers.checkpoints.running
    finally:
        engine.dispose()
    assert not writers.checkpoints.running  # disposing the engine stops its thread


def test_a_forked_child_checkpoints_with_its_own_lock_and_thread(tmp_path: Path) -> None:
    # The parent forks while another thread holds the lock and the parent's thread runs:
    # the child, which has neither, still checkpoints (and never waits on the held lock).
    path = tmp_path / "fork.db"
    writer = _wal_file(path, 5)
    checkpoints = WalCheckpoints(str(path), busy_timeout_ms=1000, pages=20, idle=30.0)
    writer.executemany("INSERT INTO t VALUES (?)", [(_ROW,)] * 60)
    checkpoints.written()
    assert checkpoints.running
    held = threading.Event()
    release = threading.Event()

    def hold() -> None:
        with checkpoints._lock:  # the state a fork can catch it in
            held.set()
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    assert held.wait(5)
    writer.executemany("INSERT INTO t VALUES (?)", [(_ROW,)] * 60)
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through its exit status
        code = 1
        try:
            checkpoints.written()
            code = 0 if _until(lambda: _rows_in_main_file(path, tmp_path) == 125) else 2
        finally:
            os._exit(code)
    release.set()
    holder.join(5)
    deadline = time.monotonic() + 10
    status = None
    while status is None and time.monotonic() < deadline:
        done, status_code = os.waitpid(pid, os.WNOHANG)
        status = status_code if done else None
        time.sleep(0.02)
    if status is None:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    checkpoints.close()
    writer.close()
    assert status is not None and os.waitstatus_to_exitcode(status) == 0
