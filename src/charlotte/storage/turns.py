"""Turn rows: the ``TurnRecord`` value and ``TurnStore``, every statement on ``charlotte_turns``.

Nothing here appends events or locks sessions; ``Turns``
(``charlotte.runtime.turns``) does, in the same transaction, and decides what
a turn's life allows. ``change`` is the one way a turn's status moves: a
compare-and-set on the status it must have. Every method joins the caller's
transaction.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any, Final

import sqlalchemy as sa

from charlotte.storage._direct import Direct, one_of
from charlotte.storage._translate import translated
from charlotte.storage.tables import sessions, turns

__all__ = ["ACTIVE", "TurnRecord", "TurnStore"]

#: The statuses of a turn that is not over.
ACTIVE: Final = ("queued", "running")


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """One row of ``charlotte_turns``."""

    id: str
    session_id: str
    tenant: str
    message: str
    user: str
    status: str
    ready: bool
    error_code: str | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    heartbeat_at: datetime | None

    @property
    def active(self) -> bool:
        """True while the turn is queued or running."""
        return self.status in ACTIVE


_COLUMNS: Final = [turns.c[f.name] for f in fields(TurnRecord)]
_SELECT: Final = sa.select(*_COLUMNS).where(turns.c.id == sa.bindparam("get_turn_id"))
# Read before every tool call: built once (building it cost as much as
# running it), run on the driver's cursor (see ``Direct``).
_STOP_FLAG: Final = Direct(
    sa.select(turns.c.status, sessions.c.stop_requested)
    .join(sessions, sessions.c.id == turns.c.session_id)
    .where(turns.c.id == sa.bindparam("stop_turn_id"))
)
# Every turn's send inserts one.
_INSERT: Final = Direct(
    turns.insert().values({c.name: sa.bindparam(f"insert_{c.name}", type_=c.type) for c in _COLUMNS})
)


@functools.lru_cache(maxsize=32)
def _change(columns: tuple[str, ...], statuses: tuple[str, ...], stale: bool) -> Direct:
    """``TurnStore.change``'s statement for these columns, statuses and staleness, built once."""
    statement = (
        sa.update(turns)
        .where(turns.c.id == sa.bindparam("change_id"), one_of(turns.c.status, statuses))
        .values({name: sa.bindparam(f"change_{name}", type_=turns.c[name].type) for name in columns})
        .returning(*_COLUMNS)
    )
    if stale:
        statement = statement.where(turns.c.heartbeat_at < sa.bindparam("change_stale_before", type_=turns.c.heartbeat_at.type))
    return Direct(statement)


# Read with the page by every cms_check and cms_ready (the person's words are evidence).
_MESSAGES: Final = Direct(
    sa.select(turns.c.message)
    .where(
        turns.c.session_id == sa.bindparam("said_session_id"),
        turns.c.tenant == sa.bindparam("said_tenant"),
    )
    .order_by(turns.c.created_at.desc(), turns.c.id.desc())
    .limit(sa.bindparam("said_limit", type_=sa.Integer))
)
_HEARTBEAT: Final = (
    sa.update(turns)
    .where(turns.c.id == sa.bindparam("beat_turn_id"), turns.c.status == "running")
    .values(heartbeat_at=sa.bindparam("beat_at", type_=turns.c.heartbeat_at.type))
)


class TurnStore:
    """Turn rows in ``charlotte_turns``; every method joins the caller's transaction."""

    def insert(self, conn: sa.Connection, record: TurnRecord) -> None:
        """Store a new turn (the active-turn index refuses a second one: ``conflict``)."""
        values = {f"insert_{f.name}": getattr(record, f.name) for f in fields(record)}
        with translated():
            _INSERT.run(conn, values)

    def get(self, conn: sa.Connection, turn_id: str) -> TurnRecord | None:
        """The turn, or None."""
        with translated():
            row = conn.execute(_SELECT, {"get_turn_id": turn_id}).first()
        return None if row is None else TurnRecord(*row)

    def active_of(self, conn: sa.Connection, session_id: str) -> TurnRecord | None:
        """The session's queued or running turn (the active-turn index allows one), or None."""
        statement = sa.select(*_COLUMNS).where(
            turns.c.session_id == session_id, turns.c.status.in_(list(ACTIVE))
        )
        with translated():
            row = conn.execute(statement).first()
        return None if row is None else TurnRecord(*row)

    def messages_of(
        self, conn: sa.Connection, session_id: str, tenant: str, limit: int
    ) -> list[str]:
        """The messages of the session's newest ``limit`` turns in ``tenant``, oldest first.

        Every turn counts whatever its status (queued, running, finished,
        failed, stopped): the person wrote each message. Only this session's
        rows in this tenant; nothing the agent wrote is in this column.
        """
        values = {"said_session_id": session_id, "said_tenant": tenant, "said_limit": limit}
        with translated():
            messages = [row[0] for row in _MESSAGES.all(conn, values)]
        messages.reverse()  # read newest first, for the limit
        return messages

    def stop_flag(self, conn: sa.Connection, turn_id: str) -> tuple[str, bool] | None:
        """The turn's status and its session's stop flag, or None when there is no such turn."""
        with translated():
            row = _STOP_FLAG.first(conn, {"stop_turn_id": turn_id})
        return None if row is None else (row[0], bool(row[1]))

    def heartbeat(self, conn: sa.Connection, turn_id: str, now: datetime) -> bool:
        """Stamp a running turn's ``heartbeat_at``; False when the turn is not running."""
        with translated():
            return conn.execute(_HEARTBEAT, {"beat_turn_id": turn_id, "beat_at": now}).rowcount == 1

    def change(
        self,
        conn: sa.Connection,
        turn_id: str,
        from_statuses: Sequence[str],
        *,
        stale_before: datetime | None = None,
        **columns: Any,
    ) -> TurnRecord | None:
        """Compare-and-set on the turn's status; the changed row, or None when none matched.

        With ``stale_before`` the row must also have a ``heartbeat_at`` older
        than it (a stale running turn; for a queued turn: not re-delivered since).
        """
        statement = _change(tuple(columns), tuple(from_statuses), stale_before is not None)
        params = {f"change_{name}": value for name, value in columns.items()}
        params |= {"change_id": turn_id, "change_stale_before": stale_before}
        with translated():
            row = statement.first(conn, params)
        return None if row is None else TurnRecord(*row)

    def stale_running(self, conn: sa.Connection, before: datetime) -> list[str]:
        """Ids of running turns whose heartbeat is older than ``before``, stalest first."""
        statement = (
            sa.select(turns.c.id)
            .where(turns.c.status == "running", turns.c.heartbeat_at < before)
            .order_by(turns.c.heartbeat_at, turns.c.id)
        )
        with translated():
            return list(conn.execute(statement).scalars())

    def left_queued(
        self, conn: sa.Connection, before: datetime, limit: int
    ) -> list[tuple[str, str, str]]:
        """``(turn id, session id, tenant)`` of turns queued before ``before`` and not re-delivered since, oldest first."""
        statement = (
            sa.select(turns.c.id, turns.c.session_id, turns.c.tenant)
            .where(
                turns.c.status == "queued",
                turns.c.created_at < before,
                sa.or_(turns.c.heartbeat_at.is_(None), turns.c.heartbeat_at < before),
            )
            .order_by(turns.c.created_at, turns.c.id)
            .limit(limit)
        )
        with translated():
            return [(row.id, row.session_id, row.tenant) for row in conn.execute(statement)]

    def mark_redelivered(
        self, conn: sa.Connection, turn_id: str, before: datetime, now: datetime
    ) -> bool:
        """Stamp a queued turn not re-delivered since ``before`` (``heartbeat_at``); False when another got it first."""
        statement = (
            sa.update(turns)
            .where(
                turns.c.id == turn_id,
                turns.c.status == "queued",
                sa.or_(turns.c.heartbeat_at.is_(None), turns.c.heartbeat_at < before),
            )
            .values(heartbeat_at=now)
        )
        with translated():
            return conn.execute(statement).rowcount == 1
