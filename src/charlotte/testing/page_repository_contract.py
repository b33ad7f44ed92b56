"""``PageRepositoryContract``: what charlotte relies on from a ``PageRepository``, as pytest tests.

Every page repository passes it: charlotte's own on SQLite and PostgreSQL,
``InMemoryPageRepository``, and a host's. A host's test suite subclasses it
(a class named ``Test…``) and provides the ``repository`` fixture:

    class TestOurPages(PageRepositoryContract):
        @pytest.fixture
        def repository(self, engine: sa.Engine) -> OurPages:
            create_our_tables(engine)
            return OurPages()

``engine`` is, unless the subclass overrides it, a SQLite database in a
temporary folder holding charlotte's tables (the op history names a real
session, so the engine must hold charlotte's tables: ``create_tables`` or
``Charlotte.migrate``). An engine shared by several tests is fine: every test
writes pages of its own key.

What a repository must do (each a test below):

- a draft and a published copy round-trip exactly, with their revision (the
  document's ``seq``); the published copy is separate from the draft;
- ``ensure_draft`` never replaces a draft, and gives two first writes at the
  same moment one thing to wait on: the later one reads the earlier's revision;
- the op history gives entries after a revision, oldest first, at most
  ``limit``, each as it was appended (``keeps_undo``: with its inverse, turn
  and time); a revision already there is a ``StorageError("conflict")``;
- a document without a non-negative int ``seq``, or holding a value that is
  not JSON or text that is not Unicode, is ``StorageError("invalid_value")``,
  and so is such an op; nothing of the refused call is stored;
- pages are (tenant, page) scoped;
- a write belongs to the transaction of the connection it is handed: another
  connection does not see it before the commit; a rollback takes it back,
  and so does a rolled-back savepoint (charlotte rolls one back when a
  change set's approval conflicts after writing, and the whole transaction
  when a write is refused late, e.g. ``stale_revision`` after ``ensure_draft``
  or an event append that fails).

This module imports pytest: only a test suite imports it.
"""

from __future__ import annotations

import copy
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any, ClassVar

import pytest
import sqlalchemy as sa

from charlotte.errors import StorageError
from charlotte.page.model import empty_doc
from charlotte.storage import (
    OpEntry,
    PageRepository,
    SessionStore,
    create_tables,
    open_engine,
    read_connection,
    transaction,
)

__all__ = ["PageRepositoryContract"]

TENANT = "tenant-a"


def _unique(prefix: str = "page") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def _doc(page: str, seq: int, nodes: int = 3) -> dict[str, Any]:
    doc = empty_doc(page)
    doc["seq"] = seq
    for i in range(nodes):
        node_id = f"n{i}"
        doc["nodes"][node_id] = {
            "id": node_id,
            "type": "text",
            "parent": None,
            "order": f"a{i}",
            "props": {"text": f"Fresh bread nº{i} — “warm” 🍞", "tag": "p"},
            "style": {"base": {"padding": {"value": 16.5, "unit": "px"}}},
        }
    return doc


def _entry(revision: int, actor: str = "agent", session_id: str | None = None) -> OpEntry:
    op = {"op": "update_props", "id": "n0", "props": {"text": f"rev {revision}"}}
    return OpEntry(revision, actor, op, session_id)


class PageRepositoryContract:
    """The behaviour every ``PageRepository`` shows; subclass it and provide ``repository``."""

    #: False for a repository that keeps only revision, actor, op and session of an entry
    #: (then charlotte cannot undo or restore past its revisions, see ``OpEntry.inverse``).
    keeps_undo: ClassVar[bool] = True

    @pytest.fixture
    def engine(self, tmp_path: Path) -> Iterator[sa.Engine]:
        """A SQLite database holding charlotte's tables (override for another database)."""
        engine = open_engine(f"sqlite:///{tmp_path / 'pages-contract.db'}")
        create_tables(engine)
        yield engine
        engine.dispose()

    @pytest.fixture
    def repository(self) -> PageRepository:
        """The repository under test: every subclass provides it."""
        raise NotImplementedError("a PageRepositoryContract subclass provides the repository fixture")

    @pytest.fixture
    def session_id(self, engine: sa.Engine) -> str:
        """A session of charlotte's for op history entries to name."""
        with transaction(engine) as conn:
            return SessionStore().create(conn, tenant=TENANT, page="home", created_by="user-1").id

    # -- drafts and published copies -------------------------------------------------------

    def test_a_page_without_a_draft_loads_none(self, engine: sa.Engine, repository: PageRepository) -> None:
        with transaction(engine) as conn:
            assert repository.load_draft(conn, TENANT, _unique()) is None
            assert repository.load_draft(conn, TENANT, _unique(), for_update=True) is None
            assert repository.load_published(conn, TENANT, _unique()) is None

    def test_draft_round_trip_keeps_the_document_and_its_revision(
        self, engine: sa.Engine, repository: PageRepository
    ) -> None:
        page = _unique()
        doc = _doc(page, seq=7)
        with transaction(engine) as conn:
            repository.save_draft(conn, TENANT, page, copy.deepcopy(doc))
        with transaction(engine) as conn:
            assert repository.load_draft(conn, TENANT, page) == (doc, 7)
            assert repository.load_draft(conn, TENANT, page, for_update=True) == (doc, 7)

    def test_save_draft_replaces_the_previous_draft(self, engine: sa.Engine, repository: PageRepository) -> None:
        page = _unique()
        with transaction(engine) as conn:
            repository.save_draft(conn, TENANT, page, _doc(page, seq=1, nodes=1))
        with transaction(engine) as conn:
            repository.save_draft(conn, TENANT, page, _doc(page, seq=2, nodes=2))
            loaded = repository.load_draft(conn, TENANT, page, for_update=True)
        assert loaded is not None
        assert loaded[1] == 2
        assert sorted(loaded[0]["nodes"]) == ["n0", "n1"]

    def test_a_large_document_round_trips(self, engine: sa.Engine, repository: PageRepository) -> None:
        page = _unique()
        doc = _doc(page, seq=1000, nodes=1000)
        with transaction(engine) as conn:
            repository.save_draft(conn, TENANT, page, doc)
        with transaction(engine) as conn:
            assert repository.load_draft(conn, TENANT, page) == (doc, 1000)

    def test_ensure_draft_never_replaces_a_draft(self, engine: sa.Engine, repository: PageRepository) -> None:
        fresh, written = _unique(), _unique()
        with transaction(engine) as conn:
            repository.save_draft(conn, TENANT, written, _doc(written, seq=5))
            repository.ensure_draft(conn, TENANT, fresh, empty_doc(fresh))
            repository.ensure_draft(conn, TENANT, written, empty_doc(written))
        with transaction(engine) as conn:
            # A repository with nothing to lock may store nothing (``PageRepository.ensure_draft``).
            assert repository.load_draft(conn, TENANT, fresh) in (None, (empty_doc(fresh), 0))
            assert repository.load_draft(conn, TENANT, written) == (_doc(written, seq=5), 5)

    def test_published_copy_is_separate_from_the_draft(
        self, engine: sa.Engine, repository: PageRepository
    ) -> None:
        page = _unique()
        with transaction(engine) as conn:
            repository.save_draft(conn, TENANT, page, _doc(page, seq=3, nodes=1))
            assert repository.load_published(conn, TENANT, page) is None
            repository.save_published(conn, TENANT, page, _doc(page, seq=3, nodes=1))
            repository.save_draft(conn, TENANT, page, _doc(page, seq=4, nodes=2))
        with transaction(engine) as conn:
            assert repository.load_published(conn, TENANT, page) == (_doc(page, seq=3, nodes=1), 3)
            assert repository.load_draft(conn, TENANT, page) == (_doc(page, seq=4, nodes=2), 4)

    def test_pages_are_tenant_scoped(self, engine: sa.Engine, repository: PageRepository) -> None:
        page = _unique()
        with transaction(engine) as conn:
            repository.save_draft(conn, TENANT, page, _doc(page, seq=1, nodes=1))
            repository.save_draft(conn, "tenant-b", page, _doc(page, seq=9, nodes=2))
            repository.append_ops(conn, TENANT, page, [_entry(1)])
        with transaction(engine) as conn:
            assert repository.load_draft(conn, TENANT, page) == (_doc(page, seq=1, nodes=1), 1)
            assert repository.load_draft(conn, "tenant-b", page) == (_doc(page, seq=9, nodes=2), 9)
            assert repository.load_draft(conn, "tenant-c", page) is None
            assert repository.ops_since(conn, "tenant-b", page, 0) == []

    # -- what is refused ---------------------------------------------------------------

    def test_a_document_without_a_valid_seq_is_refused(
        self, engine: sa.Engine, repository: PageRepository
    ) -> None:
        page = _unique()
        for seq in (None, -1, "3", True):
            doc = _doc(page, seq=0)
            doc["seq"] = seq
            with pytest.raises(StorageError) as raised, transaction(engine) as conn:
                repository.save_draft(conn, TENANT, page, doc)
            assert raised.value.code == "invalid_value"

    def test_a_document_that_is_not_json_or_not_unicode_is_refused(
        self, engine: sa.Engine, repository: PageRepository
    ) -> None:
        page = _unique()
        for text in ("Ro\ud800sa", float("nan")):
            doc = _doc(page, seq=1)
            doc["nodes"]["n0"]["props"]["text"] = text
            for save in (repository.save_draft, repository.save_published):
                with pytest.raises(StorageError) as raised, transaction(engine) as conn:
                    save(conn, TENANT, page, doc)
                assert raised.value.code == "invalid_value"
        with transaction(engine) as conn:
            assert repository.load_draft(conn, TENANT, page) is None
            assert repository.load_published(conn, TENANT, page) is None

    def test_an_op_that_is_not_json_is_refused_and_nothing_is_stored(
        self, engine: sa.Engine, repository: PageRepository
    ) -> None:
        page = _unique()
        for op in ({"t": "set_meta", "patch": {"n": float("nan")}}, {"t": "x", "text": "\udfff"}):
            bad = [_entry(1), OpEntry(2, "agent", op)]
            with pytest.raises(StorageError) as raised, transaction(engine) as conn:
                repository.append_ops(conn, TENANT, page, bad)
            assert raised.value.code == "invalid_value"
            with transaction(engine) as conn:
                assert repository.ops_since(conn, TENANT, page, 0) == []

    # -- the op history ---------------------------------------------------------------

    def test_op_history_returns_entries_after_a_revision_in_order(
        self, engine: sa.Engine, repository: PageRepository, session_id: str
    ) -> None:
        page = _unique()
        with transaction(engine) as conn:
            repository.append_ops(conn, TENANT, page, [_entry(r, session_id=session_id) for r in (1, 2, 3)])
        with transaction(engine) as conn:
            repository.append_ops(conn, TENANT, page, [_entry(4, actor="user-5")])
        with transaction(engine) as conn:
            everything = repository.ops_since(conn, TENANT, page, 0)
            after_two = repository.ops_since(conn, TENANT, page, 2)
            limited = repository.ops_since(conn, TENANT, page, 0, limit=2)
            none_left = repository.ops_since(conn, TENANT, page, 4)
        assert [e.revision for e in everything] == [1, 2, 3, 4]
        assert [(e.revision, e.actor) for e in after_two] == [(3, "agent"), (4, "user-5")]
        assert everything[0] == _entry(1, session_id=session_id)
        assert everything[3].session_id is None
        assert after_two[1].to_dict() == {"revision": 4, "actor": "user-5", "op": _entry(4).op}
        assert [e.revision for e in limited] == [1, 2]
        assert none_left == []

    def test_op_history_takes_a_large_batch(self, engine: sa.Engine, repository: PageRepository) -> None:
        page = _unique()
        with transaction(engine) as conn:
            repository.append_ops(conn, TENANT, page, [_entry(r) for r in range(1, 2501)])
        with transaction(engine) as conn:
            tail = repository.ops_since(conn, TENANT, page, 2490)
            first = repository.ops_since(conn, TENANT, page, 0, limit=2500)
        assert [e.revision for e in tail] == list(range(2491, 2501))
        assert [e.revision for e in first] == list(range(1, 2501))

    def test_op_history_keeps_each_entrys_inverse_turn_and_time(
        self, engine: sa.Engine, repository: PageRepository, session_id: str
    ) -> None:
        page = _unique()
        zurich = timezone(timedelta(hours=2))
        written_at = datetime(2025, 6, 1, 14, 30, 15, 123456, tzinfo=zurich)
        undo = [{"t": "set_node_props", "id": "n0", "patch": {"text": "before “it” 🍞"}}]
        entries = [
            OpEntry(1, "agent", _entry(1).op, session_id, "turn-1", None, undo, at=written_at),
            OpEntry(2, "user-5", _entry(2).op, session_id, None, "turn-1", None),
        ]
        before = datetime.now(UTC) - timedelta(seconds=1)
        with transaction(engine) as conn:
            repository.append_ops(conn, TENANT, page, entries)
        with transaction(engine) as conn:
            first, second = repository.ops_since(conn, TENANT, page, 0)
        assert first.to_dict() == entries[0].to_dict() and second.to_dict() == entries[1].to_dict()
        assert (first.session_id, second.session_id) == (session_id, session_id)
        if not self.keeps_undo:
            return
        assert first == entries[0] and second == entries[1]
        assert first.inverse == undo and second.inverse is None
        assert first.at == written_at and first.at is not None and first.at.tzinfo is UTC
        assert second.at is not None and before <= second.at <= datetime.now(UTC)

    def test_a_revision_already_in_the_history_is_a_conflict(
        self, engine: sa.Engine, repository: PageRepository
    ) -> None:
        page = _unique()
        with transaction(engine) as conn:
            repository.append_ops(conn, TENANT, page, [_entry(1), _entry(2)])
        with pytest.raises(StorageError) as raised, transaction(engine) as conn:
            repository.append_ops(conn, TENANT, page, [_entry(3), _entry(2)])
        assert raised.value.code == "conflict"
        with transaction(engine) as conn:
            assert [e.revision for e in repository.ops_since(conn, TENANT, page, 0)] == [1, 2]

    # -- transactions ------------------------------------------------------------------

    def test_a_rolled_back_transaction_leaves_nothing_it_wrote(
        self, engine: sa.Engine, repository: PageRepository
    ) -> None:
        page, fresh = _unique(), _unique()
        with transaction(engine) as conn:
            repository.save_draft(conn, TENANT, page, _doc(page, seq=1))
            repository.append_ops(conn, TENANT, page, [_entry(1)])
        with pytest.raises(LookupError), transaction(engine) as conn:
            repository.save_draft(conn, TENANT, page, _doc(page, seq=2))
            repository.save_published(conn, TENANT, page, _doc(page, seq=2))
            repository.append_ops(conn, TENANT, page, [_entry(2)])
            repository.ensure_draft(conn, TENANT, fresh, empty_doc(fresh))
            assert repository.load_draft(conn, TENANT, page) == (_doc(page, seq=2), 2)
            raise LookupError  # what a late refusal or a failed event append does
        with transaction(engine) as conn:
            assert repository.load_draft(conn, TENANT, page) == (_doc(page, seq=1), 1)
            assert repository.load_published(conn, TENANT, page) is None
            assert [e.revision for e in repository.ops_since(conn, TENANT, page, 0)] == [1]
            assert repository.load_draft(conn, TENANT, fresh) is None

    def test_a_rolled_back_savepoint_takes_back_only_what_was_written_inside_it(
        self, engine: sa.Engine, repository: PageRepository
    ) -> None:
        page, fresh = _unique(), _unique()
        with transaction(engine) as conn:
            repository.save_draft(conn, TENANT, page, _doc(page, seq=1))
            repository.append_ops(conn, TENANT, page, [_entry(1)])
            with pytest.raises(LookupError), conn.begin_nested():
                repository.ensure_draft(conn, TENANT, fresh, empty_doc(fresh))
                repository.save_draft(conn, TENANT, page, _doc(page, seq=2))
                repository.append_ops(conn, TENANT, page, [_entry(2)])
                raise LookupError  # an approval's replay that conflicts
            with conn.begin_nested():
                repository.save_published(conn, TENANT, page, _doc(page, seq=1))
        with transaction(engine) as conn:
            assert repository.load_draft(conn, TENANT, page) == (_doc(page, seq=1), 1)
            assert repository.load_published(conn, TENANT, page) == (_doc(page, seq=1), 1)
            assert [e.revision for e in repository.ops_since(conn, TENANT, page, 0)] == [1]
            assert repository.load_draft(conn, TENANT, fresh) is None

    def test_another_connection_sees_a_write_only_once_committed(
        self, engine: sa.Engine, repository: PageRepository
    ) -> None:
        page = _unique()
        with transaction(engine) as conn:
            repository.save_draft(conn, TENANT, page, _doc(page, seq=1))
            repository.append_ops(conn, TENANT, page, [_entry(1)])
            with read_connection(engine) as other:
                assert repository.load_draft(other, TENANT, page) is None
                assert repository.ops_since(other, TENANT, page, 0) == []
        with read_connection(engine) as other:
            assert repository.load_draft(other, TENANT, page) == (_doc(page, seq=1), 1)
            assert [e.revision for e in repository.ops_since(other, TENANT, page, 0)] == [1]

    def test_two_first_writes_at_once_meet_and_the_later_reads_a_stale_revision(
        self, engine: sa.Engine, repository: PageRepository
    ) -> None:
        # What ``Workspace.load_for_write`` and a write do, in two threads at once.
        page = _unique()
        start = threading.Barrier(2)
        outcomes: list[str] = []

        def first_write(actor: str) -> None:
            start.wait()
            try:
                with transaction(engine) as conn:
                    loaded = repository.load_draft(conn, TENANT, page, for_update=True)
                    if loaded is None:
                        repository.ensure_draft(conn, TENANT, page, empty_doc(page))
                        loaded = repository.load_draft(conn, TENANT, page, for_update=True)
                    doc, revision = loaded or (empty_doc(page), 0)
                    if revision != 0:
                        outcomes.append("stale")
                        return
                    time.sleep(0.2)  # the other writer arrives meanwhile
                    repository.save_draft(conn, TENANT, page, {**doc, "seq": 1, "meta": {"by": actor}})
                    repository.append_ops(conn, TENANT, page, [_entry(1, actor=actor)])
                    outcomes.append("wrote")
            except StorageError as error:
                outcomes.append(error.code)

        writers = [threading.Thread(target=first_write, args=(f"user-{n}",)) for n in (1, 2)]
        for writer in writers:
            writer.start()
        for writer in writers:
            writer.join(timeout=60)
        assert sorted(outcomes) == ["stale", "wrote"]
        with transaction(engine) as conn:
            loaded = repository.load_draft(conn, TENANT, page)
            history = repository.ops_since(conn, TENANT, page, 0)
        assert loaded is not None and loaded[1] == 1
        assert [(e.revision, e.actor) for e in history] == [(1, loaded[0]["meta"]["by"])]
