"""The page repository: ``PageRepository`` port and ``DatabasePageRepository``.

A host may replace the repository (e.g. to keep drafts in its own CMS tables);
every method takes the open connection so it joins the caller's transaction,
next to the event that records the change. A document's revision is its
``seq``; the op history keeps one entry per applied op for
``cms_changes_since``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from operator import itemgetter
from typing import Any, Final, Protocol

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from charlotte.errors import StorageError
from charlotte.events import utc_now
from charlotte.storage._direct import Direct, run_driver_sql
from charlotte.storage._shared_drafts import SharedDrafts
from charlotte.storage._translate import translated
from charlotte.storage.tables import page_ops, pages
from charlotte.storage.types import dumps, dumps_each, loads

__all__ = ["MAX_OPS_READ", "DatabasePageRepository", "OpEntry", "PageRepository", "revision_of", "stored_text"]

#: The most op entries one ``ops_since`` returns.
MAX_OPS_READ: Final = 10_000

# Rows per INSERT when storing op history (a change-set replay can bring 10,000).
_OPS_CHUNK: Final = 1_000


@dataclass(frozen=True, slots=True)
class OpEntry:
    """One applied op in a page's history: the revision it produced, who, and the op."""

    revision: int
    actor: str
    op: dict[str, Any]
    session_id: str | None = None
    #: The agent turn that wrote the op (None: a person's write, an approval, an older row).
    turn_id: str | None = None
    #: On a person's undo of a turn: the turn it undid.
    undoes: str | None = None
    #: The ops taking this revision back to the one before; None when not kept (older rows,
    #: a host repository that keeps less): such a revision cannot be undone or restored past.
    inverse: Sequence[dict[str, Any]] | None = None
    #: When the op was written (None when not kept; not part of equality).
    at: datetime | None = field(default=None, compare=False)
    #: ``op`` as stored JSON text, when the writer already holds it (an approval: the
    #: change set's own text of the op); a repository may store it instead of encoding
    #: ``op``. It decodes to ``op`` (not part of equality; None: encode ``op``).
    op_text: str | None = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """``{revision, actor, op}`` as plain JSON-shaped data."""
        return {"revision": self.revision, "actor": self.actor, "op": self.op}


class PageRepository(Protocol):
    """Draft, published copy and op history of (tenant, page); joins the caller's transaction.

    Every method the workspace calls, and nothing else: a host's repository
    (drafts in its own CMS tables, say) implements these and needs no base
    class. ``conn`` is the transaction the write's event goes into: a write
    lands with its commit, and a rollback, or a savepoint rolled back, takes
    it back (a repository keeping its rows elsewhere follows the connection's
    transaction events, as ``charlotte.testing.InMemoryPageRepository`` does).
    What charlotte relies on is ``charlotte.testing.page_repository_contract``,
    a pytest class a host subclasses to test its own.
    """

    def load_draft(
        self,
        conn: sa.Connection,
        tenant: str,
        page: str,
        *,
        for_update: bool = False,
        shared: bool = False,
    ) -> tuple[dict[str, Any], int] | None:
        """The draft and its revision, or None when the page has none yet.

        ``for_update`` locks the page row until the transaction ends (a writer
        loading the draft it is about to change). ``shared``: the caller
        never mutates the document, so the repository may hand back one it
        holds (see ``SharedDrafts``) instead of a fresh copy; it may ignore it.
        """
        ...

    def save_draft(
        self,
        conn: sa.Connection,
        tenant: str,
        page: str,
        doc: dict[str, Any],
        *,
        shared: bool = False,
    ) -> None:
        """Store ``doc`` as the draft; its revision is ``doc["seq"]``.

        ``shared``: the caller never mutates ``doc`` again, so the repository
        may keep it as the next shared load's document; it may ignore it.
        """
        ...

    def ensure_draft(self, conn: sa.Connection, tenant: str, page: str, doc: dict[str, Any]) -> None:
        """Store ``doc`` as the draft when the page has none; leave an existing draft alone.

        A page's first write calls it before ``load_draft(for_update=True)``,
        so that there is a row to lock: a second first write at the same
        moment waits on it and then reads a stale revision. A repository
        with nothing to lock may store ``doc`` or do nothing.
        """
        ...

    def load_published(
        self, conn: sa.Connection, tenant: str, page: str
    ) -> tuple[dict[str, Any], int] | None:
        """The published copy and its revision, or None when never published."""
        ...

    def save_published(
        self, conn: sa.Connection, tenant: str, page: str, doc: dict[str, Any]
    ) -> None:
        """Store ``doc`` as the published copy (revision ``doc["seq"]``)."""
        ...

    def append_ops(
        self, conn: sa.Connection, tenant: str, page: str, entries: Sequence[OpEntry]
    ) -> None:
        """Add entries to the op history; a revision already there is a ``conflict``."""
        ...

    def ops_since(
        self, conn: sa.Connection, tenant: str, page: str, revision: int, limit: int = 1000
    ) -> list[OpEntry]:
        """History entries with revision > ``revision``, oldest first, at most ``limit``."""
        ...


def stored_text(
    doc: dict[str, Any], shared: SharedDrafts | None = None, key: tuple[str, str] = ("", "")
) -> str:
    """``doc`` as the stored JSON text; ``invalid_value`` when it is not JSON (NaN, lone surrogates, objects, cycles).

    With ``shared``, encoded through it (held there for ``key``, see ``SharedDrafts.encode``).
    """
    try:
        return dumps(doc) if shared is None else shared.encode(key, doc)
    except (TypeError, ValueError, RecursionError) as error:
        raise StorageError("invalid_value") from error


def _same(value: Any) -> Any:
    return value


def revision_of(doc: dict[str, Any]) -> int:
    """A document's revision (its ``seq``); ``invalid_value`` unless a non-negative int."""
    seq = doc.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
        raise StorageError("invalid_value")
    return seq


def _insert(dialect: str) -> Any:
    """The dialect's INSERT into the pages table (the one with ON CONFLICT)."""
    if dialect == "postgresql":
        return postgresql.insert(pages)
    if dialect == "sqlite":
        return sqlite.insert(pages)
    raise StorageError("unsupported_database")


def _upsert(dialect: str, values: dict[str, Any], update_names: Sequence[str]) -> Any:
    """INSERT ``values`` into the pages table, or UPDATE ``update_names`` of the row already there.

    INSERT … ON CONFLICT DO UPDATE is atomic on both databases; an
    UPDATE-then-INSERT would race two first saves on PostgreSQL. The update
    takes its values from the row it failed to insert (``excluded``), so a
    document is serialised and sent once, not twice.
    """
    insert = _insert(dialect).values(**values)
    return insert.on_conflict_do_update(
        index_elements=[pages.c.tenant, pages.c.page],
        set_={name: insert.excluded[name] for name in update_names},
    )


def _draft_values() -> dict[str, Any]:
    # The draft is bound as the text save_draft serialised (not through JsonText).
    return {
        name: sa.bindparam(f"save_{name}", type_=sa.Text() if name == "draft" else pages.c[name].type)
        for name in ("tenant", "page", "draft", "revision", "updated_at")
    }


def _save_draft_upsert(dialect: str) -> Any:
    return _upsert(dialect, _draft_values(), ("draft", "revision", "updated_at"))


def _ensure_draft_insert(dialect: str) -> Any:
    insert = _insert(dialect).values(**_draft_values())
    return insert.on_conflict_do_nothing(index_elements=[pages.c.tenant, pages.c.page])


def _insert_ops(dialect: str) -> Any:
    """The op history's INSERT, its values bound as ``append_ops`` prepares them.

    The op and its inverse as the text ``append_ops`` serialised, the time as
    the column type converts it (once per batch). ``append_ops`` hands the
    rows to the driver as the statement's compiled SQL (``Direct.driver_form``):
    through ``Connection.execute`` SQLAlchemy converts every row's values one
    by one, which cost more than the insert itself for a 10,000-op approval.
    """
    at = sa.Text() if dialect == "sqlite" else sa.DateTime(timezone=True)
    return page_ops.insert().values(
        {name: sa.bindparam(name, type_=page_ops.c[name].type) for name in _OP_COLUMNS}
        | {
            "op": sa.bindparam("op_text", type_=sa.Text()),
            "inverse": sa.bindparam("inverse_text", type_=sa.Text()),
            "at": sa.bindparam("at_value", type_=at),
        }
    )


#: The parameters of an op history row besides the ones ``_insert_ops`` names.
_OP_COLUMNS: Final = ("tenant", "page", "revision", "actor", "session_id", "turn_id", "undoes")
# Every write runs it: built once per dialect.
_SAVE_DRAFT: Final = {dialect: Direct(_save_draft_upsert(dialect)) for dialect in ("sqlite", "postgresql")}
_ENSURE_DRAFT: Final = {dialect: Direct(_ensure_draft_insert(dialect)) for dialect in ("sqlite", "postgresql")}
_INSERT_OPS: Final = {dialect: Direct(_insert_ops(dialect)) for dialect in ("sqlite", "postgresql")}
#: The values of an op history row as ``append_ops`` lays them out.
_ROW: Final = ("tenant", "page", "revision", "actor", "op_text", "session_id", "turn_id", "undoes",
               "inverse_text", "at_value")  # fmt: skip


# The draft column read and written as its stored text (JsonText would decode / encode it).
_DRAFT_TEXT: Final = sa.type_coerce(pages.c.draft, sa.Text).label("draft")
# The statements every write runs, built once (building one costs about as
# much as running it on SQLite: docs/performance.md, "Figures by part"), and
# run on the driver's cursor (see ``Direct``).
_LOADED: Final = sa.select(_DRAFT_TEXT, pages.c.revision).where(
    pages.c.tenant == sa.bindparam("load_tenant"), pages.c.page == sa.bindparam("load_page")
)
_LOAD_DRAFT: Final = Direct(_LOADED)
# A page's first write reads it (a draft starts from the published copy).
_LOAD_PUBLISHED: Final = Direct(
    sa.select(pages.c.published, pages.c.published_revision).where(
        pages.c.tenant == sa.bindparam("published_tenant"),
        pages.c.page == sa.bindparam("published_page"),
        pages.c.published.is_not(None),
    )
)
_LOAD_DRAFT_LOCKED: Final = Direct(_LOADED.with_for_update())


class DatabasePageRepository:
    """``PageRepository`` over ``charlotte_pages`` and ``charlotte_page_ops``.

    ``shared`` (a ``SharedDrafts``) lets ``load_draft(..., shared=True)`` skip
    decoding a draft this repository last stored or read unchanged; without
    it, every load decodes.
    """

    def __init__(self, shared: SharedDrafts | None = None) -> None:
        self._shared = shared

    @classmethod
    def sharing(cls) -> DatabasePageRepository:
        """A repository that keeps each page's last draft decoded (``SharedDrafts``): the workspace's default."""
        return cls(SharedDrafts())

    def load_draft(
        self,
        conn: sa.Connection,
        tenant: str,
        page: str,
        *,
        for_update: bool = False,
        shared: bool = False,
    ) -> tuple[dict[str, Any], int] | None:
        """The draft and its revision, or None (see ``PageRepository.load_draft``).

        ``shared=True``: the document may be one held in ``SharedDrafts``; the
        caller must never mutate it.
        """
        # FOR UPDATE is rendered on PostgreSQL only; SQLite's BEGIN IMMEDIATE
        # already serialises writers.
        query = _LOAD_DRAFT_LOCKED if for_update else _LOAD_DRAFT
        with translated():
            row = query.first(conn, {"load_tenant": tenant, "load_page": page})
        if row is None:
            return None
        text, revision = row
        memo = self._shared if shared else None
        if memo is not None:
            held = memo.get((tenant, page), text)
            if held is not None:
                return held, revision
        doc = loads(text)
        if memo is not None:
            memo.put((tenant, page), text, doc)
        return doc, revision

    def save_draft(
        self,
        conn: sa.Connection,
        tenant: str,
        page: str,
        doc: dict[str, Any],
        *,
        shared: bool = False,
    ) -> None:
        """Insert or replace the draft of (tenant, page).

        ``shared=True``: the caller never mutates ``doc`` again, so the next
        ``load_draft(..., shared=True)`` of this text may return it as is.
        """
        revision = revision_of(doc)
        if shared and self._shared is not None:
            # Held before the commit: a rollback leaves other text in the row,
            # which no longer matches and is decoded.
            text = stored_text(doc, self._shared, (tenant, page))
        else:
            text = stored_text(doc)
        params = {
            "save_tenant": tenant,
            "save_page": page,
            "save_draft": text,
            "save_revision": revision,
            "save_updated_at": utc_now(),
        }
        with translated():
            statement = _SAVE_DRAFT.get(conn.dialect.name)
            if statement is None:
                raise StorageError("unsupported_database")
            statement.run(conn, params)

    def ensure_draft(self, conn: sa.Connection, tenant: str, page: str, doc: dict[str, Any]) -> None:
        """Insert ``doc`` as the draft when (tenant, page) has no row yet; else leave the row alone (see ``PageRepository``).

        A page never written has no row for a writer to lock, so two first
        writes would both start from the empty page and the second would
        break the op history's unique revisions. A writer inserts the row
        first: a concurrent one waits on it, then reads what the first
        committed (a stale revision, not a storage conflict). Rolled back
        with the writer's transaction when its write fails.
        """
        params = {"save_tenant": tenant, "save_page": page, "save_draft": stored_text(doc),
                  "save_revision": revision_of(doc), "save_updated_at": utc_now()}  # fmt: skip
        with translated():
            statement = _ENSURE_DRAFT.get(conn.dialect.name)
            if statement is None:
                raise StorageError("unsupported_database")
            statement.run(conn, params)

    def load_published(
        self, conn: sa.Connection, tenant: str, page: str
    ) -> tuple[dict[str, Any], int] | None:
        """The published copy and its revision, or None when never published."""
        with translated():
            row = _LOAD_PUBLISHED.first(conn, {"published_tenant": tenant, "published_page": page})
        return None if row is None else (row[0], row[1])

    def save_published(
        self, conn: sa.Connection, tenant: str, page: str, doc: dict[str, Any]
    ) -> None:
        """Store the published copy; a page without a draft gets ``doc`` as its draft too."""
        now = utc_now()
        revision = revision_of(doc)
        text = sa.type_coerce(stored_text(doc), sa.Text)  # serialised once, bound as draft and published
        update = {"published": text, "published_revision": revision, "published_at": now}
        insert = {**update, "draft": text, "revision": revision, "updated_at": now}
        with translated():
            conn.execute(_upsert(conn.dialect.name, {"tenant": tenant, "page": page, **insert}, tuple(update)))

    def append_ops(
        self, conn: sa.Connection, tenant: str, page: str, entries: Sequence[OpEntry]
    ) -> None:
        """Add ``entries`` to the op history of (tenant, page)."""
        if not entries:
            return
        statement = _INSERT_OPS.get(conn.dialect.name)
        if statement is None:
            raise StorageError("unsupported_database")
        sql, positions = statement.driver_form(conn.dialect)
        at_type = page_ops.c.at.type.dialect_impl(conn.dialect)  # what a compiled statement binds
        stored_at: Callable[[Any], Any] = at_type.bind_processor(conn.dialect) or _same
        now = stored_at(utc_now())
        try:
            encoded = dumps_each([entry.op if entry.op_text is None else None for entry in entries])
            ops = [text if text is not None else e.op_text for e, text in zip(entries, encoded, strict=True)]
            inverses = dumps_each([entry.inverse for entry in entries])
        except (TypeError, ValueError, RecursionError) as error:
            raise StorageError("invalid_value") from error
        at = [now if entry.at is None else stored_at(entry.at) for entry in entries]
        # One tuple per row, in _ROW's order: the driver's own order on SQLite.
        rows: list[Any] = [
            (tenant, page, e.revision, e.actor, op, e.session_id, e.turn_id, e.undoes, inverse, when)
            for e, op, inverse, when in zip(entries, ops, inverses, at, strict=True)
        ]
        if positions is None:
            rows = [dict(zip(_ROW, row, strict=True)) for row in rows]
        elif positions != _ROW:
            in_order = itemgetter(*(_ROW.index(name) for name in positions))
            rows = [in_order(row) for row in rows]
        with translated():
            for start in range(0, len(rows), _OPS_CHUNK):
                run_driver_sql(conn, sql, rows[start : start + _OPS_CHUNK])

    def ops_since(
        self, conn: sa.Connection, tenant: str, page: str, revision: int, limit: int = 1000
    ) -> list[OpEntry]:
        """Entries with revision > ``revision``, oldest first, at most ``limit`` (≤ ``MAX_OPS_READ``)."""
        if not 1 <= limit <= MAX_OPS_READ:
            raise ValueError(f"limit must be between 1 and {MAX_OPS_READ}")
        columns = ("revision", "actor", "op", "session_id", "turn_id", "undoes", "inverse", "at")
        query = (
            sa.select(*(page_ops.c[name] for name in columns))
            .where(
                page_ops.c.tenant == tenant,
                page_ops.c.page == page,
                page_ops.c.revision > revision,
            )
            .order_by(page_ops.c.revision)
            .limit(limit)
        )
        with translated():
            rows = conn.execute(query).all()
        return [OpEntry(*row) for row in rows]
