from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from tests.unit.page.strategies import (
    BREAKPOINTS,
    POOL,
    ops_for,
    pages,
    props_patches,
    style_patches,
)

from charlotte.errors import CharlotteError, PageSessionError
from charlotte.page import op_table
from charlotte.page import ops as reducer
from charlotte.page.model import Doc, empty_doc
from charlotte.page.session import _REASONS, Applied, PageSession
from charlotte.page.validate import check_node

PROPS: dict[str, dict[str, Any]] = {
    "heading": {"content": "Hi"}, "text": {"content": "Body"}, "image": {"asset": "img-1"},
}


def _n(id: str, type: str = "section", parent: str | None = None, order: str = "V", **extra: Any) -> Doc:
    return {
        "id": id, "type": type, "parent": parent, "order": order,
        "props": dict(PROPS.get(type, {})), "style": {"base": {}}, **extra,
    }


def _page(*nodes: Doc, seq: int = 0) -> Doc:
    doc = empty_doc("home")
    doc["seq"] = seq
    for n in nodes:
        doc["nodes"][n["id"]] = n
    return doc


@pytest.fixture
def doc() -> Doc:
    return _page(
        _n("hero", order="a0"),
        _n("title", "heading", "hero", "a0"),
        _n("body", "text", "hero", "a1"),
        _n("footer", order="a1"),
        seq=4,
    )


def _error(session: PageSession, ops: list[Any], **kw: Any) -> PageSessionError:
    with pytest.raises(PageSessionError) as info:
        session.apply(ops, based_on=session.revision, actor=kw.pop("actor", "agent"), **kw)
    return info.value


def _chain(n: int, *, top_parent: str | None = None) -> list[Doc]:
    """``c1`` → ``c2`` → … → ``cn``, ``c1`` under ``top_parent``."""
    return [_n(f"c{i}", parent=top_parent if i == 1 else f"c{i - 1}") for i in range(1, n + 1)]


# -- the error type -----------------------------------------------------------------------------


def test_error_carries_code_index_detail_and_a_precise_repr() -> None:
    e = PageSessionError("invalid_props", at=3, detail="props.level: must be an integer 1..6")
    assert isinstance(e, CharlotteError)
    assert (e.code, e.at, e.detail) == ("invalid_props", 3, "props.level: must be an integer 1..6")
    assert repr(e) == "PageSessionError('invalid_props', at=3, detail='props.level: must be an integer 1..6')"
    assert str(e) == "invalid_props at op 3 (props.level: must be an integer 1..6)"
    stale = PageSessionError("stale_revision", detail={"revision": 7})
    assert repr(stale) == "PageSessionError('stale_revision', at=None, detail={'revision': 7})"
    back = pickle.loads(pickle.dumps(e))
    assert (back.code, back.at, back.detail) == (e.code, e.at, e.detail)
    with pytest.raises(ValueError):
        PageSessionError("oops")


def test_every_reducer_reason_has_a_code() -> None:
    reasons = [v for k, v in vars(op_table).items() if k.isupper() and isinstance(v, str) and k != "MALFORMED_OP"]
    assert reasons and all(r in _REASONS for r in reasons)


# -- loading ----------------------------------------------------------------------------------------


def test_load_exposes_doc_and_revision(doc: Doc) -> None:
    session = PageSession(doc)
    assert session.revision == 4
    assert session.doc is doc


@pytest.mark.parametrize(
    "bad",
    [
        None, [], "page", 7, {}, {"nodes": []}, {"nodes": {}},
        {**empty_doc("p"), "seq": -1}, {**empty_doc("p"), "seq": True}, {**empty_doc("p"), "extra": 1},
        {**empty_doc("p"), "breakpoints": ["md", "base"]}, {**empty_doc("p"), "breakpoints": []},
        {**empty_doc("p"), "meta": {"title": "T"}}, {**empty_doc("p"), "theme": {"x": None}},
        {**empty_doc("p"), "id": ""},
        _page(_n("a", "richtext")), _page(_n("a", "heading", props={})),
        _page(_n("a", style={"base": {"padding": "9px"}})), {**_page(), "nodes": {"a": _n("b")}},
        _page(_n("a", parent="b"), _n("b", parent="a")),
        _page(_n("a", parent="a")),
        _page(*_chain(13)),
        _page(*[_n(f"n{i}") for i in range(2_001)]),
        {**_page(_n("a")), "nodes": {"a": "not a node"}},
    ],
)
def test_malformed_documents_are_invalid_state(bad: object) -> None:
    with pytest.raises(PageSessionError) as info:
        PageSession(bad)
    assert info.value.code == "invalid_state"
    assert info.value.at is None


def test_limits_hold_exactly_at_the_bound() -> None:
    PageSession(_page(*_chain(12)))
    PageSession(_page(*[_n(f"n{i}") for i in range(2_000)]))


def test_orphans_load() -> None:
    PageSession(_page(_n("o", parent="gone"), _n("p", parent="o")))


def test_legacy_documents_are_migrated_on_load() -> None:
    legacy = {**_page(_n("a", order="a0"), _n("b", order="a1")), "sections": ["b", "a"]}
    session = PageSession(legacy)
    assert "sections" not in session.doc
    assert (session.doc["nodes"]["b"]["order"], session.doc["nodes"]["a"]["order"]) == ("V", "VV")


# -- one test per code --------------------------------------------------------------------------------

CASES: list[tuple[str, Any, str]] = [
    ("node_not_found", {"t": "remove_node", "id": "ghost"}, "id: not found"),
    ("node_not_found", {"t": "set_style", "id": "ghost", "breakpoint": "base", "patch": {}}, "id: not found"),
    ("duplicate_id", {"t": "insert_node", "node": _n("hero")}, "node.id: already exists"),
    ("parent_not_found", {"t": "insert_node", "node": _n("x", parent="ghost")}, "node.parent: not found"),
    ("parent_not_found", {"t": "move_node", "id": "title", "parent": "ghost", "order": "V"}, "parent: not found"),
    ("duplicate_id", {"t": "restore_node", "node": _n("body", "text", "footer")}, "node.id: another node has that id now"),
    ("parent_not_found", {"t": "restore_node", "node": _n("gone", "text", "ghost")}, "node.parent: not found"),
    ("not_a_container", {"t": "insert_node", "node": _n("x", "text", "body")}, "parent: a text holds no other nodes"),
    ("not_a_container", {"t": "move_node", "id": "body", "parent": "title", "order": "V"}, "parent: a heading holds no other nodes"),
    ("not_a_container", {"t": "restore_node", "node": _n("x", "text", "title")}, "parent: a heading holds no other nodes"),
    ("cycle", {"t": "move_node", "id": "hero", "parent": "title", "order": "V"}, "parent: a descendant of the node"),
    ("cycle", {"t": "move_node", "id": "hero", "parent": "hero", "order": "V"}, "parent: the node itself"),
    ("invalid_reorder", {"t": "reorder_roots", "order": ["hero"]}, "order: not a permutation of the current roots"),
    ("invalid_reorder", {"t": "reorder_roots", "order": ["hero", "footer", "hero"]}, "order: not a permutation of the current roots"),
    ("invalid_reorder", {"t": "reorder_roots", "order": ["hero", ["footer"]]}, "order: must be a list of node ids"),
    ("unknown_op", {"t": "explode"}, "t: unknown op type"),
    ("unknown_op", {"t": 5}, "t: unknown op type"),
    ("unknown_op", "remove_node", "op: must be an object"),
    ("type_not_allowed", {"t": "insert_node", "node": _n("x", "richtext")}, "type: not in the catalogue"),
    ("type_not_allowed", {"t": "insert_node", "node": _n("x", "shape")}, "type: not in the catalogue"),
    ("invalid_props", {"t": "insert_node", "node": _n("x", "heading", props={})}, "props.content: required"),
    ("invalid_props", {"t": "set_node_props", "id": "title", "patch": {"level": 9}}, "props.level: must be an integer 1..6"),
    ("invalid_props", {"t": "set_node_props", "id": "title", "patch": {"content": None}}, "props.content: must be a string of 0..300 chars"),
    ("invalid_props", {"t": "set_node_props", "id": "title", "patch": []}, "patch: must be an object"),
    ("invalid_props", {"t": "set_meta", "patch": {"title": 5}}, "meta.title: must be a string of at most 300 chars"),
    ("invalid_props", {"t": "remove_node", "id": "body", "force": True}, "force: unknown field"),
    ("invalid_props", {"t": "set_action", "id": "body", "index": -1, "action": None}, "index: must be an integer 0..1000"),
    ("invalid_props", {"t": "move_node", "id": "body", "parent": None, "order": "a b"}, "order: must be an ordering key (0-9A-Za-z)"),
    ("invalid_props", {"t": "restore_meta", "meta": {"title": "T"}}, "meta.slug: must be a string of 1..500 chars"),
    ("invalid_style", {"t": "set_style", "id": "body", "breakpoint": "base", "patch": {"padding": 8}}, "style.base.padding: must be a Length {value, unit}"),
    ("invalid_style", {"t": "set_style", "id": "body", "breakpoint": "base", "patch": {"color": None}}, "style.base.color: must be a string of 1..200 chars"),
    ("invalid_style", {"t": "set_style", "id": "body", "breakpoint": "xl", "patch": {}}, "breakpoint: not one of the page's breakpoints"),
    ("invalid_style", {"t": "set_style", "id": "body", "breakpoint": "base", "patch": {"color": "x" * 201}}, "style.base.color: must be a string of 1..200 chars"),
    ("invalid_style", {"t": "set_layout", "id": "hero", "layout": "flex"}, "layout: must be one of free|stack|grid"),
    ("invalid_style", {"t": "set_constraints", "id": "body", "breakpoint": "md", "patch": {"width": "auto"}}, "constraints.md.width: must be a Length, fill or hug"),
    ("invalid_style", {"t": "set_theme", "patch": {"accent": None}}, "theme.accent: must be a string, bounded number, boolean, list or object"),
    ("invalid_style", {"t": "set_animation", "id": "body", "anim": {"id": "a", "driver": "spin", "keyframes": []}}, "anim.driver: must be one of click|drag|enter|hover|loop|scroll"),
    ("invalid_style", {"t": "set_style", "id": "body", "breakpoint": "base"}, "patch: required"),
    ("invalid_id", {"t": "insert_node", "node": _n("bad id")}, "id: must match ^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"),
    ("invalid_id", {"t": "remove_node", "id": 5}, "id: must match ^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"),
    ("invalid_id", {"t": "remove_node"}, "id: required"),
    ("invalid_id", {"t": "move_node", "id": "body", "parent": "a b", "order": "V"}, "parent: must match ^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"),
    ("invalid_id", {"t": "remove_animation", "id": "body", "animId": "a b"}, "animId: must match ^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"),
]


@pytest.mark.parametrize(("code", "op", "detail"), CASES)
def test_each_code(doc: Doc, code: str, op: Any, detail: str) -> None:
    session = PageSession(doc)
    ok = {"t": "set_meta", "patch": {"title": "x"}}
    e = _error(session, [ok, op])
    assert (e.code, e.at, e.detail) == (code, 1, detail)


def test_every_caller_code_is_covered() -> None:
    tested = {code for code, _, _ in CASES} | {
        "stale_revision", "history_truncated", "limit_exceeded", "invalid_state"
    }
    assert tested == PageSessionError.CODES


# -- atomicity -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("k", [0, 1, 3])
def test_a_bad_op_at_k_changes_nothing(doc: Doc, k: int) -> None:
    session = PageSession(doc)
    first = session.apply([{"t": "set_meta", "patch": {"title": "One"}}], based_on=4, actor="alice")
    before, snapshot = session.doc, copy.deepcopy(session.doc)
    good = [
        {"t": "insert_node", "node": _n("cta", "text", "hero", "b0")},
        {"t": "set_style", "id": "cta", "breakpoint": "md", "patch": {"color": "red"}},
        {"t": "remove_node", "id": "footer"},
        {"t": "set_theme", "patch": {"accent": "#f00"}},
    ]
    batch = [*good[:k], {"t": "set_style", "id": "body", "breakpoint": "base", "patch": {"opacity": 3}}, *good[k:]]
    e = _error(session, batch)
    assert e.at == k
    assert session.doc is before and session.doc == snapshot
    assert session.revision == first.revision == 5


def test_stale_revision(doc: Doc) -> None:
    session = PageSession(doc)
    for based_on in (3, 5, True, "4"):
        with pytest.raises(PageSessionError) as info:
            session.apply([{"t": "remove_node", "id": "footer"}], based_on=based_on, actor="agent")  # type: ignore[arg-type]
        assert (info.value.code, info.value.detail) == ("stale_revision", {"revision": 4})
    assert "footer" in session.doc["nodes"]


def test_success_advances_revision_and_returns_completed_ops_and_inverse(doc: Doc) -> None:
    session = PageSession(doc)
    batch = [
        {"t": "insert_node", "node": _n("cta", "text", "hero", "b0")},
        {"t": "set_node_props", "id": "title", "patch": {"content": "Welcome", "level": 1}},
        {"t": "remove_node", "id": "footer"},
    ]
    applied = session.apply(batch, based_on=4, actor="agent")
    assert isinstance(applied, Applied)
    assert applied.revision == session.revision == 7
    assert applied.ops == batch
    assert session.doc["nodes"]["title"]["props"] == {"content": "Welcome", "level": 1}
    undo = session.apply(applied.inverse, based_on=7, actor="alice")
    assert {k: v for k, v in session.doc.items() if k != "seq"} == {k: v for k, v in doc.items() if k != "seq"}
    assert undo.revision == 7 + len(applied.inverse)


def test_the_callers_ops_and_doc_are_never_aliased(doc: Doc) -> None:
    snapshot = copy.deepcopy(doc)
    session = PageSession(doc)
    op: dict[str, Any] = {"t": "insert_node", "node": _n("cta", "text", "hero", "b0")}
    session.apply([op], based_on=4, actor="agent")
    op["node"]["props"]["content"] = "changed later"
    assert session.doc["nodes"]["cta"]["props"]["content"] == "Body"
    assert doc == snapshot


def test_an_empty_batch_changes_nothing(doc: Doc) -> None:
    session = PageSession(doc)
    assert session.apply([], based_on=4, actor="agent") == Applied(4, [], [])


def test_ops_must_be_a_list(doc: Doc) -> None:
    e = _error(PageSession(doc), {"t": "remove_node", "id": "footer"})  # type: ignore[arg-type]
    assert (e.code, e.at) == ("unknown_op", None)


# -- richtext, for every actor and every route ---------------------------------------------------------


@pytest.mark.parametrize("actor", ["agent", "user-42"])
def test_richtext_is_refused_for_every_actor(doc: Doc, actor: str) -> None:
    session = PageSession(doc)
    richtext = _n("rt", "richtext", "hero", props={"html": "<p>x</p>"})
    assert _error(session, [{"t": "insert_node", "node": richtext}], actor=actor).code == "type_not_allowed"
    assert _error(session, [{"t": "restore_node", "node": richtext}], actor=actor).code == "type_not_allowed"
    assert _error(session, [{"t": "restore_node", "node": {**doc["nodes"]["body"], "type": "richtext"}}],
                  actor=actor).code == "type_not_allowed"
    e = _error(session, [{"t": "set_node_props", "id": "body", "patch": {"type": "richtext"}}], actor=actor)
    assert (e.code, e.detail) == ("invalid_props", "props.type: unknown prop for text")
    assert session.doc["nodes"]["body"]["type"] == "text"
    assert session.revision == 4


# -- limits --------------------------------------------------------------------------------------------


def test_node_limit() -> None:
    session = PageSession(_page(*[_n(f"n{i}") for i in range(1_999)]))
    e = _error(session, [{"t": "insert_node", "node": _n("x1")}, {"t": "insert_node", "node": _n("x2")}])
    assert (e.code, e.at, e.detail) == ("limit_exceeded", 1, "nodes: more than 2000")
    e = _error(session, [{"t": "insert_node", "node": _n("x1")}, {"t": "restore_node", "node": _n("x2")}])
    assert (e.code, e.at) == ("limit_exceeded", 1)
    session.apply(
        [{"t": "insert_node", "node": _n("x1")}, {"t": "remove_node", "id": "n0"},
         {"t": "restore_node", "node": _n("x1", order="W")}, {"t": "insert_node", "node": _n("x2")}],
        based_on=0, actor="agent",
    )
    assert len(session.doc["nodes"]) == 2_000


def test_depth_limit_on_insert_and_move() -> None:
    session = PageSession(_page(*_chain(12), _n("other", order="W"), _n("kid", parent="other")))
    e = _error(session, [{"t": "insert_node", "node": _n("deep", "text", "c12")}])
    assert (e.code, e.detail) == ("limit_exceeded", "depth: more than 12")
    # c2's subtree is 11 deep; under "kid" (depth 2) it would reach 13.
    e = _error(session, [{"t": "move_node", "id": "c2", "parent": "kid", "order": "V"}])
    assert (e.code, e.detail) == ("limit_exceeded", "depth: more than 12")
    session.apply([{"t": "move_node", "id": "c2", "parent": "other", "order": "V"}], based_on=0, actor="agent")


def test_depth_limit_when_a_new_node_adopts_orphans() -> None:
    session = PageSession(_page(*_chain(12, top_parent="top")))  # an orphan chain, 12 deep
    e = _error(session, [{"t": "insert_node", "node": _n("top")}])
    assert (e.code, e.detail) == ("limit_exceeded", "depth: more than 12")
    e = _error(session, [{"t": "restore_node", "node": _n("top")}])
    assert e.code == "limit_exceeded"


def test_cycle_when_a_new_node_adopts_its_own_ancestor() -> None:
    session = PageSession(_page(_n("o1", parent="x"), _n("o2", parent="o1")))
    for t in ("insert_node", "restore_node"):
        e = _error(session, [{"t": t, "node": _n("x", parent="o2")}])
        assert (e.code, e.detail) == ("cycle", "parent: the node would be its own ancestor")
    # A restore replaces a node only in place: moving o1 under o2 is refused before any cycle.
    e = _error(session, [{"t": "restore_node", "node": _n("o1", parent="o2")}])
    assert e.code == "duplicate_id"


def test_ops_limit(doc: Doc) -> None:
    session = PageSession(doc)
    many = [{"t": "set_meta", "patch": {"title": str(i)}} for i in range(201)]
    e = _error(session, many)
    assert (e.code, e.at, e.detail) == ("limit_exceeded", None, "ops: more than 200")
    assert session.apply(many[:200], based_on=4, actor="agent").revision == 204


# -- fill_defaults --------------------------------------------------------------------------------------


def test_fill_defaults_appends_in_sequence(doc: Doc) -> None:
    session = PageSession(doc)
    bare = [
        {"t": "insert_node", "node": {"id": f"p{i}", "type": "text", "parent": "hero", "props": {"content": "x"}}}
        for i in range(3)
    ]
    applied = session.apply(bare, based_on=4, actor="agent", fill_defaults=True)
    assert [op["node"]["order"] for op in applied.ops] == ["a1V", "a1VV", "a1VVV"]
    assert applied.ops[0]["node"]["style"] == {"base": {}}
    kids = sorted((n["order"], n["id"]) for n in session.doc["nodes"].values() if n["parent"] == "hero")
    assert [id for _, id in kids] == ["title", "body", "p0", "p1", "p2"]


def test_fill_defaults_inside_a_parent_made_in_the_same_batch(doc: Doc) -> None:
    session = PageSession(doc)
    applied = session.apply(
        [
            {"t": "insert_node", "node": {"id": "s", "type": "section", "parent": None}},
            {"t": "insert_node", "node": {"id": "t", "type": "divider", "parent": "s"}},
            {"t": "insert_node", "node": {"id": "u", "type": "divider", "parent": "s", "order": "A"}},
            {"t": "insert_node", "node": {"id": "v", "type": "divider", "parent": "s"}},
        ],
        based_on=4, actor="agent", fill_defaults=True,
    )
    assert [op["node"]["order"] for op in applied.ops] == ["a1V", "V", "A", "VV"]
    assert applied.ops[1]["node"]["props"] == {}


def test_without_fill_defaults_order_props_and_style_are_required(doc: Doc) -> None:
    session = PageSession(doc)
    e = _error(session, [{"t": "insert_node", "node": {"id": "t", "type": "divider", "parent": None}}])
    assert (e.code, e.detail) == ("invalid_props", "order: must be an ordering key (0-9A-Za-z)")


# -- properties -----------------------------------------------------------------------------------------------


def _dedupe_animations(doc: Doc) -> Doc:
    # Animation ids are unique within a node (set_animation replaces by id).
    for node in doc["nodes"].values():
        if "animations" in node:
            node["animations"] = list({a["id"]: a for a in reversed(node["animations"])}.values())[::-1]
    return doc


_docs = pages(orphans=True, extras=True).map(_dedupe_animations)
_spicy = st.sampled_from([
    {"t": "insert_node", "node": _n("n1", "richtext")},
    {"t": "restore_node", "node": {**_n("n2", "text"), "props": {"content": "x" * 5_001}}},
    {"t": "set_node_props", "id": "n0", "patch": {"content": None}},
    {"t": "set_style", "id": "n1", "breakpoint": "base", "patch": {"opacity": 0.1 + 0.2}},
    {"t": "set_style", "id": "n2", "breakpoint": "md", "patch": {"padding": {"value": 1, "unit": "em"}}},
    {"t": "set_constraints", "id": "n3", "breakpoint": "base", "patch": {"width": None}},
    {"t": "set_layout", "id": "n4", "layout": None},
    {"t": "set_meta", "patch": {"scrollMode": "fast"}},
    {"t": "set_theme", "patch": {"name": "x" * 101}},
    {"t": "restore_node", "node": _n("n5", parent="n6")},
    {"t": "restore_node", "node": _n("n6", parent="n5")},
])


def _ops(doc: Doc) -> st.SearchStrategy[list[Any]]:
    return st.lists(ops_for(doc) | _spicy, min_size=1, max_size=4)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_applies_never_leave_an_invalid_document(data: st.DataObject) -> None:
    session = PageSession(data.draw(_docs))
    for _ in range(4):
        before, snapshot, revision = session.doc, copy.deepcopy(session.doc), session.revision
        ops = data.draw(_ops(session.doc))
        try:
            session.apply(ops, based_on=revision, actor="agent", fill_defaults=data.draw(st.booleans()))
        except PageSessionError as e:
            assert e.code != "invalid_state" and e.at is not None
            assert session.doc is before and session.doc == snapshot and session.revision == revision
        PageSession(session.doc)  # re-validates the whole document


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_applying_the_inverse_restores_the_document(data: st.DataObject) -> None:
    session = PageSession(data.draw(_docs))
    original = copy.deepcopy(session.doc)
    # Draw each op against the state the previous ones lead to, so that batches
    # chain (insert then style then move the same node) and mostly apply.
    batch: list[Any] = []
    state = session.doc
    for _ in range(data.draw(st.integers(1, 6))):
        op = data.draw(ops_for(state, malformed=False))
        state, reason = reducer.reduce(state, op)
        if reason is None:
            batch.append(op)
    try:
        applied = session.apply(batch, based_on=session.revision, actor="agent")
    except PageSessionError:
        return
    try:
        session.apply(applied.inverse, based_on=applied.revision, actor="agent")
    except PageSessionError as e:
        # Only an orphan's way back is refused: restore_node never writes an orphan
        # nor moves a node (page.inverse), and only a page that had orphans needs that.
        orphans = [n for n in original["nodes"].values() if n["parent"] not in (None, *original["nodes"])]
        assert orphans and e.code in ("parent_not_found", "duplicate_id")
        assert applied.inverse[e.at or 0]["t"] == "restore_node"
        return
    assert {k: v for k, v in session.doc.items() if k != "seq"} == {k: v for k, v in original.items() if k != "seq"}


def test_the_inverse_of_a_dependent_batch(doc: Doc) -> None:
    session = PageSession(doc)
    original = copy.deepcopy(doc)
    applied = session.apply(
        [
            {"t": "insert_node", "node": _n("cta", "text", "hero", "b0")},
            {"t": "set_style", "id": "cta", "breakpoint": "md", "patch": {"color": "red"}},
            {"t": "move_node", "id": "cta", "parent": "footer", "order": "V"},
            {"t": "set_layout", "id": "footer", "layout": "stack"},
            {"t": "remove_node", "id": "hero"},
            {"t": "reorder_roots", "order": ["footer"]},
        ],
        based_on=4, actor="agent",
    )
    session.apply(applied.inverse, based_on=applied.revision, actor="alice")
    assert {k: v for k, v in session.doc.items() if k != "seq"} == {k: v for k, v in original.items() if k != "seq"}


def test_strategy_pool_is_small_enough_to_hit_collisions() -> None:
    # The property tests rely on ids colliding (duplicates, adoption, cycles).
    assert len(POOL) <= 12


def test_absurdly_nested_ops_are_refused_without_recursing(doc: Doc) -> None:
    value: Any = "x"
    for _ in range(10_000):
        value = [value]
    e = _error(PageSession(doc), [{"t": "set_theme", "patch": {"deep": value}}])
    assert (e.code, e.at, e.detail) == ("invalid_props", 0, "op: nested too deeply")


def _nested(depth: int, leaf: Any, kind: str) -> Any:
    value = leaf
    for level in range(depth):
        value = [value] if (kind == "list" or (kind == "mixed" and level % 2)) else {"k": value}
    return value


@pytest.mark.parametrize("kind", ["list", "dict", "mixed"])
@pytest.mark.parametrize("leaf", ["x", None, [], {}, [1], {"k": 1}])
@pytest.mark.parametrize("depth", range(28, 35))
@pytest.mark.parametrize("owned", [False, True])
def test_an_op_is_refused_exactly_when_a_value_sits_deeper_than_32_levels(
    doc: Doc, kind: str, leaf: Any, depth: int, owned: bool
) -> None:
    # The op is level 0, its patch level 1; the leaf sits `depth` levels under "deep".
    op = {"t": "set_theme", "patch": {"deep": _nested(depth, leaf, kind)}}
    leaf_depth = 2 + depth + (1 if leaf in ([1], {"k": 1}) else 0)
    session = PageSession(doc)
    if leaf_depth > 32:
        e = _error(session, [op], owned=owned)
        assert (e.code, e.at, e.detail) == ("invalid_props", 0, "op: nested too deeply")
    else:
        # Deep but not too deep: the copy passes (the theme check may still refuse the value).
        try:
            session.apply([op], based_on=session.revision, actor="agent", owned=owned)
        except PageSessionError as e:
            assert e.detail != "op: nested too deeply"


def test_owned_ops_are_applied_as_they_are_and_keep_the_nesting_bound(doc: Doc) -> None:
    node = {"id": "fresh", "type": "section", "parent": None, "order": "a0", "props": {}, "style": {"base": {}}}
    ops = [{"t": "insert_node", "node": node}, {"t": "set_style", "id": "fresh", "breakpoint": "base", "patch": {"color": "#222"}}]
    session = PageSession(doc)
    before = copy.deepcopy(ops)
    applied = session.apply(ops, based_on=session.revision, actor="agent", owned=True)
    assert applied.ops[0] is ops[0] and ops == before  # kept, never changed
    assert session.doc["nodes"]["fresh"]["style"]["base"] == {"color": "#222"}
    assert node["style"] == {"base": {}}  # the later op copied the node before changing it
    copied = PageSession(doc).apply(before, based_on=doc["seq"], actor="agent")
    assert copied.ops == applied.ops and copied.ops[0] is not before[0]
    deep: Any = "x"
    for _ in range(40):
        deep = [deep]
    e = _error(PageSession(doc), [{"t": "set_theme", "patch": {"deep": deep}}], owned=True)
    assert (e.code, e.at, e.detail) == ("invalid_props", 0, "op: nested too deeply")


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_props_or_style_change_is_refused_as_checking_the_whole_node_would(
    data: st.DataObject,
) -> None:
    # set_node_props and set_style re-check only what they change; the answer is the same.
    doc = data.draw(_docs.filter(lambda d: d["nodes"]))
    session = PageSession(doc)
    node_id = data.draw(st.sampled_from(sorted(doc["nodes"])))
    if data.draw(st.booleans()):
        op = {"t": "set_node_props", "id": node_id, "patch": data.draw(props_patches)}
    else:
        patch = data.draw(style_patches)
        op = {"t": "set_style", "id": node_id, "breakpoint": data.draw(st.sampled_from(BREAKPOINTS)), "patch": patch}
    merged, reason = reducer.reduce(doc, op)
    assert reason is None
    try:
        session.apply([op], based_on=session.revision, actor="agent")
        refused = None
    except PageSessionError as e:
        refused = (e.code, e.detail)
    try:
        check_node(merged["nodes"][node_id], session.node_types, frozenset(doc["breakpoints"]))
        expected = None
    except PageSessionError as e:
        expected = (e.code, e.detail)
    event("refused" if expected else "applied")
    assert refused == expected
