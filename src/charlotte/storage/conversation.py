"""Conversation rows: ``ConversationEntry``, ``ConversationRow`` and ``ConversationStore`` on ``charlotte_turn_history``.

One row per ended turn, written by ``Turns`` (``charlotte.runtime.turns``) in
the transaction of the turn's end event, so the conversation and the log
never disagree. The messages column holds the model library's own JSON; this
package never reads it (storage knows no model library): ``charlotte.runtime.conversation``
does. The compact record is charlotte's JSON, decoded row by row: a row whose
record cannot be read comes back with an empty one, never an error.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

import sqlalchemy as sa

from charlotte.events import utc_now
from charlotte.storage._direct import Direct
from charlotte.storage._translate import translated
from charlotte.storage.tables import conversation
from charlotte.storage.text import storable_json, storable_text
from charlotte.storage.types import dumps, loads

__all__ = ["MAX_REPLY", "MAX_STORED_MESSAGES", "ConversationEntry", "ConversationRow", "ConversationStore"]

#: The longest reply text a row keeps (characters; the rest is cut off).
MAX_REPLY: Final = 20_000

#: The longest messages JSON a row keeps (characters); a longer one is not kept.
MAX_STORED_MESSAGES: Final = 2_000_000


@dataclass(frozen=True, slots=True)
class ConversationEntry:
    """What the runner hands to a turn's end: the reply, the turn's messages, its tool work.

    ``messages`` is the model library's JSON of a finished turn's messages
    (None otherwise); ``record`` the compact record without how the turn
    ended, which the end adds.
    """

    reply: str = ""
    messages: str | None = None
    record: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ConversationRow:
    """One row of ``charlotte_turn_history``, oldest conversation first when listed."""

    turn_id: str
    session_id: str
    tenant: str
    seq: int
    status: str
    message: str
    reply: str
    messages: str | None
    record: dict[str, Any]
    asked_at: datetime
    created_at: datetime


_COLUMNS: Final = (
    conversation.c.turn_id,
    conversation.c.session_id,
    conversation.c.tenant,
    conversation.c.seq,
    conversation.c.status,
    conversation.c.message,
    conversation.c.reply,
    conversation.c.messages,
    conversation.c.record,
    conversation.c.asked_at,
    conversation.c.created_at,
)


class ConversationStore:
    """Rows of ``charlotte_turn_history``; every method joins the caller's transaction."""

    def insert(
        self,
        conn: sa.Connection,
        *,
        turn_id: str,
        session_id: str,
        tenant: str,
        seq: int,
        status: str,
        message: str,
        asked_at: datetime,
        entry: ConversationEntry,
    ) -> None:
        """Store the row of an ended turn (its end event's ``seq``)."""
        messages = entry.messages
        if messages is not None and len(messages) > MAX_STORED_MESSAGES:
            messages = None
        values = {
            "turn_id": turn_id,
            "session_id": session_id,
            "tenant": tenant,
            "seq": seq,
            "status": status,
            "message": message,
            # The model's text: made storable here, where its column is (no NUL, no lone surrogate).
            "reply": storable_text(entry.reply[:MAX_REPLY]).replace("\x00", "\ufffd"),
            "messages": messages,
            "record": dumps(storable_json(dict(entry.record))),
            "asked_at": asked_at,
            "created_at": utc_now(),
        }
        with translated():
            _INSERT.run(conn, {f"insert_{name}": value for name, value in values.items()})

    def recent(
        self,
        conn: sa.Connection,
        session_id: str,
        tenant: str,
        limit: int,
        *,
        before: int | None = None,
        with_messages: bool = True,
        messages_up_to: int | None = None,
    ) -> list[ConversationRow]:
        """The newest ``limit`` rows of the session (below seq ``before`` when given), oldest first.

        Without ``with_messages`` no row carries its messages; with
        ``messages_up_to`` only rows whose messages are at most that many
        characters do (the others are not read: they could not be used whole).
        """
        if limit <= 0:
            return []
        kept = "none" if not with_messages else "up_to" if messages_up_to is not None else "all"
        params = {"recent_session_id": session_id, "recent_tenant": tenant, "recent_limit": limit,
                  "recent_up_to": messages_up_to, "recent_before": before}  # fmt: skip
        with translated():
            rows = _recent(kept, before is not None).all(conn, params)
        return [_row(row) for row in reversed(rows)]


# Every turn's end inserts one.
_INSERT: Final = Direct(
    conversation.insert().values({c.name: sa.bindparam(f"insert_{c.name}", type_=c.type) for c in _COLUMNS})
)


@functools.lru_cache(maxsize=8)
def _recent(kept: str, before: bool) -> Direct:
    """``ConversationStore.recent``'s statement: messages ``none``, ``up_to`` a length or ``all``; below a seq."""
    column = conversation.c.messages
    if kept == "none":
        messages: sa.ColumnElement[Any] = sa.null()
    elif kept == "up_to":
        up_to = sa.bindparam("recent_up_to", type_=sa.Integer)
        messages = sa.case((sa.func.length(column) <= up_to, column), else_=sa.null())
    else:
        messages = column
    columns = [messages.label("messages") if c is column else c for c in _COLUMNS]
    statement = (
        sa.select(*columns)
        .where(
            conversation.c.session_id == sa.bindparam("recent_session_id"),
            conversation.c.tenant == sa.bindparam("recent_tenant"),
        )
        .order_by(conversation.c.seq.desc())
        .limit(sa.bindparam("recent_limit", type_=sa.Integer))
    )
    if before:
        statement = statement.where(conversation.c.seq < sa.bindparam("recent_before", type_=sa.Integer))
    return Direct(statement)


def _row(row: Sequence[Any]) -> ConversationRow:
    turn_id, session_id, tenant, seq, status, message, reply, messages, record, asked_at, created_at = row
    return ConversationRow(
        turn_id=turn_id,
        session_id=session_id,
        tenant=tenant,
        seq=seq,
        status=status,
        message=message,
        reply=reply,
        messages=messages,
        record=_record(record),
        asked_at=asked_at,
        created_at=created_at,
    )


def _record(text: object) -> dict[str, Any]:
    """The stored compact record; empty when it cannot be read."""
    if not isinstance(text, str):
        return {}
    try:
        value = loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
