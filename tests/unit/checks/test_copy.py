"""The copy check, and ``copy()``: visible words in reading order."""

from __future__ import annotations

from typing import Any

import pytest

from charlotte.checks import Finding, PageChecks


def copy_findings(doc: dict[str, Any]) -> list[tuple[str | None, str, str]]:
    return [(f.node, f.code, f.severity) for f in PageChecks().run(doc, only=["copy"])]


HEADING = ("h", "heading", {"content": "Rose Bakery", "level": 1})


@pytest.mark.parametrize(
    ("words", "code"),
    [
        ("Lorem ipsum dolor sit amet, consectetur adipiscing elit.", "lorem_ipsum"),
        ("Opening hours: TODO", "placeholder_copy"),
        ("Prices TBD", "placeholder_copy"),
        ("Call XXX-XXXX", "placeholder_copy"),
        ("Your headline here", "placeholder_copy"),
        ("Insert company name here", "placeholder_copy"),
        ("Add your logo here", "placeholder_copy"),
        ("Tagline goes here", "placeholder_copy"),
        ("Click to edit this text", "placeholder_copy"),
        ("Sample text for the hero", "placeholder_copy"),
        ("Welcome to [Business Name]!", "bracket_placeholder"),
        ("Hello {{ first_name }}, welcome back", "brace_placeholder"),
        ("Baked by {owner}", "brace_placeholder"),
    ],
)
def test_placeholder_copy_is_an_error(build: Any, words: str, code: str) -> None:
    doc = build(HEADING, ("p", "text", {"content": words}))
    assert copy_findings(doc) == [("p", code, "error")]


@pytest.mark.parametrize(
    "words",
    [
        "Your new favourite bakery is here.",
        "The best todo list for your team.",
        "Our 3 sisters bake [1] loaf at a time",  # a bracket without letters is not a placeholder
        "Fresh bread, every morning, since 1985.",
        "Add your name to our waiting list at the counter.",
    ],
)
def test_ordinary_copy_passes(build: Any, words: str) -> None:
    assert copy_findings(build(HEADING, ("p", "text", {"content": words}))) == []


@pytest.mark.parametrize(
    ("node_type", "props", "message"),
    [
        ("text", {"content": ""}, "The text has no text."),
        ("text", {"content": "   \n"}, "The text has no text."),
        ("text", {}, "The text has no text."),
        ("heading", {"content": "", "level": 2}, "The heading has no text."),
        ("button", {"label": "", "href": "/order"}, "The button has no label."),
        ("link", {"content": None, "href": "/order"}, "The link has no text."),
        ("callout", {"content": 3}, "The callout has no text."),
    ],
)
def test_empty_copy_is_an_error(
    build: Any, node_type: str, props: dict[str, Any], message: str
) -> None:
    doc = build(HEADING, ("x", node_type, props))
    assert PageChecks().run(doc, only=["copy"]) == [
        Finding("copy", "x", "error", "empty_copy", message)
    ]


def test_bound_copy_is_filled_in_at_render_and_not_reported(build: Any) -> None:
    doc = build(HEADING, ("x", "text", {"content": {"$bind": "profile.bio"}}))
    assert copy_findings(doc) == []


def test_headings_over_80_characters_warn(build: Any) -> None:
    ok = build(("h", "heading", {"content": "x" * 80}))
    long = build(("h", "heading", {"content": "Fresh " + "x" * 80}))
    assert copy_findings(ok) == []
    assert copy_findings(long) == [("h", "long_heading", "warning")]


def test_a_page_without_a_heading_warns_once_at_page_level(build: Any) -> None:
    doc = build(("p", "text", {"content": "Fresh bread."}), ("q", "text", {"content": "More."}))
    assert PageChecks().run(doc, only=["copy"]) == [
        Finding("copy", None, "warning", "no_heading", "The page has no heading.")
    ]


def test_a_hidden_heading_does_not_count(build: Any) -> None:
    doc = build(("p", "text", {"content": "Fresh bread."}))
    doc["nodes"]["lost"] = {
        "id": "lost",
        "type": "heading",
        "parent": "gone",
        "order": "V",
        "props": {"content": "Orphan"},
        "style": {"base": {}},
    }
    assert copy_findings(doc) == [(None, "no_heading", "warning")]


def test_images_need_alt_text_but_may_be_decorative(build: Any) -> None:
    doc = build(
        HEADING,
        ("a", "image", {"asset": "hero"}),
        ("b", "image", {"asset": "hero", "alt": ""}),
        ("c", "image", {"asset": "hero", "alt": "Fresh loaves on a rack"}),
    )
    assert copy_findings(doc) == [("a", "missing_alt", "error")]


def test_image_alt_text_is_checked_for_placeholders(build: Any) -> None:
    doc = build(HEADING, ("a", "image", {"asset": "hero", "alt": "Image goes here"}))
    assert copy_findings(doc) == [("a", "placeholder_copy", "error")]


def test_code_blocks_may_hold_todos_and_templates_but_not_lorem_ipsum(build: Any) -> None:
    code = build(HEADING, ("c", "code", {"content": "# TODO: {{ name }} [i]", "lang": "py"}))
    lorem = build(HEADING, ("c", "code", {"content": "print('lorem ipsum')", "lang": "py"}))
    assert copy_findings(code) == []
    assert copy_findings(lorem) == [("c", "lorem_ipsum", "error")]


def test_one_node_can_have_several_copy_findings_in_a_fixed_order(build: Any) -> None:
    doc = build(("h", "heading", {"content": "Lorem ipsum TODO [Name] {{x}} " + "y" * 80}))
    assert [code for _, code, _ in copy_findings(doc)] == [
        "lorem_ipsum",
        "placeholder_copy",
        "bracket_placeholder",
        "brace_placeholder",
        "long_heading",
    ]


def test_islands_contribute_no_copy(build: Any) -> None:
    doc = build(HEADING, {"id": "i", "type": "text", "island": True, "props": {"content": "TODO"}})
    assert copy_findings(doc) == []
    assert PageChecks().copy(doc) == [("h", "Rose Bakery")]


# --- copy() ------------------------------------------------------------------------


def test_copy_is_every_visible_text_in_reading_order() -> None:
    nodes = {
        "b": _node("b", "section", None, "a1"),
        "a": _node("a", "section", None, "a0"),
        "a-h": _node("a-h", "heading", "a", "a0", content="Welcome"),
        "a-card": _node("a-card", "card", "a", "a1"),
        "a-card-t": _node("a-card-t", "text", "a-card", "a0", content="Inside the card"),
        "a-btn": _node("a-btn", "button", "a", "a2", label="Order now"),
        "b-img": _node("b-img", "image", "b", "a0", asset="hero", alt="Loaves"),
        "b-link": _node("b-link", "link", "b", "a1", content="Our menu", href="/menu"),
        "b-call": _node("b-call", "callout", "b", "a2", content="Closed on Sunday"),
        "b-code": _node("b-code", "code", "b", "a3", content="x = 1"),
        "b-rich": _node("b-rich", "richtext", "b", "a4", content="never rendered"),
        "b-div": _node("b-div", "divider", "b", "a5"),
        "b-empty": _node("b-empty", "text", "b", "a6", content="  "),
        "t-child": _node("t-child", "text", "a-h", "a0", content="under a leaf: not shown"),
        "orphan": _node("orphan", "text", "missing", "a0", content="not shown"),
    }
    assert PageChecks().copy({"nodes": nodes}) == [
        ("a-h", "Welcome"),
        ("a-card-t", "Inside the card"),
        ("a-btn", "Order now"),
        ("b-img", "Loaves"),
        ("b-link", "Our menu"),
        ("b-call", "Closed on Sunday"),
        ("b-code", "x = 1"),
    ]


def _node(
    node_id: str, node_type: str, parent: str | None, order: str, **props: Any
) -> dict[str, Any]:
    return {
        "id": node_id,
        "type": node_type,
        "parent": parent,
        "order": order,
        "props": props,
        "style": {"base": {}},
    }
