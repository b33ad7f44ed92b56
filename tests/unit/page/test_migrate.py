from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.unit.page.strategies import pages

from charlotte.page.migrate import (
    MigrationReport,
    migrate_doc,
    migrate_doc_verbose,
    needs_migration,
)
from charlotte.page.model import Doc, empty_doc
from charlotte.page.ordering import key_between
from charlotte.page.tree import root_ids


def _node(id: str, parent: str | None, order: str) -> dict[str, Any]:
    return {"id": id, "type": "section", "parent": parent, "order": order, "props": {}, "style": {"base": {}}}


def _legacy(sections: list[Any], *nodes: dict[str, Any]) -> Doc:
    doc = empty_doc("p")
    doc["sections"] = sections
    doc["nodes"] = {n["id"]: n for n in nodes}
    return doc


def _abc() -> tuple[dict[str, Any], ...]:
    return _node("a", None, "a0"), _node("b", None, "a1"), _node("c", None, "a2")


def test_sections_order_wins_over_stale_keys() -> None:
    doc = _legacy(["c", "a", "b"], *_abc())
    out = migrate_doc(doc)
    assert root_ids(out) == ["c", "a", "b"]
    assert [out["nodes"][id]["order"] for id in ["c", "a", "b"]] == ["V", "VV", "VVV"]


def test_keys_are_minted_with_key_between_appends() -> None:
    ids = [f"s{i}" for i in range(5)]
    out = migrate_doc(_legacy(list(reversed(ids)), *(_node(id, None, "a0") for id in ids)))
    prev = None
    for id in reversed(ids):
        prev = key_between(prev, None)
        assert out["nodes"][id]["order"] == prev


def test_sections_is_dropped_and_input_untouched() -> None:
    doc = _legacy(["b", "a"], *_abc())
    snapshot = copy.deepcopy(doc)
    out = migrate_doc(doc)
    assert "sections" not in out
    assert doc == snapshot
    assert {k: v for k, v in out.items() if k != "nodes"} == {
        k: v for k, v in doc.items() if k not in ("nodes", "sections")
    }


def test_dangling_ids_are_skipped_and_reported() -> None:
    out, report = migrate_doc_verbose(_legacy(["a", "ghost", 7, None, "b"], *_abc()))
    assert report.dangling_ids == ("ghost", 7, None)
    assert root_ids(out) == ["a", "b", "c"]


def test_first_of_duplicates_wins() -> None:
    assert root_ids(migrate_doc(_legacy(["b", "a", "b"], *_abc()))) == ["b", "a", "c"]


def test_unlisted_roots_are_appended_by_their_old_order() -> None:
    nodes = [_node("z", None, "a5"), _node("a", None, "a0"), _node("b", None, "a1"), _node("y", None, "a0")]
    out, report = migrate_doc_verbose(_legacy(["b"], *nodes))
    assert report.unlisted_root_ids == ("a", "y", "z")
    assert root_ids(out) == ["b", "a", "y", "z"]


def test_non_roots_are_never_touched() -> None:
    child = _node("t", "a", "a3")
    orphan = _node("o", "gone", "a4")
    doc = _legacy(["t", "a", "o"], _node("a", None, "a0"), child, orphan)
    out, report = migrate_doc_verbose(doc)
    assert out["nodes"]["t"] is child
    assert out["nodes"]["o"] is orphan
    assert report.non_root_ids == ("t", "o")
    assert root_ids(out) == ["a"]


def test_report() -> None:
    _, report = migrate_doc_verbose(_legacy([], *_abc()))
    assert report == MigrationReport(True, (), (), ("a", "b", "c"))
    _, report = migrate_doc_verbose(empty_doc("p"))
    assert report == MigrationReport()
    assert not report.migrated


def test_empty_legacy_document() -> None:
    doc = _legacy([])
    out, report = migrate_doc_verbose(doc)
    assert report.migrated
    assert out == empty_doc("p")


def test_already_migrated_document_is_the_same_object() -> None:
    doc = empty_doc("p")
    doc["nodes"]["a"] = _node("a", None, "a0")
    assert not needs_migration(doc)
    assert migrate_doc(doc) is doc


def test_idempotent() -> None:
    once = migrate_doc(_legacy(["c", "a"], *_abc()))
    assert migrate_doc(once) is once
    assert root_ids(once) == ["c", "a", "b"]


@pytest.mark.parametrize(
    "doc",
    [None, [], "x", {}, {"sections": ["a"]}, {"sections": ["a"], "nodes": []}, {"sections": None, "nodes": {}}],
)
def test_malformed_input_comes_back_unchanged(doc: Any) -> None:
    assert migrate_doc(doc) is doc
    assert migrate_doc_verbose(doc)[1] == MigrationReport()


def test_node_entries_that_are_not_nodes_are_left_alone() -> None:
    doc = _legacy(["x", "a"], _node("a", None, "a0"))
    doc["nodes"]["x"] = "junk"
    out, report = migrate_doc_verbose(doc)
    assert out["nodes"]["x"] == "junk"
    assert report.non_root_ids == ("x",)
    assert out["nodes"]["a"]["order"] == "V"


@given(pages(orphans=True), st.randoms(use_true_random=False))
def test_migration_properties(page: Doc, rnd: Any) -> None:
    roots = root_ids(page)
    sections = [*roots, "ghost", *roots[:1]]
    rnd.shuffle(sections)
    legacy = {**page, "sections": sections}
    snapshot = copy.deepcopy(legacy)
    out = migrate_doc(legacy)
    assert legacy == snapshot
    expected = [id for i, id in enumerate(sections) if id in roots and id not in sections[:i]]
    assert root_ids(out) == expected
    assert set(out["nodes"]) == set(page["nodes"])
    for id, node in page["nodes"].items():
        if id not in roots:
            assert out["nodes"][id] is node
        else:
            assert {**out["nodes"][id], "order": node["order"]} == node
    assert migrate_doc(out) is out
