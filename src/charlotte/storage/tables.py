"""charlotte's tables (SQLAlchemy Core). Every row carries ``tenant``.

The Alembic migrations in ``migrations/versions`` build exactly this schema
(``tests/integration/storage/test_migrations.py`` compares them). Change a table
here only together with a new migration.

JSON columns use ``JsonText`` (see ``charlotte.storage.types`` for the
reason, ``docs/performance.md`` for its figures); timestamps use ``UtcDateTime``. Column defaults are Python-side only
(they fill inserts made through these tables, and keep the DDL plain).
"""

from __future__ import annotations

from typing import Final

import sqlalchemy as sa

from charlotte.events import utc_now
from charlotte.storage._translate import translated
from charlotte.storage.types import JsonText, UtcDateTime

__all__ = [
    "CHANGE_SET_STATUSES",
    "SESSION_STATUSES",
    "TURN_STATUSES",
    "change_sets",
    "conversation",
    "create_tables",
    "drop_tables",
    "events",
    "metadata",
    "page_ops",
    "pages",
    "published_pages",
    "sessions",
    "turns",
]

SESSION_STATUSES: Final = ("idle", "queued", "running", "stopping")
TURN_STATUSES: Final = ("queued", "running", "finished", "failed", "stopped")
CHANGE_SET_STATUSES: Final = ("open", "approved", "rejected", "conflicted")

#: Names every constraint so that migrations and ``create_tables`` agree.
NAMING_CONVENTION: Final = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = sa.MetaData(naming_convention=NAMING_CONVENTION)

ID = sa.String(64)
TENANT = sa.String(128)
PAGE = sa.String(255)
PERSON = sa.String(255)
CODE = sa.String(64)


def _one_of(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


sessions = sa.Table(
    "charlotte_sessions",
    metadata,
    sa.Column("id", ID, primary_key=True),
    sa.Column("tenant", TENANT, nullable=False),
    sa.Column("page", PAGE, nullable=False),
    sa.Column("brief", sa.Text, nullable=False, default=""),
    sa.Column("facts", JsonText, nullable=False, default=lambda: {}),
    sa.Column("status", sa.String(16), nullable=False, default="idle"),
    sa.Column("stop_requested", sa.Boolean, nullable=False, default=False),
    sa.Column("guide_hash", sa.String(128), nullable=True),
    sa.Column("mode", sa.String(64), nullable=False, default="charlotte_builder"),
    sa.Column("approve_on_save", sa.Boolean, nullable=False, default=False),
    sa.Column("created_by", PERSON, nullable=False),
    sa.Column("created_at", UtcDateTime, nullable=False, default=utc_now),
    sa.Column("updated_at", UtcDateTime, nullable=False, default=utc_now, onupdate=utc_now),
    # The per-session event counter: the event log bumps it under the row lock.
    sa.Column("last_seq", sa.Integer, nullable=False, default=0),
    sa.CheckConstraint(_one_of("status", SESSION_STATUSES), name="status"),
    # A page's sessions newest first: the list of them, and the page's facts at open.
    sa.Index(None, "tenant", "page", "created_at"),
)

turns = sa.Table(
    "charlotte_turns",
    metadata,
    sa.Column("id", ID, primary_key=True),
    sa.Column(
        "session_id",
        ID,
        sa.ForeignKey("charlotte_sessions.id", ondelete="CASCADE"),
        nullable=False,
    ),
    sa.Column("tenant", TENANT, nullable=False),
    sa.Column("message", sa.Text, nullable=False),
    sa.Column("user", PERSON, nullable=False),
    sa.Column("status", sa.String(16), nullable=False, default="queued"),
    sa.Column("ready", sa.Boolean, nullable=False, default=False),
    sa.Column("error_code", CODE, nullable=True),
    sa.Column("created_at", UtcDateTime, nullable=False, default=utc_now),
    sa.Column("started_at", UtcDateTime, nullable=True),
    sa.Column("finished_at", UtcDateTime, nullable=True),
    sa.Column("heartbeat_at", UtcDateTime, nullable=True),
    sa.CheckConstraint(_one_of("status", TURN_STATUSES), name="status"),
    sa.Index(None, "session_id", "created_at"),
    # The sweeper's query: running turns whose heartbeat went stale.
    sa.Index(None, "status", "heartbeat_at"),
    # Backstop for "busy": at most one queued or running turn per session.
    sa.Index(
        "ux_charlotte_turns_active_session",
        "session_id",
        unique=True,
        sqlite_where=sa.text("status IN ('queued', 'running')"),
        postgresql_where=sa.text("status IN ('queued', 'running')"),
    ),
)

events = sa.Table(
    "charlotte_events",
    metadata,
    sa.Column(
        "session_id",
        ID,
        sa.ForeignKey("charlotte_sessions.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    # The primary key (session_id, seq) is the uniqueness backstop of the log.
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("tenant", TENANT, nullable=False),
    sa.Column("type", sa.String(64), nullable=False),
    sa.Column("at", UtcDateTime, nullable=False),
    sa.Column("actor", PERSON, nullable=False),
    sa.Column("payload", JsonText, nullable=False),
)

pages = sa.Table(
    "charlotte_pages",
    metadata,
    sa.Column("tenant", TENANT, primary_key=True),
    sa.Column("page", PAGE, primary_key=True),
    sa.Column("draft", JsonText, nullable=False),
    sa.Column("revision", sa.Integer, nullable=False),
    sa.Column("published", JsonText, nullable=True),
    sa.Column("published_revision", sa.Integer, nullable=True),
    sa.Column("updated_at", UtcDateTime, nullable=False, default=utc_now),
    sa.Column("published_at", UtcDateTime, nullable=True),
)

# One row per page that has been published: what a site reads first (one primary-key read).
published_pages = sa.Table(
    "charlotte_published_pages",
    metadata,
    sa.Column("tenant", TENANT, primary_key=True),
    sa.Column("page", PAGE, primary_key=True),
    sa.Column("revision", sa.Integer, nullable=False),
    sa.Column("published_at", UtcDateTime, nullable=False),
)

page_ops = sa.Table(
    "charlotte_page_ops",
    metadata,
    sa.Column("tenant", TENANT, primary_key=True),
    sa.Column("page", PAGE, primary_key=True),
    sa.Column("revision", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("actor", PERSON, nullable=False),
    sa.Column("op", JsonText, nullable=False),
    sa.Column(
        "session_id",
        ID,
        sa.ForeignKey("charlotte_sessions.id", ondelete="SET NULL"),
        nullable=True,
    ),
    # The agent turn that wrote the op (NULL: a person's write, an approval, a row before 0004).
    sa.Column("turn_id", ID, nullable=True),
    # On a person's undo of a turn: the turn it undid.
    sa.Column("undoes", ID, nullable=True),
    # The ops taking this revision back to the one before (NULL: a row before 0004).
    sa.Column("inverse", JsonText, nullable=True),
    sa.Column("at", UtcDateTime, nullable=True),
)

# The change sets; the table keeps its first name (a storage name, see AGENTS.md).
change_sets = sa.Table(
    "charlotte_proposals",
    metadata,
    sa.Column("id", ID, primary_key=True),
    sa.Column(
        "session_id",
        ID,
        sa.ForeignKey("charlotte_sessions.id", ondelete="CASCADE"),
        nullable=False,
    ),
    sa.Column("tenant", TENANT, nullable=False),
    sa.Column("page", PAGE, nullable=False),
    sa.Column("status", sa.String(16), nullable=False, default="open"),
    sa.Column("working", JsonText, nullable=False),
    sa.Column("ops", JsonText, nullable=False, default=lambda: []),
    sa.Column("op_count", sa.Integer, nullable=False, default=0),
    sa.Column("conflict_code", CODE, nullable=True),
    # Index of the op that failed to replay.
    sa.Column("conflict_at", sa.Integer, nullable=True),
    sa.Column("notified", sa.Boolean, nullable=False, default=False),
    sa.Column("created_at", UtcDateTime, nullable=False, default=utc_now),
    sa.Column("resolved_at", UtcDateTime, nullable=True),
    # A resolved set whose working revisions (retired_above, retired_above +
    # op_count] name no page state any more: its base revision; else NULL.
    sa.Column("retired_above", sa.Integer, nullable=True),
    sa.CheckConstraint(_one_of("status", CHANGE_SET_STATUSES), name="status"),
    sa.Index(None, "session_id", "created_at"),
    sa.Index(None, "tenant", "page"),
    # At most one open change set per session.
    sa.Index(
        "ux_charlotte_proposals_open_session",
        "session_id",
        unique=True,
        sqlite_where=sa.text("status = 'open'"),
        postgresql_where=sa.text("status = 'open'"),
    ),
)


# One row per ended turn: what the conversation keeps of it (``ConversationStore``).
conversation = sa.Table(
    "charlotte_turn_history",
    metadata,
    sa.Column(
        "turn_id",
        ID,
        sa.ForeignKey("charlotte_turns.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column(
        "session_id",
        ID,
        sa.ForeignKey("charlotte_sessions.id", ondelete="CASCADE"),
        nullable=False,
    ),
    sa.Column("tenant", TENANT, nullable=False),
    # The seq of the turn's end event: the conversation's order, and where the log stands.
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("message", sa.Text, nullable=False),
    sa.Column("reply", sa.Text, nullable=False, default=""),
    # The model library's own JSON of the turn's messages (finished turns), else NULL.
    sa.Column("messages", sa.Text, nullable=True),
    # The compact record as JSON text, decoded row by row (a damaged one reads as empty).
    sa.Column("record", sa.Text, nullable=False),
    sa.Column("asked_at", UtcDateTime, nullable=False),
    sa.Column("created_at", UtcDateTime, nullable=False, default=utc_now),
    sa.Index(None, "session_id", "seq", unique=True),
)


def create_tables(engine: sa.Engine) -> None:
    """Create every charlotte table that is missing (tests; hosts use ``migrate``)."""
    with translated(), engine.begin() as conn:
        metadata.create_all(conn)


def drop_tables(engine: sa.Engine) -> None:
    """Drop every charlotte table (tests)."""
    with translated(), engine.begin() as conn:
        metadata.drop_all(conn)
