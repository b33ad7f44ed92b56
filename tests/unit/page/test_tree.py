from __future__ import annotations

from typing import Any

import pytest

from charlotte.page.model import empty_doc
from charlotte.page.tree import (
    ancestors_of,
    append_order,
    children_of,
    descendants_of,
    is_ancestor_or_self,
    root_ids,
)


def _node(id: str, parent: str | None, order: str) -> dict[str, Any]:
    return {"id": id, "type": "section", "parent": parent, "order": order, "props": {}, "style": {"base": {}}}


@pytest.fixture
def canonical() -> dict[str, Any]:
    doc = empty_doc("canon")
    for n in [
        _node("root-b", None, "a1"),
        _node("root-a", None, "a0"),
        _node("child-b2", "root-b", "a1"),
        _node("child-b1", "root-b", "a0"),
        _node("grandchild", "child-b1", "a0"),
        _node("orphan", "missing", "a0"),
    ]:
        doc["nodes"][n["id"]] = n
    return doc


def test_canonical_fixture(canonical: dict[str, Any]) -> None:
    assert root_ids(canonical) == ["root-a", "root-b"]
    assert [n["id"] for n in children_of(canonical, "root-b")] == ["child-b1", "child-b2"]
    assert descendants_of(canonical, "root-b") == ["child-b1", "child-b2", "grandchild"]
    assert ancestors_of(canonical, "grandchild") == ["child-b1", "root-b"]
    assert ancestors_of(canonical, "orphan") == []
    assert "orphan" not in root_ids(canonical)


def test_ties_broken_by_id() -> None:
    doc = empty_doc("t")
    for nid in ["b", "c", "a"]:
        doc["nodes"][nid] = _node(nid, None, "V")
    assert root_ids(doc) == ["a", "b", "c"]


def test_walks_survive_cycles() -> None:
    doc = empty_doc("c")
    doc["nodes"]["x"] = _node("x", "y", "V")
    doc["nodes"]["y"] = _node("y", "x", "V")
    assert descendants_of(doc, "x") == ["y"]
    assert ancestors_of(doc, "x") == ["y"]
    assert root_ids(doc) == []


def test_is_ancestor_or_self(canonical: dict[str, Any]) -> None:
    assert is_ancestor_or_self(canonical, "root-b", "grandchild")
    assert is_ancestor_or_self(canonical, "grandchild", "grandchild")
    assert not is_ancestor_or_self(canonical, "root-a", "grandchild")


def test_append_order(canonical: dict[str, Any]) -> None:
    assert append_order(canonical, None) == "a1V"
    assert append_order(canonical, "grandchild") == "V"


@pytest.mark.parametrize(
    "bad",
    [None, [], "doc", 3, {}, {"nodes": None}, {"nodes": []}, {"nodes": {"x": None, "y": 3, "z": {"id": 5}}}],
)
def test_malformed_documents_never_crash_the_walks(bad: object) -> None:
    assert root_ids(bad) == []
    assert children_of(bad, "x") == []
    assert descendants_of(bad, "x") == []
    assert ancestors_of(bad, "x") == []
    assert append_order(bad, None) == "V"


def test_children_index_agrees_with_children_of_on_odd_parents() -> None:
    from charlotte.page.tree import children_index

    doc = empty_doc("odd")
    doc["nodes"]["a"] = _node("a", None, "V")
    odd = _node("b", None, "W")
    odd["parent"] = 5  # type: ignore[typeddict-item]
    doc["nodes"]["b"] = odd
    assert [n["id"] for n in children_index(doc).get(None, [])] == root_ids(doc) == ["a"]
