"""Change-set rows: ``ChangeSetStore`` reads and writes the ``charlotte_proposals`` table.

``ChangeSets`` (``charlotte.drafts.change_sets``) decides what happens to a
change set; this store only moves change sets in and out of their table,
always inside a connection the caller holds, so that the caller's transaction
and lock order stay in one place:

- ``find_open`` finds a session's one open change set (``for_update`` locks its row);
- ``insert_open`` and ``extend`` store a change set's working copy and its ops;
- ``mark_resolved`` closes a change set as ``approved``, ``rejected`` or
  ``conflicted`` (and says whether its working revisions are retired);
- ``retired`` tells whether a revision was one of a resolved change set's retired ones;
- ``has_unnotified`` and ``take_unnotified`` are the notices bookkeeping:
  each resolution is handed to the agent once.

The table keeps its first name, ``charlotte_proposals`` (a storage name, see
``AGENTS.md``); in code it is ``tables.change_sets``.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from charlotte.errors import PageSessionError, StorageError
from charlotte.events import utc_now
from charlotte.storage._json_stream import extend_array, loads_each_text
from charlotte.storage._translate import translated
from charlotte.storage.sessions import SessionRecord
from charlotte.storage.tables import change_sets
from charlotte.storage.types import loads

__all__ = ["ChangeSet", "ChangeSetStore"]


@dataclass(frozen=True, slots=True)
class ChangeSet:
    """One stored change set: its working copy and the agent ops it holds.

    The ops stay the stored JSON text (``ops_text``) until asked for:
    ``each_op`` decodes them one at a time (an approval's replay), ``ops``
    all at once, and ``ChangeSetStore.extend`` appends to the text without
    decoding it, so an agent write costs what its own ops cost, however
    many the set already holds.
    """

    id: str
    session_id: str
    tenant: str
    page: str
    status: str
    #: The working copy as its stored text (``working`` decodes it).
    working_text: str
    #: The working copy's revision, its ``seq`` (what the agent sees while the set is
    #: open), read by the database from the stored text: a reader that needs only
    #: the revision (an approval) never decodes the working copy.
    revision: int
    ops_text: str
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
    def ops(self) -> list[dict[str, Any]]:
        """The set's ops, decoded (each read decodes them again: keep the list)."""
        ops: list[dict[str, Any]] = loads(self.ops_text)
        return ops

    def each_op(self) -> Iterator[tuple[dict[str, Any], str | None]]:
        """The set's ops decoded one at a time, as they are taken, each with its stored text.

        The text is the op as the set stores it (``storage._json_stream.loads_each_text``;
        ``None`` for the rare text decoded whole), so that the op history can
        store it as it is. Where the stored text stops being a JSON array, or
        holds NaN (host corruption), ``PageSessionError("invalid_state")``, as
        for a corrupt stored draft.
        """
        try:
            yield from loads_each_text(self.ops_text)
        except ValueError:
            raise PageSessionError("invalid_state", detail="change set: ops") from None

    @property
    def working(self) -> dict[str, Any]:
        """The working copy, decoded (each read decodes it again: keep the value)."""
        working: dict[str, Any] = loads(self.working_text)
        return working

    @property
    def base_revision(self) -> int:
        """The draft revision the working copy was seeded from."""
        return self.revision - self.op_count


# The JSON columns read as their text (type_coerce: no JSON result processor).
_WORKING_TEXT: Final = sa.type_coerce(change_sets.c.working, sa.Text)
_OPS_TEXT: Final = sa.type_coerce(change_sets.c.ops, sa.Text)


def _columns(seq: sa.ColumnElement[int]) -> list[sa.ColumnElement[Any]]:
    """A row's columns in ChangeSet's field order (a row becomes one positionally).

    ``seq`` reads the working copy's revision out of its stored text.
    """
    named: dict[str, sa.ColumnElement[Any]] = {"working_text": _WORKING_TEXT, "ops_text": _OPS_TEXT, "revision": seq}
    return [
        named[f.name].label(f.name) if f.name in named else change_sets.c[f.name] for f in fields(ChangeSet)
    ]


#: Per dialect: the working copy's ``seq`` as the database reads it from the stored text.
_COLUMNS: Final = {
    "sqlite": _columns(sa.func.json_extract(_WORKING_TEXT, "$.seq", type_=sa.Integer)),
    "postgresql": _columns(sa.cast(sa.cast(_WORKING_TEXT, postgresql.JSON)["seq"].astext, sa.Integer)),
}


def _select(conn: sa.Connection) -> sa.Select[Any]:
    columns = _COLUMNS.get(conn.dialect.name)
    if columns is None:
        raise StorageError("unsupported_database")
    return sa.select(*columns)


class ChangeSetStore:
    """Change-set rows in ``charlotte_proposals``; every method joins the caller's transaction."""

    def find_open(
        self, conn: sa.Connection, session: SessionRecord, *, for_update: bool = False
    ) -> ChangeSet | None:
        """The open change set of ``session`` inside ``conn`` (``for_update`` locks its row)."""
        query = _select(conn).where(
            change_sets.c.session_id == session.id,
            change_sets.c.tenant == session.tenant,
            change_sets.c.status == "open",
        )
        if for_update:
            query = query.with_for_update()
        with translated():
            row = conn.execute(query).first()
        return None if row is None else ChangeSet(*row)

    def insert_open(
        self,
        conn: sa.Connection,
        session: SessionRecord,
        working: dict[str, Any],
        ops: list[dict[str, Any]],
    ) -> str:
        """Store a new open change set for ``session`` holding ``ops``; returns its id."""
        change_set_id = uuid.uuid4().hex
        values = {
            "id": change_set_id,
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
            conn.execute(sa.insert(change_sets).values(**values))
        return change_set_id

    def extend(
        self,
        conn: sa.Connection,
        change_set: ChangeSet,
        working: dict[str, Any],
        ops: list[dict[str, Any]],
    ) -> None:
        """Append ``ops`` to an open change set and store its new working copy.

        The stored ops text is extended, not decoded and written again; ops
        that are not JSON are ``StorageError("invalid_value")``, as any
        value a JSON column refuses.
        """
        try:
            stored = extend_array(change_set.ops_text, ops)
        except (TypeError, ValueError):
            raise StorageError("invalid_value") from None
        values = {
            "working": working,
            "ops": sa.type_coerce(stored, sa.Text),
            "op_count": change_set.op_count + len(ops),
        }
        with translated():
            conn.execute(
                sa.update(change_sets).where(change_sets.c.id == change_set.id).values(**values)
            )

    def mark_resolved(
        self,
        conn: sa.Connection,
        change_set_id: str,
        status: str,
        *,
        retired_above: int | None,
        code: str | None = None,
        at: int | None = None,
    ) -> None:
        """Close a change set as ``status``; ``code`` and ``at`` say why a replay conflicted.

        ``retired_above``: the change set's base revision when its working
        revisions are retired (see ``ChangeSet.retired_above``), None when
        they are not.
        """
        values = {
            "status": status,
            "conflict_code": code,
            "conflict_at": at,
            "resolved_at": utc_now(),
            "retired_above": retired_above,
        }
        with translated():
            conn.execute(
                sa.update(change_sets).where(change_sets.c.id == change_set_id).values(**values)
            )

    def retired(self, conn: sa.Connection, session: SessionRecord, revision: int) -> bool:
        """True when ``revision`` is a retired working revision of one of ``session``'s resolved change sets."""
        query = sa.select(change_sets.c.id).where(
            change_sets.c.session_id == session.id,
            change_sets.c.tenant == session.tenant,
            change_sets.c.retired_above < revision,
            change_sets.c.retired_above + change_sets.c.op_count >= revision,
        )
        with translated():
            return conn.execute(query.limit(1)).first() is not None

    def has_unnotified(self, conn: sa.Connection, session: SessionRecord) -> bool:
        """True when ``session`` has a resolved change set the agent has not been told about."""
        with translated():
            found = _unnotified(sa.select(change_sets.c.id), session).limit(1)
            return conn.execute(found).first() is not None

    def take_unnotified(self, conn: sa.Connection, session: SessionRecord) -> list[ChangeSet]:
        """The resolved, unnotified change sets of ``session``, oldest first, now marked notified.

        Locks their rows, so that concurrent callers hand each resolution out once.
        """
        with translated():
            rows = conn.execute(_unnotified(_select(conn), session).with_for_update()).all()
            if not rows:
                return []
            conn.execute(
                sa.update(change_sets)
                .where(change_sets.c.id.in_([row.id for row in rows]))
                .values(notified=True)
            )
        return [ChangeSet(*row) for row in rows]


def _unnotified(query: sa.Select[Any], session: SessionRecord) -> sa.Select[Any]:
    return (
        query.where(
            change_sets.c.session_id == session.id,
            change_sets.c.tenant == session.tenant,
            change_sets.c.status != "open",
            change_sets.c.notified.is_(False),
        )
        .order_by(change_sets.c.resolved_at, change_sets.c.id)
    )
