"""A page's sessions are found newest first through one index.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-05

A session opened without facts starts with its page's facts: those of the
newest earlier session of (tenant, page) that has facts, read at open. The
index on ``charlotte_sessions`` (tenant, page) becomes (tenant, page,
created_at), so that read (and the list of a page's sessions, newest first)
walks the page's rows from the newest instead of sorting them all.
"""

from __future__ import annotations

from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_index(
        "ix_charlotte_sessions_tenant_page_created_at",
        "charlotte_sessions",
        ["tenant", "page", "created_at"],
    )
    op.drop_index("ix_charlotte_sessions_tenant_page", table_name="charlotte_sessions")


def downgrade() -> None:
    op.create_index("ix_charlotte_sessions_tenant_page", "charlotte_sessions", ["tenant", "page"])
    op.drop_index(
        "ix_charlotte_sessions_tenant_page_created_at", table_name="charlotte_sessions"
    )
