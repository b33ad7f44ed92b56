"""A host's own page repository: drafts in the host's CMS tables, no charlotte base class.

``HostPages`` implements the ``PageRepository`` protocol from scratch on three
tables of its own (``host_cms_*``), written through the connection charlotte
hands it, so a write and its event still commit together. It decodes every
load (it holds nothing) and ignores ``shared``; it keeps an op's revision,
actor, op and session only (no inverse: no undo past its revisions). It
passes the shipped ``PageRepositoryContract`` (``keeps_undo = False``).
``create_host_tables`` makes the tables next to charlotte's.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from charlotte.errors import StorageError
from charlotte.storage import OpEntry

host_metadata = sa.MetaData()

drafts = sa.Table(
    "host_cms_drafts",
    host_metadata,
    sa.Column("tenant", sa.String(64), primary_key=True),
    sa.Column("page", sa.String(128), primary_key=True),
    sa.Column("body", sa.Text, nullable=False),
    sa.Column("revision", sa.Integer, nullable=False),
)
published = sa.Table(
    "host_cms_published",
    host_metadata,
    sa.Column("tenant", sa.String(64), primary_key=True),
    sa.Column("page", sa.String(128), primary_key=True),
    sa.Column("body", sa.Text, nullable=False),
    sa.Column("revision", sa.Integer, nullable=False),
)
history = sa.Table(
    "host_cms_history",
    host_metadata,
    sa.Column("tenant", sa.String(64), primary_key=True),
    sa.Column("page", sa.String(128), primary_key=True),
    sa.Column("revision", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("actor", sa.String(255), nullable=False),
    sa.Column("op", sa.Text, nullable=False),
    sa.Column("session_id", sa.String(64), nullable=True),
)


def create_host_tables(engine: sa.Engine) -> None:
    """Create the host's tables (in the engine's schema)."""
    with engine.begin() as conn:
        host_metadata.create_all(conn)


def _insert(conn: sa.Connection, table: sa.Table) -> Any:
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    return dialect.insert(table)


def _json(value: Any) -> str:
    """``value`` as JSON text; ``invalid_value`` for NaN, non-JSON values and text that is not Unicode."""
    try:
        text = json.dumps(value, allow_nan=False, ensure_ascii=False)
        text.encode("utf-8")  # a lone surrogate cannot be encoded
    except (TypeError, ValueError, RecursionError) as error:
        raise StorageError("invalid_value") from error
    return text


def _row(tenant: str, page: str, doc: dict[str, Any]) -> dict[str, Any]:
    seq = doc.get("seq")
    if type(seq) is not int or seq < 0:
        raise StorageError("invalid_value")
    return {"tenant": tenant, "page": page, "body": _json(doc), "revision": seq}


class HostPages:
    """The host's ``PageRepository`` (see module docstring); counts the calls it gets."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def _load(
        self, conn: sa.Connection, table: sa.Table, tenant: str, page: str, for_update: bool
    ) -> tuple[dict[str, Any], int] | None:
        query = sa.select(table.c.body, table.c.revision).where(
            table.c.tenant == tenant, table.c.page == page
        )
        row = conn.execute(query.with_for_update() if for_update else query).first()
        return None if row is None else (json.loads(row.body), row.revision)

    def _upsert(self, conn: sa.Connection, table: sa.Table, tenant: str, page: str, doc: dict[str, Any]) -> None:
        insert = _insert(conn, table).values(**_row(tenant, page, doc))
        conn.execute(
            insert.on_conflict_do_update(
                index_elements=[table.c.tenant, table.c.page],
                set_={"body": insert.excluded.body, "revision": insert.excluded.revision},
            )
        )

    def load_draft(
        self,
        conn: sa.Connection,
        tenant: str,
        page: str,
        *,
        for_update: bool = False,
        shared: bool = False,
    ) -> tuple[dict[str, Any], int] | None:
        self.calls.append("load_draft")
        return self._load(conn, drafts, tenant, page, for_update)

    def save_draft(
        self,
        conn: sa.Connection,
        tenant: str,
        page: str,
        doc: dict[str, Any],
        *,
        shared: bool = False,
    ) -> None:
        self.calls.append("save_draft")
        self._upsert(conn, drafts, tenant, page, doc)

    def ensure_draft(self, conn: sa.Connection, tenant: str, page: str, doc: dict[str, Any]) -> None:
        self.calls.append("ensure_draft")
        insert = _insert(conn, drafts).values(**_row(tenant, page, doc))
        conn.execute(insert.on_conflict_do_nothing(index_elements=[drafts.c.tenant, drafts.c.page]))

    def load_published(
        self, conn: sa.Connection, tenant: str, page: str
    ) -> tuple[dict[str, Any], int] | None:
        self.calls.append("load_published")
        return self._load(conn, published, tenant, page, False)

    def save_published(self, conn: sa.Connection, tenant: str, page: str, doc: dict[str, Any]) -> None:
        self.calls.append("save_published")
        self._upsert(conn, published, tenant, page, doc)

    def append_ops(
        self, conn: sa.Connection, tenant: str, page: str, entries: Sequence[OpEntry]
    ) -> None:
        self.calls.append("append_ops")
        rows = [
            {"tenant": tenant, "page": page, "revision": e.revision, "actor": e.actor,
             "op": _json(e.op), "session_id": e.session_id}
            for e in entries
        ]  # fmt: skip
        if not rows:
            return
        try:
            with conn.begin_nested():
                conn.execute(sa.insert(history), rows)
        except sa.exc.IntegrityError as error:
            raise StorageError("conflict") from error

    def ops_since(
        self, conn: sa.Connection, tenant: str, page: str, revision: int, limit: int = 1000
    ) -> list[OpEntry]:
        self.calls.append("ops_since")
        query = (
            sa.select(history.c.revision, history.c.actor, history.c.op, history.c.session_id)
            .where(history.c.tenant == tenant, history.c.page == page, history.c.revision > revision)
            .order_by(history.c.revision)
            .limit(limit)
        )
        return [OpEntry(rev, actor, json.loads(op), sid) for rev, actor, op, sid in conn.execute(query)]

    def history_revisions(self, engine: sa.Engine, tenant: str, page: str) -> list[int]:
        """The revisions in the host's op history of (tenant, page), in order (for tests)."""
        with engine.connect() as conn:
            query = sa.select(history.c.revision).where(history.c.tenant == tenant, history.c.page == page)
            return sorted(conn.execute(query).scalars())
