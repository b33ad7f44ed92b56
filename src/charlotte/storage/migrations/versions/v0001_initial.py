"""Initial charlotte tables: sessions, turns, events, pages, page ops, proposals.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None

# Names are wrapped in op.f(): they are final, not input to the naming
# convention of charlotte's MetaData (which Alembic applies here too).
#
# Plain DDL types: a migration must not change when charlotte's Python types do.
ID = sa.String(64)
TENANT = sa.String(128)
PAGE = sa.String(255)
PERSON = sa.String(255)
CODE = sa.String(64)
STATUS = sa.String(16)
JSON_TEXT = sa.Text()


def _at() -> sa.DateTime:
    return sa.DateTime(timezone=True)


def _session_fk(name: str, ondelete: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["session_id"], ["charlotte_sessions.id"], name=op.f(name), ondelete=ondelete
    )


def _partial(condition: str) -> dict[str, Any]:
    return {"sqlite_where": sa.text(condition), "postgresql_where": sa.text(condition)}


def upgrade() -> None:
    op.create_table(
        "charlotte_sessions",
        sa.Column("id", ID, nullable=False),
        sa.Column("tenant", TENANT, nullable=False),
        sa.Column("page", PAGE, nullable=False),
        sa.Column("brief", sa.Text(), nullable=False),
        sa.Column("facts", JSON_TEXT, nullable=False),
        sa.Column("status", STATUS, nullable=False),
        sa.Column("stop_requested", sa.Boolean(), nullable=False),
        sa.Column("guide_hash", sa.String(128), nullable=True),
        sa.Column("mode", sa.String(64), nullable=False),
        sa.Column("approve_on_save", sa.Boolean(), nullable=False),
        sa.Column("created_by", PERSON, nullable=False),
        sa.Column("created_at", _at(), nullable=False),
        sa.Column("updated_at", _at(), nullable=False),
        sa.Column("last_seq", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_charlotte_sessions"),
        sa.CheckConstraint(
            "status IN ('idle', 'queued', 'running', 'stopping')",
            name=op.f("ck_charlotte_sessions_status"),
        ),
    )
    op.create_index("ix_charlotte_sessions_tenant_page", "charlotte_sessions", ["tenant", "page"])

    op.create_table(
        "charlotte_turns",
        sa.Column("id", ID, nullable=False),
        sa.Column("session_id", ID, nullable=False),
        sa.Column("tenant", TENANT, nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("user", PERSON, nullable=False),
        sa.Column("status", STATUS, nullable=False),
        sa.Column("ready", sa.Boolean(), nullable=False),
        sa.Column("error_code", CODE, nullable=True),
        sa.Column("created_at", _at(), nullable=False),
        sa.Column("started_at", _at(), nullable=True),
        sa.Column("finished_at", _at(), nullable=True),
        sa.Column("heartbeat_at", _at(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_charlotte_turns"),
        _session_fk("fk_charlotte_turns_session_id", "CASCADE"),
        sa.CheckConstraint(
            "status IN ('queued', 'running', 'finished', 'failed', 'stopped')",
            name=op.f("ck_charlotte_turns_status"),
        ),
    )
    op.create_index(
        "ix_charlotte_turns_session_id_created_at",
        "charlotte_turns",
        ["session_id", "created_at"],
    )
    op.create_index(
        "ix_charlotte_turns_status_heartbeat_at", "charlotte_turns", ["status", "heartbeat_at"]
    )
    op.create_index(
        "ux_charlotte_turns_active_session",
        "charlotte_turns",
        ["session_id"],
        unique=True,
        **_partial("status IN ('queued', 'running')"),
    )

    op.create_table(
        "charlotte_events",
        sa.Column("session_id", ID, nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False, autoincrement=False),
        sa.Column("tenant", TENANT, nullable=False),
        sa.Column("type", sa.String(64), nullable=False),
        sa.Column("at", _at(), nullable=False),
        sa.Column("actor", PERSON, nullable=False),
        sa.Column("payload", JSON_TEXT, nullable=False),
        sa.PrimaryKeyConstraint("session_id", "seq", name="pk_charlotte_events"),
        _session_fk("fk_charlotte_events_session_id", "CASCADE"),
    )

    op.create_table(
        "charlotte_pages",
        sa.Column("tenant", TENANT, nullable=False),
        sa.Column("page", PAGE, nullable=False),
        sa.Column("draft", JSON_TEXT, nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("published", JSON_TEXT, nullable=True),
        sa.Column("published_revision", sa.Integer(), nullable=True),
        sa.Column("updated_at", _at(), nullable=False),
        sa.Column("published_at", _at(), nullable=True),
        sa.PrimaryKeyConstraint("tenant", "page", name="pk_charlotte_pages"),
    )

    op.create_table(
        "charlotte_page_ops",
        sa.Column("tenant", TENANT, nullable=False),
        sa.Column("page", PAGE, nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False, autoincrement=False),
        sa.Column("actor", PERSON, nullable=False),
        sa.Column("op", JSON_TEXT, nullable=False),
        sa.Column("session_id", ID, nullable=True),
        sa.PrimaryKeyConstraint("tenant", "page", "revision", name="pk_charlotte_page_ops"),
        _session_fk("fk_charlotte_page_ops_session_id", "SET NULL"),
    )

    op.create_table(
        "charlotte_proposals",
        sa.Column("id", ID, nullable=False),
        sa.Column("session_id", ID, nullable=False),
        sa.Column("tenant", TENANT, nullable=False),
        sa.Column("page", PAGE, nullable=False),
        sa.Column("status", STATUS, nullable=False),
        sa.Column("working", JSON_TEXT, nullable=False),
        sa.Column("ops", JSON_TEXT, nullable=False),
        sa.Column("op_count", sa.Integer(), nullable=False),
        sa.Column("conflict_code", CODE, nullable=True),
        sa.Column("conflict_at", sa.Integer(), nullable=True),
        sa.Column("notified", sa.Boolean(), nullable=False),
        sa.Column("created_at", _at(), nullable=False),
        sa.Column("resolved_at", _at(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_charlotte_proposals"),
        _session_fk("fk_charlotte_proposals_session_id", "CASCADE"),
        sa.CheckConstraint(
            "status IN ('open', 'approved', 'rejected', 'conflicted')",
            name=op.f("ck_charlotte_proposals_status"),
        ),
    )
    op.create_index(
        "ix_charlotte_proposals_session_id_created_at",
        "charlotte_proposals",
        ["session_id", "created_at"],
    )
    op.create_index("ix_charlotte_proposals_tenant_page", "charlotte_proposals", ["tenant", "page"])
    op.create_index(
        "ux_charlotte_proposals_open_session",
        "charlotte_proposals",
        ["session_id"],
        unique=True,
        **_partial("status = 'open'"),
    )


def downgrade() -> None:
    for table in (
        "charlotte_proposals",
        "charlotte_page_ops",
        "charlotte_pages",
        "charlotte_events",
        "charlotte_turns",
        "charlotte_sessions",
    ):
        op.drop_table(table)
