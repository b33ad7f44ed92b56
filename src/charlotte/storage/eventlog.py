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

Only Unicode text reaches the log: a payload string (or key) holding a lone
surrogate is stored with U+FFFD in its place, never refused, since an event
records what happened and must not be lost (the JSON columns elsewhere refuse
such values, see ``charlotte.storage.types``). Reads decode every row on its
own and never fail on what a row holds: text that is not Unicode (an older
version's ``\\uD800`` escape, invalid UTF-8 written into SQLite) reads with
U+FFFD, a payload that is no JSON object reads as ``{}``, a timestamp Python
cannot represent as the Unix epoch, and a SQLite row whose seq is no integer
is left out. One damaged row never hides the events around it.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, Final, Protocol

import sqlalchemy as sa

from charlotte.errors import StorageError
from charlotte.events import Event, EventTypes, NewEvent, format_at, utc_now
from charlotte.storage._direct import Direct
from charlotte.storage._translate import translated
from charlotte.storage.engine import read_connection
from charlotte.storage.tables import events, sessions
from charlotte.storage.text import storable_json, storable_text
from charlotte.storage.types import UtcDateTime, dumps, loads

__all__ = ["MAX_READ", "READ_MANY_SESSIONS", "DatabaseEventLog", "EventLog", "count_events"]

#: The most events one ``read`` returns.
MAX_READ: Final = 10_000
#: Sessions one ``DatabaseEventLog.read_many`` query covers.
READ_MANY_SESSIONS: Final = 100


# Built once: composing Core statements per append costs more than running
# them, and every append runs them (``Direct``: on the driver's cursor).
_BUMPED = (
    sa.update(sessions)
    .where(sessions.c.id == sa.bindparam("bump_session_id"))
    .values(
        last_seq=sessions.c.last_seq + sa.bindparam("bump_count", type_=sa.Integer),
        updated_at=sa.bindparam("bump_at", type_=UtcDateTime),
    )
    .returning(sessions.c.last_seq, sessions.c.tenant)
)
_BUMP: Final = Direct(_BUMPED)
_BUMP_IN_TENANT: Final = Direct(_BUMPED.where(sessions.c.tenant == sa.bindparam("bump_tenant")))
# The payload is bound as the text append_many serialised (made storable first).
_INSERTED: Final = ("session_id", "seq", "tenant", "type", "at", "actor")
_INSERT: Final = Direct(
    events.insert().values(
        {name: sa.bindparam(name, type_=events.c[name].type) for name in _INSERTED}
        | {"payload": sa.bindparam("payload_text", type_=sa.Text())}
    )
)

logger = logging.getLogger(__name__)


def _readable(column: sa.ColumnElement[Any]) -> sa.ColumnElement[Any]:
    """``column`` as SQLite's raw bytes: text that is not UTF-8 would fail the whole fetch."""
    return sa.cast(sa.type_coerce(column, sa.Text), sa.LargeBinary)


# Python's datetimes span years 1 to 9999; PostgreSQL's also 4713 BC,
# 294276 AD and infinity, which the driver would fail the whole fetch on. A
# day's margin each side: the driver shifts values into the session's zone.
_FIRST_AT: Final = datetime(1, 1, 2, tzinfo=UTC)
_LAST_AT: Final = datetime(9999, 12, 30, tzinfo=UTC)
_EPOCH: Final = format_at(datetime(1970, 1, 1, tzinfo=UTC))
_IN_RANGE: Final = events.c.at.between(sa.literal(_FIRST_AT, UtcDateTime), sa.literal(_LAST_AT, UtcDateTime))
_PG_AT: Final = sa.case((_IN_RANGE, events.c.at), else_=sa.null()).label("at")
# The columns a read selects, per dialect: every value decoded by _event.
_READ_COLUMNS: Final[Mapping[str, tuple[sa.ColumnElement[Any], ...]]] = {
    "sqlite": (
        events.c.seq,
        _readable(events.c.type),
        _readable(events.c.at),
        _readable(events.c.actor),
        _readable(events.c.payload),
    ),
    "postgresql": (
        events.c.seq,
        events.c.type,
        _PG_AT,
        events.c.actor,
        sa.type_coerce(events.c.payload, sa.Text),
    ),
}


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
        backstop fired), ``database_busy``.
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
            at = utc_now()
            params = {"bump_session_id": session_id, "bump_count": count, "bump_at": at}
            if tenant is None:
                row = _BUMP.first(conn, params)
            else:
                row = _BUMP_IN_TENANT.first(conn, params | {"bump_tenant": tenant})
            if row is None:
                raise StorageError("not_found")
            last, row_tenant = row
            first = last - count + 1
            rows = [
                {
                    "session_id": session_id,
                    "seq": first + offset,
                    "tenant": row_tenant,
                    "type": new.type,
                    "at": at,
                    "actor": new.actor,
                    "payload_text": _payload_text(new.payload),
                }
                for offset, new in enumerate(new_events)
            ]
            _INSERT.run_many(conn, rows)
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
        columns = _READ_COLUMNS.get(source.dialect.name)
        if columns is None:
            raise StorageError("unsupported_database")
        query = (
            sa.select(*columns)
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

    def read_many(
        self, conn: sa.Connection, wanted: Mapping[str, tuple[int, int]]
    ) -> dict[str, list[Event]]:
        """For each session id: its events with ``after < seq <= upto``, in seq order.

        ``wanted`` maps a session id to ``(after, upto)``; one query per
        ``READ_MANY_SESSIONS`` sessions, each range at most ``MAX_READ`` seqs.
        The notifier's read of every session that advanced in one tick.
        """
        columns = _READ_COLUMNS.get(conn.dialect.name)
        if columns is None:
            raise StorageError("unsupported_database")
        found: dict[str, list[Event]] = {session_id: [] for session_id in wanted}
        items = [(s, a, u) for s, (a, u) in wanted.items() if 0 < u - a <= MAX_READ]
        for start in range(0, len(items), READ_MANY_SESSIONS):
            chunk = items[start : start + READ_MANY_SESSIONS]
            query = _read_many_query(conn.dialect.name, len(chunk))
            params: dict[str, str | int] = {}
            for index, (session_id, after, upto) in enumerate(chunk):
                params[f"s{index}"], params[f"a{index}"], params[f"u{index}"] = session_id, after, upto
            with translated():
                rows = conn.execute(query, params).all()
            for session_id, *row in rows:
                event = _event(session_id, *row)
                if event is not None and session_id in found:
                    found[session_id].append(event)
        return found

    @staticmethod
    def _rows(conn: sa.Connection, query: sa.Select[Any], session_id: str) -> list[Event]:
        with translated():
            rows = conn.execute(query).all()
        found = [_event(session_id, *row) for row in rows]
        return [event for event in found if event is not None]


def count_events(
    conn: sa.Connection,
    session_id: str,
    tenant: str,
    type: str,
    actor: str,
    since: datetime | None = None,
) -> int:
    """How many events of ``type`` by ``actor`` the session's log holds (``since``: at or after it).

    An outside agent's caps read it (its tool calls so far, and in the last
    minute) in the write unit that locked the session row, so two calls
    racing for the last one are counted one after the other.
    """
    query = sa.select(sa.func.count()).select_from(events).where(
        events.c.session_id == session_id,
        events.c.tenant == tenant,
        events.c.type == type,
        events.c.actor == actor,
    )
    if since is not None:
        query = query.where(events.c.at >= since)
    with translated():
        return int(conn.execute(query).scalar_one())


@functools.lru_cache(maxsize=2 * READ_MANY_SESSIONS)
def _read_many_query(dialect: str, count: int) -> sa.Select[Any]:
    """``read_many``'s statement for ``count`` sessions, built once per count.

    Building one took longer than running it (the notifier runs one a tick);
    the values are bound: ``s<i>``, ``a<i>``, ``u<i>`` (session, after, upto).
    """
    ranges = [
        sa.and_(
            events.c.session_id == sa.bindparam(f"s{index}"),
            events.c.seq > sa.bindparam(f"a{index}"),
            events.c.seq <= sa.bindparam(f"u{index}"),
        )
        for index in range(count)
    ]
    return (
        sa.select(events.c.session_id, *_READ_COLUMNS[dialect])
        .where(sa.or_(*ranges))
        .order_by(events.c.session_id, events.c.seq)
    )


def _payload_text(payload: Mapping[str, Any]) -> str:
    """``payload`` as the JSON text to store, lone surrogates replaced (``invalid_value``: not JSON)."""
    value = dict(payload)
    try:
        return dumps(value)
    except ValueError:
        pass  # NaN or infinity, or text that is not Unicode: the second try tells
    except (TypeError, RecursionError) as error:
        raise StorageError("invalid_value") from error
    try:
        return dumps(storable_json(value))
    except (TypeError, ValueError, RecursionError) as error:
        raise StorageError("invalid_value") from error


def _event(
    session_id: str, seq: object, type: object, at: object, actor: object, payload: object
) -> Event | None:
    """One row as an ``Event``, whatever its columns hold (None for a row without an integer seq)."""
    if not isinstance(seq, int) or isinstance(seq, bool):
        logger.warning("session %s: an event row without an integer seq is left out", session_id)
        return None
    decoded = _payload(session_id, seq, payload)
    return Event(session_id, seq, _text(type), _at(at), _text(actor), decoded)


def _text(value: object) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return storable_text(value) if isinstance(value, str) else ""


def _at(value: object) -> str:
    if isinstance(value, bytes):
        try:
            value = datetime.fromisoformat(value.decode("ascii"))
        except ValueError:
            return _EPOCH
    if not isinstance(value, datetime):
        return _EPOCH
    return format_at(value if value.tzinfo is not None else value.replace(tzinfo=UTC))


def _payload(session_id: str, seq: int, value: object) -> dict[str, Any]:
    text = value.decode("utf-8", "replace") if isinstance(value, bytes) else value
    try:
        decoded = loads(text, allow_nan=False) if isinstance(text, str) else None
    except (ValueError, RecursionError):
        decoded = None
    if not isinstance(decoded, dict):
        logger.warning("session %s, event %s: the payload is no JSON object, read as {}", session_id, seq)
        return {}
    return decoded
