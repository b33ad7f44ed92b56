"""A site finds a page's published revision with one primary-key read.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-06

``charlotte_published_pages``: one row per published page (tenant, page, the
revision published, when), written by every publish in the unit of work that
writes the published copy, whichever page repository holds that copy. The
pages charlotte's own tables had published before this migration get their
row here; a host repository's pages get theirs at their next publish.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None

# Plain DDL types, as in 0001: a migration must not change when charlotte's Python types do.
TENANT = sa.String(128)
PAGE = sa.String(255)


def upgrade() -> None:
    op.create_table(
        "charlotte_published_pages",
        sa.Column("tenant", TENANT, nullable=False),
        sa.Column("page", PAGE, nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("tenant", "page", name="pk_charlotte_published_pages"),
    )
    op.execute(
        "INSERT INTO charlotte_published_pages (tenant, page, revision, published_at)"
        " SELECT tenant, page, published_revision, published_at FROM charlotte_pages"
        " WHERE published IS NOT NULL AND published_revision IS NOT NULL"
        " AND published_at IS NOT NULL"
    )


def downgrade() -> None:
    op.drop_table("charlotte_published_pages")
