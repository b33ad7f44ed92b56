"""The CSS emitter: every expected stylesheet here was written by hand from the rules."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from charlotte.page.css import emit_css, format_number

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "css"


def px(value: float, unit: str = "px") -> dict[str, Any]:
    return {"value": value, "unit": unit}


def node(id: str, parent: str | None = None, **extra: Any) -> dict[str, Any]:
    n: dict[str, Any] = {"id": id, "type": "frame", "parent": parent, "order": "V", "props": {}}
    n["style"] = extra.pop("style", {"base": {}})
    n.update(extra)
    return n


def doc(*nodes: dict[str, Any], breakpoints: list[str] | None = None) -> dict[str, Any]:
    return {
        "id": "p",
        "seq": 0,
        "breakpoints": ["base", "md", "lg"] if breakpoints is None else breakpoints,
        "nodes": {n["id"]: n for n in nodes},
    }


def rule(id: str, *lines: str) -> str:
    return f'[data-cms="{id}"] {{\n' + "\n".join(f"  {line}" for line in lines) + "\n}"


def media(px_: int, id: str, *lines: str) -> str:
    body = "\n".join(f"    {line}" for line in lines)
    return f'@media (min-width: {px_}px) {{\n  [data-cms="{id}"] {{\n{body}\n  }}\n}}'


def sheet(*blocks: str) -> str:
    return "\n\n".join(blocks) + "\n"


# ── the upstream parity document ─────────────────────────────────────────────


def test_canonical_parity_document_matches_its_hand_derived_stylesheet() -> None:
    canonical = json.loads((FIXTURES / "canonical-doc.json").read_text())
    expected = (FIXTURES / "canonical.css").read_text()
    assert emit_css(canonical) == expected


# ── layouts ──────────────────────────────────────────────────────────────────


@pytest.mark.parametrize(
    ("layout", "base", "lines"),
    [
        ("stack", {}, ["display: flex;", "flex-direction: column;"]),
        ("stack", {"direction": "row"}, ["display: flex;", "flex-direction: row;"]),
        ("grid", {}, ["display: grid;", "grid-template-columns: repeat(1, 1fr);"]),
        ("grid", {"columns": 4.0}, ["display: grid;", "grid-template-columns: repeat(4, 1fr);"]),
        ("grid", {"columns": 0}, ["display: grid;", "grid-template-columns: repeat(0, 1fr);"]),
        ("free", {}, ["position: relative;"]),
    ],
)
def test_every_layout(layout: str, base: dict[str, Any], lines: list[str]) -> None:
    d = doc(node("n", layout=layout, style={"base": base}))
    assert emit_css(d) == sheet(rule("n", *lines))


def test_direction_and_columns_feed_layout_only() -> None:
    d = doc(node("n", style={"base": {"direction": "row", "columns": 3}}))
    assert emit_css(d) == ""


def test_unknown_layout_emits_nothing() -> None:
    assert emit_css(doc(node("n", layout="flex"))) == ""


# ── constraints ──────────────────────────────────────────────────────────────

ALL_PINS = {
    "left": px(1),
    "right": px(2, "%"),
    "top": px(3, "rem"),
    "bottom": px(4, "vh"),
    "width": px(50, "vw"),
    "height": "hug",
}


@pytest.mark.parametrize("parent_layout", ["free", None])
def test_free_parent_pins_absolutely(parent_layout: str | None) -> None:
    parent = node("p", layout=parent_layout) if parent_layout else node("p")
    child = node("c", "p", constraints={"base": ALL_PINS})
    blocks = [
        rule(
            "c",
            "bottom: 4vh;",
            "height: auto;",
            "left: 1px;",
            "position: absolute;",
            "right: 2%;",
            "top: 3rem;",
            "width: 50vw;",
        )
    ]
    if parent_layout == "free":
        blocks.append(rule("p", "position: relative;"))
    assert emit_css(doc(child, parent)) == sheet(*blocks)


def test_missing_parent_counts_as_free() -> None:
    orphan = node("o", "gone", constraints={"base": {"width": "fill", "height": "fill"}})
    assert emit_css(doc(orphan)) == sheet(
        rule("o", "height: 100%;", "position: absolute;", "width: 100%;")
    )


@pytest.mark.parametrize("parent_layout", ["stack", "grid"])
def test_stack_or_grid_parent_keeps_only_the_size(parent_layout: str) -> None:
    child = node("c", "p", constraints={"base": ALL_PINS})
    d = doc(child, node("p", layout=parent_layout))
    assert emit_css(d).startswith(rule("c", "height: auto;", "width: 50vw;") + "\n\n")


def test_root_keeps_only_the_size() -> None:
    root = node("r", constraints={"base": {**ALL_PINS, "centerX": True}})
    assert emit_css(doc(root)) == sheet(rule("r", "height: auto;", "width: 50vw;"))


def test_center_x_and_y_together() -> None:
    child = node(
        "c",
        "p",
        constraints={
            "base": {
                "left": px(10),
                "top": px(20),
                "right": px(5),
                "centerX": True,
                "centerY": True,
                "width": "fill",
                "height": px(7.5),
            }
        },
    )
    assert emit_css(doc(child, node("p", layout="free"))) == sheet(
        rule(
            "c",
            "height: 7.5px;",
            "left: 50%;",
            "position: absolute;",
            "right: 5px;",
            "top: 50%;",
            "transform: translateX(-50%) translateY(-50%);",
            "width: 100%;",
        ),
        rule("p", "position: relative;"),
    )


def test_center_y_alone_and_falsy_center_flags() -> None:
    child = node(
        "c",
        "p",
        constraints={"base": {"centerX": False, "centerY": 1, "left": None, "width": "hug"}},
    )
    assert emit_css(doc(child)) == sheet(
        rule(
            "c",
            "position: absolute;",
            "top: 50%;",
            "transform: translateY(-50%);",
            "width: auto;",
        )
    )


def test_style_transform_overwrites_the_centring_transform() -> None:
    child = node(
        "c",
        "p",
        constraints={"base": {"centerX": True, "width": "hug", "height": "hug"}},
        style={"base": {"transform": "rotate(5deg)"}},
    )
    assert emit_css(doc(child)) == sheet(
        rule(
            "c",
            "height: auto;",
            "left: 50%;",
            "position: absolute;",
            "transform: rotate(5deg);",
            "width: auto;",
        )
    )


def test_later_sources_overwrite_earlier_ones() -> None:
    # layout's display/position, then constraints' position, then style
    n = node("n", layout="free", constraints={"base": {"width": px(1)}})
    assert emit_css(doc(n)) == sheet(rule("n", "position: relative;", "width: 1px;"))
    child = node("c", "p", layout="free", constraints={"base": {}})
    assert emit_css(doc(child)) == sheet(rule("c", "position: absolute;"))


# ── style ────────────────────────────────────────────────────────────────────


def test_every_style_key() -> None:
    style = {
        "padding": px(8),
        "margin": px(-2, "rem"),
        "radius": px(50, "%"),
        "background": "linear-gradient(#fff, #000)",
        "color": "#123456",
        "opacity": 0.25,
        "fontFamily": "Inter, sans-serif",
        "fontSize": px(1.125, "rem"),
        "fontWeight": 600.0,
        "lineHeight": 1.5,
        "textAlign": "justify",
        "letterSpacing": px(0.02, "rem"),
        "border": "1px solid #ccc",
        "boxShadow": "0 1px 2px #0003",
        "transform": "scale(1.1)",
        "filter": "blur(1px)",
        "gap": px(12),
        "align": "end",
        "justify": "between",
        "direction": "row",
        "columns": 2,
    }
    assert emit_css(doc(node("s", style={"base": style}))) == sheet(
        rule(
            "s",
            "align-items: flex-end;",
            "background: linear-gradient(#fff, #000);",
            "border: 1px solid #ccc;",
            "border-radius: 50%;",
            "box-shadow: 0 1px 2px #0003;",
            "color: #123456;",
            "filter: blur(1px);",
            "font-family: Inter, sans-serif;",
            "font-size: 1.125rem;",
            "font-weight: 600;",
            "gap: 12px;",
            "justify-content: space-between;",
            "letter-spacing: 0.02rem;",
            "line-height: 1.5;",
            "margin: -2rem;",
            "opacity: 0.25;",
            "padding: 8px;",
            "text-align: justify;",
            "transform: scale(1.1);",
        )
    )


@pytest.mark.parametrize(
    ("align", "css"),
    [
        ("start", "flex-start"),
        ("center", "center"),
        ("end", "flex-end"),
        ("stretch", "stretch"),
        ("baseline", "baseline"),
    ],
)
def test_align_mapping(align: str, css: str) -> None:
    d = doc(node("n", style={"base": {"align": align}}))
    assert emit_css(d) == sheet(rule("n", f"align-items: {css};"))


@pytest.mark.parametrize(
    ("justify", "css"),
    [
        ("start", "flex-start"),
        ("center", "center"),
        ("end", "flex-end"),
        ("between", "space-between"),
        ("around", "space-around"),
        ("evenly", "evenly"),
    ],
)
def test_justify_mapping(justify: str, css: str) -> None:
    d = doc(node("n", style={"base": {"justify": justify}}))
    assert emit_css(d) == sheet(rule("n", f"justify-content: {css};"))


def test_zero_values_are_still_emitted() -> None:
    style = {"padding": px(0), "opacity": 0, "background": "", "fontWeight": -0.0}
    assert emit_css(doc(node("n", style={"base": style}))) == sheet(
        rule("n", "background: ;", "font-weight: 0;", "opacity: 0;", "padding: 0px;")
    )


# ── breakpoints ──────────────────────────────────────────────────────────────


def test_md_and_lg_blocks_in_document_order_and_unknown_ones_skipped() -> None:
    n = node(
        "n",
        "p",
        constraints={
            "base": {"width": "fill"},
            "md": {"width": px(50, "%")},
            "xl": {"width": "hug"},
        },
        style={
            "base": {"color": "red"},
            "md": {"color": "blue", "padding": px(4)},
            "lg": {"color": "green"},
            "xl": {"color": "black"},
            "sm": {"color": "white"},
        },
    )
    parent = node("p", layout="stack")
    css = emit_css(doc(n, parent, breakpoints=["base", "lg", "xl", "md", "sm"]))
    assert css == sheet(
        rule("n", "color: red;", "width: 100%;"),
        media(1024, "n", "color: green;"),
        media(768, "n", "color: blue;", "padding: 4px;", "width: 50%;"),
        rule("p", "display: flex;", "flex-direction: column;"),
    )


def test_empty_breakpoint_entries_emit_nothing() -> None:
    n = node(
        "n",
        style={"base": {"color": "red"}, "md": {}, "lg": {}},
        constraints={"base": {}, "md": {}},
    )
    assert emit_css(doc(n)) == sheet(rule("n", "color: red;"))


def test_breakpoint_constraints_in_a_free_parent_repeat_position_absolute() -> None:
    n = node("n", "p", constraints={"base": {"width": "hug"}, "lg": {"top": px(3)}})
    assert emit_css(doc(n, breakpoints=["base", "md", "lg"])) == sheet(
        rule("n", "position: absolute;", "width: auto;"),
        media(1024, "n", "position: absolute;", "top: 3px;"),
    )


def test_breakpoint_style_alone_and_base_never_repeated() -> None:
    n = node("n", style={"base": {}, "md": {"margin": px(2)}})
    assert emit_css(doc(n, breakpoints=["md", "base", "md"])) == sheet(
        media(768, "n", "margin: 2px;"), media(768, "n", "margin: 2px;")
    )


def test_documents_without_breakpoints_emit_base_rules_only() -> None:
    n = node("n", style={"base": {"color": "red"}, "md": {"color": "blue"}})
    assert emit_css(doc(n, breakpoints=[])) == sheet(rule("n", "color: red;"))


# ── ordering and numbers ─────────────────────────────────────────────────────


def test_nodes_sorted_by_id_as_strings() -> None:
    ids = ["b", "a", "B", "10", "2", "a-b", "a_b"]
    d = doc(*(node(i, style={"base": {"color": "red"}}) for i in ids))
    expected_order = ["10", "2", "B", "a", "a-b", "a_b", "b"]
    assert emit_css(d) == sheet(*(rule(i, "color: red;") for i in expected_order))


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1.0, "1"),
        (0.5, "0.5"),
        (24.0, "24"),
        (-0.0, "0"),
        (0, "0"),
        (-3, "-3"),
        (1.1, "1.1"),
        (0.1 + 0.2, "0.30000000000000004"),
        (100000, "100000"),
        (123456.789, "123456.789"),
        (1e21, "1e+21"),
        (1.5e21, "1.5e+21"),
        (1e20, "100000000000000000000"),
        (123e18, "123000000000000000000"),
        (1e-7, "1e-7"),
        (1.25e-7, "1.25e-7"),
        (-1e-7, "-1e-7"),
        (1e-6, "0.000001"),
        (0.000123, "0.000123"),
        (5e-324, "5e-324"),
        (1.7976931348623157e308, "1.7976931348623157e+308"),
        (2**53 + 1, "9007199254740992"),
        (12345678901234567890, "12345678901234567000"),
    ],
)
def test_numbers_print_like_javascript(value: float, text: str) -> None:
    assert format_number(value) == text


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_non_finite_numbers_have_no_css_form(value: float) -> None:
    with pytest.raises(ValueError):
        format_number(value)


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_printed_numbers_read_back_exactly(value: float) -> None:
    text = format_number(value)
    assert float(text) == value
    assert not text.endswith(".0") and "e+0" not in text and "e-0" not in text


def test_numbers_inside_lengths() -> None:
    n = node("n", style={"base": {"padding": px(16.0), "margin": px(0.5, "rem"), "gap": px(1e21)}})
    assert emit_css(doc(n)) == sheet(
        rule("n", "gap: 1e+21px;", "margin: 0.5rem;", "padding: 16px;")
    )


# ── malformed input ──────────────────────────────────────────────────────────


@pytest.mark.parametrize(
    "bad",
    [
        None,
        [],
        "## Welcome",
        42,
        {},
        {"meta": {"title": "x"}},
        {"nodes": None},
        {"nodes": []},
        {"nodes": {}},
        {"nodes": {"a": "not a node"}},
        {"nodes": {"a": None, "b": [1]}},
    ],
)
def test_malformed_documents_emit_nothing(bad: object) -> None:
    assert emit_css(bad) == ""


def test_malformed_nodes_and_values_are_skipped() -> None:
    good = node("g", style={"base": {"color": "red"}})
    nodes: dict[Any, Any] = {
        "g": good,
        "no-style": {"id": "no-style", "parent": None, "layout": "free"},
        "bad-style": {"id": "bad-style", "parent": None, "style": "red", "layout": "grid"},
        "bad-base": {"id": "bad-base", "parent": None, "style": {"base": [1]}},
        "bad-values": node(
            "bad-values",
            style={
                "base": {
                    "padding": 4,
                    "margin": {"value": "4", "unit": "px"},
                    "radius": {"value": 4},
                    "gap": {"value": True, "unit": "px"},
                    "fontSize": {"value": math.nan, "unit": "px"},
                    "color": None,
                    "background": 5,
                    "opacity": True,
                    "fontWeight": "bold",
                    "lineHeight": math.inf,
                    "align": 1,
                    "justify": None,
                },
                "md": "big",
            },
            constraints={"base": "x", "md": ["y"]},
        ),
        "bad-layout-knobs": node(
            "bad-layout-knobs", layout="stack", style={"base": {"direction": 1}}
        ),
        "bad-grid": node("bad-grid", layout="grid", style={"base": {"columns": "3"}}),
        "bad-constraints": node(
            "bad-constraints",
            "g",
            constraints={"base": {"left": 5, "top": {}, "width": "auto", "height": None}},
        ),
        7: node("seven"),
    }
    d = {"breakpoints": "md", "nodes": nodes}
    assert emit_css(d) == sheet(
        rule("bad-constraints", "position: absolute;"),
        rule("bad-grid", "display: grid;", "grid-template-columns: repeat(1, 1fr);"),
        rule("bad-layout-knobs", "display: flex;", "flex-direction: column;"),
        rule("bad-style", "display: grid;", "grid-template-columns: repeat(1, 1fr);"),
        rule("g", "color: red;"),
        rule("no-style", "position: relative;"),
    )


def test_parent_key_missing_is_a_root_and_null_parent_layout_is_free() -> None:
    no_parent = {"id": "a", "style": {"base": {}}, "constraints": {"base": {"width": "fill"}}}
    in_null_layout = node("b", "p", constraints={"base": {"width": "fill"}})
    parent = node("p", layout=None)
    assert emit_css(doc(no_parent, in_null_layout, parent)) == sheet(
        rule("a", "width: 100%;"), rule("b", "position: absolute;", "width: 100%;")
    )


def test_cycles_do_not_matter_to_the_emitter() -> None:
    a = node("a", "b", constraints={"base": {"width": "hug"}})
    b = node("b", "a", layout="stack")
    assert emit_css(doc(a, b)) == sheet(
        rule("a", "width: auto;"), rule("b", "display: flex;", "flex-direction: column;")
    )
