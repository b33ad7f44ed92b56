"""The page repository contract, run against every database (subclass per backend).

A subclass provides ``engine`` (tables created; may be shared by the module, so
every test uses its own page key) and may override ``repository``.
"""

from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
import sqlalchemy as sa
from tests.support.databases import new_session, unique

from charlotte.errors import StorageError
from charlotte.page.model import empty_doc
from charlotte.storage import DatabasePageRepository, OpEntry, PageRepository, transaction


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
    """Behaviour every ``PageRepository`` backend must show."""

    @pytest.fixture
    def repository(self) -> PageRepository:
        return DatabasePageRepository()

    def test_a_page_without_a_draft_loads_none(
        self, engine: sa.Engine, repository: PageRepository
    ) -> None:
        with transaction(engine) as conn:
            assert repository.load_draft(conn, "tenant-a", unique("page")) is None
            assert repository.load_published(conn, "tenant-a", unique("page")) is None

    def test_ensure_draft_inserts_only_where_no_row_is(self, engine: sa.Engine) -> None:
        repository = DatabasePageRepository()
        fresh, written = unique("page"), unique("page")
        with transaction(engine) as conn:
            repository.save_draft(conn, "tenant-a", written, _doc(written, seq=5))
            repository.ensure_draft(conn, "tenant-a", fresh, empty_doc(fresh))
            repository.ensure_draft(conn, "tenant-a", written, empty_doc(written))
        with transaction(engine) as conn:
            assert repository.load_draft(conn, "tenant-a", fresh) == (empty_doc(fresh), 0)
            assert repository.load_draft(conn, "tenant-a", written) == (_doc(written, seq=5), 5)

    def test_draft_round_trip_keeps_the_document_and_its_revision(
        self, engine: sa.Engine, repository: PageRepository
    ) -> None:
        page = unique("page")
        doc = _doc(page, seq=7)

        with transaction(engine) as conn:
            repository.save_draft(conn, "tenant-a", page, copy.deepcopy(doc))
        with transaction(engine) as conn:
            loaded = repository.load_draft(conn, "tenant-a", page)

        assert loaded == (doc, 7)

    def test_save_draft_replaces_the_previous_draft(
        self, engine: sa.Engine, repository: PageRepository
    ) -> None:
        page = unique("page")
        with transaction(engine) as conn:
            repository.save_draft(conn, "tenant-a", page, _doc(page, seq=1, nodes=1))
        with transaction(engine) as conn:
            repository.save_draft(conn, "tenant-a", page, _doc(page, seq=2, nodes=2))
            loaded = repository.load_draft(conn, "tenant-a", page, for_update=True)

        assert loaded is not None
        assert loaded[1] == 2
        assert sorted(loaded[0]["nodes"]) == ["n0", "n1"]

    def test_a_large_document_round_trips(
        self, engine: sa.Engine, repository: PageRepository
    ) -> None:
        page = unique("page")
        doc = _doc(page, seq=1000, nodes=1000)

        with transaction(engine) as conn:
            repository.save_draft(conn, "tenant-a", page, doc)
        with transaction(engine) as conn:
            assert repository.load_draft(conn, "tenant-a", page) == (doc, 1000)

    def test_rolled_back_save_leaves_the_draft_unchanged(
        self, engine: sa.Engine, repository: PageRepository
    ) -> None:
        page = unique("page")
        with transaction(engine) as conn:
            repository.save_draft(conn, "tenant-a", page, _doc(page, seq=1))

        with pytest.raises(LookupError), transaction(engine) as conn:
            repository.save_draft(conn, "tenant-a", page, _doc(page, seq=2))
            raise LookupError

        with transaction(engine) as conn:
            loaded = repository.load_draft(conn, "tenant-a", page)
        assert loaded is not None and loaded[1] == 1

    def test_published_copy_is_separate_from_the_draft(
        self, engine: sa.Engine, repository: PageRepository
    ) -> None:
        page = unique("page")
        with transaction(engine) as conn:
            repository.save_draft(conn, "tenant-a", page, _doc(page, seq=3, nodes=1))
            assert repository.load_published(conn, "tenant-a", page) is None
            repository.save_published(conn, "tenant-a", page, _doc(page, seq=3, nodes=1))
            repository.save_draft(conn, "tenant-a", page, _doc(page, seq=4, nodes=2))

        with transaction(engine) as conn:
            published = repository.load_published(conn, "tenant-a", page)
            draft = repository.load_draft(conn, "tenant-a", page)

        assert published == (_doc(page, seq=3, nodes=1), 3)
        assert draft == (_doc(page, seq=4, nodes=2), 4)

    def test_publishing_a_page_without_a_draft_stores_both(
        self, engine: sa.Engine, repository: PageRepository
    ) -> None:
        page = unique("page")
        with transaction(engine) as conn:
            repository.save_published(conn, "tenant-a", page, _doc(page, seq=5))
            assert repository.load_published(conn, "tenant-a", page) == (_doc(page, seq=5), 5)
            assert repository.load_draft(conn, "tenant-a", page) == (_doc(page, seq=5), 5)

    def test_pages_are_tenant_scoped(self, engine: sa.Engine, repository: PageRepository) -> None:
        page = unique("page")
        with transaction(engine) as conn:
            repository.save_draft(conn, "tenant-a", page, _doc(page, seq=1, nodes=1))
            repository.save_draft(conn, "tenant-b", page, _doc(page, seq=9, nodes=2))
            repository.append_ops(conn, "tenant-a", page, [_entry(1)])

        with transaction(engine) as conn:
            assert repository.load_draft(conn, "tenant-a", page) == (_doc(page, seq=1, nodes=1), 1)
            assert repository.load_draft(conn, "tenant-b", page) == (_doc(page, seq=9, nodes=2), 9)
            assert repository.load_draft(conn, "tenant-c", page) is None
            assert repository.ops_since(conn, "tenant-b", page, 0) == []

    def test_a_document_without_a_valid_seq_is_refused(
        self, engine: sa.Engine, repository: PageRepository
    ) -> None:
        page = unique("page")
        for seq in (None, -1, "3", True):
            doc = _doc(page, seq=0)
            doc["seq"] = seq
            with pytest.raises(StorageError) as raised, transaction(engine) as conn:
                repository.save_draft(conn, "tenant-a", page, doc)
            assert raised.value.code == "invalid_value"

    def test_a_document_holding_a_lone_surrogate_is_refused(
        self, engine: sa.Engine, repository: PageRepository
    ) -> None:
        page = unique("page")
        doc = _doc(page, seq=1)
        doc["nodes"]["n0"]["props"]["text"] = "Ro\ud800sa"
        for save in (repository.save_draft, repository.save_published):
            with pytest.raises(StorageError) as raised, transaction(engine) as conn:
                save(conn, "tenant-a", page, doc)
            assert raised.value.code == "invalid_value"
        with transaction(engine) as conn:
            assert repository.load_draft(conn, "tenant-a", page) is None

    def test_a_draft_an_older_version_stored_with_a_lone_surrogate_loads_repaired_and_saves_again(
        self, engine: sa.Engine, repository: PageRepository
    ) -> None:
        page = unique("page")
        doc = _doc(page, seq=1)
        with transaction(engine) as conn:
            repository.save_draft(conn, "tenant-a", page, doc)
            # What an older version wrote: the escape of a lone surrogate.
            conn.execute(
                sa.text("UPDATE charlotte_pages SET draft = REPLACE(draft, 'Fresh', :escape) WHERE page = :page"),
                {"escape": "Fr\\ud800sh", "page": page},
            )
        with transaction(engine) as conn:
            loaded = repository.load_draft(conn, "tenant-a", page)
            assert loaded is not None
            assert loaded[0]["nodes"]["n0"]["props"]["text"].startswith("Fr\ufffdsh bread")
            repository.save_draft(conn, "tenant-a", page, {**loaded[0], "seq": 2})
        with transaction(engine) as conn:
            again = repository.load_draft(conn, "tenant-a", page)
        assert again is not None and again[1] == 2

    def test_op_history_returns_entries_after_a_revision_in_order(
        self, engine: sa.Engine, repository: PageRepository
    ) -> None:
        page = unique("page")
        session_id = new_session(engine).id
        with transaction(engine) as conn:
            repository.append_ops(
                conn, "tenant-a", page, [_entry(r, session_id=session_id) for r in (1, 2, 3)]
            )
        with transaction(engine) as conn:
            repository.append_ops(conn, "tenant-a", page, [_entry(4, actor="user-5")])

        with transaction(engine) as conn:
            everything = repository.ops_since(conn, "tenant-a", page, 0)
            after_two = repository.ops_since(conn, "tenant-a", page, 2)
            limited = repository.ops_since(conn, "tenant-a", page, 0, limit=2)
            none_left = repository.ops_since(conn, "tenant-a", page, 4)

        assert [e.revision for e in everything] == [1, 2, 3, 4]
        assert [(e.revision, e.actor) for e in after_two] == [(3, "agent"), (4, "user-5")]
        assert everything[0] == _entry(1, session_id=session_id)
        assert everything[3].session_id is None
        assert after_two[1].to_dict() == {"revision": 4, "actor": "user-5", "op": _entry(4).op}
        assert [e.revision for e in limited] == [1, 2]
        assert none_left == []

    def test_op_history_takes_a_large_batch(
        self, engine: sa.Engine, repository: PageRepository
    ) -> None:
        page = unique("page")
        with transaction(engine) as conn:
            repository.append_ops(conn, "tenant-a", page, [_entry(r) for r in range(1, 2501)])
        with transaction(engine) as conn:
            tail = repository.ops_since(conn, "tenant-a", page, 2490)
        assert [e.revision for e in tail] == list(range(2491, 2501))

    def test_op_history_keeps_each_entrys_inverse_turn_and_time(
        self, engine: sa.Engine, repository: PageRepository
    ) -> None:
        page = unique("page")
        session_id = new_session(engine).id
        zurich = timezone(timedelta(hours=2))
        written_at = datetime(2025, 6, 1, 14, 30, 15, 123456, tzinfo=zurich)
        undo = [{"t": "set_node_props", "id": "n0", "patch": {"text": "before “it” 🍞"}}]
        entries = [
            OpEntry(1, "agent", _entry(1).op, session_id, "turn-1", None, undo, at=written_at),
            OpEntry(2, "user-5", _entry(2).op, session_id, None, "turn-1", None),
        ]
        before = datetime.now(UTC) - timedelta(seconds=1)
        with transaction(engine) as conn:
            repository.append_ops(conn, "tenant-a", page, entries)
        with transaction(engine) as conn:
            first, second = repository.ops_since(conn, "tenant-a", page, 0)
        assert first == entries[0] and second == entries[1]
        assert first.inverse == undo and second.inverse is None
        assert first.at == written_at and first.at is not None and first.at.tzinfo is UTC
        assert second.at is not None and before <= second.at <= datetime.now(UTC)

    def test_an_op_that_is_not_json_is_refused_and_nothing_is_stored(
        self, engine: sa.Engine, repository: PageRepository
    ) -> None:
        page = unique("page")
        for op in ({"t": "set_meta", "patch": {"n": float("nan")}}, {"t": "x", "text": "\udfff"}):
            bad = [_entry(1), OpEntry(2, "agent", op)]
            with pytest.raises(StorageError) as raised, transaction(engine) as conn:
                repository.append_ops(conn, "tenant-a", page, bad)
            assert raised.value.code == "invalid_value"
            with transaction(engine) as conn:
                assert repository.ops_since(conn, "tenant-a", page, 0) == []

    def test_a_revision_already_in_the_history_is_a_conflict(
        self, engine: sa.Engine, repository: PageRepository
    ) -> None:
        page = unique("page")
        with transaction(engine) as conn:
            repository.append_ops(conn, "tenant-a", page, [_entry(1), _entry(2)])

        with pytest.raises(StorageError) as raised, transaction(engine) as conn:
            repository.append_ops(conn, "tenant-a", page, [_entry(3), _entry(2)])

        assert raised.value.code == "conflict"
        with transaction(engine) as conn:
            assert [e.revision for e in repository.ops_since(conn, "tenant-a", page, 0)] == [1, 2]
