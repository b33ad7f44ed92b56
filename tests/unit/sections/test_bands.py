"""``build_section``: one band of a known kind from the brief and facts only, or None."""

from __future__ import annotations

from typing import Any

import pytest
from tests.unit.sections.briefs import PAGES

from charlotte.checks import PageChecks
from charlotte.page.assets import InMemoryAssetLibrary
from charlotte.page.model import empty_doc
from charlotte.page.session import PageSession
from charlotte.sections.writer import KIND_KEYS, KIND_NAMES, build_section, plan_page, scheme_of
from charlotte.tools import fact_texts

BRIEF = (
    "Harbour Lane Physiotherapy is a physio clinic in Whitby offering sports massage, back "
    "care and home visits. Calm, reassuring tone."
)
FACTS: dict[str, Any] = {
    "name": "Harbour Lane Physiotherapy",
    "phone": "01947 600 123",
    "email": "hello@harbourlane.test",
    "address": "4 Harbour Lane, Whitby YO21 3PU",
    "prices": "Assessment £55; Follow-up £45; Home visit £70",
    "opening_hours": "Mon-Fri 8:00-19:00, Sat 9:00-13:00",
    "about": "Two physiotherapists who have treated Whitby's rowers since the club began.",
    "team": "Ada Moss: physiotherapist; Ben Hale: sports therapist",
    "reviews": "Back on the water in three weeks.",
    "menu": "Sports tape £4; Foam roller £18",
    "features": "Online booking; Free parking",
    "gallery": "clinic-front, treatment-room",
}
ASSETS = InMemoryAssetLibrary({"clinic-front": "/a/front.jpg", "treatment-room": "/a/room.jpg"})


def _page_with_the_plan() -> PageSession:
    page = PageSession(empty_doc("home"))
    for batch in plan_page(BRIEF, {"name": FACTS["name"]}).batches:
        page.apply(list(batch.ops), based_on=page.revision, actor="agent", fill_defaults=True)
    return page


def test_kind_names_cover_every_kind() -> None:
    assert set(KIND_NAMES) == set(KIND_KEYS)
    assert {"faq", "faqs", "questions", "frequently asked questions"} <= set(KIND_NAMES["faq"])
    assert "opening hours" in KIND_NAMES["hours"] and "call to action" in KIND_NAMES["cta"]
    for kind in (
        "services",
        "pricing",
        "hours",
        "faq",
        "team",
        "gallery",
        "testimonials",
        "about",
        "contact",
        "location",
        "cta",
        "menu",
    ):
        assert kind in KIND_KEYS


@pytest.mark.parametrize("kind", KIND_KEYS)
def test_each_kind_builds_valid_checked_ops_that_take_no_id(kind: str) -> None:
    page = _page_with_the_plan()
    taken = set(page.doc["nodes"])
    scheme = scheme_of(BRIEF, FACTS)
    batch = build_section(kind, BRIEF, FACTS, scheme, index=3, taken_ids=taken)
    assert batch is not None
    assert not set(batch.node_ids()) & taken
    assert batch == build_section(kind, BRIEF, FACTS, scheme, index=3, taken_ids=taken)
    page.apply(list(batch.ops), based_on=page.revision, actor="agent", fill_defaults=True)
    doc = PageSession(page.doc).doc
    assert doc["nodes"][batch.root]["parent"] is None
    findings = PageChecks(facts=fact_texts(FACTS), brief=BRIEF, assets=ASSETS).run(doc)
    assert findings == []


@pytest.mark.parametrize(
    "kind",
    [
        "services",
        "pricing",
        "hours",
        "faq",
        "team",
        "testimonials",
        "about",
        "contact",
        "location",
        "cta",
        "menu",
        "features",
        "offer",
    ],
)
def test_a_kind_nothing_feeds_is_none(kind: str) -> None:
    brief = "Oak & Ash is a joinery in York."
    scheme = scheme_of(brief, {})
    assert build_section(kind, brief, {}, scheme, index=0, taken_ids=()) is None


def test_an_unknown_kind_is_none() -> None:
    assert (
        build_section("blog", BRIEF, FACTS, scheme_of(BRIEF, FACTS), index=0, taken_ids=()) is None
    )


def test_testimonials_only_from_the_hosts_facts() -> None:
    scheme = scheme_of(BRIEF, FACTS)
    without = {k: v for k, v in FACTS.items() if k != "reviews"}
    assert build_section("testimonials", BRIEF, without, scheme, index=0, taken_ids=()) is None
    batch = build_section("testimonials", BRIEF, FACTS, scheme, index=0, taken_ids=())
    assert batch is not None
    texts = [op["node"].get("props", {}).get("content") for op in batch.ops]
    assert "“Back on the water in three weeks.”" in texts


def test_the_faq_answers_only_what_the_facts_answer() -> None:
    facts = {"phone": "01947 600 123", "opening_hours": "Mon-Fri 8:00-19:00"}
    batch = build_section("faq", BRIEF, facts, scheme_of(BRIEF, facts), index=0, taken_ids=())
    assert batch is not None
    props = [op["node"].get("props", {}) for op in batch.ops]
    questions = [p["content"] for p in props if p.get("level") == 3]
    assert questions == ["When are you open?", "What do you offer?", "How can I get in touch?"]
    answers = [p["content"] for p in props if "content" in p and "level" not in p]
    assert answers == [
        "Mon-Fri 8:00-19:00.",
        "Sports massage, back care and home visits.",
        "Call 01947 600 123.",
    ]
    own = {"faq": {"Do you take referrals?": "Yes, from any GP."}, "phone": "01947 600 123"}
    mine = build_section("faq", "", own, scheme_of("", own), index=0, taken_ids=())
    assert mine is not None  # the host's own question, and how to get in touch
    assert "Yes, from any GP." in [op["node"].get("props", {}).get("content") for op in mine.ops]


def test_a_gallery_without_photos_is_marked_image_slots() -> None:
    facts = {k: v for k, v in FACTS.items() if k != "gallery"}
    batch = build_section("gallery", BRIEF, facts, scheme_of(BRIEF, facts), index=0, taken_ids=())
    assert batch is not None
    nodes = [op["node"] for op in batch.ops]
    assert not [n for n in nodes if n["type"] == "image"]
    labels = [n["props"]["content"] for n in nodes if n["type"] == "text"]
    assert labels and all(label.startswith("Image slot ") for label in labels)


def test_the_gallery_shows_the_assets_the_facts_name() -> None:
    batch = build_section("gallery", BRIEF, FACTS, scheme_of(BRIEF, FACTS), index=0, taken_ids=())
    assert batch is not None
    assets = [op["node"]["props"]["asset"] for op in batch.ops if op["node"]["type"] == "image"]
    assert assets == ["clinic-front", "treatment-room"]


def test_card_titles_from_a_facts_list_start_with_a_capital_and_keep_names_as_written() -> None:
    facts = {"name": "Spoke & Chain", "services": "puncture repair, full service, iPhone mounts"}
    brief = "Spoke & Chain is a bike repair workshop in Otley."
    batch = build_section("services", brief, facts, scheme_of(brief, facts), index=0, taken_ids=())
    assert batch is not None
    titles = [op["node"]["props"]["content"] for op in batch.ops if op["node"]["id"].endswith("-title")]
    assert titles == ["Puncture repair", "Full service", "iPhone mounts"]


def test_ids_taken_by_the_page_move_the_band_to_a_free_root() -> None:
    scheme = scheme_of(BRIEF, FACTS)
    first = build_section("hours", BRIEF, FACTS, scheme, index=0, taken_ids={"hero"})
    assert first is not None and first.root == "opening-hours"
    again = build_section("hours", BRIEF, FACTS, scheme, index=0, taken_ids=first.node_ids())
    assert again is not None and again.root == "opening-hours-2"
    # A person's node holding a child id of the band moves the whole band too.
    child = build_section(
        "hours", BRIEF, FACTS, scheme, index=0, taken_ids={"opening-hours-row-1"}
    )
    assert child is not None and child.root == "opening-hours-2"


@pytest.mark.parametrize("case", sorted(PAGES))
def test_plan_page_builds_its_sections_with_build_section(case: str) -> None:
    brief, facts, *_rest = PAGES[case]
    plan = plan_page(brief, facts)
    scheme = scheme_of(brief, facts)
    taken: set[str] = set(plan.batches[0].node_ids())
    kinds = {
        "services": "services",
        "pricing": "pricing",
        "opening-hours": "hours",
        "questions": "faq",
        "contact": "contact",
        "gallery": "gallery",
        "about-us": "about",
    }
    for n, batch in enumerate(plan.batches[1:]):
        alone = build_section(kinds[batch.root], brief, facts, scheme, index=n, taken_ids=taken)
        assert alone == batch
        taken |= set(batch.node_ids())


def test_the_call_to_action_says_what_the_brief_asks_and_calls() -> None:
    brief = BRIEF + " Call to action: book an assessment."
    batch = build_section("cta", brief, FACTS, scheme_of(brief, FACTS), index=0, taken_ids=())
    assert batch is not None
    nodes = {op["node"]["id"]: op["node"] for op in batch.ops}
    assert nodes["call-to-action-heading"]["props"]["content"] == "Book an assessment"
    assert nodes["call-to-action-phone"]["props"]["href"] == "tel:01947600123"
    plain = build_section("cta", BRIEF, FACTS, scheme_of(BRIEF, FACTS), index=0, taken_ids=())
    assert plain is not None
    heading = next(op["node"] for op in plain.ops if op["node"]["type"] == "heading")
    assert heading["props"]["content"] == "Call Harbour Lane Physiotherapy"


def test_an_address_no_phone_fits_links_with_a_verb() -> None:
    facts = {"email": "enquiries.and.bookings@supercalifragilisticexpialidocious-cleaning.test"}
    batch = build_section("contact", "", facts, scheme_of("", facts), index=0, taken_ids=())
    assert batch is not None
    link = next(op["node"] for op in batch.ops if op["node"]["type"] == "button")
    assert link["props"] == {
        "label": "Send an e-mail",
        "href": "mailto:" + facts["email"],
        "variant": "primary",
    }
