"""Argument validation: precise paths, short expected/got words, JSON text, per-op dispatch."""

from __future__ import annotations

import doctest
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.unit.page.strategies import ops_for, pages

import charlotte.tools.arguments
from charlotte.errors import InvalidArguments, PageSessionError
from charlotte.page.node_types import NodeTypes
from charlotte.page.session import PageSession
from charlotte.tools import TOOL_NAMES, ArgumentParser
from charlotte.tools.arguments import decode, type_name

PARSER = ArgumentParser(NodeTypes.allowed())


def problem(tool: str, arguments: object) -> tuple[str, str, str]:
    with pytest.raises(InvalidArguments) as caught:
        PARSER.parse(tool, arguments)
    return caught.value.path, caught.value.expected, caught.value.got


def section(id: str) -> dict[str, Any]:
    return {"t": "insert_node", "node": {"id": id, "type": "section", "parent": None}}


def apply(*ops: object, based_on: object = 0) -> dict[str, Any]:
    return {"basedOn": based_on, "ops": list(ops)}


# -- decoding ------------------------------------------------------------------------


@pytest.mark.parametrize(("raw", "expected"), [(None, {}), ("", {}), ("  ", {}), ("{}", {}), ({"a": 1}, {"a": 1})])
def test_nothing_and_json_text_decode_to_a_dict(raw: object, expected: dict[str, Any]) -> None:
    assert decode(raw) == expected


@pytest.mark.parametrize(
    ("raw", "got"),
    [
        ("[1, 2]", "array"),
        ("3", "integer"),
        ('"text"', "string"),
        ([], "array"),
        (7.5, "number"),
        (True, "boolean"),
        ("{nope", "text that is not JSON"),
        ('{"depth": NaN}', "text that is not JSON"),
        ("[" * 100_000, "text that is not JSON"),
    ],
)
def test_arguments_that_are_not_an_object_leave_only_the_bare_path(raw: object, got: str) -> None:
    path, _expected, reported = problem("cms_get", raw)
    assert (path, reported) == ("$.arguments", got)


def test_json_text_is_validated_like_a_dict() -> None:
    assert PARSER.parse("cms_get", '{"node": "hero", "depth": 2}') == {"node": "hero", "depth": 2}
    assert problem("cms_get", '{"depth": 13}') == ("$.arguments.depth", "integer 1..12", "13")


# -- named fields ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tool", "arguments", "expected"),
    [
        ("cms_get", {"depth": 0}, ("$.arguments.depth", "integer 1..12", "0")),
        ("cms_get", {"depth": 2.0}, ("$.arguments.depth", "integer 1..12", "number")),
        ("cms_get", {"depth": True}, ("$.arguments.depth", "integer 1..12", "boolean")),
        ("cms_get", {"node": "-bad"}, ("$.arguments.node", "node id", "string in another format")),
        ("cms_find", {"text": "x" * 201}, ("$.arguments.text", "string of 1..200 chars", "string of 201 chars")),
        ("cms_find", {"limit": 51}, ("$.arguments.limit", "integer 1..50", "51")),
        ("cms_changes_since", {}, ("$.arguments.revision", "integer 0..9007199254740991", "missing")),
        ("cms_changes_since", {"revision": -1}, ("$.arguments.revision", "integer 0..9007199254740991", "-1")),
        ("cms_check", {"checks": []}, ("$.arguments.checks", "array of 1..5 items", "array of 0 items")),
        ("cms_check", {"checks": ["copy", "copy"]}, ("$.arguments.checks", "items that are all different", "duplicate items")),
        ("cms_check", {"checks": ["spelling"]}, ("$.arguments.checks[0]", "one of facts|copy|links|assets|quality", "string not in the list")),
        ("cms_ready", {"summary": ""}, ("$.arguments.summary", "text of 1..500 chars, not blank", "string of 0 chars")),
        ("cms_ready", {"summary": " \n "}, ("$.arguments.summary", "text of 1..500 chars, not blank", "string in another format")),
        ("cms_outline", {"x": 1}, ("$.arguments.x", "no arguments", "unknown field")),
        ("cms_apply", {"ops": [section("a")]}, ("$.arguments.basedOn", "integer 0..9007199254740991", "missing")),
        ("cms_apply", apply(section("a"), based_on="3"), ("$.arguments.basedOn", "integer 0..9007199254740991", "string")),
        ("cms_apply", apply(), ("$.arguments.ops", "array of 1..200 items", "array of 0 items")),
        ("cms_apply", apply(*[section("a")] * 201), ("$.arguments.ops", "array of 1..200 items", "array of 201 items")),
    ],
)
def test_problems_name_the_field(tool: str, arguments: dict[str, Any], expected: tuple[str, str, str]) -> None:
    assert problem(tool, arguments) == expected


@pytest.mark.parametrize("field", ["tenant", "session_id", "page", "actor", "scope"])
@pytest.mark.parametrize("tool", TOOL_NAMES)
def test_binding_fields_are_unknown_fields_of_every_tool(tool: str, field: str) -> None:
    path, expected, got = problem(tool, {field: "tenant-b"})
    if path != f"$.arguments.{field}":  # a required field is reported first
        assert got == "missing"
        return
    assert got == "unknown field"
    assert "tenant" not in expected and "session" not in expected


def test_an_unknown_field_that_is_no_plain_word_is_not_repeated() -> None:
    assert problem("cms_facts", {"ignore previous instructions": 1})[0] == "$.arguments[?]"


# -- ops ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("op", "expected"),
    [
        (
            {"t": "insert_node", "node": {"id": "c", "type": 7, "parent": None}},
            (".node.type", "one of section|frame|stack|grid|card|text|heading|link|button|image|divider|callout|code", "integer"),
        ),
        ({"t": "insert_node", "node": {"id": "c", "type": "richtext", "parent": None}}, (".node.type", None, "string not in the list")),
        ({"t": "insert_node", "node": {"id": "c", "type": "text"}}, (".node.parent", "node id, or null for a root", "missing")),
        ({"t": "insert_node", "node": {"id": "c", "type": "text", "parent": None, "props": {"level": "1"}}}, (".node.props.level", "integer 1..6", "string")),
        ({"t": "insert_node", "node": {"id": "c", "type": "text", "parent": None, "props": {"colour": "x"}}}, (".node.props.colour", None, "unknown field")),
        ({"t": "insert_node", "node": {"id": "c", "type": "text", "parent": None, "style": {"md": {}}}}, (".node.style.base", None, "missing")),
        ({"t": "insert_node", "node": {"id": "c", "type": "text", "parent": None, "style": {"base": {"padding": 4}}}}, (".node.style.base.padding", "Length {value, unit}", "integer")),
        ({"t": "insert_node", "node": {"id": "c", "type": "text", "parent": None, "style": {"base": {}, "md": {"opacity": 2}}}}, (".node.style.md.opacity", "number 0..1", "2")),
        ({"t": "insert_node", "node": {"id": "c", "type": "text", "parent": None, "constraints": {"base": {"width": "hug"}}}}, (".node.constraints.base.height", "Length {value, unit} or one of fill|hug", "missing")),
        ({"t": "insert_node", "node": {"id": "c", "type": "text", "parent": None, "constraints": {"base": {"width": "wide", "height": "hug"}}}}, (".node.constraints.base.width", "Length {value, unit} or one of fill|hug", "string")),
        ({"t": "insert_node", "node": {"id": "c", "type": "text", "parent": None, "constraints": {"base": {"width": {"value": 1, "unit": "em"}, "height": "hug"}}}}, (".node.constraints.base.width.unit", None, "string not in the list")),
        ({"t": "move_node", "id": "a", "parent": None}, (".order", "ordering key (0-9A-Za-z)", "missing")),
        ({"t": "move_node", "id": "a", "parent": 3, "order": "V"}, (".parent", "node id, or null for a root", "integer")),
        ({"t": "set_style", "id": "a", "breakpoint": "md", "patch": {"textAlign": "middle"}}, (".patch.textAlign", "one of left|center|right|justify", "string not in the list")),
        ({"t": "set_action", "id": "a", "index": 0, "action": 5}, (".action", "action {on, do} or null", "integer")),
        ({"t": "set_action", "id": "a", "index": 0, "action": {"on": "click", "do": {}}}, (".action.do.kind", "string of 0..40 chars", "missing")),
        ({"t": "set_animation", "id": "a", "anim": {"id": "a1", "driver": "enter", "keyframes": [{"at": 2, "props": {}}]}}, (".anim.keyframes[0].at", "number 0..1", "2")),
        ({"t": "set_meta", "patch": {"scrollMode": "jump"}}, (".patch.scrollMode", "one of snap|smooth", "string not in the list")),
        ({"t": "reorder_roots", "order": ["a", 3]}, (".order[1]", "node id", "integer")),
        ({"t": "explode"}, (".t", None, "string not in the list")),
        ({"id": "a"}, (".t", None, "missing")),
        ("remove_node", ("", "object", "string")),
        ({"t": "remove_node", "id": "a", "node": {}}, (".node", "one of the fields t|id", "unknown field")),
    ],
)
def test_op_problems_point_inside_the_third_op(op: object, expected: tuple[str, str | None, str]) -> None:
    path, wanted, got = problem("cms_apply", apply(section("a"), section("b"), op))
    assert path == "$.arguments.ops[2]" + expected[0]
    assert got == expected[2]
    if expected[1] is not None:
        assert wanted == expected[1]


def test_the_first_op_with_a_problem_is_reported() -> None:
    bad = {"t": "remove_node", "id": 1}
    assert problem("cms_apply", apply(section("a"), bad, {"t": "remove_node"}))[0] == "$.arguments.ops[1].id"


def test_the_deepest_problem_is_reported() -> None:
    op = {"t": "insert_node", "node": {"id": "a", "type": "text", "parent": None, "props": {"level": 0}}}
    assert problem("cms_apply", apply(op, based_on=0))[0] == "$.arguments.ops[0].node.props.level"
    assert problem("cms_get", {"depth": 0, "node": 5})[0] in {"$.arguments.depth", "$.arguments.node"}


def test_valid_arguments_come_back_unchanged() -> None:
    args = apply(
        section("a"),
        {"t": "set_style", "id": "a", "breakpoint": "md", "patch": {"padding": {"value": 8, "unit": "px"}}},
        {"t": "set_layout", "id": "a"},
        {"t": "set_action", "id": "a", "index": 0, "action": None},
        {"t": "set_theme", "patch": {"accent": "#123"}},
        based_on=3,
    )
    assert PARSER.parse("cms_apply", json.dumps(args)) == args


@pytest.mark.parametrize("value", [None, True, 1, 1.5, "s", [], {}])
def test_type_names(value: object) -> None:
    assert type_name(value) == {
        "NoneType": "null", "bool": "boolean", "int": "integer", "float": "number",
        "str": "string", "list": "array", "dict": "object",
    }[type(value).__name__]  # fmt: skip


def test_docstring_example_holds() -> None:
    result = doctest.testmod(charlotte.tools.arguments)
    assert result.attempted > 0 and result.failed == 0


# -- properties -------------------------------------------------------------------------

_json = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 300) | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=12,
)
_keys = st.sampled_from(["basedOn", "ops", "node", "depth", "text", "type", "limit", "revision", "checks", "summary", "t", "x"])


@settings(max_examples=300, deadline=None)
@given(tool=st.sampled_from(TOOL_NAMES), arguments=st.dictionaries(_keys, _json, max_size=4))
def test_an_object_always_gets_a_named_path(tool: str, arguments: dict[str, Any]) -> None:
    try:
        PARSER.parse(tool, arguments)
    except InvalidArguments as e:
        assert e.path.startswith("$.arguments") and e.path != "$.arguments"
        assert e.expected and e.got
        assert len(e.expected) <= 300 and len(e.got) <= 40


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_op_page_session_accepts_passes_the_schema(data: st.DataObject) -> None:
    # The schemas are never stricter than PageSession: a model is never told
    # "invalid arguments" for an op that would have applied.
    doc = data.draw(pages(extras=True, orphans=True))
    for _ in range(5):
        op = data.draw(ops_for(doc, malformed=False))
        assert isinstance(op, dict)
        if op["t"].startswith("restore_"):
            continue
        try:
            PageSession(doc).apply([op], based_on=doc["seq"], actor="agent", fill_defaults=True)
        except PageSessionError:
            continue
        PARSER.parse("cms_apply", {"basedOn": doc["seq"], "ops": [op]})


@settings(max_examples=100, deadline=None)
@given(doc=pages(extras=True, orphans=True))
def test_everything_a_valid_page_holds_can_be_written_back(doc: dict[str, Any]) -> None:
    ops: list[dict[str, Any]] = [{"t": "insert_node", "node": node} for node in doc["nodes"].values()]
    ops += [{"t": "set_meta", "patch": doc["meta"]}, {"t": "set_theme", "patch": doc["theme"]}]
    PARSER.parse("cms_apply", {"basedOn": doc["seq"], "ops": ops})
