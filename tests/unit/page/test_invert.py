from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.unit.page.strategies import ops_for, pages

from charlotte.page.model import Doc, empty_doc
from charlotte.page.ops import WorkingCopy, invert, reduce, reduce_all


def _node(id: str, parent: str | None, order: str, **extra: Any) -> dict[str, Any]:
    return {"id": id, "type": "section", "parent": parent, "order": order, "props": {}, "style": {"base": {}}, **extra}


def _page(*nodes: dict[str, Any]) -> Doc:
    doc = empty_doc("p")
    doc["seq"] = 7
    for n in nodes:
        doc["nodes"][n["id"]] = n
    return doc


def _sans_seq(doc: Doc) -> Doc:
    return {k: v for k, v in doc.items() if k != "seq"}


def _undo(after: Doc, inverse: list[dict[str, Any]]) -> Doc:
    doc = after
    for back in inverse:
        doc, reason = reduce(doc, back)
        assert reason is None, (back, reason)
    return doc


def _assert_round_trip(before: Doc, op: dict[str, Any]) -> list[dict[str, Any]]:
    after, reason = reduce(before, op)
    assert reason is None
    inverse = invert(before, op)
    restored = _undo(after, inverse)
    assert _sans_seq(restored) == _sans_seq(before)
    assert restored["seq"] == before["seq"] + 1 + len(inverse)
    return inverse


@pytest.fixture
def page() -> Doc:
    return _page(
        _node("a", None, "a0", layout="stack", props={"x": 1}),
        _node("b", None, "a1"),
        _node("c", "a", "V", constraints={"base": {"width": "hug", "height": "fill"}}),
        _node("d", "c", "V", animations=[{"id": "x", "v": 1}, {"id": "y"}], actions=[{"on": "click"}, {"on": "load"}]),
        _node("o", "ghost", "V"),
        _node("e", "b", "V", layout=None),
    )


CASES: list[tuple[str, dict[str, Any]]] = [
    ("insert root", {"t": "insert_node", "node": _node("f", None, "a2")}),
    ("insert child", {"t": "insert_node", "node": _node("f", "d", "V")}),
    ("insert adopts an orphan", {"t": "insert_node", "node": _node("ghost", None, "a5")}),
    ("remove subtree", {"t": "remove_node", "id": "a"}),
    ("remove orphan", {"t": "remove_node", "id": "o"}),
    ("move root under b", {"t": "move_node", "id": "a", "parent": "b", "order": "V"}),
    ("move child to root", {"t": "move_node", "id": "c", "parent": None, "order": "Z"}),
    ("adopt orphan by move", {"t": "move_node", "id": "o", "parent": "b", "order": "V"}),
    ("props overwrite", {"t": "set_node_props", "id": "a", "patch": {"x": 2}}),
    ("props new key", {"t": "set_node_props", "id": "a", "patch": {"x": 2, "y": None}}),
    ("layout replace", {"t": "set_layout", "id": "a", "layout": "grid"}),
    ("layout remove", {"t": "set_layout", "id": "a"}),
    ("layout add", {"t": "set_layout", "id": "b", "layout": "free"}),
    ("layout None present", {"t": "set_layout", "id": "e", "layout": "free"}),
    ("style new breakpoint", {"t": "set_style", "id": "b", "breakpoint": "md", "patch": {"color": "red"}}),
    ("style new key", {"t": "set_style", "id": "b", "breakpoint": "base", "patch": {"color": "red"}}),
    ("constraints absent", {"t": "set_constraints", "id": "b", "breakpoint": "md", "patch": {"top": None}}),
    ("constraints overwrite", {"t": "set_constraints", "id": "c", "breakpoint": "base", "patch": {"width": "fill"}}),
    ("constraints new bp", {"t": "set_constraints", "id": "c", "breakpoint": "lg", "patch": {"width": "fill"}}),
    ("animation replace", {"t": "set_animation", "id": "d", "anim": {"id": "x", "v": 2}}),
    ("animation append", {"t": "set_animation", "id": "d", "anim": {"id": "z"}}),
    ("animation on none", {"t": "set_animation", "id": "b", "anim": {"id": "z"}}),
    ("animation remove", {"t": "remove_animation", "id": "d", "animId": "x"}),
    ("animation remove absent", {"t": "remove_animation", "id": "b", "animId": "x"}),
    ("action replace", {"t": "set_action", "id": "d", "index": 0, "action": {"on": "hover"}}),
    ("action append", {"t": "set_action", "id": "d", "index": 9, "action": {"on": "hover"}}),
    ("action delete first", {"t": "set_action", "id": "d", "index": 0, "action": None}),
    ("action delete last", {"t": "set_action", "id": "d", "index": 1, "action": None}),
    ("action negative", {"t": "set_action", "id": "d", "index": -1, "action": {"on": "hover"}}),
    ("action on none", {"t": "set_action", "id": "b", "index": 0, "action": {"on": "hover"}}),
    ("meta overwrite", {"t": "set_meta", "patch": {"title": "Home"}}),
    ("meta new key", {"t": "set_meta", "patch": {"seo": {"description": "d"}}}),
    ("theme new key", {"t": "set_theme", "patch": {"accent": "#f00"}}),
    ("reorder roots", {"t": "reorder_roots", "order": ["b", "a"]}),
    ("restore existing", {"t": "restore_node", "node": _node("a", "ghost", "Q")}),
    ("restore new adopts", {"t": "restore_node", "node": _node("ghost", "b", "Q")}),
    ("restore meta", {"t": "restore_meta", "meta": {"title": "x"}}),
    ("restore theme", {"t": "restore_theme", "theme": {}}),
]


@pytest.mark.parametrize(("name", "op"), CASES, ids=[c[0] for c in CASES])
def test_each_op_inverts_exactly(page: Doc, name: str, op: dict[str, Any]) -> None:
    _assert_round_trip(page, op)


def test_merge_that_added_a_key_is_undone_to_absence(page: Doc) -> None:
    op = {"t": "set_node_props", "id": "a", "patch": {"y": 1}}
    restored = _undo(reduce(page, op)[0], invert(page, op))
    assert "y" not in restored["nodes"]["a"]["props"]


def test_constraints_created_from_absent_are_removed_again(page: Doc) -> None:
    op = {"t": "set_constraints", "id": "b", "breakpoint": "base", "patch": {"width": "fill"}}
    restored = _undo(reduce(page, op)[0], invert(page, op))
    assert "constraints" not in restored["nodes"]["b"]


def test_root_move_is_undone_with_the_original_key_not_reorder(page: Doc) -> None:
    op = {"t": "move_node", "id": "a", "parent": "b", "order": "V"}
    inverse = _assert_round_trip(page, op)
    assert inverse == [{"t": "move_node", "id": "a", "parent": None, "order": "a0"}]


def test_reorder_is_undone_by_moving_roots_back_to_their_keys(page: Doc) -> None:
    inverse = _assert_round_trip(page, {"t": "reorder_roots", "order": ["b", "a"]})
    assert {"t": "reorder_roots"} not in [{"t": o["t"]} for o in inverse]
    assert sorted((o["id"], o["order"]) for o in inverse) == [("a", "a0"), ("b", "a1")]


def test_unchanged_root_keys_need_no_inverse() -> None:
    doc = _page(_node("a", None, "V"), _node("b", None, "VV"))
    assert invert(doc, {"t": "reorder_roots", "order": ["a", "b"]}) == []


def test_orphan_removal_is_undone_without_a_parent_check(page: Doc) -> None:
    inverse = _assert_round_trip(page, {"t": "remove_node", "id": "o"})
    assert inverse == [{"t": "restore_node", "node": page["nodes"]["o"]}]


def test_remove_restores_parent_first(page: Doc) -> None:
    inverse = invert(page, {"t": "remove_node", "id": "a"})
    assert [o["node"]["id"] for o in inverse] == ["a", "c", "d"]


def test_insert_that_adopts_orphans_puts_them_back(page: Doc) -> None:
    inverse = invert(page, {"t": "insert_node", "node": _node("ghost", None, "a5")})
    assert inverse == [{"t": "remove_node", "id": "ghost"}, {"t": "restore_node", "node": page["nodes"]["o"]}]


def test_narrow_inverses_where_exact(page: Doc) -> None:
    assert invert(page, {"t": "set_node_props", "id": "a", "patch": {"x": 5}}) == [
        {"t": "set_node_props", "id": "a", "patch": {"x": 1}}
    ]
    assert invert(page, {"t": "set_layout", "id": "b", "layout": "grid"}) == [
        {"t": "set_layout", "id": "b", "layout": None}
    ]
    assert invert(page, {"t": "set_animation", "id": "d", "anim": {"id": "q"}}) == [
        {"t": "remove_animation", "id": "d", "animId": "q"}
    ]
    assert invert(page, {"t": "set_meta", "patch": {"title": "T"}}) == [
        {"t": "set_meta", "patch": {"title": "Untitled"}}
    ]
    assert invert(page, {"t": "set_meta", "patch": {"new": 1}})[0]["t"] == "restore_meta"


def test_move_back_into_a_cycle_falls_back_to_restore() -> None:
    # x and y parent each other (a corrupt but loadable page); moving x out and
    # back under y would be refused as a cycle, so the inverse restores x.
    doc = _page(_node("x", "y", "V"), _node("y", "x", "V"))
    _assert_round_trip(doc, {"t": "move_node", "id": "x", "parent": None, "order": "V"})
    assert invert(doc, {"t": "move_node", "id": "x", "parent": None, "order": "V"})[0]["t"] == "restore_node"


def test_node_without_parent_key_is_restored_wholesale() -> None:
    doc = _page({"id": "r", "type": "section", "order": "V", "props": {}, "style": {"base": {}}})
    _assert_round_trip(doc, {"t": "reorder_roots", "order": ["r"]})
    _assert_round_trip(doc, {"t": "move_node", "id": "r", "parent": None, "order": "a"})


@pytest.mark.parametrize(
    "op",
    [
        {"t": "remove_node", "id": "zz"},
        {"t": "explode"},
        None,
        {"t": "move_node", "id": "a", "parent": "a", "order": "V"},
        {"t": "reorder_roots", "order": ["a"]},
    ],
)
def test_invalid_op_has_empty_inverse(page: Doc, op: object) -> None:
    assert invert(page, op) == []


def test_invert_does_not_mutate(page: Doc) -> None:
    snapshot = copy.deepcopy(page)
    for _, op in CASES:
        invert(page, op)
    assert page == snapshot


# -- properties over random pages and op sequences ---------------------------------


@given(st.data())
def test_every_op_inverts_exactly_via_reduce(data: st.DataObject) -> None:
    doc = data.draw(pages(orphans=True, extras=True))
    for _ in range(data.draw(st.integers(1, 12))):
        op = data.draw(ops_for(doc))
        after, reason = reduce(doc, op)
        inverse = invert(doc, op)
        if reason is not None:
            assert after is doc
            assert inverse == []
            continue
        restored, skipped = reduce_all(after, inverse)
        assert skipped == []
        assert _sans_seq(restored) == _sans_seq(doc)
        doc = after


@given(st.data())
def test_working_copy_inverses_undo_a_whole_batch(data: st.DataObject) -> None:
    start = data.draw(pages(orphans=True, extras=True))
    snapshot = copy.deepcopy(start)
    states = [start]
    ops: list[object] = []
    for _ in range(data.draw(st.integers(1, 15))):
        op = data.draw(ops_for(states[-1]))
        ops.append(op)
        states.append(reduce(states[-1], op)[0])
    state_snapshots = copy.deepcopy(states)

    wc = WorkingCopy(start)
    inverses: list[list[dict[str, Any]]] = []
    captured: list[list[dict[str, Any]]] = []
    for before, op in zip(states[:-1], ops, strict=True):
        reason, inverse = wc.apply_with_inverse(op)
        assert reason == reduce(before, op)[1]
        assert inverse == invert(before, op)
        inverses.append(inverse)
        captured.append(copy.deepcopy(inverse))
    # Later ops must not have changed what an earlier inverse holds.
    assert inverses == captured
    for inverse in reversed(inverses):
        for back in inverse:
            assert wc.apply(back) is None
    assert _sans_seq(wc.doc) == _sans_seq(start)
    assert start == snapshot
    assert states == state_snapshots
