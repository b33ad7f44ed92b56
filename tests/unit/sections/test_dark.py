"""A brief that asks for a dark page gets one, every word on it legible (4.5:1); others stay light."""

from __future__ import annotations

from typing import Any

import pytest

from charlotte.checks import PageChecks
from charlotte.page.model import empty_doc
from charlotte.page.session import PageSession
from charlotte.sections.colours import contrast, legible_words
from charlotte.sections.dark import asks_dark
from charlotte.sections.writer import plan_page
from charlotte.tools import fact_texts

_FACTS: dict[str, Any] = {
    "name": "Night Owl Studio",
    "phone": "07700 900 812",
    "email": "hello@nightowl.example",
    "address": "4 Quay Street, Whitby YO21 3PT",
    "prices": "Portrait session £180; Family shoot £240; Prints from £25",
    "reviews": "'Relaxed and fun' - Priya; 'Stunning photos' - Mark",
    "hours": "Tue-Sat 10am-6pm",
}
_SECTIONS = "Sections: portfolio, prices, about me, reviews, opening hours, contact."
_LOOKS = {
    "bold": "",
    "calm": " Calm and gentle.",
    "minimal": " Minimal and elegant.",
}


def _built(brief: str) -> dict[str, Any]:
    page = PageSession(empty_doc("home"))
    for batch in plan_page(brief, _FACTS).batches:
        page.apply(list(batch.ops), based_on=page.revision, actor="agent", fill_defaults=True)
    return page.doc


def _base(node: dict[str, Any]) -> dict[str, Any]:
    base: dict[str, Any] = node.get("style", {}).get("base", {})
    return base


@pytest.mark.parametrize("look", sorted(_LOOKS))
def test_a_dark_page_is_dark_and_every_word_on_it_reads(look: str) -> None:
    brief = (
        "Night Owl Studio - I'm Ezra, a portrait photographer in Whitby. I want the site dark "
        f"and moody, a black background.{_LOOKS[look]} {_SECTIONS}"
    )
    doc = _built(brief)
    nodes = list(doc["nodes"].values())
    roots = [n for n in nodes if n["parent"] is None]
    # Every band is on a dark ground: white words would read on it.
    for root in roots:
        assert contrast("#ffffff", _base(root)["background"]) >= 4.5, root["id"]
    # Every word reads on the ground it sits on, and every button's label on the button.
    assert legible_words(nodes) == {}
    for node in nodes:
        base = _base(node)
        if node["type"] == "button" and base.get("background") not in (None, "transparent"):
            assert contrast(base["color"], base["background"]) >= 4.5, node["id"]
    findings = PageChecks(facts=fact_texts(_FACTS), brief=brief).run(doc)
    assert [f.code for f in findings if f.code != "placeholder"] == []


def test_a_brief_that_does_not_ask_keeps_its_light_page() -> None:
    doc = _built("Night Owl Studio - I'm Ezra, a portrait photographer in Whitby. " + _SECTIONS)
    bands = [n for n in doc["nodes"].values() if n["parent"] is None and n["id"] != "hero"]
    assert all(contrast("#111111", _base(n)["background"]) >= 4.5 for n in bands)
    assert any(_base(n)["background"] == "#ffffff" for n in bands)


@pytest.mark.parametrize(
    ("brief", "asked"),
    [
        ("I want the site dark and moody, black background, so the photos pop.", True),
        ("A dark theme please, with gold accents.", True),
        ("Dark mode, neon pink headings.", True),
        ("Charcoal background, white type.", True),
        # Refused, or "dark" naming something else: a light page.
        ("Light and airy, no dark background.", False),
        ("Not a black background please, it feels heavy.", False),
        ("Dark chocolate brownies and night-time deliveries.", False),
        ("Blackbird Cafe on Dark Lane.", False),
        ("Calm, soft neutral colours.", False),
    ],
)
def test_a_dark_page_is_asked_for_in_so_many_words(brief: str, asked: bool) -> None:
    assert asks_dark(brief) is asked
