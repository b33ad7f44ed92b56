"""What people vouched for on a page, as stored: their own edits and the change sets they approved.

The checks take these as evidence next to the brief and the facts (see
``charlotte.checks.vouched``); this module only reads the rows. Each read is
one statement on an index, bounded in rows, so a check's cost does not grow
with the page's history:

- ``people_ops``: the ops of op history rows a person wrote (any actor but
  the agent: their edits, undos, restores, resets), the newest ``rows`` of
  them among the page's newest ``scan`` rows (the primary key, newest first);
- ``approved_ops``: the ops of the newest ``sets`` change sets of the page a
  person approved, each of at most ``ops`` ops (a larger one is passed over,
  never read; the page's published copy usually shows what it wrote).
"""

from __future__ import annotations

from typing import Any, Final

import sqlalchemy as sa

from charlotte.events import AGENT_ACTOR
from charlotte.storage._direct import Direct
from charlotte.storage._translate import translated
from charlotte.storage.tables import change_sets, page_ops
from charlotte.storage.types import loads

__all__ = ["VouchedStore"]

# The page's newest revision: one step down the primary key.
_NEWEST: Final = (
    sa.select(sa.func.coalesce(sa.func.max(page_ops.c.revision), 0))
    .where(
        page_ops.c.tenant == sa.bindparam("vouched_tenant"),
        page_ops.c.page == sa.bindparam("vouched_page"),
    )
    .scalar_subquery()
)
# A range of the primary key (a page's revisions are consecutive): no op text is read but the
# ones returned, where a subquery of the newest rows would carry every row's op text along.
_PEOPLE_OPS: Final = Direct(
    sa.select(sa.type_coerce(page_ops.c.op, sa.Text))
    .where(
        page_ops.c.tenant == sa.bindparam("vouched_tenant"),
        page_ops.c.page == sa.bindparam("vouched_page"),
        page_ops.c.revision > _NEWEST - sa.bindparam("vouched_scan", type_=sa.Integer),
        page_ops.c.actor != AGENT_ACTOR,
    )
    .order_by(page_ops.c.revision.desc())
    .limit(sa.bindparam("vouched_rows", type_=sa.Integer))
)
_APPROVED_OPS: Final = Direct(
    sa.select(sa.type_coerce(change_sets.c.ops, sa.Text))
    .where(
        change_sets.c.tenant == sa.bindparam("approved_tenant"),
        change_sets.c.page == sa.bindparam("approved_page"),
        change_sets.c.status == "approved",
        change_sets.c.op_count <= sa.bindparam("approved_ops", type_=sa.Integer),
    )
    .order_by(change_sets.c.resolved_at.desc())
    .limit(sa.bindparam("approved_sets", type_=sa.Integer))
)


class VouchedStore:
    """Reads of what people wrote or approved on (tenant, page); each joins the caller's transaction."""

    def people_ops(
        self, conn: sa.Connection, tenant: str, page: str, *, rows: int, scan: int
    ) -> list[Any]:
        """The ops people wrote, the newest ``rows`` of the newest ``scan`` history rows, oldest first."""
        params = {"vouched_tenant": tenant, "vouched_page": page, "vouched_scan": scan,
                  "vouched_rows": rows}  # fmt: skip
        with translated():
            texts = [row[0] for row in _PEOPLE_OPS.all(conn, params)]
        texts.reverse()
        return [_decoded(text) for text in texts]

    def approved_ops(
        self, conn: sa.Connection, tenant: str, page: str, *, sets: int, ops: int
    ) -> list[Any]:
        """The op lists of the newest ``sets`` approved change sets of the page, oldest first."""
        params = {"approved_tenant": tenant, "approved_page": page, "approved_sets": sets,
                  "approved_ops": ops}  # fmt: skip
        with translated():
            texts = [row[0] for row in _APPROVED_OPS.all(conn, params)]
        texts.reverse()
        return [_decoded(text) for text in texts]


def _decoded(text: object) -> Any:
    """A stored JSON text decoded, or None when it cannot be (a damaged row backs nothing)."""
    if not isinstance(text, str):
        return None
    try:
        return loads(text)
    except ValueError:
        return None
