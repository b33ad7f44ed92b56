"""Every fact a host gives is on the first page, in the shape its value has."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from tests.unit.sections.test_pages import _built, _words

from charlotte.checks import PageChecks
from charlotte.sections.context import context_of
from charlotte.sections.fact_bands import batch_texts, entries, unshown
from charlotte.sections.writer import MAX_FACT_BANDS, plan_page

PEOPLE = Path(__file__).parents[3] / "src/charlotte/evaluation/cases/people.json"
CASES = json.loads(PEOPLE.read_text(encoding="utf-8"))["cases"]
FOOD_TRUCK = {
    "name": "Big Bun Bus",
    "menu": "Classic smash £8.50; Double trouble £11",
    "schedule": "Tue - UEA campus\nWed - Norwich Market\nFri & Sat - Sprowston Brewery",
    "catering": "Parties, weddings and work dos. Minimum 40 guests.",
    "instagram": "@bigbunbus",
    "phone": "07700 900311",
}
BRIEF = "Big Bun Bus is Norwich's loudest burger van. Show the menu and where we park each day."


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_every_fact_of_every_people_case_is_on_the_first_page(case: dict[str, Any]) -> None:
    plan = plan_page(case["brief"], case["facts"])
    ctx = context_of(case["brief"], case["facts"])
    named = {title.lower() for title, _why in plan.left_out}

    missing = [k for k in unshown(ctx, batch_texts(plan.batches)) if k.replace("_", " ") not in named]
    assert missing == []


def test_a_schedule_keeps_each_entry_whole_and_a_handle_is_shown_as_written() -> None:
    doc = _built(BRIEF, FOOD_TRUCK)
    words = _words(doc)

    assert {"Tue - UEA campus", "Wed - Norwich Market", "Fri & Sat - Sprowston Brewery"} <= set(words)
    assert "Parties, weddings and work dos. Minimum 40 guests." in words  # prose stays whole
    assert "@bigbunbus" in words and "Follow us" in words
    # The handle links to its profile (where the host allows it: the page's link policy decides).
    (handle,) = [n for n in doc["nodes"].values() if n.get("props", {}).get("content") == "@bigbunbus"]
    assert handle["type"] == "link" and handle["props"]["href"] == "https://www.instagram.com/bigbunbus"
    assert doc["nodes"]["schedule-heading"]["props"]["content"] == "Schedule"
    roots = [n["id"] for n in sorted(doc["nodes"].values(), key=lambda n: n["order"]) if n["parent"] is None]
    assert roots[-1] == "contact" and roots.index("schedule") < roots.index("contact")
    findings = PageChecks(
        facts={k: str(v) for k, v in FOOD_TRUCK.items()}, brief=BRIEF, allowed_origins=["https://www.instagram.com"]
    ).run(doc)
    assert [f for f in findings if f.severity == "error" or f.check == "facts"] == []


def test_a_value_that_is_no_pair_stays_whole_and_a_priced_list_is_rows() -> None:
    facts = {"puppy_club": "Children from age 6 welcome at puppy club",
             "extras": "Nail clip £8; Microchip £20", "phone": "01603 555 0123"}  # fmt: skip
    doc = _built("Wensum Vets is a vet practice in Norwich.", facts)
    words = _words(doc)

    assert "Children from age 6 welcome at puppy club" in words
    assert {"Nail clip", "£8", "Microchip", "£20"} <= set(words)


def test_facts_that_steer_the_page_are_never_a_band() -> None:
    plan = plan_page("Rose Bakery is a bakery in Lisbon.", {"tone": "warm", "colours": "green", "language": "en"})
    assert [b.root for b in plan.batches if b.root in ("tone", "colours", "language")] == []


def test_more_facts_than_bands_are_named_in_the_reply() -> None:
    facts = {f"extra_{n}": f"Thing number {n} we want shown" for n in range(MAX_FACT_BANDS + 2)}
    plan = plan_page("Rose Bakery is a bakery in Lisbon.", facts)
    assert [t for t, _why in plan.left_out] == [f"Extra {MAX_FACT_BANDS}", f"Extra {MAX_FACT_BANDS + 1}"]


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("a; b;; c", ["a", "b", "c"]),
        ("• one\n• two\r\n- three", ["one", "two", "three"]),
        ("Bath, Bristol and the Cotswolds", ["Bath, Bristol and the Cotswolds"]),
        ("x · y | z", ["x", "y", "z"]),
        (["p", " ", 3], ["p", "3"]),
        ({"Mon": "9-5", "Sun": ""}, ["Mon: 9-5", "Sun"]),
        (None, []),
    ],
)
def test_entries_split_at_semicolons_lines_and_bullets_never_commas(value: Any, said: list[str]) -> None:
    assert entries(value) == said


def test_reading_entries_is_linear() -> None:
    started = time.perf_counter()
    entries(" " * 200_000 + ";" + "\n" * 200_000 + "- " * 100_000)
    assert time.perf_counter() - started < 1.0
