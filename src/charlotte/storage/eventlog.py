"""The per-session event log: ``EventLog`` port and ``DatabaseEventLog``.

``seq`` is gap-free and strictly increasing per session, also with concurrent
writers, because appending bumps the session row's ``last_seq`` counter with
``UPDATE … SET last_seq = last_seq + n … RETURNING last_seq`` *inside the
caller's transaction*:

- PostgreSQL: the UPDATE takes the same row lock as ``SELECT … FOR UPDATE``
  (in one round trip instead of two); a concurrent appender waits for it and
  then reads the committed counter.
- SQLite: there are no row locks, but every write transaction starts with
  ``BEGIN IMMEDIATE`` (see ``charlotte.storage.engine``), so writers run one
  at a time.

A rolled-back transaction rolls the counter back with its events, so it uses
up no seq. The primary key ``(session_id, seq)`` is the backstop: should the
counter ever be wrong, the insert fails with ``StorageError("conflict")``
instead of writing a duplicate.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, Protocol

import sqlalchemy as sa

from charlotte.events import Event, EventTypes, NewEvent, format_at, utc_now
from charlotte.storage.engine import read_connection
from charlotte.storage.errors import StorageError, translated
from charlotte.storage.tables import events, sessions

__all__ = ["MAX_READ", "DatabaseEventLog", "EventLog"]

#: The most events one ``read`` returns.
MAX_READ: Final = 10_000


# Built once: composing Core statements per append costs more than running them.
_BUMP: Final = (
    sa.update(sessions)
    .where(sessions.c.id == sa.bindparam("bump_session_id"))
    .values(last_seq=sessions.c.last_seq + sa.bindparam("bump_count", type_=sa.Integer))
    .returning(sessions.c.last_seq, sessions.c.tenant)
)
_BUMP_IN_TENANT: Final = _BUMP.where(sessions.c.tenant == sa.bindparam("bump_tenant"))
_INSERT: Final = events.insert()


class EventLog(Protocol):
    """Append-only, per-session event log; writes join the caller's transaction."""

    def append(
        self,
        conn: sa.Connection,
        session_id: str,
        type: str,
        payload: Mapping[str, Any],
        *,
        actor: str,
        tenant: str | None = None,
    ) -> int:
        """Append one event; returns its seq."""
        ...

    def append_many(
        self,
        conn: sa.Connection,
        session_id: str,
        new_events: Sequence[NewEvent],
        *,
        tenant: str | None = None,
    ) -> list[int]:
        """Append events in order; returns their seqs (consecutive)."""
        ...

    def read(
        self,
        source: sa.Connection | sa.Engine,
        session_id: str,
        after_seq: int = 0,
        limit: int = 1000,
        *,
        tenant: str | None = None,
    ) -> list[Event]:
        """Events with seq > ``after_seq``, in seq order, at most ``limit``."""
        ...


class DatabaseEventLog:
    """The event log in ``charlotte_events`` (SQLite or PostgreSQL)."""

    def append(
        self,
        conn: sa.Connection,
        session_id: str,
        type: str,
        payload: Mapping[str, Any],
        *,
        actor: str,
        tenant: str | None = None,
    ) -> int:
        """Append one event inside ``conn``'s transaction; returns its seq.

        ``tenant``, when given, must be the session's tenant (else ``not_found``).
        Raises ``StorageError``: ``unknown_event_type``, ``not_found`` (no such
        session), ``invalid_value`` (payload not JSON), ``conflict`` (the seq
        backstop fired), ``busy``.
        """
        seqs = self.append_many(conn, session_id, [NewEvent(type, payload, actor)], tenant=tenant)
        return seqs[0]

    def append_many(
        self,
        conn: sa.Connection,
        session_id: str,
        new_events: Sequence[NewEvent],
        *,
        tenant: str | None = None,
    ) -> list[int]:
        """Append ``new_events`` in order inside ``conn``'s transaction; returns their seqs."""
        if not new_events:
            return []
        for new in new_events:
            if not EventTypes.is_known(new.type):
                raise StorageError("unknown_event_type")
        count = len(new_events)
        with translated():
            if tenant is None:
                bumped = conn.execute(_BUMP, {"bump_session_id": session_id, "bump_count": count})
            else:
                params = {"bump_session_id": session_id, "bump_count": count, "bump_tenant": tenant}
                bumped = conn.execute(_BUMP_IN_TENANT, params)
            row = bumped.first()
            if row is None:
                raise StorageError("not_found")
            last, row_tenant = row
            first = last - count + 1
            at = utc_now()
            rows = [
                {
                    "session_id": session_id,
                    "seq": first + offset,
                    "tenant": row_tenant,
                    "type": new.type,
                    "at": at,
                    "actor": new.actor,
                    "payload": dict(new.payload),
                }
                for offset, new in enumerate(new_events)
            ]
            conn.execute(_INSERT, rows[0] if count == 1 else rows)
        return list(range(first, last + 1))

    def read(
        self,
        source: sa.Connection | sa.Engine,
        session_id: str,
        after_seq: int = 0,
        limit: int = 1000,
        *,
        tenant: str | None = None,
    ) -> list[Event]:
        """Events with seq > ``after_seq`` in seq order, at most ``limit`` (1 … ``MAX_READ``).

        ``source`` may be an open connection (reads inside its transaction) or
        an engine (a short read-only transaction of its own).
        """
        if not 1 <= limit <= MAX_READ:
            raise ValueError(f"limit must be between 1 and {MAX_READ}")
        query = (
            sa.select(
                events.c.seq,
                events.c.type,
                events.c.at,
                events.c.actor,
                events.c.payload,
            )
            .where(events.c.session_id == session_id, events.c.seq > after_seq)
            .order_by(events.c.seq)
            .limit(limit)
        )
        if tenant is not None:
            query = query.where(events.c.tenant == tenant)
        if isinstance(source, sa.Engine):
            with read_connection(source) as conn:
                return self._rows(conn, query, session_id)
        return self._rows(source, query, session_id)

    @staticmethod
    def _rows(conn: sa.Connection, query: sa.Select[Any], session_id: str) -> list[Event]:
        with translated():
            rows = conn.execute(query).all()
        return [
            Event(session_id, seq, type, format_at(at), actor, payload)
            for seq, type, at, actor, payload in rows
        ]
