"""Rows of ``charlotte_proposals``: one change set each, read and written here.

``ChangeSets`` (``charlotte.proposals``) decides what happens to a set; this
module only moves sets in and out of their table, always inside a connection
the caller holds, so that the caller's transaction and lock order stay in one
place:

- ``open_set`` finds a session's one open set (``for_update`` locks its row);
- ``insert_open`` and ``extend`` store a set's working copy and its ops;
- ``mark_resolved`` closes a set as ``approved``, ``rejected`` or ``conflicted``
  (and says whether its working revisions are retired);
- ``retired`` tells whether a revision was one of a resolved set's retired ones;
- ``has_unnotified``, ``take_unnotified`` and ``notice`` are the notices
  bookkeeping: each resolution is handed to the agent once.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any, Final

import sqlalchemy as sa

from charlotte.events import utc_now
from charlotte.storage import SessionRecord
from charlotte.storage._translate import translated
from charlotte.storage.tables import proposals

__all__ = [
    "NOTICE_MESSAGES",
    "ChangeSet",
    "extend",
    "has_unnotified",
    "insert_open",
    "mark_resolved",
    "notice",
    "open_set",
    "retired",
    "take_unnotified",
]

#: What the agent is told about each resolution (our own fixed sentences).
NOTICE_MESSAGES: Final = {
    "approved": "A person approved your change set: its changes are now in the draft.",
    "rejected": "A person rejected your change set: the draft does not have its changes.",
    "conflicted": (
        "Your change set could not be applied to the current draft (the person had "
        "changed it); the draft does not have its changes. Read the page again."
    ),
}

@dataclass(frozen=True, slots=True)
class ChangeSet:
    """One stored change set: its working copy and the agent ops it holds."""

    id: str
    session_id: str
    tenant: str
    page: str
    status: str
    working: dict[str, Any]
    ops: list[dict[str, Any]]
    op_count: int
    conflict_code: str | None
    conflict_at: int | None
    notified: bool
    created_at: datetime
    resolved_at: datetime | None
    #: Set when resolved unless an approval replayed it on an unchanged draft:
    #: its base revision; its working revisions above it name no state any more.
    retired_above: int | None

    @property
    def revision(self) -> int:
        """The working copy's revision (what the agent sees while the set is open)."""
        revision: int = self.working["seq"]
        return revision

    @property
    def base_revision(self) -> int:
        """The draft revision the working copy was seeded from."""
        return self.revision - self.op_count


# In ChangeSet's field order: a row becomes a ChangeSet positionally.
_COLUMNS: Final = [proposals.c[field.name] for field in fields(ChangeSet)]


def open_set(
    conn: sa.Connection, session: SessionRecord, *, for_update: bool = False
) -> ChangeSet | None:
    """The open set of ``session`` inside ``conn`` (``for_update`` locks its row)."""
    query = sa.select(*_COLUMNS).where(
        proposals.c.session_id == session.id,
        proposals.c.tenant == session.tenant,
        proposals.c.status == "open",
    )
    if for_update:
        query = query.with_for_update()
    with translated():
        row = conn.execute(query).first()
    return None if row is None else ChangeSet(*row)


def insert_open(
    conn: sa.Connection,
    session: SessionRecord,
    working: dict[str, Any],
    ops: list[dict[str, Any]],
) -> str:
    """Store a new open set for ``session`` holding ``ops``; returns its id."""
    proposal_id = uuid.uuid4().hex
    values = {
        "id": proposal_id,
        "session_id": session.id,
        "tenant": session.tenant,
        "page": session.page,
        "status": "open",
        "working": working,
        "ops": ops,
        "op_count": len(ops),
        "notified": False,
        "created_at": utc_now(),
    }
    with translated():
        conn.execute(sa.insert(proposals).values(**values))
    return proposal_id


def extend(
    conn: sa.Connection,
    change_set: ChangeSet,
    working: dict[str, Any],
    ops: list[dict[str, Any]],
) -> None:
    """Append ``ops`` to an open set and store its new working copy."""
    values = {
        "working": working,
        "ops": [*change_set.ops, *ops],
        "op_count": change_set.op_count + len(ops),
    }
    with translated():
        conn.execute(sa.update(proposals).where(proposals.c.id == change_set.id).values(**values))


def mark_resolved(
    conn: sa.Connection,
    proposal_id: str,
    status: str,
    *,
    retired_above: int | None,
    code: str | None = None,
    at: int | None = None,
) -> None:
    """Close a set as ``status``; ``code`` and ``at`` say why a replay conflicted.

    ``retired_above``: the set's base revision when its working revisions are
    retired (see ``ChangeSet.retired_above``), None when they are not.
    """
    values = {
        "status": status,
        "conflict_code": code,
        "conflict_at": at,
        "resolved_at": utc_now(),
        "retired_above": retired_above,
    }
    with translated():
        conn.execute(sa.update(proposals).where(proposals.c.id == proposal_id).values(**values))


def retired(conn: sa.Connection, session: SessionRecord, revision: int) -> bool:
    """True when ``revision`` is a retired working revision of one of ``session``'s resolved sets."""
    query = sa.select(proposals.c.id).where(
        proposals.c.session_id == session.id,
        proposals.c.tenant == session.tenant,
        proposals.c.retired_above < revision,
        proposals.c.retired_above + proposals.c.op_count >= revision,
    )
    with translated():
        return conn.execute(query.limit(1)).first() is not None


def has_unnotified(conn: sa.Connection, session: SessionRecord) -> bool:
    """True when ``session`` has a resolved set the agent has not been told about."""
    with translated():
        return conn.execute(_unnotified(session).limit(1)).first() is not None


def take_unnotified(conn: sa.Connection, session: SessionRecord) -> list[ChangeSet]:
    """The resolved, unnotified sets of ``session``, oldest first, now marked notified.

    Locks their rows, so that concurrent callers hand each resolution out once.
    """
    with translated():
        rows = conn.execute(_unnotified(session).with_for_update()).all()
        if not rows:
            return []
        conn.execute(
            sa.update(proposals)
            .where(proposals.c.id.in_([row.id for row in rows]))
            .values(notified=True)
        )
    return [ChangeSet(*row) for row in rows]


def notice(change_set: ChangeSet) -> dict[str, Any]:
    """What the agent is told about a resolved set (``code`` and ``at`` for a conflict)."""
    told: dict[str, Any] = {
        "kind": "change_set",
        "proposal_id": change_set.id,
        "status": change_set.status,
        "ops": change_set.op_count,
        "message": NOTICE_MESSAGES[change_set.status],
    }
    if change_set.status == "conflicted":
        told["code"] = change_set.conflict_code
        told["at"] = change_set.conflict_at
    return told


def _unnotified(session: SessionRecord) -> sa.Select[Any]:
    return (
        sa.select(*_COLUMNS)
        .where(
            proposals.c.session_id == session.id,
            proposals.c.tenant == session.tenant,
            proposals.c.status != "open",
            proposals.c.notified.is_(False),
        )
        .order_by(proposals.c.resolved_at, proposals.c.id)
    )
