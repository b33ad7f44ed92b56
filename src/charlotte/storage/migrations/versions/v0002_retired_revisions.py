"""Change sets remember which of the agent's revisions name no page state any more.

Revision ID: 0002
Revises: 0001
Create Date: 2025-02-01

``charlotte_proposals.retired_above``: NULL while a set is open and after an
approval that replayed it on an unchanged draft; otherwise the set's base
revision, so that the set's working revisions ``retired_above + 1 ..
retired_above + op_count`` are known to name nothing (see
``charlotte.drafts.change_sets``). Sets resolved before this migration cannot tell an
approval on an unchanged draft from one on a changed draft: all of them are
marked, which only ever makes ``cms_changes_since`` answer ``revision_unknown``
where it could have answered.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("charlotte_proposals", sa.Column("retired_above", sa.Integer(), nullable=True))
    # The working copy's revision is its "seq"; the base is that minus the set's ops.
    if op.get_context().dialect.name == "postgresql":
        seq = "CAST(CAST(working AS json) ->> 'seq' AS integer)"
    else:
        seq = "CAST(json_extract(working, '$.seq') AS integer)"
    op.execute(
        f"UPDATE charlotte_proposals SET retired_above = {seq} - op_count WHERE status <> 'open'"
    )


def downgrade() -> None:
    with op.batch_alter_table("charlotte_proposals") as batch:
        batch.drop_column("retired_above")
