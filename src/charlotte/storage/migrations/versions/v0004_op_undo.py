"""Each op history row says which turn wrote it, when, and how to take it back.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01

``charlotte_page_ops`` gains ``turn_id`` (the agent turn that wrote the op),
``undoes`` (on a person's undo of a turn, that turn), ``inverse`` (the ops that
take the op's revision back to the one before, as JSON text) and ``at``. Rows
written before this migration have none of them: a turn or a revision that far
back cannot be undone or restored (``history_unavailable``).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None

# Plain DDL types, as in 0001: a migration must not change when charlotte's Python types do.
ID = sa.String(64)


def upgrade() -> None:
    op.add_column("charlotte_page_ops", sa.Column("turn_id", ID, nullable=True))
    op.add_column("charlotte_page_ops", sa.Column("undoes", ID, nullable=True))
    op.add_column("charlotte_page_ops", sa.Column("inverse", sa.Text(), nullable=True))
    op.add_column("charlotte_page_ops", sa.Column("at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("charlotte_page_ops") as batch:
        for name in ("at", "inverse", "undoes", "turn_id"):
            batch.drop_column(name)
