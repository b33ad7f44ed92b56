"""Turn rows: the ``TurnRecord`` value and the statements ``Turns`` runs on ``charlotte_turns``.

Nothing here appends events or locks sessions; ``Turns`` does, in the same
transaction. ``change`` is the one way a turn's status moves: a
compare-and-set on the status it must have.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any, Final

import sqlalchemy as sa

from charlotte.storage._translate import translated
from charlotte.storage.tables import sessions, turns

__all__ = [
    "ACTIVE",
    "COLUMNS",
    "STOP_FLAG",
    "TurnRecord",
    "active_of",
    "change",
    "left_queued",
    "mark_redelivered",
    "row_values",
    "select",
]

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


COLUMNS: Final = [turns.c[f.name] for f in fields(TurnRecord)]
# Read before every tool call: built once (building it cost as much as running it).
STOP_FLAG: Final = (
    sa.select(turns.c.status, sessions.c.stop_requested)
    .join(sessions, sessions.c.id == turns.c.session_id)
    .where(turns.c.id == sa.bindparam("stop_turn_id"))
)


def row_values(record: TurnRecord) -> dict[str, Any]:
    """The record as column values (an insert)."""
    return {f.name: getattr(record, f.name) for f in fields(record)}


def select(conn: sa.Connection, turn_id: str) -> TurnRecord | None:
    """The turn, or None."""
    with translated():
        row = conn.execute(sa.select(*COLUMNS).where(turns.c.id == turn_id)).first()
    return None if row is None else TurnRecord(*row)


def active_of(conn: sa.Connection, session_id: str) -> TurnRecord | None:
    """The session's queued or running turn (the active-turn index allows one), or None."""
    statement = sa.select(*COLUMNS).where(
        turns.c.session_id == session_id, turns.c.status.in_(list(ACTIVE))
    )
    with translated():
        row = conn.execute(statement).first()
    return None if row is None else TurnRecord(*row)


def change(
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
    statement = (
        sa.update(turns)
        .where(turns.c.id == turn_id, turns.c.status.in_(list(from_statuses)))
        .values(**columns)
        .returning(*COLUMNS)
    )
    if stale_before is not None:
        statement = statement.where(turns.c.heartbeat_at < stale_before)
    with translated():
        row = conn.execute(statement).first()
    return None if row is None else TurnRecord(*row)


def mark_redelivered(conn: sa.Connection, turn_id: str, before: datetime, now: datetime) -> bool:
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


def left_queued(conn: sa.Connection, before: datetime, limit: int) -> list[tuple[str, str, str]]:
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
