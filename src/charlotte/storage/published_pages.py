"""``PublishedPageStore``: which revision of each page is published, and when.

One row per page of a tenant that has been published
(``charlotte_published_pages``), written by ``Workspace.publish`` in the unit
of work that writes the published copy (whichever page repository holds that
copy), so the row and the copy commit together. A site reads the row by its
primary key on every request (``get``, the hot path: one indexed statement
through ``Direct``) and loads the document only for a revision its render
cache does not hold; ``of_tenant`` lists a tenant's rows for a sitemap.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from charlotte.errors import StorageError
from charlotte.storage._direct import Direct
from charlotte.storage._translate import translated
from charlotte.storage.tables import published_pages

__all__ = ["MAX_PUBLISHED_LISTED", "PublishedPageStore", "PublishedRow"]

#: The most rows one ``of_tenant`` returns (a sitemap file's own limit).
MAX_PUBLISHED_LISTED: Final = 50_000

_GET: Final = Direct(
    sa.select(published_pages.c.revision, published_pages.c.published_at).where(
        published_pages.c.tenant == sa.bindparam("published_tenant"),
        published_pages.c.page == sa.bindparam("published_page"),
    )
)


@dataclass(frozen=True, slots=True)
class PublishedRow:
    """One published page: its key, the revision published and when (UTC)."""

    tenant: str
    page: str
    revision: int
    published_at: datetime


class PublishedPageStore:
    """The rows of ``charlotte_published_pages``; every method joins the caller's transaction."""

    def record(
        self, conn: sa.Connection, tenant: str, page: str, revision: int, published_at: datetime
    ) -> None:
        """Note that ``revision`` of (tenant, page) is published as of ``published_at`` (insert or replace)."""
        values = {"tenant": tenant, "page": page, "revision": revision, "published_at": published_at}
        dialect = conn.dialect.name
        insert: Any
        if dialect == "postgresql":
            insert = postgresql.insert(published_pages).values(**values)
        elif dialect == "sqlite":
            insert = sqlite.insert(published_pages).values(**values)
        else:
            raise StorageError("unsupported_database")
        upsert = insert.on_conflict_do_update(
            index_elements=[published_pages.c.tenant, published_pages.c.page],
            set_={"revision": insert.excluded.revision, "published_at": insert.excluded.published_at},
        )
        with translated():
            conn.execute(upsert)

    def get(self, conn: sa.Connection, tenant: str, page: str) -> PublishedRow | None:
        """The published page's row, or None before its first publish (one primary-key read)."""
        with translated():
            row = _GET.first(conn, {"published_tenant": tenant, "published_page": page})
        return None if row is None else PublishedRow(tenant, page, row[0], row[1])

    def of_tenant(
        self, conn: sa.Connection, tenant: str, *, limit: int = MAX_PUBLISHED_LISTED
    ) -> list[PublishedRow]:
        """The tenant's published pages by page key (at most ``limit``), on the primary key."""
        query = (
            sa.select(published_pages.c.page, published_pages.c.revision, published_pages.c.published_at)
            .where(published_pages.c.tenant == tenant)
            .order_by(published_pages.c.page)
            .limit(limit)
        )
        with translated():
            rows = conn.execute(query).all()
        return [PublishedRow(tenant, page, revision, at) for page, revision, at in rows]
