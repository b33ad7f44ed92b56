"""``PageChecks`` as a whole: public API, result order, ``only``, malformed documents."""

# Page copy is typeset: the en dashes (U+2013) in the test data are deliberate.
# ruff: noqa: RUF001

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import charlotte.checks
from charlotte.checks import Claim, Finding, PageChecks
from charlotte.page.assets import InMemoryAssetLibrary


def test_public_names() -> None:
    assert sorted(charlotte.checks.__all__) == ["Claim", "Finding", "PageChecks"]


def test_claims_and_findings_are_frozen_values() -> None:
    finding = Finding("copy", None, "warning", "no_heading", "The page has no heading.")
    claim = Claim("price", "£4.50", "GBP 4.5", "p")
    for value in (finding, claim):
        # Python 3.11 raises TypeError instead for frozen *slotted* dataclasses.
        with pytest.raises((dataclasses.FrozenInstanceError, TypeError)):
            value.code = "x"  # type: ignore[misc, union-attr]
    assert finding.to_json() == {
        "check": "copy",
        "node": None,
        "severity": "warning",
        "code": "no_heading",
        "message": "The page has no heading.",
    }
    assert json.loads(json.dumps(finding.to_json())) == finding.to_json()


def test_href_helpers_use_the_configured_site_origin() -> None:
    checks = PageChecks(site_origin="https://rosebakery.co.uk")
    assert checks.is_safe_href("/menu") and not checks.is_safe_href("javascript:alert(1)")
    assert checks.external_origin("https://rosebakery.co.uk/menu") is None
    assert checks.external_origin("https://Maps.Example.com/x") == "https://maps.example.com"
    assert (
        PageChecks().external_origin("https://rosebakery.co.uk/menu") == "https://rosebakery.co.uk"
    )


def messy_page(build: Any) -> dict[str, Any]:
    return build(
        ("p1", "text", {"content": "Loaves £3.95 TODO"}),
        ("img", "image", {"asset": "nope"}),
        ("l", "link", {"content": "Map", "href": "https://maps.example.com/"}),
        ("p2", "text", {"content": "Since 1979, [Name]"}),
        ("x", "button", {"label": "Go", "href": "javascript:alert(1)"}),
    )


def test_checks_report_in_a_fixed_order(build: Any) -> None:
    findings = PageChecks(assets=InMemoryAssetLibrary()).run(messy_page(build))
    assert [(f.check, f.node, f.code) for f in findings] == [
        ("facts", "p1", "unsupported_price"),
        ("facts", "p2", "unsupported_year"),
        ("copy", "p1", "placeholder_copy"),
        ("copy", "img", "missing_alt"),
        ("copy", "p2", "bracket_placeholder"),
        ("copy", None, "no_heading"),
        ("links", "l", "external_link"),
        ("links", "x", "unsafe_link"),
        ("assets", "img", "authored_asset"),
        ("quality", None, "no_h1"),
    ]


def test_only_picks_checks_and_never_changes_their_order(build: Any) -> None:
    checks = PageChecks()
    doc = messy_page(build)
    everything = checks.run(doc)
    picked = checks.run(doc, only=["links", "facts"])
    assert picked == [f for f in everything if f.check in ("facts", "links")]
    assert checks.run(doc, only=("facts", "links")) == picked
    assert checks.run(doc, only="copy") == checks.run(doc, only=["copy"])
    assert checks.run(doc, only=[]) == []
    with pytest.raises(ValueError, match="only may name"):
        checks.run(doc, only=["facts", "spelling"])


def test_results_do_not_depend_on_node_map_order(build: Any) -> None:
    checks = PageChecks()
    doc = messy_page(build)
    expected = checks.run(doc)
    items = list(doc["nodes"].items())
    for seed in range(5):
        random.Random(seed).shuffle(items)
        assert checks.run({**doc, "nodes": dict(items)}) == expected
    assert checks.run(doc) == expected  # and running twice changes nothing


def test_the_document_is_not_modified(build: Any) -> None:
    doc = messy_page(build)
    before = json.dumps(doc, sort_keys=True)
    PageChecks().run(doc)
    PageChecks().facts(doc)
    PageChecks().copy(doc)
    assert json.dumps(doc, sort_keys=True) == before


NO_HEADING = [Finding("copy", None, "warning", "no_heading", "The page has no heading.")]


@pytest.mark.parametrize(
    "doc",
    [
        None,
        [],
        "page",
        42,
        {},
        {"nodes": []},
        {"nodes": "x"},
        {"nodes": {"a": None, "b": 3, "c": [], "d": "text"}},
        {"nodes": {"a": {"type": "text"}}},  # no id
        {"nodes": {"a": {"id": 5, "type": "heading", "parent": None}}},
        {"nodes": {"a": {"id": "a", "type": None, "parent": None, "props": "x"}}},
        {
            "nodes": {
                "a": {"id": "a", "type": "section", "parent": "b", "order": "V"},
                "b": {"id": "b", "type": "section", "parent": "a", "order": "V"},
            }
        },  # a cycle
        {
            "nodes": {
                "a": {
                    "id": "a",
                    "type": "text",
                    "parent": None,
                    "order": 3,
                    "props": {"content": ["x"]},
                    "actions": "x",
                }
            }
        },
    ],
)
def test_malformed_documents_do_not_crash(doc: Any) -> None:
    checks = PageChecks(facts={"phone": "020 7946 0958"}, brief="x", site_origin="not a url")
    findings = checks.run(doc)
    assert [f for f in findings if f.code != "empty_copy"] == NO_HEADING
    assert checks.copy(doc) == []
    assert checks.facts(doc) == []


def test_malformed_brief_and_facts_do_not_crash(build: Any) -> None:
    facts: Any = {"phone": 2079460958, "ok": True, "nested": {"a": 1}, 3: "£4.50"}
    checks = PageChecks(brief=None, facts=facts)  # type: ignore[arg-type]
    doc = build(("h", "heading", {"content": "£4.50, call 2079460958"}))
    assert checks.run(doc, only=["facts"]) == []


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
node_types = st.sampled_from(
    [
        "section",
        "card",
        "text",
        "heading",
        "link",
        "button",
        "image",
        "callout",
        "code",
        "richtext",
        "x",
    ]
)
copy_text = st.text(
    alphabet=st.sampled_from(list("0123456789 .,:-–/+$€£%()#@amptodTODOLoremipsum[]{}\n")),
    max_size=60,
)
nodes = st.dictionaries(
    st.sampled_from(["a", "b", "c", "d", "e"]),
    st.fixed_dictionaries(
        {
            "id": st.sampled_from(["a", "b", "c", "d", "e"]) | json_values,
            "type": node_types | json_values,
            "parent": st.sampled_from([None, "a", "b", "c", "missing"]) | json_values,
            "order": st.sampled_from(["V", "a0", "a1"]) | json_values,
            "props": st.fixed_dictionaries(
                {},
                optional={
                    "content": copy_text | json_values,
                    "label": copy_text,
                    "alt": copy_text,
                    "href": st.sampled_from(
                        [
                            "#a",
                            "#zz",
                            "/x",
                            "javascript:x",
                            "tel:+1 555 010 2000",
                            "mailto:a@b.example",
                            "https://e.example",
                        ]
                    )
                    | json_values,
                },
            )
            | json_values,
            "actions": json_values,
            "island": st.booleans(),
            "style": json_values,
        }
    )
    | json_values,
    max_size=5,
)


@settings(max_examples=150, deadline=None)
@given(doc=st.fixed_dictionaries({"nodes": nodes}) | json_values)
def test_any_json_document_gives_findings_and_never_raises(doc: Any) -> None:
    checks = PageChecks(
        brief="Open Mon-Fri 8-18, £4.50, +44 20 7946 0958", site_origin="https://s.example"
    )
    findings = checks.run(doc)
    assert all(isinstance(f, Finding) for f in findings)
    assert findings == checks.run(doc)
    for claim in checks.facts(doc):
        assert isinstance(claim, Claim) and claim.node


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=200))
def test_reading_any_text_never_raises(text: str) -> None:
    from charlotte.checks.claims import read

    for found in read(text).found:
        assert 0 <= found.start <= found.end <= len(text)


claim_like_text = st.text(
    alphabet=st.sampled_from(list("0123456789٣ .,:;'-–/+()$€£¥%@#kKmxh★©ampEUR")),
    max_size=80,
)


@settings(max_examples=300, deadline=None)
@given(page=claim_like_text, source=claim_like_text)
def test_number_heavy_text_never_raises_and_repeating_the_source_is_supported(
    page: str, source: str
) -> None:
    from charlotte.checks.claims import read
    from charlotte.checks.facts import Evidence

    read(page)
    evidence = Evidence(source, {"k": page})
    # Whatever the page says, saying exactly what the facts say is supported.
    assert all(evidence.supports(found) for found in read(page).found)


def test_very_long_digit_runs_are_not_numbers() -> None:
    from charlotte.checks.claims import read

    assert read("1" * 40).found == []
    assert read("9" * 25 + " million customers").found == []
