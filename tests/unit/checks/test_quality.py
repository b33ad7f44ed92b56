"""The quality checks: contrast at every breakpoint, alternatives, headings, names, placeholders."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.unit.checks.conftest import build_page

from charlotte.checks import PageChecks
from charlotte.checks.contrast import parse_colour, ratio
from charlotte.checks.quality import QUALITY_CODES, quality_findings
from charlotte.page.assets import InMemoryAssetLibrary

ASSETS = InMemoryAssetLibrary({"shop": "/media/shop.jpg"})
H1 = ("title", "heading", {"content": "Rose Bakery", "level": 1})


def _codes(doc: Any) -> list[tuple[str | None, str, str]]:
    return [(f.node, f.code, f.severity) for f in quality_findings(doc, assets=ASSETS)]


def _styled(node_id: str, kind: str, props: dict[str, Any], **style: Any) -> dict[str, Any]:
    return {"id": node_id, "type": kind, "props": props, "style": style}


def test_a_heading_at_1_9_to_1_is_a_contrast_error_that_holds_ready() -> None:
    doc = build_page(
        {"id": "band", "type": "section", "props": {}, "style": {"base": {"background": "#111827"}}},
        H1,
    )
    doc["nodes"]["title"]["parent"] = "band"
    doc["nodes"]["title"]["style"] = {"base": {"color": "#7c2d12"}}
    assert round(ratio(parse_colour("#7c2d12") or (), parse_colour("#111827") or ()), 1) == 1.9  # type: ignore[arg-type]
    found = [f for f in PageChecks(assets=ASSETS).run(doc) if f.code == "low_contrast"]
    assert [(f.node, f.severity) for f in found] == [("title", "error")]
    assert "#7c2d12 on #111827" in found[0].message and "1.89:1" in found[0].message


def test_contrast_follows_the_breakpoints_and_the_ancestors() -> None:
    doc = build_page(
        H1,
        _styled("p", "text", {"content": "Fresh bread daily."},
                base={"color": "#111111"}, md={"color": "#777777"}, lg={"color": "#111111"}),
    )  # fmt: skip
    doc["breakpoints"] = ["base", "md", "lg"]
    # #777 on white is 4.48:1: a warning, found only from 768 px (lg sets it back).
    found = [f for f in quality_findings(doc, assets=ASSETS) if f.node == "p"]
    assert [(f.code, f.severity) for f in found] == [("low_contrast", "warning")]
    assert "from 768 px wide" in found[0].message
    # Inherited: the section's dark background under a child that sets only its colour.
    doc["nodes"]["main"]["style"] = {"base": {"background": "#000000"}}
    doc["nodes"]["p"]["style"] = {"base": {"color": "#222222"}}
    assert ("p", "low_contrast", "error") in _codes(doc)
    doc["nodes"]["p"]["style"] = {"base": {"color": "#ffffff"}}
    assert ("p", "low_contrast", "error") not in _codes(doc)


def test_opacity_is_part_of_the_contrast_as_axe_reads_it() -> None:
    # White at 0.9 on #15803d reads at about 4.3:1 (5.02:1 opaque): axe's color-contrast fails
    # it at 19 px; the check did not see the opacity before.
    doc = build_page(H1, _styled("p", "text", {"content": "A garden design studio in York."},
                                 base={"color": "#ffffff", "fontSize": {"value": 19, "unit": "px"}}))  # fmt: skip
    doc["nodes"]["main"]["style"] = {"base": {"background": "#15803d"}}
    assert ("p", "low_contrast", "warning") not in _codes(doc)
    doc["nodes"]["p"]["style"]["base"]["opacity"] = 0.9
    assert ("p", "low_contrast", "warning") in _codes(doc)
    # An ancestor's opacity counts too.
    del doc["nodes"]["p"]["style"]["base"]["opacity"]
    doc["nodes"]["main"]["style"]["base"]["opacity"] = 0.5
    assert ("p", "low_contrast", "error") in _codes(doc)


def test_large_text_needs_3_to_1_and_an_unresolvable_colour_is_unknown() -> None:
    grey = "#8a8a8a"  # 3.45:1 on white
    doc = build_page(H1, _styled("big", "text", {"content": "Big"}, base={"color": grey,
                     "fontSize": {"value": 24, "unit": "px"}}))  # fmt: skip
    assert [c for c in _codes(doc) if c[0] == "big"] == []
    doc["nodes"]["big"]["style"]["base"]["fontSize"] = {"value": 16, "unit": "px"}
    assert ("big", "low_contrast", "warning") in _codes(doc)
    doc["nodes"]["big"]["style"]["base"]["color"] = "var(--ink)"
    assert ("big", "contrast_unknown", "warning") in _codes(doc)
    doc["nodes"]["big"]["style"]["base"]["color"] = "#000"
    doc["nodes"]["main"]["style"] = {"base": {"background": "linear-gradient(#fff, #000)"}}
    assert ("big", "contrast_unknown", "warning") in _codes(doc)


def test_headings_one_h1_and_no_skipped_level() -> None:
    doc = build_page(H1, ("sub", "heading", {"content": "Our breads", "level": 3}))
    assert ("sub", "heading_skip", "warning") in _codes(doc)
    doc["nodes"]["sub"]["props"]["level"] = 2
    assert _codes(doc) == []
    doc["nodes"]["title"]["props"]["level"] = 2
    assert (None, "no_h1", "error") in _codes(doc)
    doc["nodes"]["title"]["props"]["level"] = 1
    doc["nodes"]["sub"]["props"]["level"] = 1
    assert ("sub", "many_h1", "warning") in _codes(doc)


def test_images_links_buttons_and_placeholders() -> None:
    doc = build_page(
        H1,
        ("img", "image", {"asset": "shop"}),
        ("deco", "image", {"asset": "shop", "alt": ""}),
        ("slot", "image", {"asset": "nowhere", "alt": "Our shop"}),
        ("go", "link", {"content": " ", "href": "/menu"}),
        ("buy", "button", {"label": ""}),
        ("todo", "text", {"content": "Image slot 1: choose a photo"}),
        ("lorem", "text", {"content": "Lorem ipsum dolor sit amet."}),
    )
    assert _codes(doc) == [
        ("img", "image_no_alt", "error"),
        ("slot", "placeholder", "error"),
        ("go", "link_no_name", "error"),
        ("buy", "button_no_name", "error"),
        ("todo", "placeholder", "error"),
        ("lorem", "placeholder", "error"),
    ]
    # cms_check says each once: what the copy and assets checks already report is not repeated.
    said = [(f.node, f.code) for f in PageChecks(assets=ASSETS).run(doc) if f.severity == "error"]
    assert ("todo", "placeholder") in said and ("lorem", "placeholder") not in said
    assert ("img", "missing_alt") in said and ("img", "image_no_alt") not in said


def test_an_invalid_language_is_reported_an_unset_one_is_the_default() -> None:
    doc = build_page(H1)
    assert _codes(doc) == []
    doc["meta"]["seo"]["lang"] = "english please"
    assert ("#meta", "missing_lang", "warning") in _codes(doc)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
_STYLE = st.dictionaries(
    st.sampled_from(["base", "md", "lg", "xl"]),
    st.dictionaries(
        st.sampled_from(["color", "background", "fontSize", "fontWeight"]),
        st.sampled_from(["#fff", "#000", "#7c2d12", "rgb(1 2 3 / 50%)", "var(--x)", "red", "none", 3])
        | st.fixed_dictionaries({"value": st.integers(-5, 90), "unit": st.sampled_from(["px", "rem", "%", "vw"])})
        | _JSON,
        max_size=4,
    ),
    max_size=3,
)
_NODE = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["section", "text", "heading", "link", "button", "image", "callout", "x"]),
        "props": st.dictionaries(
            st.sampled_from(["content", "label", "level", "alt", "asset", "href", "variant"]),
            st.text(max_size=12) | st.integers(-3, 9) | _JSON,
            max_size=4,
        ),
        "style": _STYLE | _JSON,
        "parent": st.sampled_from([None, "n0", "n1", "n2"]),
        "order": st.sampled_from(["V", "W", "X"]),
    }
)


@settings(max_examples=200, deadline=None)
@given(nodes=st.lists(_NODE, max_size=8), breakpoints=_JSON | st.just(["base", "lg", "md"]))
def test_the_quality_checks_never_raise(nodes: list[dict[str, Any]], breakpoints: Any) -> None:
    doc = build_page(*({"id": f"n{i}", **node} for i, node in enumerate(nodes)))
    doc["breakpoints"] = breakpoints
    for finding in quality_findings(doc, assets=ASSETS):
        assert finding.code in QUALITY_CODES and finding.severity in ("error", "warning")


@pytest.mark.parametrize("doc", [None, [], {"nodes": []}, {"nodes": {"a": 3}}, {"meta": 5}])
def test_a_malformed_document_gives_no_findings(doc: object) -> None:
    assert quality_findings(doc, assets=ASSETS) == []
