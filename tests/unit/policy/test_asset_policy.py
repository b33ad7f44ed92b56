from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from charlotte.errors import Refused
from charlotte.page.model import empty_doc
from charlotte.policy import AssetPolicy, InMemoryAssetLibrary
from charlotte.policy.assets import _all_inert, _strings
from charlotte.policy.css_values import css_value_reason

STYLE_STRING_KEYS = [
    "background",
    "color",
    "fontFamily",
    "border",
    "boxShadow",
    "transform",
    "filter",
]
BREAKPOINTS = ["base", "md", "lg"]
ATTACKS = [
    ("url(https://evil.example/x.png)", "css_fetch"),
    ('image-set("x.png" 1x)', "css_fetch"),
    ('@import "https://evil.example/x.css"', "css_fetch"),
    ("red\\9", "css_escape"),
    ("red /* hidden */", "css_comment"),
    ("red; position: fixed", "css_invalid"),
    ("red{", "css_invalid"),
    ("red}", "css_invalid"),
    ("</style><script>", "css_invalid"),
    ("a > b", "css_invalid"),
]
NORMAL = {
    "background": "linear-gradient(90deg, #fff, #000)",
    "color": "rgba(0,0,0,.5)",
    "fontFamily": "Inter, sans-serif",
    "border": "1px solid #ddd",
    "boxShadow": "0 1px 2px rgba(0,0,0,.2)",
    "transform": "rotate(3deg)",
    "filter": "blur(2px)",
}

LIBRARY = InMemoryAssetLibrary({"logo": "/media/logo.png", "hero": "/media/hero.jpg"})


def _node(id: str, type: str = "frame", **extra: Any) -> dict[str, Any]:
    node: dict[str, Any] = {
        "id": id,
        "type": type,
        "parent": None,
        "order": "V",
        "props": {},
        "style": {"base": {}},
    }
    node.update(extra)
    return node


def _doc(*nodes: dict[str, Any]) -> dict[str, Any]:
    doc = empty_doc("p")
    doc["nodes"] = {n["id"]: n for n in nodes}
    return doc


@pytest.fixture
def policy() -> AssetPolicy:
    return AssetPolicy(LIBRARY)


@pytest.mark.parametrize("breakpoint", BREAKPOINTS)
@pytest.mark.parametrize("key", STYLE_STRING_KEYS)
@pytest.mark.parametrize(("attack", "reason"), ATTACKS)
def test_every_style_string_key_at_every_breakpoint_refuses_every_attack(
    policy: AssetPolicy, key: str, breakpoint: str, attack: str, reason: str
) -> None:
    style: dict[str, Any] = {"base": dict(NORMAL)}
    style.setdefault(breakpoint, {})[key] = attack
    doc = _doc(_node("box", style=style))
    with pytest.raises(Refused) as caught:
        policy.assert_doc(doc)
    assert caught.value.reason == reason
    assert caught.value.detail == {"node": "box", "field": f"style.{breakpoint}.{key}"}
    assert policy.problems(doc) == [("box", reason)]


@pytest.mark.parametrize("breakpoint", BREAKPOINTS)
@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("width", "{attack}"),
        ("height", "{attack}"),
        ("left", {"value": 1, "unit": "{attack}"}),
        ("top", {"value": 1, "unit": "{attack}"}),
    ],
)
@pytest.mark.parametrize(("attack", "reason"), ATTACKS)
def test_every_constraint_string_at_every_breakpoint_refuses_every_attack(
    policy: AssetPolicy, breakpoint: str, field: str, value: Any, attack: str, reason: str
) -> None:
    filled = value.format(attack=attack) if isinstance(value, str) else {**value, "unit": attack}
    constraints: dict[str, Any] = {"base": {"width": "fill", "height": "hug"}}
    constraints.setdefault(breakpoint, {})[field] = filled
    doc = _doc(_node("box", constraints=constraints))
    with pytest.raises(Refused) as caught:
        policy.assert_doc(doc)
    assert caught.value.reason == reason
    assert policy.problems(doc) == [("box", reason)]


@pytest.mark.parametrize("breakpoint", BREAKPOINTS)
def test_normal_values_pass_at_every_breakpoint(policy: AssetPolicy, breakpoint: str) -> None:
    style: dict[str, Any] = {"base": {"padding": {"value": 8, "unit": "px"}, "opacity": 0.5}}
    style.setdefault(breakpoint, {}).update(NORMAL)
    constraints = {
        "base": {"width": "fill", "height": {"value": 50, "unit": "vh"}, "centerX": True}
    }
    doc = _doc(
        _node("box", layout="stack", style=style, constraints=constraints),
        _node("pic", "image", props={"asset": "logo", "alt": "Logo"}),
    )
    policy.assert_doc(doc)
    assert policy.problems(doc) == []


def test_style_keys_are_checked_too(policy: AssetPolicy) -> None:
    doc = _doc(_node("box", style={"base": {"color;background:url(x)": "red"}}))
    assert policy.problems(doc) == [("box", "css_fetch")]


def test_other_breakpoint_names_are_checked(policy: AssetPolicy) -> None:
    # The emitter skips unknown breakpoints today; the policy does not rely on it.
    doc = _doc(_node("box", style={"base": {}, "xl": {"color": "url(x)"}}))
    assert policy.problems(doc) == [("box", "css_fetch")]


@pytest.mark.parametrize(
    ("props", "reason", "field"),
    [
        ({"asset": "logo", "src": "https://evil.example/x.png"}, "authored_asset", "props.src"),
        ({"asset": "logo", "src": ""}, "authored_asset", "props.src"),
        ({"asset": "logo", "srcset": "x.png 1x"}, "authored_asset", "props.srcset"),
        ({"asset": "missing"}, "authored_asset", "props.asset"),
        ({"asset": "https://evil.example/x.png"}, "authored_asset", "props.asset"),
        ({"asset": "../logo"}, "authored_asset", "props.asset"),
        ({"asset": {"$bind": "profile.avatar"}}, "authored_asset", "props.asset"),
        ({"asset": 7}, "authored_asset", "props.asset"),
        ({"asset": "logo", "width": 640}, "asset_dimensions", "props.width"),
        ({"asset": "logo", "height": "480"}, "asset_dimensions", "props.height"),
    ],
)
def test_images_use_library_assets_only(
    policy: AssetPolicy, props: dict[str, Any], reason: str, field: str
) -> None:
    doc = _doc(_node("pic", "image", props=props))
    with pytest.raises(Refused) as caught:
        policy.assert_doc(doc)
    assert caught.value.reason == reason
    assert caught.value.detail == {"node": "pic", "field": field}
    assert policy.problems(doc) == [("pic", reason)]


def test_an_image_without_an_asset_or_with_none_values_passes(policy: AssetPolicy) -> None:
    doc = _doc(
        _node("a", "image", props={"alt": "x"}),
        _node("b", "image", props={"asset": "hero", "src": None, "width": None}),
    )
    assert policy.problems(doc) == []


def test_authored_urls_are_refused_on_any_node_type(policy: AssetPolicy) -> None:
    doc = _doc(_node("v", "video", props={"src": "https://evil.example/v.mp4"}))
    assert policy.problems(doc) == [("v", "authored_asset")]


def test_problems_lists_every_node_by_id_each_pair_once(policy: AssetPolicy) -> None:
    doc = _doc(
        _node(
            "z",
            style={"base": {"color": "url(a)", "background": "url(b)"}, "md": {"border": "a;b"}},
        ),
        _node("b", "image", props={"asset": "nope", "width": 1, "height": 2}),
        _node("m"),
        _node("a", style={"base": {"filter": "\\75rl(x)", "transform": "x\\y"}}),
    )
    assert policy.problems(doc) == [
        ("a", "css_fetch"),
        ("a", "css_escape"),
        ("b", "authored_asset"),
        ("b", "asset_dimensions"),
        ("z", "css_fetch"),
        ("z", "css_invalid"),
    ]
    with pytest.raises(Refused) as caught:
        policy.assert_doc(doc)
    assert caught.value.reason == "css_fetch"
    assert caught.value.detail == {"node": "a", "field": "style.base.filter"}


def test_assert_nodes_checks_only_the_given_nodes(policy: AssetPolicy) -> None:
    doc = _doc(
        _node("bad", style={"base": {"color": "url(x)"}}),
        _node("good", style={"base": {"color": "red"}}),
        _node("pic", "image", props={"asset": "missing"}),
    )
    policy.assert_nodes(doc, ["good", "gone"])
    policy.assert_nodes(doc, [])
    with pytest.raises(Refused) as caught:
        policy.assert_nodes(doc, {"pic", "bad", "good"})
    assert caught.value.detail == {"node": "bad", "field": "style.base.color"}
    with pytest.raises(Refused) as caught:
        policy.assert_nodes(doc, ["pic"])
    assert caught.value.reason == "authored_asset"


def test_the_library_is_asked_once_per_asset(policy: AssetPolicy) -> None:
    asked: list[str] = []

    class Counting:
        def exists(self, asset_id: str) -> bool:
            asked.append(asset_id)
            return asset_id == "logo"

        def url(self, asset_id: str) -> str:
            return "/" + asset_id

    doc = _doc(*[_node(f"i{n}", "image", props={"asset": "logo"}) for n in range(5)])
    AssetPolicy(Counting()).assert_doc(doc)
    assert asked == ["logo"]


def test_the_document_is_not_changed(policy: AssetPolicy) -> None:
    doc = _doc(
        _node("box", style={"base": {"color": "url(x)"}}),
        _node("pic", "image", props={"asset": "x"}),
    )
    before = copy.deepcopy(doc)
    policy.problems(doc)
    with pytest.raises(Refused):
        policy.assert_doc(doc)
    assert doc == before


@pytest.mark.parametrize(
    "doc",
    [
        None,
        [],
        "page",
        42,
        {},
        {"nodes": []},
        {"nodes": None},
        {"nodes": {"a": None, "b": [], "c": "x"}},
        {"nodes": {"a": {"style": None, "constraints": "x", "props": []}}},
        {"nodes": {"a": {"style": {"base": None, "md": [1, None, True]}, "props": None}}},
        {"nodes": {"a": {"type": "image", "props": {"asset": None}}}},
        {"nodes": {"a": {"style": {"base": {"padding": {"value": float("nan"), "unit": "px"}}}}}},
    ],
)
def test_malformed_documents_do_not_crash(policy: AssetPolicy, doc: Any) -> None:
    assert policy.problems(doc) == []
    policy.assert_doc(doc)
    policy.assert_nodes(doc, ["a"])


def test_deeply_nested_values_do_not_exhaust_the_stack(policy: AssetPolicy) -> None:
    value: Any = "url(x)"
    for _ in range(5000):
        value = {"x": value}
    doc = _doc(_node("box", style={"base": {"background": value}}))
    assert policy.problems(doc) == [("box", "css_fetch")]


def test_detail_stays_short_for_deeply_nested_values(policy: AssetPolicy) -> None:
    value: Any = "url(x)"
    for _ in range(100):
        value = {"nested": value}
    doc = _doc(_node("box", style={"base": {"background": value}}))
    with pytest.raises(Refused) as caught:
        policy.assert_doc(doc)
    assert caught.value.detail is not None
    assert len(str(caught.value.detail["field"])) <= 120


_CSS_TEXT = st.sampled_from(["#222", "red", "1px solid #000", "url(x.png)", "a\\62", "/* c */", "{", "padding"])
_STYLE_VALUES = st.recursive(
    _CSS_TEXT | st.integers() | st.none() | st.booleans(),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(_CSS_TEXT | st.integers() | st.booleans(), inner, max_size=3),
    max_leaves=12,
)


@given(value=_STYLE_VALUES)
def test_the_quick_look_finds_a_problem_exactly_when_the_walk_names_one(value: Any) -> None:
    walked = [text for _where, _key, text in _strings(value, "style") if css_value_reason(text)]
    assert _all_inert(value) == (not walked)


def _with_image(asset: object, *nodes: dict[str, Any]) -> dict[str, Any]:
    doc = _doc(*nodes)
    doc["meta"]["seo"] = {"image": asset}
    return doc


@pytest.mark.parametrize("asset", ["missing", "https://evil.example/x.png", "/media/logo.png", "Logo"])
def test_the_social_image_is_an_asset_of_the_library(policy: AssetPolicy, asset: str) -> None:
    doc = _with_image(asset, _node("pic", "image", props={"asset": "missing"}))
    with pytest.raises(Refused) as caught:
        policy.assert_nodes(doc, [], meta=True)
    assert (caught.value.reason, caught.value.detail) == (
        "authored_asset", {"node": "#meta", "field": "meta.seo.image"}
    )
    policy.assert_nodes(doc, [])  # a write leaving the meta alone does not ask
    with pytest.raises(Refused) as caught:  # the whole document: nodes first, then the meta
        policy.assert_doc(doc)
    assert caught.value.detail == {"node": "pic", "field": "props.asset"}
    assert policy.problems(doc) == [("pic", "authored_asset"), ("#meta", "authored_asset")]


@pytest.mark.parametrize("doc", [_with_image("logo"), _with_image(""), _doc(), {"nodes": {}}, {"meta": 5}])
def test_a_known_or_absent_social_image_passes(policy: AssetPolicy, doc: dict[str, Any]) -> None:
    policy.assert_nodes(doc, [], meta=True)
    policy.assert_doc(doc)
    assert policy.problems(doc) == []
