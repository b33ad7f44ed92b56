from __future__ import annotations

import json

import pytest

from charlotte.page.node_types import (
    LAYOUTS,
    MAX_DEPTH,
    MAX_NODES,
    MAX_OPS_PER_APPLY,
    STYLE_KEYS,
    NodeType,
    NodeTypes,
    PropSpec,
)

CATALOGUE = [
    "section", "frame", "stack", "grid", "card", "text", "heading",
    "link", "button", "image", "divider", "callout", "code",
]


def test_allowed_is_the_spec_catalogue_in_order() -> None:
    assert NodeTypes.allowed().names() == CATALOGUE
    assert NodeTypes.allowed() is NodeTypes.allowed()


def test_richtext_is_never_allowed() -> None:
    assert "richtext" not in NodeTypes.allowed()
    assert NodeTypes.allowed().get("richtext") is None
    with pytest.raises(ValueError):
        NodeTypes([NodeType("text"), NodeType("richtext")])


def test_a_type_cannot_be_declared_twice() -> None:
    with pytest.raises(ValueError):
        NodeTypes([NodeType("text"), NodeType("text")])


def test_get_tolerates_non_strings() -> None:
    types = NodeTypes.allowed()
    assert types.get(None) is None
    assert types.get(["text"]) is None
    assert ["text"] not in types


def _props(name: str) -> dict[str, PropSpec]:
    node_type = NodeTypes.allowed().get(name)
    assert node_type is not None
    return {p.name: p for p in node_type.props}


@pytest.mark.parametrize(
    ("type_name", "bounds"),
    [
        ("text", {"content": 5_000}),
        ("heading", {"content": 300}),
        ("link", {"content": 300, "href": 2_048}),
        ("button", {"label": 100, "href": 2_048}),
        ("image", {"asset": 200, "alt": 300}),
        ("callout", {"content": 2_000}),
        ("code", {"content": 10_000, "lang": 30}),
    ],
)
def test_string_bounds_match_the_spec_table(type_name: str, bounds: dict[str, int]) -> None:
    props = _props(type_name)
    for name, max_length in bounds.items():
        assert props[name].type == "string"
        assert props[name].max_length == max_length


def test_enums_and_ranges_match_the_spec_table() -> None:
    assert _props("heading")["level"].type == "integer"
    assert (_props("heading")["level"].minimum, _props("heading")["level"].maximum) == (1, 6)
    assert _props("button")["variant"].enum == ("primary", "secondary", "ghost")
    assert _props("callout")["variant"].enum == ("info", "success", "warning", "danger")


@pytest.mark.parametrize("name", ["section", "frame", "stack", "grid", "card", "divider"])
def test_containers_and_divider_have_no_props(name: str) -> None:
    assert _props(name) == {}


def test_required_props_are_the_documented_ones() -> None:
    required = {
        t: sorted(p.name for p in NodeTypes.allowed().get(t).props if p.required)  # type: ignore[union-attr]
        for t in CATALOGUE
    }
    assert {t: r for t, r in required.items() if r} == {
        "text": ["content"],
        "heading": ["content"],
        "link": ["content", "href"],
        "button": ["label"],
        "image": ["asset"],
        "callout": ["content"],
        "code": ["content"],
    }


def test_describe_is_json_and_lists_everything_the_model_needs() -> None:
    described = NodeTypes.allowed().describe()
    json.dumps(described)  # JSON-able, no tuples or proxies left
    assert [t["type"] for t in described["types"]] == CATALOGUE
    heading = next(t for t in described["types"] if t["type"] == "heading")
    assert heading["props"]["content"] == {"type": "string", "required": True, "maxLength": 300}
    assert heading["props"]["level"]["minimum"] == 1
    assert set(described["style"]) == set(STYLE_KEYS)
    assert described["style"]["padding"] == "Length"
    assert described["style"]["textAlign"] == {"enum": ["left", "center", "right", "justify"]}
    assert described["shapes"]["Length"]["properties"]["unit"]["enum"] == ["px", "%", "vw", "vh", "rem", "fr"]
    assert described["layouts"] == list(LAYOUTS)
    assert described["breakpoints"] == ["base", "md", "lg"]
    assert described["limits"]["nodes"] == MAX_NODES
    assert described["limits"]["depth"] == MAX_DEPTH
    assert described["limits"]["opsPerApply"] == MAX_OPS_PER_APPLY


def test_describe_shows_the_page_breakpoints() -> None:
    assert NodeTypes.allowed().describe(["base", "xl"])["breakpoints"] == ["base", "xl"]
