"""A write's draft is the next write's without decoding it again, and only while the stored text is the same."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from tests.support.databases import new_session
from tests.support.units import in_unit

from charlotte.app import Charlotte
from charlotte.drafts.workspace import Workspace
from charlotte.errors import StorageError
from charlotte.page.model import empty_doc
from charlotte.settings import Settings
from charlotte.storage import DatabasePageRepository, transaction, types
from charlotte.storage._shared_drafts import SharedDrafts
from charlotte.storage.tables import pages

TENANT, PAGE = "tenant-a", "home"


def _doc(title: str, seq: int = 1) -> dict[str, Any]:
    doc = empty_doc(PAGE)
    doc["meta"]["title"] = title
    doc["seq"] = seq
    return doc


def _section(id: str) -> list[dict[str, Any]]:
    return [{"t": "insert_node", "node": {"id": id, "type": "section", "parent": None}}]


def test_a_shared_load_returns_the_document_a_shared_save_stored(sqlite_engine: sa.Engine) -> None:
    repo = DatabasePageRepository(SharedDrafts())
    doc = _doc("Stored")
    with transaction(sqlite_engine) as conn:
        repo.save_draft(conn, TENANT, PAGE, doc, shared=True)
    with transaction(sqlite_engine) as conn:
        shared = repo.load_draft(conn, TENANT, PAGE, shared=True)
        fresh = repo.load_draft(conn, TENANT, PAGE)
    assert shared is not None and fresh is not None
    assert shared[0] is doc and shared[1] == 1
    assert fresh[0] == doc and fresh[0] is not doc  # an unshared load is always a new object


def test_a_shared_load_decodes_once_then_reuses(sqlite_engine: sa.Engine) -> None:
    repo = DatabasePageRepository(SharedDrafts())
    with transaction(sqlite_engine) as conn:
        repo.save_draft(conn, TENANT, PAGE, _doc("Stored"))  # not shared: nothing held
        first = repo.load_draft(conn, TENANT, PAGE, shared=True)
        second = repo.load_draft(conn, TENANT, PAGE, shared=True)
    assert first is not None and second is not None
    assert first[0] == _doc("Stored") and second[0] is first[0]


def test_a_rolled_back_save_is_not_what_the_next_load_returns(sqlite_engine: sa.Engine) -> None:
    repo = DatabasePageRepository(SharedDrafts())
    with transaction(sqlite_engine) as conn:
        repo.save_draft(conn, TENANT, PAGE, _doc("Committed"), shared=True)
    with pytest.raises(RuntimeError), transaction(sqlite_engine) as conn:
        repo.save_draft(conn, TENANT, PAGE, _doc("Rolled back", 2), shared=True)
        raise RuntimeError("abort")
    with transaction(sqlite_engine) as conn:
        loaded = repo.load_draft(conn, TENANT, PAGE, shared=True)
    assert loaded is not None
    assert loaded[0]["meta"]["title"] == "Committed" and loaded[1] == 1


def test_a_row_changed_by_anyone_else_is_decoded_even_at_the_same_revision(
    sqlite_engine: sa.Engine,
) -> None:
    repo = DatabasePageRepository(SharedDrafts())
    with transaction(sqlite_engine) as conn:
        repo.save_draft(conn, TENANT, PAGE, _doc("Ours"), shared=True)
    with transaction(sqlite_engine) as conn:
        conn.execute(sa.update(pages).where(pages.c.page == PAGE).values(draft=_doc("Theirs")))
    with transaction(sqlite_engine) as conn:
        loaded = repo.load_draft(conn, TENANT, PAGE, shared=True)
    assert loaded is not None and loaded[0]["meta"]["title"] == "Theirs"


def test_without_shared_drafts_nothing_is_held(sqlite_engine: sa.Engine) -> None:
    repo = DatabasePageRepository()
    doc = _doc("Stored")
    with transaction(sqlite_engine) as conn:
        repo.save_draft(conn, TENANT, PAGE, doc, shared=True)
        loaded = repo.load_draft(conn, TENANT, PAGE, shared=True)
    assert loaded is not None and loaded[0] == doc and loaded[0] is not doc


def test_the_held_drafts_stay_bounded_oldest_first() -> None:
    memo = SharedDrafts(limit=2)
    docs = {page: _doc(page) for page in ("a", "b", "c")}
    for page, doc in docs.items():
        memo.put((TENANT, page), page, doc)
    assert len(memo) == 2
    assert memo.get((TENANT, "a"), "a") is None
    assert memo.get((TENANT, "c"), "c") is docs["c"]
    assert memo.get((TENANT, "c"), "other text") is None


def test_a_save_serialises_the_document_once(
    sqlite_engine: sa.Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []
    real = types._compact

    def counting(value: Any) -> str:
        if isinstance(value, dict) and "nodes" in value:  # a page document, not an op or payload
            calls.append(1)
        return real(value)

    monkeypatch.setattr(types, "_compact", counting)
    repo = DatabasePageRepository()
    with transaction(sqlite_engine) as conn:
        repo.save_draft(conn, TENANT, PAGE, _doc("First"))  # insert
        repo.save_draft(conn, TENANT, PAGE, _doc("Second", 2))  # update of the same row
        repo.save_published(conn, TENANT, PAGE, _doc("Published", 2))
        repo.save_published(conn, TENANT, "fresh", _doc("Draft and published at once"))
    assert len(calls) == 4
    with transaction(sqlite_engine) as conn:
        draft = repo.load_draft(conn, TENANT, PAGE)
        published = repo.load_published(conn, TENANT, PAGE)
        fresh = repo.load_draft(conn, TENANT, "fresh")
    assert draft is not None and draft[0]["meta"]["title"] == "Second"
    assert published is not None and published[0]["meta"]["title"] == "Published"
    assert fresh is not None and fresh[0]["meta"]["title"] == "Draft and published at once"


def test_a_document_that_is_not_json_is_refused_with_a_code(sqlite_engine: sa.Engine) -> None:
    repo = DatabasePageRepository(SharedDrafts())
    doc = _doc("NaN")
    doc["meta"]["bad"] = float("nan")
    for save in (repo.save_draft, repo.save_published):
        with pytest.raises(StorageError) as raised, transaction(sqlite_engine) as conn:
            save(conn, TENANT, PAGE, doc)
        assert raised.value.code == "invalid_value"


def test_mutating_a_draft_read_from_the_workspace_cannot_reach_the_next_write(
    sqlite_engine: sa.Engine,
) -> None:
    session = new_session(sqlite_engine)
    ws = Workspace(sqlite_engine)
    in_unit(ws, session.id, session.tenant).agent_apply(_section("a"), based_on=0)
    read, revision = in_unit(ws, session.id, session.tenant).draft()
    read["nodes"].clear()
    read["meta"]["title"] = "Mutated by a caller"
    in_unit(ws, session.id, session.tenant).agent_apply(_section("b"), based_on=revision)
    doc, _ = in_unit(ws, session.id, session.tenant).draft()
    assert set(doc["nodes"]) == {"a", "b"}
    assert doc["meta"]["title"] != "Mutated by a caller"


def test_two_workspaces_writing_one_page_each_see_the_others_writes(
    sqlite_engine: sa.Engine,
) -> None:
    session = new_session(sqlite_engine)
    one, two = Workspace(sqlite_engine), Workspace(sqlite_engine)  # two processes, say
    in_unit(one, session.id, session.tenant).agent_apply(_section("a"), based_on=0)
    in_unit(two, session.id, session.tenant).agent_apply(_section("b"), based_on=1)
    in_unit(one, session.id, session.tenant).agent_apply(_section("c"), based_on=2)
    in_unit(two, session.id, session.tenant).human_edit(_section("d"), based_on=3, user="user-1")
    in_unit(one, session.id, session.tenant).agent_apply(_section("e"), based_on=4)
    for ws in (one, two):
        doc, revision = in_unit(ws, session.id, session.tenant).draft()
        assert revision == 5 and set(doc["nodes"]) == {"a", "b", "c", "d", "e"}


def test_the_hosts_charlotte_writes_without_decoding_the_draft_it_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    charlotte = Charlotte(Settings(database_url=f"sqlite:///{tmp_path / 'app.db'}", queue="inline"))
    try:
        charlotte.migrate()
        session = new_session(charlotte.engine)
        ws = charlotte.workspace
        in_unit(ws, session.id, session.tenant).agent_apply(_section("a"), based_on=0)
        decoded: list[int] = []
        real = json.loads

        def counting(text: Any, **options: Any) -> Any:
            value = real(text, **options)
            if isinstance(value, dict) and "nodes" in value:  # a page document
                decoded.append(1)
            return value

        monkeypatch.setattr(json, "loads", counting)
        in_unit(ws, session.id, session.tenant).agent_apply(_section("b"), based_on=1)
        in_unit(ws, session.id, session.tenant).agent_apply(_section("c"), based_on=2)
        assert decoded == []
        assert set(in_unit(ws, session.id, session.tenant).draft()[0]["nodes"]) == {"a", "b", "c"}
        assert decoded == [1]  # a read for a caller is always decoded afresh
    finally:
        charlotte.close()


def _nodes_encoded(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ids of the nodes encoded from here on (``dumps_reusing`` encodes each node on its own)."""
    encoded: list[str] = []
    real = types._compact

    def counting(value: Any) -> str:
        if isinstance(value, dict) and isinstance(value.get("id"), str) and "t" not in value:  # no op
            encoded.append(value["id"])
        return real(value)

    monkeypatch.setattr(types, "_compact", counting)
    return encoded


def test_a_shared_save_encodes_only_the_nodes_the_write_changed(
    sqlite_engine: sa.Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = new_session(sqlite_engine)
    ws = Workspace(sqlite_engine)
    in_unit(ws, session.id, session.tenant).agent_apply(_section("a") + _section("b") + _section("c"), based_on=0)
    encoded = _nodes_encoded(monkeypatch)
    patch = {"t": "set_style", "id": "b", "breakpoint": "base", "patch": {"color": "#222"}}
    in_unit(ws, session.id, session.tenant).agent_apply([patch], based_on=3)
    in_unit(ws, session.id, session.tenant).agent_apply(_section("d"), based_on=4)
    assert encoded == ["b", "d"]
    with transaction(sqlite_engine) as conn:
        raw = conn.execute(sa.select(sa.type_coerce(pages.c.draft, sa.Text))).scalar_one()
    doc, revision = in_unit(ws, session.id, session.tenant).draft()
    assert raw == json.dumps(doc, separators=(",", ":")) and revision == 5
    assert doc["nodes"]["b"]["style"]["base"] == {"color": "#222"}


def test_a_node_is_reused_by_identity_never_by_an_equal_or_changed_copy(
    sqlite_engine: sa.Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    memo = SharedDrafts()
    doc = _doc("Held")
    doc["nodes"] = {"a": {"id": "a", "props": {"n": 1}}, "b": {"id": "b", "props": {"n": 2}}}
    memo.encode((TENANT, PAGE), doc)
    encoded = _nodes_encoded(monkeypatch)
    same_a = doc["nodes"]["a"]
    equal_b = {"id": "b", "props": {"n": 2}}
    text = memo.encode((TENANT, PAGE), {**doc, "nodes": {"a": same_a, "b": equal_b, "c": {"id": "c"}}})
    assert encoded == ["b", "c"]
    assert json.loads(text)["nodes"] == {"a": same_a, "b": equal_b, "c": {"id": "c"}}
    assert memo.get((TENANT, PAGE), text) is not None
    # Another page's held nodes are never reused.
    memo.encode((TENANT, "other"), doc)
    assert encoded == ["b", "c", "a", "b"]


def test_a_shared_save_of_a_document_that_is_not_json_is_refused_and_holds_nothing(
    sqlite_engine: sa.Engine,
) -> None:
    repo = DatabasePageRepository(SharedDrafts())
    with transaction(sqlite_engine) as conn:
        repo.save_draft(conn, TENANT, PAGE, _doc("Stored"), shared=True)
    doc = _doc("NaN", 2)
    doc["nodes"] = {"a": {"id": "a", "props": {"n": float("nan")}}}
    with pytest.raises(StorageError) as raised, transaction(sqlite_engine) as conn:
        repo.save_draft(conn, TENANT, PAGE, doc, shared=True)
    assert raised.value.code == "invalid_value"
    with transaction(sqlite_engine) as conn:
        loaded = repo.load_draft(conn, TENANT, PAGE, shared=True)
    assert loaded is not None and loaded[0]["meta"]["title"] == "Stored"
