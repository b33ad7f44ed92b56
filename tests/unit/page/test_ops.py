from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.unit.page.strategies import OP_KINDS, ops_for, pages

from charlotte.page.model import Doc, empty_doc
from charlotte.page.op_table import MALFORMED_DOC, MALFORMED_OP, OP_TYPES, RESTORE_OP_TYPES
from charlotte.page.ops import WorkingCopy, reduce, reduce_all
from charlotte.page.tree import children_of, descendants_of, root_ids


def _node(id: str, parent: str | None, order: str, **extra: Any) -> dict[str, Any]:
    return {"id": id, "type": "section", "parent": parent, "order": order, "props": {}, "style": {"base": {}}, **extra}


@pytest.fixture
def page() -> Doc:
    doc = empty_doc("p")
    for n in [
        _node("s1", None, "a0", props={"k": 1}),
        _node("s2", None, "a1"),
        _node("t1", "s1", "V"),
        _node("t2", "t1", "V"),
        _node("orphan", "missing", "V"),
    ]:
        doc["nodes"][n["id"]] = n
    return doc


def _ok(doc: Doc, op: dict[str, Any]) -> Doc:
    new, reason = reduce(doc, op)
    assert reason is None
    assert new is not doc
    assert new["seq"] == doc["seq"] + 1
    return new


# -- reasons ------------------------------------------------------------------------

REASONS: list[tuple[dict[str, Any] | object, str]] = [
    ({"t": "insert_node", "node": _node("s1", None, "b")}, "node id already exists"),
    ({"t": "insert_node", "node": _node("x", "nope", "b")}, "parent not found"),
    ({"t": "remove_node", "id": "nope"}, "node not found"),
    ({"t": "move_node", "id": "nope", "parent": None, "order": "V"}, "node not found"),
    ({"t": "move_node", "id": "s1", "parent": "s1", "order": "V"}, "cannot parent a node to itself"),
    ({"t": "move_node", "id": "s1", "parent": "nope", "order": "V"}, "new parent not found"),
    ({"t": "move_node", "id": "s1", "parent": "t2", "order": "V"}, "move would create a cycle"),
    ({"t": "move_node", "id": "t1", "parent": "orphan", "order": "V"}, None),
    ({"t": "set_node_props", "id": "nope", "patch": {}}, "node not found"),
    ({"t": "set_layout", "id": "nope", "layout": "free"}, "node not found"),
    ({"t": "set_style", "id": "nope", "breakpoint": "base", "patch": {}}, "node not found"),
    ({"t": "set_constraints", "id": "nope", "breakpoint": "base", "patch": {}}, "node not found"),
    ({"t": "set_animation", "id": "nope", "anim": {"id": "a"}}, "node not found"),
    ({"t": "remove_animation", "id": "nope", "animId": "a"}, "node not found"),
    ({"t": "set_action", "id": "nope", "index": 0, "action": None}, "node not found"),
    ({"t": "reorder_roots", "order": ["s1"]}, "reorder must be a permutation of the current roots"),
    ({"t": "reorder_roots", "order": ["s1", "s1"]}, "reorder must be a permutation of the current roots"),
    ({"t": "reorder_roots", "order": ["s1", "s2", "s1"]}, "reorder must be a permutation of the current roots"),
    ({"t": "reorder_roots", "order": ["s1", "orphan"]}, "reorder must be a permutation of the current roots"),
    ({"t": "reorder_roots", "order": ["s1", 5]}, "reorder must be a permutation of the current roots"),
    ({"t": "reorder_roots", "order": ["s1", {}]}, "reorder must be a permutation of the current roots"),
    ({"t": "set_props", "id": "s1", "patch": {}}, 'unknown op "set_props"'),
    ({"t": "explode"}, 'unknown op "explode"'),
    (None, MALFORMED_OP),
    ("remove_node", MALFORMED_OP),
    ({}, MALFORMED_OP),
    ({"t": 3}, MALFORMED_OP),
    ({"t": "remove_node"}, MALFORMED_OP),
    ({"t": "remove_node", "id": 3}, MALFORMED_OP),
    ({"t": "insert_node", "node": {"id": "x"}}, MALFORMED_OP),
    ({"t": "insert_node", "node": {"parent": None}}, MALFORMED_OP),
    ({"t": "move_node", "id": "t1", "order": "V"}, MALFORMED_OP),
    ({"t": "move_node", "id": "t1", "parent": None, "order": 1}, MALFORMED_OP),
    ({"t": "set_node_props", "id": "s1", "patch": [1]}, MALFORMED_OP),
    ({"t": "set_style", "id": "s1", "patch": {}}, MALFORMED_OP),
    ({"t": "set_action", "id": "s1", "index": 0}, MALFORMED_OP),
    ({"t": "set_action", "id": "s1", "index": False, "action": None}, MALFORMED_OP),
    ({"t": "remove_animation", "id": "s1"}, MALFORMED_OP),
    ({"t": "set_meta", "patch": None}, MALFORMED_OP),
    ({"t": "reorder_roots", "order": "s1"}, MALFORMED_OP),
    ({"t": "restore_node", "node": {"parent": None}}, MALFORMED_OP),
    ({"t": "restore_theme", "theme": []}, MALFORMED_OP),
]


@pytest.mark.parametrize(("op", "reason"), REASONS, ids=[str(r[0])[:60] for r in REASONS])
def test_reasons(page: Doc, op: object, reason: str | None) -> None:
    snapshot = copy.deepcopy(page)
    new, got = reduce(page, op)
    assert got == reason
    if reason is not None:
        assert new is page
    assert page == snapshot


@pytest.mark.parametrize("doc", [None, [], "doc", {}, {"nodes": []}, {"nodes": {}}, {"nodes": {}, "seq": True}])
def test_malformed_documents_are_refused_not_crashed(doc: Any) -> None:
    new, reason = reduce(doc, {"t": "set_meta", "patch": {}})
    assert (new, reason) == (doc, MALFORMED_DOC)
    assert new is doc


def test_meta_and_theme_ops_need_objects_to_merge_into() -> None:
    doc = {"seq": 0, "nodes": {}, "meta": None}
    assert reduce(doc, {"t": "set_meta", "patch": {}})[1] == MALFORMED_DOC
    assert reduce(doc, {"t": "restore_theme", "theme": {}})[1] == MALFORMED_DOC
    assert reduce(doc, {"t": "remove_node", "id": "x"})[1] == "node not found"


def test_entry_not_keyed_by_its_id_is_no_node() -> None:
    doc = empty_doc("p")
    doc["nodes"]["a"] = _node("b", None, "V")
    assert reduce(doc, {"t": "remove_node", "id": "a"})[1] == "node not found"
    assert reduce(doc, {"t": "insert_node", "node": _node("a", None, "V")})[1] == "node id already exists"
    assert reduce(doc, {"t": "restore_node", "node": _node("a", None, "V")})[1] == MALFORMED_DOC
    assert reduce(doc, {"t": "reorder_roots", "order": []})[1] is None


def test_vocabulary() -> None:
    assert {"set_node_props", "reorder_roots", "set_meta"} <= OP_TYPES
    assert {"restore_node", "restore_meta", "restore_theme"} == RESTORE_OP_TYPES
    assert OP_TYPES.isdisjoint(RESTORE_OP_TYPES)
    assert len(OP_TYPES) == 13
    assert set(OP_KINDS) == OP_TYPES | RESTORE_OP_TYPES


# -- effects ------------------------------------------------------------------------


def test_insert_node_adds_as_given(page: Doc) -> None:
    node = _node("new", "s2", "V", layout="stack")
    new = _ok(page, {"t": "insert_node", "node": node})
    assert new["nodes"]["new"] == node
    assert "new" not in page["nodes"]


def test_insert_adopts_orphans_pointing_at_it(page: Doc) -> None:
    new = _ok(page, {"t": "insert_node", "node": _node("missing", None, "z")})
    assert descendants_of(new, "missing") == ["orphan"]


def test_remove_node_removes_descendants(page: Doc) -> None:
    new = _ok(page, {"t": "remove_node", "id": "s1"})
    assert sorted(new["nodes"]) == ["orphan", "s2"]
    new = _ok(page, {"t": "remove_node", "id": "orphan"})
    assert "orphan" not in new["nodes"]


def test_move_node_sets_parent_and_order(page: Doc) -> None:
    new = _ok(page, {"t": "move_node", "id": "t1", "parent": "s2", "order": "Q"})
    assert (new["nodes"]["t1"]["parent"], new["nodes"]["t1"]["order"]) == ("s2", "Q")
    assert [n["id"] for n in children_of(new, "s2")] == ["t1"]
    new = _ok(new, {"t": "move_node", "id": "t1", "parent": None, "order": "a05"})
    assert root_ids(new) == ["s1", "t1", "s2"]


def test_set_node_props_merges_shallowly(page: Doc) -> None:
    new = _ok(page, {"t": "set_node_props", "id": "s1", "patch": {"j": {"x": 1}}})
    assert new["nodes"]["s1"]["props"] == {"k": 1, "j": {"x": 1}}
    new = _ok(new, {"t": "set_node_props", "id": "s1", "patch": {"j": {"y": 2}, "k": None}})
    assert new["nodes"]["s1"]["props"] == {"k": None, "j": {"y": 2}}


def test_set_layout_replaces_and_removes(page: Doc) -> None:
    new = _ok(page, {"t": "set_layout", "id": "s1", "layout": "grid"})
    assert new["nodes"]["s1"]["layout"] == "grid"
    assert "layout" not in _ok(new, {"t": "set_layout", "id": "s1", "layout": None})["nodes"]["s1"]
    assert "layout" not in _ok(new, {"t": "set_layout", "id": "s1"})["nodes"]["s1"]


def test_set_style_merges_per_breakpoint(page: Doc) -> None:
    new = _ok(page, {"t": "set_style", "id": "s1", "breakpoint": "base", "patch": {"color": "red"}})
    new = _ok(new, {"t": "set_style", "id": "s1", "breakpoint": "base", "patch": {"opacity": 0.5}})
    new = _ok(new, {"t": "set_style", "id": "s1", "breakpoint": "md", "patch": {"color": "blue"}})
    assert new["nodes"]["s1"]["style"] == {"base": {"color": "red", "opacity": 0.5}, "md": {"color": "blue"}}


def test_set_constraints_starts_from_hug(page: Doc) -> None:
    new = _ok(page, {"t": "set_constraints", "id": "s1", "breakpoint": "md", "patch": {"width": "fill"}})
    assert new["nodes"]["s1"]["constraints"] == {"base": {"width": "hug", "height": "hug"}, "md": {"width": "fill"}}
    new = _ok(new, {"t": "set_constraints", "id": "s1", "breakpoint": "base", "patch": {"top": None}})
    assert new["nodes"]["s1"]["constraints"]["base"] == {"width": "hug", "height": "hug", "top": None}


def test_animations(page: Doc) -> None:
    new = _ok(page, {"t": "set_animation", "id": "s1", "anim": {"id": "a", "v": 1}})
    new = _ok(new, {"t": "set_animation", "id": "s1", "anim": {"id": "b"}})
    new = _ok(new, {"t": "set_animation", "id": "s1", "anim": {"id": "a", "v": 2}})
    assert new["nodes"]["s1"]["animations"] == [{"id": "a", "v": 2}, {"id": "b"}]
    new = _ok(new, {"t": "remove_animation", "id": "s1", "animId": "a"})
    assert new["nodes"]["s1"]["animations"] == [{"id": "b"}]
    assert _ok(page, {"t": "remove_animation", "id": "s1", "animId": "a"})["nodes"]["s1"]["animations"] == []


def test_actions(page: Doc) -> None:
    a, b, c = {"on": "click"}, {"on": "load"}, {"on": "hover"}
    new = _ok(page, {"t": "set_action", "id": "s1", "index": 5, "action": a})
    new = _ok(new, {"t": "set_action", "id": "s1", "index": 1, "action": b})
    assert new["nodes"]["s1"]["actions"] == [a, b]
    new = _ok(new, {"t": "set_action", "id": "s1", "index": 0, "action": c})
    assert new["nodes"]["s1"]["actions"] == [c, b]
    assert _ok(new, {"t": "set_action", "id": "s1", "index": -1, "action": a})["nodes"]["s1"]["actions"] == [c, b]
    assert _ok(new, {"t": "set_action", "id": "s1", "index": 9, "action": None})["nodes"]["s1"]["actions"] == [c, b]
    new = _ok(new, {"t": "set_action", "id": "s1", "index": 0, "action": None})
    assert new["nodes"]["s1"]["actions"] == [b]


def test_meta_and_theme(page: Doc) -> None:
    new = _ok(page, {"t": "set_meta", "patch": {"title": "Home"}})
    assert new["meta"] == {"title": "Home", "slug": "/", "scrollMode": "smooth"}
    new = _ok(new, {"t": "set_theme", "patch": {"accent": "#f00"}})
    assert new["theme"] == {"name": "default", "accent": "#f00"}
    new = _ok(new, {"t": "restore_meta", "meta": {"title": "T"}})
    assert new["meta"] == {"title": "T"}
    assert _ok(new, {"t": "restore_theme", "theme": {}})["theme"] == {}


def test_reorder_roots_rewrites_keys(page: Doc) -> None:
    new = _ok(page, {"t": "reorder_roots", "order": ["s2", "s1"]})
    assert root_ids(new) == ["s2", "s1"]
    assert (new["nodes"]["s2"]["order"], new["nodes"]["s1"]["order"]) == ("V", "VV")
    assert new["nodes"]["t1"] is page["nodes"]["t1"]


def test_restore_node_replaces_wholesale_without_parent_check(page: Doc) -> None:
    node = {"id": "s1", "type": "text", "parent": "nowhere", "order": "x"}
    new = _ok(page, {"t": "restore_node", "node": node})
    assert new["nodes"]["s1"] == node
    assert root_ids(new) == ["s2"]
    assert _ok(page, {"t": "restore_node", "node": _node("fresh", "gone", "V")})["nodes"]["fresh"]["parent"] == "gone"


def test_unchanged_nodes_are_shared(page: Doc) -> None:
    new = _ok(page, {"t": "set_node_props", "id": "s1", "patch": {"k": 2}})
    assert new["nodes"]["s2"] is page["nodes"]["s2"]
    assert new["nodes"]["s1"] is not page["nodes"]["s1"]
    assert page["nodes"]["s1"]["props"] == {"k": 1}


# -- WorkingCopy --------------------------------------------------------------------


def test_working_copy_is_the_input_until_something_applies(page: Doc) -> None:
    wc = WorkingCopy(page)
    assert wc.apply({"t": "remove_node", "id": "nope"}) == "node not found"
    assert wc.doc is page


def test_working_copy_invalid_op_leaves_state(page: Doc) -> None:
    wc = WorkingCopy(page)
    assert wc.apply({"t": "set_meta", "patch": {"title": "A"}}) is None
    before = copy.deepcopy(wc.doc)
    assert wc.apply({"t": "move_node", "id": "s1", "parent": "t2", "order": "V"}) == "move would create a cycle"
    assert wc.apply_with_inverse({"t": "remove_node", "id": "zz"}) == ("node not found", [])
    assert wc.doc == before


def test_handed_out_doc_is_not_changed_by_later_ops(page: Doc) -> None:
    wc = WorkingCopy(page)
    wc.apply({"t": "set_node_props", "id": "s1", "patch": {"k": 2}})
    first = wc.doc
    snapshot = copy.deepcopy(first)
    wc.apply({"t": "set_node_props", "id": "s1", "patch": {"k": 3}})
    wc.apply({"t": "remove_node", "id": "s2"})
    assert first == snapshot
    assert wc.doc["nodes"]["s1"]["props"] == {"k": 3}
    assert wc.doc["seq"] == page["seq"] + 3


def test_working_copy_reads(page: Doc) -> None:
    wc = WorkingCopy(page)
    assert wc.root_ids() == ["s1", "s2"]
    assert wc.children("s1") == ["t1"]
    assert wc.descendants("s1") == ["t1", "t2"]
    assert wc.ancestors("t2") == ["t1", "s1"]
    assert wc.ancestors("orphan") == []
    assert wc.creates_cycle("s1", "t2") and not wc.creates_cycle("t2", "s2")
    assert wc.node("nope") is None
    wc.apply({"t": "move_node", "id": "t2", "parent": "s2", "order": "V"})
    wc.apply({"t": "insert_node", "node": _node("missing", "s2", "W")})
    assert wc.descendants("s2") == ["t2", "missing", "orphan"]
    wc.apply({"t": "remove_node", "id": "s2"})
    assert wc.root_ids() == ["s1"]
    assert sorted(wc.doc["nodes"]) == ["s1", "t1"]


# -- properties ---------------------------------------------------------------------


@given(st.data())
def test_reduce_never_mutates_and_reduce_all_equals_folding(data: st.DataObject) -> None:
    start = data.draw(pages(orphans=True, extras=True))
    snapshot = copy.deepcopy(start)
    doc = start
    ops: list[object] = []
    reasons: list[tuple[int, str]] = []
    for i in range(data.draw(st.integers(0, 15))):
        op = data.draw(ops_for(doc))
        op_snapshot = copy.deepcopy(op)
        before = copy.deepcopy(doc)
        new, reason = reduce(doc, op)
        assert doc == before
        assert op == op_snapshot
        if reason is None:
            assert new["seq"] == doc["seq"] + 1
        else:
            assert new is doc
            reasons.append((i, reason))
        ops.append(op)
        doc = new
    assert start == snapshot
    folded, skipped = reduce_all(start, ops)
    assert folded == doc
    assert skipped == reasons
    assert start == snapshot


@given(st.data())
def test_working_copy_never_mutates_ops_or_input(data: st.DataObject) -> None:
    start = data.draw(pages(orphans=True, extras=True))
    snapshot = copy.deepcopy(start)
    wc = WorkingCopy(start)
    doc = start
    ops: list[object] = []
    for _ in range(data.draw(st.integers(0, 20))):
        op = data.draw(ops_for(doc))
        ops.append(op)
        doc = reduce(doc, op)[0]
        wc.apply(op)
    ops_snapshot = copy.deepcopy(ops)
    # Touch every node again: a node that came from an op must be copied first.
    for id in list(doc["nodes"]):
        wc.apply({"t": "set_node_props", "id": id, "patch": {"touched": True}})
        wc.apply({"t": "move_node", "id": id, "parent": None, "order": "zz"})
    assert ops == ops_snapshot
    assert start == snapshot


@given(st.data())
def test_working_copy_reads_agree_with_tree_walks(data: st.DataObject) -> None:
    doc = data.draw(pages(orphans=True))
    wc = WorkingCopy(doc)
    for _ in range(data.draw(st.integers(0, 10))):
        wc.apply(data.draw(ops_for(doc, malformed=False)))
        doc = wc.doc
        for id in [None, *doc["nodes"]]:
            assert wc.children(id) == [n["id"] for n in children_of(doc, id)]
        for id in doc["nodes"]:
            assert wc.descendants(id) == descendants_of(doc, id)
