from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from charlotte.errors import PageSessionError
from charlotte.page.integrity import check_doc, check_meta, check_theme, node_depths
from charlotte.page.model import empty_doc
from charlotte.page.node_types import NodeTypes
from charlotte.page.validate import (
    check_action,
    check_animation,
    check_constraints,
    check_id,
    check_node,
    check_props,
    check_style,
    is_length,
    is_number,
)

TYPES = NodeTypes.allowed()
BPS = ("base", "md", "lg")


def _code(fn: Any, *args: Any) -> tuple[str, Any]:
    with pytest.raises(PageSessionError) as info:
        fn(*args)
    return info.value.code, info.value.detail


def _node(**over: Any) -> dict[str, Any]:
    node: dict[str, Any] = {
        "id": "hero", "type": "heading", "parent": None, "order": "a0",
        "props": {"content": "Hi", "level": 1}, "style": {"base": {}},
    }
    node.update(over)
    return node


# -- numbers, lengths, ids ------------------------------------------------------------


@pytest.mark.parametrize("value", [0, -5, 100_000, -100_000, 0.5, 12.3456, 1.0, 24.0])
def test_numbers_in_range_with_four_decimals(value: float) -> None:
    assert is_number(value)


@pytest.mark.parametrize(
    "value",
    [True, False, None, "1", float("nan"), float("inf"), -float("inf"), 1e-7, 0.1 + 0.2,
     12.34567, 100_000.5, 100_001, -100_001, 10**30],
)
def test_numbers_refused(value: object) -> None:
    assert not is_number(value)


def test_length_shape() -> None:
    assert is_length({"value": 16, "unit": "px"})
    assert is_length({"value": -1.5, "unit": "fr"})
    assert not is_length({"value": 16, "unit": "em"})
    assert not is_length({"value": "16", "unit": "px"})
    assert not is_length({"value": True, "unit": "px"})
    assert not is_length({"value": 16, "unit": "px", "extra": 1})
    assert not is_length({"value": 16, "unit": ["px"]})  # unhashable unit must not crash
    assert not is_length("16px")


@pytest.mark.parametrize("value", ["a", "A1", "0", "hero-1_b", "x" * 64])
def test_valid_ids(value: str) -> None:
    assert check_id(value) == value


@pytest.mark.parametrize(
    "value", ["", "-a", "_a", "x" * 65, "a b", "héro", "a\n", "a.b", "a/b", None, 7, ["a"]]
)
def test_invalid_ids(value: object) -> None:
    assert _code(check_id, value)[0] == "invalid_id"


# -- props ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("type_name", "props", "detail"),
    [
        ("heading", {}, "props.content: required"),
        ("heading", {"content": "x", "level": 7}, "props.level: must be an integer 1..6"),
        ("heading", {"content": "x", "level": True}, "props.level: must be an integer 1..6"),
        ("heading", {"content": "x", "level": 2.0}, "props.level: must be an integer 1..6"),
        ("heading", {"content": "x" * 301}, "props.content: must be a string of 0..300 chars"),
        ("heading", {"content": None}, "props.content: must be a string of 0..300 chars"),
        ("heading", {"content": "a\x00b"}, "props.content: must be a string of 0..300 chars"),
        ("heading", {"content": "x", "type": "richtext"}, "props.type: unknown prop for heading"),
        ("image", {"asset": "a", "src": "http://x/y.png"}, "props.src: unknown prop for image"),
        ("image", {"asset": ""}, "props.asset: must be a string of 1..200 chars"),
        ("button", {"label": "Go", "variant": "outline"}, "props.variant: must be one of primary|secondary|ghost"),
        ("text", {"content": {"$bind": "a.b"}}, "props.content: must be a string of 0..5000 chars"),
        ("section", {"x": 1}, "props.x: unknown prop for section"),
        ("heading", [], "props: must be an object"),
    ],
)
def test_props_refused(type_name: str, props: object, detail: str) -> None:
    assert _code(check_props, type_name, props, TYPES) == ("invalid_props", detail)


def test_text_props_allow_newlines_and_tabs() -> None:
    check_props("text", {"content": "line 1\nline 2\r\n\tindented"}, TYPES)
    check_props("code", {"content": "x" * 10_000, "lang": "py"}, TYPES)


def test_unknown_keys_are_never_echoed_raw() -> None:
    code, detail = _code(check_props, "text", {"content": "x", "<script>" * 20: 1}, TYPES)
    assert code == "invalid_props"
    assert detail == "props.?: unknown prop for text"


# -- style and constraints ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("style", "detail"),
    [
        ({}, "style.base: required"),
        ({"base": {"padding": "10px"}}, "style.base.padding: must be a Length {value, unit}"),
        ({"base": {"padding": None}}, "style.base.padding: must be a Length {value, unit}"),
        ({"base": {"color": None}}, "style.base.color: must be a string of 1..200 chars"),
        ({"base": {"color": "x" * 201}}, "style.base.color: must be a string of 1..200 chars"),
        ({"base": {"color": ""}}, "style.base.color: must be a string of 1..200 chars"),
        ({"base": {"color": "red\nblue"}}, "style.base.color: must be a string of 1..200 chars"),
        ({"base": {"opacity": 2}}, "style.base.opacity: must be a number 0..1"),
        ({"base": {"opacity": True}}, "style.base.opacity: must be a number 0..1"),
        ({"base": {"columns": 2.5}}, "style.base.columns: must be an integer 1..24"),
        ({"base": {"textAlign": "middle"}}, "style.base.textAlign: must be one of left|center|right|justify"),
        ({"base": {"cursor": "pointer"}}, "style.base.cursor: unknown style key"),
        ({"base": {}, "xl": {}}, "style.xl: not one of the page's breakpoints"),
        ({"base": {}, "md": []}, "style.md: must be an object"),
        ({"base": {}, "md": {"fontSize": {"value": 1e-7, "unit": "rem"}}},
         "style.md.fontSize: must be a Length {value, unit}"),
        ([], "style: must be an object"),
    ],
)
def test_style_refused(style: object, detail: str) -> None:
    assert _code(check_style, style, BPS) == ("invalid_style", detail)


def test_style_accepts_every_key_shape() -> None:
    check_style(
        {
            "base": {
                "padding": {"value": 16, "unit": "px"}, "margin": {"value": -8, "unit": "rem"},
                "background": "#fff", "color": "red", "opacity": 0.5, "fontWeight": 700,
                "lineHeight": 1.5, "columns": 3, "textAlign": "center", "direction": "row",
                "align": "stretch", "justify": "between", "gap": {"value": 12.25, "unit": "%"},
                "border": "x" * 200,
            },
            "lg": {"fontSize": {"value": 100_000, "unit": "vw"}},
        },
        BPS,
    )


@pytest.mark.parametrize(
    ("constraints", "detail"),
    [
        ({"base": {"width": "hug"}}, "constraints.base.height: required"),
        ({"base": {"width": "auto", "height": "hug"}}, "constraints.base.width: must be a Length, fill or hug"),
        ({"base": {"width": "hug", "height": None}}, "constraints.base.height: must be a Length, fill or hug"),
        ({"base": {"width": "hug", "height": "hug", "centerX": 1}}, "constraints.base.centerX: must be a boolean"),
        ({"base": {"width": "hug", "height": "hug", "left": "0"}}, "constraints.base.left: must be a Length or null"),
        ({"base": {"width": "hug", "height": "hug", "z": 1}}, "constraints.base.z: unknown constraint"),
        ({"base": {"width": "hug", "height": "hug"}, "xl": {}}, "constraints.xl: not one of the page's breakpoints"),
    ],
)
def test_constraints_refused(constraints: object, detail: str) -> None:
    assert _code(check_constraints, constraints, BPS) == ("invalid_style", detail)


def test_constraints_allow_null_offsets_and_partial_overrides() -> None:
    check_constraints(
        {
            "base": {"width": {"value": 50, "unit": "%"}, "height": "fill", "left": None,
                     "top": {"value": 0, "unit": "px"}, "centerX": True},
            "md": {"width": "hug"},
        },
        BPS,
    )


# -- whole nodes ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("over", "expected"),
    [
        ({"type": "richtext", "props": {"html": "<p>x</p>"}}, ("type_not_allowed", "type: not in the catalogue")),
        ({"type": "shape"}, ("type_not_allowed", "type: not in the catalogue")),
        ({"type": None}, ("type_not_allowed", "type: not in the catalogue")),
        ({"id": "bad id"}, ("invalid_id", "id: must match ^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")),
        ({"parent": 3}, ("invalid_id", "parent: must match ^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")),
        ({"order": ""}, ("invalid_props", "order: must be an ordering key (0-9A-Za-z)")),
        ({"order": "a-0"}, ("invalid_props", "order: must be an ordering key (0-9A-Za-z)")),
        ({"layout": "flex"}, ("invalid_style", "layout: must be one of free|stack|grid")),
        ({"layout": None}, ("invalid_style", "layout: must be one of free|stack|grid")),
        ({"className": "x" * 501}, ("invalid_style", "className: must be a string of at most 500 chars")),
        ({"island": "yes"}, ("invalid_props", "island: must be a boolean")),
        ({"html": "<b>"}, ("invalid_props", "node.html: unknown field")),
        ({"repeat": {"each": {"$bind": "a..b"}, "as": "item"}}, ("invalid_props", "repeat.each.$bind: must be a dotted data path")),
        ({"animations": [{"id": "a", "driver": "enter", "keyframes": []}] * 2}, ("invalid_style", "animations[1].id: duplicate")),
        ({"animations": [{}] * 21}, ("invalid_style", "animations: must be a list of at most 20")),
        ({"actions": [{"on": "click", "do": {"kind": "eval", "code": "x"}}]}, ("invalid_props", "actions[0].do.kind: must be one of navigate|submitForm|mutate|callEndpoint|runFlow|openModal|openDrawer|playTimeline|toggleNode")),
    ],
)
def test_nodes_refused(over: dict[str, Any], expected: tuple[str, str]) -> None:
    assert _code(check_node, _node(**over), TYPES, BPS) == expected


@pytest.mark.parametrize(
    ("missing", "code"),
    [("id", "invalid_id"), ("type", "type_not_allowed"), ("parent", "invalid_id"),
     ("order", "invalid_props"), ("props", "invalid_props"), ("style", "invalid_style")],
)
def test_node_fields_are_required(missing: str, code: str) -> None:
    node = _node()
    del node[missing]
    assert _code(check_node, node, TYPES, BPS)[0] == code


def test_a_node_with_every_optional_field() -> None:
    check_node(
        _node(
            layout="stack",
            constraints={"base": {"width": "fill", "height": "hug"}},
            animations=[{
                "id": "fade", "driver": "scroll", "keyframes": [{"at": 0, "props": {"opacity": 0}},
                                                               {"at": 1, "props": {"opacity": 1, "transform": "none"}}],
                "range": {"start": 0, "end": 1}, "ease": "ease-out", "duration": 300, "delay": 0,
                "stagger": 50, "once": True, "emit": "css",
            }],
            actions=[
                {"on": "click", "do": {"kind": "navigate", "href": "/next"}},
                {"on": "submit", "do": {"kind": "submitForm", "endpoint": "/f", "method": "post"}},
                {"on": "change", "do": {"kind": "mutate", "target": "cart.count", "value": {"n": [1, "a", True]}}},
                {"on": "hover", "do": {"kind": "toggleNode", "node": "menu"}},
            ],
            repeat={"each": {"$bind": "products.items", "$source": ["catalog", "products", 3]}, "as": "item"},
            className="hero md:flex w-1/2",
            island=False,
        ),
        TYPES,
        BPS,
    )


def test_animation_and_action_details() -> None:
    assert _code(check_animation, {"id": "a", "driver": "spin", "keyframes": []})[1] == (
        "anim.driver: must be one of click|drag|enter|hover|loop|scroll"
    )
    assert _code(check_animation, {"id": "a", "driver": "loop", "keyframes": [{"at": 2, "props": {}}]})[1] == (
        "anim.keyframes[0].at: must be a number 0..1"
    )
    assert _code(check_action, {"on": "click", "do": {"kind": "openModal"}}) == (
        "invalid_props", "action.do.node: required"
    )
    assert _code(check_action, {"on": "click", "do": {"kind": "openModal", "node": "a b"}})[0] == "invalid_id"
    assert _code(check_action, {"on": "click", "do": {"kind": "mutate", "target": "x", "value": None}})[0] == (
        "invalid_props"
    )


# -- documents, meta, theme, tree ----------------------------------------------------------------


def test_meta_and_theme() -> None:
    check_meta({"title": "", "slug": "/", "scrollMode": "snap", "seo": {"og:title": "Hi"}})
    assert _code(check_meta, {"title": "T", "slug": "/", "scrollMode": "fast"})[1] == "meta.scrollMode: must be snap|smooth"
    assert _code(check_meta, {"title": "T", "slug": "", "scrollMode": "snap"})[1] == "meta.slug: must be a string of 1..500 chars"
    assert _code(check_meta, {"title": "T", "slug": "/", "scrollMode": "snap", "x": 1})[1] == "meta.x: unknown field"
    check_theme({"name": "default", "primary": "#123", "scale": [1, 2, 3], "fonts": {"body": "Inter"}})
    assert _code(check_theme, {"accent": None}) == (
        "invalid_style", "theme.accent: must be a string, bounded number, boolean, list or object"
    )
    check_theme({"deep": [[[["x"]]]]})
    assert _code(check_theme, {"deep": [[[[["x"]]]]]})[1] == "theme.deep[0][0][0][0][0]: too large or too deeply nested"
    assert _code(check_theme, {"big": list(range(501))})[0] == "invalid_style"
    assert _code(check_theme, {"name": ""})[1] == "theme.name: must be a string of 1..100 chars"


def test_node_depths_counts_from_roots_and_orphan_tops() -> None:
    nodes = {
        "a": {"parent": None}, "b": {"parent": "a"}, "c": {"parent": "b"},
        "o": {"parent": "missing"}, "p": {"parent": "o"},
    }
    assert node_depths(nodes) == {"a": 1, "b": 2, "c": 3, "o": 1, "p": 2}
    with pytest.raises(PageSessionError) as info:
        node_depths({"x": {"parent": "y"}, "y": {"parent": "x"}, "z": {"parent": None}})
    assert info.value.code == "cycle"


def test_check_doc_returns_breakpoints_and_wraps_codes_as_invalid_state() -> None:
    doc = empty_doc("p")
    assert check_doc(doc, TYPES) == BPS
    doc["nodes"]["h"] = _node(id="h", props={"content": 5})
    code, detail = _code(check_doc, doc, TYPES)
    assert code == "invalid_state"
    assert detail == "nodes.h: invalid_props: props.content: must be a string of 0..300 chars"


# -- no crash on arbitrary JSON ---------------------------------------------------------------------

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=12,
)
_FIELDS = ["id", "type", "parent", "order", "props", "style", "layout", "constraints",
           "animations", "actions", "repeat", "className", "island"]
# A valid node with one or two fields replaced by arbitrary JSON (or dropped), so
# that every field's check is reached, not just the first one.
_node_like = st.builds(
    lambda repl, drop: {**{k: v for k, v in _node().items() if k not in drop}, **repl},
    st.dictionaries(st.sampled_from(_FIELDS), _json, min_size=1, max_size=2),
    st.sets(st.sampled_from(_FIELDS[:6]), max_size=1),
)


@settings(deadline=None)
@given(_node_like)
def test_check_node_only_ever_raises_coded_errors(node: dict[str, Any]) -> None:
    before = copy.deepcopy(node)
    try:
        check_node(node, TYPES, BPS)
    except PageSessionError as e:
        assert isinstance(e.detail, str) and len(e.detail) <= 200
    assert node == before or node != node  # never mutated (NaN makes a value unequal to itself)
