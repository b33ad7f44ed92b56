"""``InMemoryPageRepository``: drafts, published copies and op histories held in memory.

A ``PageRepository`` for hosts' tests and for charlotte's own: it passes
``PageRepositoryContract`` and serves a real ``Charlotte``. It stores nothing
in the database it is handed a connection of, but it keeps that
connection's transaction: what a transaction writes is seen by that
transaction only and lands at its commit (SQLAlchemy's ``commit`` event); a
rollback drops it, and a savepoint rolled back (``Connection.begin_nested``)
drops what was written inside it. A writer's page (``load_draft(for_update=True)``
or any write) stays locked to its transaction until that transaction ends,
as a row lock would, so two first writes at the same moment meet on one page.
A call on a connection outside any transaction writes at once. SQLAlchemy
announces a commit before the database makes it, so a commit the database
then fails keeps this repository's part (a test double's limit).

Documents and ops are kept as the JSON text charlotte's tables would hold
(``stored_text``, ``dumps``) and decoded on every load, so the same
documents are refused (``invalid_value``) and a load never hands back an
object a caller holds.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final

import sqlalchemy as sa

from charlotte.errors import StorageError
from charlotte.events import utc_now
from charlotte.storage.pages import MAX_OPS_READ, OpEntry, revision_of, stored_text
from charlotte.storage.types import dumps, loads

__all__ = ["InMemoryPageRepository"]

Key = tuple[str, str]
#: A stored document: its JSON text and revision.
Stored = tuple[str, int]


@dataclass(frozen=True, slots=True)
class _Op:
    """One op history entry as kept: the op and its inverse as JSON text."""

    revision: int
    actor: str
    op: str
    session_id: str | None
    turn_id: str | None
    undoes: str | None
    inverse: str | None
    at: datetime

    def entry(self) -> OpEntry:
        inverse = None if self.inverse is None else loads(self.inverse)
        return OpEntry(self.revision, self.actor, loads(self.op), self.session_id, self.turn_id,
                       self.undoes, inverse, self.at)  # fmt: skip


@dataclass(slots=True)
class _Pages:
    """Drafts, published copies and op histories (all pages, or what one transaction wrote)."""

    drafts: dict[Key, Stored] = field(default_factory=dict)
    published: dict[Key, Stored] = field(default_factory=dict)
    ops: dict[Key, dict[int, _Op]] = field(default_factory=dict)

    def copy(self) -> _Pages:
        ops = {key: dict(history) for key, history in self.ops.items()}
        return _Pages(dict(self.drafts), dict(self.published), ops)

    def merge(self, written: _Pages) -> None:
        self.drafts.update(written.drafts)
        self.published.update(written.published)
        for key, history in written.ops.items():
            self.ops.setdefault(key, {}).update(history)


#: Stands for the savepoint enclosing one that was released (known at the next event or write).
_PARENT: Final = object()


@dataclass(slots=True)
class _Transaction:
    """What one connection's open transaction wrote and locked.

    ``undo`` holds, innermost last, a savepoint this transaction wrote in and
    what was written before it; a rollback to that savepoint restores it.
    """

    written: _Pages = field(default_factory=_Pages)
    locked: set[Key] = field(default_factory=set)
    undo: list[tuple[object, _Pages]] = field(default_factory=list)

    def settle(self, conn: sa.Connection) -> None:
        """Give a released savepoint's undo entry to the savepoint now innermost (or drop it)."""
        if not self.undo or self.undo[-1][0] is not _PARENT:
            return
        current = conn.get_nested_transaction()
        below = self.undo[-2][0] if len(self.undo) > 1 else None
        if current is None or below is current:
            self.undo.pop()  # the enclosing savepoint (or the transaction) already covers it
        else:
            self.undo[-1] = (current, self.undo[-1][1])

    def before_write(self, conn: sa.Connection) -> None:
        """Remember what was written before the innermost savepoint's first write."""
        self.settle(conn)
        current = conn.get_nested_transaction()
        if current is not None and (not self.undo or self.undo[-1][0] is not current):
            self.undo.append((current, self.written.copy()))


class InMemoryPageRepository:
    """A ``PageRepository`` in memory, transactional and thread-safe (see module docstring).

    ``lock_timeout``: seconds a writer waits for a page another transaction
    holds before ``database_busy``.
    """

    def __init__(self, *, lock_timeout: float = 30.0) -> None:
        self.lock_timeout = lock_timeout
        self._pages = _Pages()
        self._open: dict[sa.Connection, _Transaction] = {}
        self._owners: dict[Key, _Transaction] = {}
        self._listening: weakref.WeakSet[sa.Connection] = weakref.WeakSet()
        self._changed = threading.Condition(threading.RLock())

    # -- the connection's transaction ---------------------------------------------------

    def _transaction(self, conn: sa.Connection) -> _Transaction | None:
        """The open transaction of ``conn`` as this repository tracks it (None: outside one)."""
        if not conn.in_transaction():
            return None
        tx = self._open.get(conn)
        if tx is None:
            tx = self._open[conn] = _Transaction()
            if conn not in self._listening:
                self._listening.add(conn)
                sa.event.listen(conn, "commit", self._on_commit)
                sa.event.listen(conn, "rollback", self._on_rollback)
                sa.event.listen(conn, "savepoint", self._on_savepoint)
                sa.event.listen(conn, "rollback_savepoint", self._on_rollback_savepoint)
                sa.event.listen(conn, "release_savepoint", self._on_release_savepoint)
        return tx

    def _end(self, conn: sa.Connection, *, commit: bool) -> None:
        with self._changed:
            tx = self._open.pop(conn, None)
            if tx is None:
                return
            if commit:
                self._pages.merge(tx.written)
            for key in tx.locked:
                del self._owners[key]
            self._changed.notify_all()

    def _on_commit(self, conn: sa.Connection) -> None:
        self._end(conn, commit=True)

    def _on_rollback(self, conn: sa.Connection) -> None:
        self._end(conn, commit=False)

    def _on_savepoint(self, conn: sa.Connection, _name: str | None) -> None:
        with self._changed:
            tx = self._open.get(conn)
            if tx is not None:
                tx.settle(conn)

    def _on_rollback_savepoint(self, conn: sa.Connection, _name: str, _context: object) -> None:
        with self._changed:
            tx = self._open.get(conn)
            if tx is None:
                return
            tx.settle(conn)
            if tx.undo and tx.undo[-1][0] is conn.get_nested_transaction():
                tx.written = tx.undo.pop()[1]

    def _on_release_savepoint(self, conn: sa.Connection, _name: str, _context: object) -> None:
        with self._changed:
            tx = self._open.get(conn)
            if tx is None:
                return
            tx.settle(conn)
            if tx.undo and tx.undo[-1][0] is conn.get_nested_transaction():
                tx.undo[-1] = (_PARENT, tx.undo[-1][1])

    def _lock(self, tx: _Transaction | None, key: Key) -> None:
        """Hold ``key`` for ``tx`` until it ends, waiting for another transaction holding it."""
        if tx is None or key in tx.locked:
            return
        deadline = time.monotonic() + self.lock_timeout
        while (owner := self._owners.get(key)) is not None and owner is not tx:
            left = deadline - time.monotonic()
            if left <= 0:
                raise StorageError("database_busy")
            self._changed.wait(left)
        self._owners[key] = tx
        tx.locked.add(key)

    def _writing(self, conn: sa.Connection, key: Key) -> _Pages:
        """Where a write of ``key`` goes: the transaction's own pages, or the store itself."""
        tx = self._transaction(conn)
        self._lock(tx, key)
        if tx is None:
            return self._pages
        tx.before_write(conn)
        return tx.written

    def _seen(self, conn: sa.Connection) -> list[_Pages]:
        """What a read on ``conn`` sees, first match wins: its transaction's writes, then the store."""
        tx = self._open.get(conn)
        return [self._pages] if tx is None else [tx.written, self._pages]

    # -- the port -----------------------------------------------------------------------

    def load_draft(
        self,
        conn: sa.Connection,
        tenant: str,
        page: str,
        *,
        for_update: bool = False,
        shared: bool = False,
    ) -> tuple[dict[str, Any], int] | None:
        """The draft and its revision, or None; ``for_update`` holds the page until the transaction ends."""
        key = (tenant, page)
        with self._changed:
            if for_update:
                self._lock(self._transaction(conn), key)
            found = next((p.drafts[key] for p in self._seen(conn) if key in p.drafts), None)
        return None if found is None else (loads(found[0]), found[1])

    def save_draft(
        self,
        conn: sa.Connection,
        tenant: str,
        page: str,
        doc: dict[str, Any],
        *,
        shared: bool = False,
    ) -> None:
        """Store ``doc`` as the draft (revision ``doc["seq"]``)."""
        stored = (stored_text(doc), revision_of(doc))
        with self._changed:
            self._writing(conn, (tenant, page)).drafts[(tenant, page)] = stored

    def ensure_draft(self, conn: sa.Connection, tenant: str, page: str, doc: dict[str, Any]) -> None:
        """Store ``doc`` as the draft when the page has none (and hold the page, as a row lock would)."""
        key = (tenant, page)
        stored = (stored_text(doc), revision_of(doc))
        with self._changed:
            target = self._writing(conn, key)
            if not any(key in p.drafts for p in self._seen(conn)):
                target.drafts[key] = stored

    def load_published(
        self, conn: sa.Connection, tenant: str, page: str
    ) -> tuple[dict[str, Any], int] | None:
        """The published copy and its revision, or None when never published."""
        key = (tenant, page)
        with self._changed:
            found = next((p.published[key] for p in self._seen(conn) if key in p.published), None)
        return None if found is None else (loads(found[0]), found[1])

    def save_published(
        self, conn: sa.Connection, tenant: str, page: str, doc: dict[str, Any]
    ) -> None:
        """Store the published copy; a page without a draft gets ``doc`` as its draft too."""
        key = (tenant, page)
        stored = (stored_text(doc), revision_of(doc))
        with self._changed:
            target = self._writing(conn, key)
            target.published[key] = stored
            if not any(key in p.drafts for p in self._seen(conn)):
                target.drafts[key] = stored

    def append_ops(
        self, conn: sa.Connection, tenant: str, page: str, entries: Sequence[OpEntry]
    ) -> None:
        """Add ``entries`` to the op history; a revision already there (or twice in ``entries``) is a ``conflict``."""
        kept = [_kept(entry) for entry in entries]
        if not kept:
            return
        key = (tenant, page)
        with self._changed:
            target = self._writing(conn, key)
            revisions = [op.revision for op in kept]
            held = [p.ops.get(key, {}) for p in self._seen(conn)]
            if len(set(revisions)) < len(revisions) or any(r in h for r in revisions for h in held):
                raise StorageError("conflict")
            target.ops.setdefault(key, {}).update((op.revision, op) for op in kept)

    def ops_since(
        self, conn: sa.Connection, tenant: str, page: str, revision: int, limit: int = 1000
    ) -> list[OpEntry]:
        """Entries with revision > ``revision``, oldest first, at most ``limit`` (≤ ``MAX_OPS_READ``)."""
        if not 1 <= limit <= MAX_OPS_READ:
            raise ValueError(f"limit must be between 1 and {MAX_OPS_READ}")
        key = (tenant, page)
        with self._changed:
            found: dict[int, _Op] = {}
            for pages in reversed(self._seen(conn)):
                found.update(pages.ops.get(key, {}))
        later = sorted(r for r in found if r > revision)[:limit]
        return [found[r].entry() for r in later]


def _kept(entry: OpEntry) -> _Op:
    """``entry`` as kept; ``invalid_value`` for an op or inverse that is not JSON or a naive time."""
    try:
        op = entry.op_text if entry.op_text is not None else dumps(entry.op)
        inverse = None if entry.inverse is None else dumps(list(entry.inverse))
    except (TypeError, ValueError, RecursionError) as error:
        raise StorageError("invalid_value") from error
    at = utc_now() if entry.at is None else entry.at
    if at.tzinfo is None:
        raise StorageError("invalid_value")
    return _Op(entry.revision, entry.actor, op, entry.session_id, entry.turn_id, entry.undoes,
               inverse, at.astimezone(UTC))  # fmt: skip
