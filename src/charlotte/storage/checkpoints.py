"""``WalCheckpoints``: a SQLite file's WAL checkpoints, run beside the writers instead of in them.

SQLite's own rule (``wal_autocheckpoint``) has the commit that takes the
WAL past 1,000 pages copy the whole WAL back into the database and sync it
before the commit returns: whichever request commits then waits for every
earlier writer's pages (measured: 17-20 ms of a 10,000-op approval's 280 ms;
the commit alone takes 3 ms). Here a file engine's commits only say that
they wrote (``written``: one ``stat`` of the WAL file); once the WAL file
holds ``pages`` pages, a thread of the engine's own runs a ``PASSIVE``
checkpoint on a connection of its own (it never waits for a reader or a
writer, and never takes the writers' lock), at most once per
``interval`` seconds while writes go on, and ends after ``idle`` seconds
without one. SQLite's own rule stays on as the backstop at ten times
``pages`` (``BACKSTOP_PAGES``), so the WAL stays bounded should the thread
fall behind or fail; a checkpoint that fails is left to the next one (and
to the backstop), never raised into a writer.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Final

__all__ = ["BACKSTOP_PAGES", "CHECKPOINT_PAGES", "WalCheckpoints"]

#: WAL pages after which a checkpoint is due (SQLite's own default threshold).
CHECKPOINT_PAGES: Final = 1_000
#: ``wal_autocheckpoint`` of the engine's connections: a writer checkpoints only past this.
BACKSTOP_PAGES: Final = 10 * CHECKPOINT_PAGES
# A WAL frame is a 24-byte header and one page; SQLite's default page size.
_FRAME_BYTES: Final = 24 + 4096


class WalCheckpoints:
    """Checkpoints of the WAL of the SQLite file ``path`` (see the module docstring)."""

    __slots__ = (
        "_busy_ms", "_closed", "_due", "_idle", "_interval", "_lock", "_pid", "_thread", "_threshold",
        "_uri", "_wake", "_wal",
    )  # fmt: skip

    def __init__(
        self, path: str, *, busy_timeout_ms: int, pages: int = CHECKPOINT_PAGES,
        interval: float = 0.5, idle: float = 2.0,
    ) -> None:  # fmt: skip
        """``path``: the database file; ``pages``: the WAL size a checkpoint is due at."""
        file = Path(path).resolve()
        # Read-write, never create: a file deleted meanwhile is not made again, empty.
        self._uri = file.as_uri() + "?mode=rw"
        self._wal = str(file) + "-wal"
        self._busy_ms = max(int(busy_timeout_ms), 0)
        self._threshold = pages * _FRAME_BYTES
        self._interval = interval
        self._idle = idle
        self._thread: threading.Thread | None = None
        self._forked()

    def _forked(self) -> None:
        """A fresh lock and no thread: at creation, and in a child process after a fork.

        The child has only the thread that forked (a lock another thread held
        stays held in the child, and the parent's checkpoint thread is gone).
        """
        self._pid = os.getpid()
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._due = False
        self._closed = False
        self._thread = None

    def written(self) -> None:
        """A write transaction committed: have the WAL checkpointed soon once it is large."""
        try:
            if os.stat(self._wal).st_size < self._threshold:
                return
        except OSError:
            return
        if self._pid != os.getpid():
            self._forked()
        with self._lock:
            if self._closed:
                return
            self._due = True
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="charlotte-wal-checkpoints", daemon=True)
                self._thread.start()
            else:
                self._wake.notify()

    def close(self, timeout: float = 5.0) -> None:
        """Stop the thread, waiting at most ``timeout`` (a checkpoint under way finishes first).

        The engine was disposed; a later write starts a new thread when one is due.
        """
        with self._lock:
            self._closed = True
            thread = self._thread
            self._wake.notify()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
        with self._lock:
            self._closed = False

    @property
    def running(self) -> bool:
        """True while the thread is alive (for tests and diagnostics)."""
        with self._lock:
            return self._thread is not None

    def _run(self) -> None:
        connection: sqlite3.Connection | None = None
        try:
            while True:
                with self._lock:
                    if not self._due and not self._closed:
                        self._wake.wait(self._idle)
                    if self._closed or not self._due:
                        self._thread = None
                        return
                    self._due = False
                connection = self._checkpoint(connection)
                # The next one no sooner than ``interval`` from now; writes meanwhile set _due again.
                until = time.monotonic() + self._interval
                with self._lock:
                    while not self._closed and (left := until - time.monotonic()) > 0:
                        self._wake.wait(left)
        finally:
            if connection is not None:
                with contextlib.suppress(sqlite3.Error):
                    connection.close()
            with self._lock:
                if self._thread is threading.current_thread():
                    self._thread = None

    def _checkpoint(self, connection: sqlite3.Connection | None) -> sqlite3.Connection | None:
        """One PASSIVE checkpoint; the connection to use next time (None: open a new one)."""
        try:
            if connection is None:
                connection = sqlite3.connect(self._uri, uri=True, timeout=self._busy_ms / 1000)
            connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            return connection
        except sqlite3.Error:
            if connection is not None:
                with contextlib.suppress(sqlite3.Error):
                    connection.close()
            return None
