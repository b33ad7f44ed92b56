"""The offline builder's plan: valid, checked, deterministic pages from a brief and facts."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.unit.sections.briefs import CASES, DIRECTED

from charlotte.checks import PageChecks
from charlotte.demo import SAMPLE_BRIEF, SAMPLE_FACTS
from charlotte.page.assets import InMemoryAssetLibrary
from charlotte.page.model import empty_doc
from charlotte.page.node_types import ID_PATTERN
from charlotte.page.session import PageSession
from charlotte.policy import AssetPolicy
from charlotte.sections.writer import plan_page
from charlotte.tools import fact_texts


@pytest.mark.parametrize("case", sorted(CASES))
def test_plan_ids_are_unique_and_valid(case: str) -> None:
    brief, facts, _name, _shown = CASES[case]
    ids = [
        op["node"]["id"]
        for b in plan_page(brief, facts).batches
        for op in b.ops
        if op["t"] == "insert_node"
    ]
    assert len(ids) == len(set(ids))
    assert all(re.match(ID_PATTERN, i) for i in ids)


def test_plan_without_brief_or_facts_is_still_a_page() -> None:
    plan = plan_page("", None)
    assert plan.name == "Welcome"
    # Nothing to say and no one to call: a hero with the headline alone, no filler bands.
    assert [b.root for b in plan.batches] == ["hero"]
    assert [op["node"]["id"] for op in plan.batches[0].ops if op["t"] == "insert_node"] == [
        "hero",
        "hero-heading",
    ]


_WORDS = st.sampled_from(
    [
        "fresh",
        "bread",
        "Leeds",
        "cakes",
        "friendly",
        "open",
        "daily",
        "local",
        "team",
        "menu",
        "pricing",
        "about us",
        "contact",
        "reviews",
        "faq",
        "opening hours",
        "services",
        "features",
    ]
)
_VALUE = st.one_of(
    st.sampled_from(
        [
            "£4.50",
            "$9/month",
            "Mon-Fri 8:00-17:00",
            "0113 496 0321",
            "hi@shop.test",
            "12 High Street",
            "Seeded rye",
            "Great coffee",
            "since 1998",
            "20% off",
        ]
    ),
    st.text(st.characters(whitelist_categories=("Ll", "Lu")), min_size=1, max_size=30),
)
_FACTS = st.dictionaries(
    st.sampled_from(
        [
            "name",
            "tagline",
            "menu",
            "pricing",
            "team",
            "hours",
            "phone",
            "email",
            "address",
            "about",
            "reviews",
            "faq",
            "services",
            "features",
            "Extra",
        ]
    ),
    st.one_of(
        _VALUE,
        st.lists(_VALUE, max_size=5),
        st.dictionaries(_VALUE, _VALUE, max_size=5),
    ),
    max_size=8,
)


@settings(max_examples=60, deadline=None)
@given(words=st.lists(_WORDS, max_size=12), facts=_FACTS)
def test_any_plan_is_a_valid_page_whose_checks_report_no_errors(
    words: list[str], facts: dict[str, Any]
) -> None:
    brief = "Oak & Ash is a " + " ".join(words) + "."
    plan = plan_page(brief, facts)
    page = PageSession(empty_doc("home"))
    for batch in plan.batches:
        page.apply(list(batch.ops), based_on=page.revision, actor="agent", fill_defaults=True)
    PageSession(page.doc)  # reloads: the whole document is valid
    AssetPolicy(InMemoryAssetLibrary()).assert_doc(page.doc)
    findings = PageChecks(facts=fact_texts(facts), brief=brief).run(page.doc)
    assert [f for f in findings if f.severity == "error"] == []
    assert not [f for f in findings if f.check == "facts"]


@pytest.mark.parametrize("case", sorted(DIRECTED))
def test_directed_briefs_give_checked_valid_distinct_pages(case: str) -> None:
    brief, facts, _directions, _offers, _links = DIRECTED[case]
    plan = plan_page(brief, facts)
    # The plan as written, with no fix batches: its own copy must pass the checks.
    page = PageSession(empty_doc("home"))
    for batch in plan.batches:
        page.apply(list(batch.ops), based_on=page.revision, actor="agent", fill_defaults=True)

    doc = PageSession(page.doc).doc
    assert all(re.match(ID_PATTERN, node_id) for node_id in doc["nodes"])
    findings = PageChecks(facts=fact_texts(facts), brief=brief).run(doc)
    assert [f for f in findings if f.severity == "error"] == []
    assert [f for f in findings if f.check == "facts"] == []
    assert plan_page(brief, facts) == plan
    others = [plan_page(b, f) for k, (b, f, *_rest) in DIRECTED.items() if k != case]
    assert all(o.batches != plan.batches for o in others)


def test_the_sample_page_reads_like_the_brief() -> None:
    plan = plan_page(SAMPLE_BRIEF, SAMPLE_FACTS)
    texts = {
        op["node"]["id"]: op["node"].get("props", {}).get("content")
        for b in plan.batches
        for op in b.ops
        if op["t"] == "insert_node"
    }
    assert texts["hero-text"] == "A family bakery in Lisbon."
    assert texts["about-us-text"] == (
        "Rosa's Bakery is a family bakery in Lisbon baking sourdough, pastel de nata and "
        "seasonal cakes every morning."
    )
    assert texts["menu-note"] == "Baked every morning."
    # The price only as the facts give it, verbatim.
    assert texts["menu-featured-1-text"] == SAMPLE_FACTS["signature"]
    assert [t for t in texts.values() if t and "4.50" in t] == [SAMPLE_FACTS["signature"]]
