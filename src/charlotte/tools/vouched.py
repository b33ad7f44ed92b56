"""What the checking tools read of what people vouched for on the session's page.

``cms_check`` and ``cms_ready`` read, in the transaction that reads the page,
the page's published copy (through the page repository, a host's too), the
ops people wrote in the op history and the ops of the change sets people
approved (``storage.VouchedStore``), each bounded here, and hand their texts
(``checks.vouched.vouched_texts``) to the checks as evidence. With a host's
page repository the op history is the host's: only the published copy and
the approved change sets count then.
"""

from __future__ import annotations

from typing import Final

import sqlalchemy as sa

from charlotte.checks.vouched import vouched_texts
from charlotte.storage import PageRepository, SessionRecord
from charlotte.storage.vouched import VouchedStore

__all__ = ["APPROVED_SETS", "PEOPLE_OPS", "read_vouched"]

#: The newest op history rows looked at for people's ops…
HISTORY_SCAN: Final = 10_000
#: …and the most of people's ops among them that count.
PEOPLE_OPS: Final = 1_000
#: The newest approved change sets of the page that count…
APPROVED_SETS: Final = 20
#: …each of at most this many ops (a larger one is passed over).
APPROVED_SET_OPS: Final = 2_000


def read_vouched(
    conn: sa.Connection, pages: PageRepository, session: SessionRecord
) -> tuple[str, ...]:
    """The texts of what people vouched for on ``session``'s page, read in ``conn``."""
    tenant, page = session.tenant, session.page
    store = VouchedStore()
    published = pages.load_published(conn, tenant, page)
    approved = store.approved_ops(conn, tenant, page, sets=APPROVED_SETS, ops=APPROVED_SET_OPS)
    people = store.people_ops(conn, tenant, page, rows=PEOPLE_OPS, scan=HISTORY_SCAN)
    return vouched_texts(None if published is None else published[0], approved, people)
