"""``UnitOfWork``: one transaction of charlotte's, and everything that commits with it.

A unit owns the connection, the session row it works on (read once; locked
in a write unit), the events its work records and what runs once it has
committed. Every mutation of charlotte (an agent's write, a person's edit,
an undo, a restore, a reset, an approval, a rejection, a publish, a turn's
start and end, a tool call) is a function that takes a unit: it reads and
writes through ``unit.conn`` and records its events with ``unit.emit``. The
unit appends them in one ``append_many`` when its block ends, just before the
commit, in the order they were emitted; a block that raises rolls everything
back and appends nothing. The hooks of ``after_commit`` run after a commit
only (a memo that vouches for what was stored, a wake-up).

Only ``Units`` opens transactions (``tests/test_layers.py`` holds every other
module of ``src/`` to it): who opens the unit owns it, and a service joins
the caller's unit by taking it as an argument. A write unit locks its
session row first, before any page, change-set or turn row, so writers
meeting on one session always lock in the same order (PostgreSQL would
otherwise find deadlocks; SQLite takes its file lock at BEGIN).

>>> units = Units(engine)                                        # doctest: +SKIP
>>> with units.write(session_id, tenant) as unit:               # doctest: +SKIP
...     workspace.human_edit(unit, ops, based_on=3, user="ann")
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Final

import sqlalchemy as sa

from charlotte.errors import Refused
from charlotte.events import NewEvent
from charlotte.storage.engine import read_connection, transaction
from charlotte.storage.eventlog import DatabaseEventLog, EventLog
from charlotte.storage.sessions import SessionRecord, SessionStore

__all__ = ["UnitOfWork", "Units"]

#: The most events one unit holds before its commit: a turn's one tool call
#: records three and a write's own; an approval two. A bound, not a tuning.
MAX_PENDING: Final = 1_000


class UnitOfWork:
    """One open transaction: ``conn``, its session row, its pending events, its after-commit hooks."""

    __slots__ = ("_after", "_log", "_pending", "_session", "conn", "writes")

    def __init__(
        self,
        conn: sa.Connection,
        session: SessionRecord | None,
        *,
        writes: bool,
        log: tuple[str, str] | None = None,
    ) -> None:
        self.conn = conn
        #: True for a write unit (its session row is locked); a read unit emits nothing.
        self.writes = writes
        self._session = session
        # (session id, tenant) of the log the pending events go to.
        self._log = log if session is None else (session.id, session.tenant)
        self._pending: list[NewEvent] = []
        self._after: list[Callable[[], None]] = []

    def __repr__(self) -> str:
        kind = "write" if self.writes else "read"
        return f"UnitOfWork({kind}, session={None if self._session is None else self._session.id!r})"

    @property
    def session(self) -> SessionRecord:
        """The session row this unit works on (read once when the unit opened)."""
        if self._session is None:
            raise RuntimeError("this unit works on no session")
        return self._session

    def adopt(self, session: SessionRecord) -> None:
        """Work on ``session``, a row this unit created (opening a session); once, in a write unit."""
        if self._session is not None or self._log is not None or not self.writes:
            raise RuntimeError("a unit adopts one session it created")
        self._session = session
        self._log = (session.id, session.tenant)

    def work_as(self, session: SessionRecord) -> None:
        """Work on ``session``: this unit's own row (same id, tenant, page) read with other settings.

        An outside agent's writes go to a change set whatever the session's
        own ``approve_on_save``: its calls work on the row with it set.
        """
        own = self.session
        if (session.id, session.tenant, session.page) != (own.id, own.tenant, own.page):
            raise RuntimeError("a unit works on its own session only")
        self._session = session

    def emit(self, *events: NewEvent) -> None:
        """Record ``events`` for this unit's session: appended in order, with the commit."""
        self.emit_all(events)

    def emit_all(self, events: Iterable[NewEvent]) -> None:
        """``emit`` for an iterable."""
        if not self.writes or self._log is None:
            raise RuntimeError("a read unit, or one on no session, records no event")
        self._pending.extend(events)
        if len(self._pending) > MAX_PENDING:
            raise RuntimeError("a unit records at most MAX_PENDING events")

    @property
    def pending(self) -> tuple[NewEvent, ...]:
        """The events emitted so far, not yet appended."""
        return tuple(self._pending)

    def after_commit(self, hook: Callable[[], None]) -> None:
        """Run ``hook`` once this unit has committed (never after a rollback)."""
        self._after.append(hook)


class Units:
    """Opens units of work on one engine (see module docstring): the only opener of transactions.

    ``sessions`` reads and locks the session rows; ``events`` appends what a
    unit emitted (default: charlotte's tables).
    """

    __slots__ = ("engine", "events", "sessions")

    def __init__(
        self, engine: sa.Engine, *, sessions: SessionStore | None = None, events: EventLog | None = None
    ) -> None:
        self.engine = engine
        self.sessions = sessions if sessions is not None else SessionStore()
        self.events: EventLog = events if events is not None else DatabaseEventLog()

    def __repr__(self) -> str:
        return f"Units(engine={self.engine!r})"

    @contextmanager
    def write(self, session_id: str | None, tenant: str) -> Iterator[UnitOfWork]:
        """A write unit on ``session_id`` of ``tenant``, its row locked; ``Refused("not_found")`` without one.

        ``session_id`` None: a unit on no session yet (it creates one and ``adopt``s it).
        """
        with transaction(self.engine) as conn:
            session = None
            if session_id is not None:
                session = self.sessions.lock(conn, session_id, tenant)
                if session is None:
                    raise Refused("not_found")
            unit = UnitOfWork(conn, session, writes=True)
            yield unit
            self._flush(unit)
        for hook in unit._after:
            hook()

    @contextmanager
    def recording(self, session_id: str, tenant: str) -> Iterator[UnitOfWork]:
        """A write unit that only records events in ``session_id``'s log (its row is not read).

        The append itself finds the session (``not_found`` without one) and
        bumps its row; a turn's streamed text and run boundaries go this way.
        """
        with transaction(self.engine) as conn:
            unit = UnitOfWork(conn, None, writes=True, log=(session_id, tenant))
            yield unit
            self._flush(unit)
        for hook in unit._after:
            hook()

    def _flush(self, unit: UnitOfWork) -> None:
        if unit._pending and unit._log is not None:
            session_id, tenant = unit._log
            self.events.append_many(unit.conn, session_id, unit._pending, tenant=tenant)
            unit._pending.clear()

    @contextmanager
    def read(self, session_id: str, tenant: str) -> Iterator[UnitOfWork]:
        """A read unit on ``session_id`` of ``tenant`` (never waits for a writer on SQLite); ``not_found`` without one."""
        with read_connection(self.engine) as conn:
            session = self.sessions.get(conn, session_id, tenant)
            if session is None:
                raise Refused("not_found")
            yield UnitOfWork(conn, session, writes=False)

    @contextmanager
    def reading(self) -> Iterator[sa.Connection]:
        """A read-only connection on no session (a listing, the stream's catch-up)."""
        with read_connection(self.engine) as conn:
            yield conn

    @contextmanager
    def writing(self) -> Iterator[sa.Connection]:
        """A write transaction on no session's log (turn bookkeeping, telemetry, a sweep)."""
        with transaction(self.engine) as conn:
            yield conn
