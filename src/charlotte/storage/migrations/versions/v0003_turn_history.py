"""Each ended turn keeps its place in the session's conversation.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01

``charlotte_turn_history``: one row per ended turn (its end event's ``seq``,
how it ended, the person's message, the reply, the model library's messages
of a finished turn, the compact record). Turns that ended before this
migration have no row: their conversation starts empty.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None

# Plain DDL types, as in 0001: a migration must not change when charlotte's Python types do.
ID = sa.String(64)
TENANT = sa.String(128)


def upgrade() -> None:
    op.create_table(
        "charlotte_turn_history",
        sa.Column("turn_id", ID, nullable=False),
        sa.Column("session_id", ID, nullable=False),
        sa.Column("tenant", TENANT, nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("reply", sa.Text(), nullable=False),
        sa.Column("messages", sa.Text(), nullable=True),
        sa.Column("record", sa.Text(), nullable=False),
        sa.Column("asked_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("turn_id", name="pk_charlotte_turn_history"),
        sa.ForeignKeyConstraint(
            ["turn_id"],
            ["charlotte_turns.id"],
            name=op.f("fk_charlotte_turn_history_turn_id"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["session_id"],
            ["charlotte_sessions.id"],
            name=op.f("fk_charlotte_turn_history_session_id"),
            ondelete="CASCADE",
        ),
    )
    op.create_index(
        "ix_charlotte_turn_history_session_id_seq",
        "charlotte_turn_history",
        ["session_id", "seq"],
        unique=True,
    )


def downgrade() -> None:
    op.drop_table("charlotte_turn_history")
