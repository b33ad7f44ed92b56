"""The follow-up reader: ordinary phrasings become typed requests; hostile messages stay linear."""

from __future__ import annotations

import time

import pytest

from charlotte.offline.intents import read_requests
from charlotte.offline.looks import look_ops
from charlotte.offline.requests import (
    MAX_MESSAGE,
    MAX_REQUESTS,
    AddSection,
    MoveSection,
    RemoveSection,
    Request,
    Resize,
    Restyle,
    SetText,
    Target,
    Unsupported,
    is_build_request,
)

HERO_HEADING = Target(None, "heading")
SERIF = "Georgia, Times New Roman, serif"

PHRASINGS: list[tuple[str, list[Request]]] = [
    (
        "change the hero headline to 'Bread, and butter'",
        [SetText(HERO_HEADING, "Bread, and butter")],
    ),
    ("Set the headline to Fresh bread daily.", [SetText(HERO_HEADING, "Fresh bread daily")]),
    (
        "make the hero headline \u201cLoaves worth waking for\u201d",
        [SetText(HERO_HEADING, "Loaves worth waking for")],
    ),
    (
        "rename the services heading to Treatments",
        [SetText(Target("services", "heading"), "Treatments")],
    ),
    ("the button should say Order now", [SetText(Target(None, "button"), "Order now")]),
    (
        "Change 'Visit us' to 'Come and see us'",
        [SetText(Target("Visit us", "quote"), "Come and see us")],
    ),
    ("replace \u201cCall us\u201d with Ring us", [SetText(Target("Call us", "quote"), "Ring us")]),
    ("use 'Bread, daily' as the headline", [SetText(HERO_HEADING, "Bread, daily")]),
    ("shorter headline", [Resize(HERO_HEADING, longer=False)]),
    ("Make the subheading shorter", [Resize(Target(None, "text", hero_text=True), longer=False)]),
    ("make the about text longer", [Resize(Target("about", "text"), longer=True)]),
    ("add an FAQ", [AddSection("faq")]),
    ("add a section with our opening hours", [AddSection("hours")]),
    ("add a section about our team", [AddSection("team")]),
    ("add an about section", [AddSection("about")]),
    ("please  add   an  FAQ", [AddSection("faq")]),
    ("add testimonials and a gallery", [AddSection("testimonials"), AddSection("gallery")]),
    ("add a call to action at the bottom", [AddSection("cta", "bottom")]),
    (
        "add a contact section below the about section",
        [AddSection("contact", "below", "the about section")],
    ),
    ("put the pricing above services", [MoveSection("pricing", "above", "services")]),
    ("move contact to the top", [MoveSection("contact", "top")]),
    ("put opening hours first", [MoveSection("opening hours", "top")]),
    ("remove the gallery", [RemoveSection("gallery")]),
    ("delete the team section", [RemoveSection("team")]),
    ("drop the specials section", [RemoveSection("specials")]),
    ("get rid of the about section", [RemoveSection("about")]),
    ("use a darker palette", [Restyle("tone", "darker")]),
    ("make it warmer", [Restyle("tone", "warmer")]),
    ("use a cooler palette", [Restyle("tone", "cooler")]),
    ("make it more minimal", [Restyle("shape", "minimal")]),
    ("make it bolder", [Restyle("shape", "bold")]),
    ("use a serif font", [Restyle("font", SERIF)]),
    ("use a serif font for the headings", [Restyle("font", SERIF, "headings")]),
    ("make the background dark", [Restyle("background", "dark")]),
    ("Use a dark colour scheme.", [Restyle("background", "dark")]),
    ("switch to a light theme", [Restyle("background", "light")]),
    ("Switch to dark mode", [Restyle("background", "dark")]),
    ("use a warmer palette and a serif font", [Restyle("tone", "warmer"), Restyle("font", SERIF)]),
    ("a bolder, darker look", [Restyle("shape", "bold"), Restyle("tone", "darker")]),
    # The page itself darker: a dark page, not a darker accent on a light one.
    ("Make it darker", [Restyle("background", "dark")]),
    # The hero band itself, not its words.
    ("Make the hero shorter", [Restyle("height", "shorter", "hero")]),
    ("make the banner a bit taller", [Restyle("height", "taller", "hero")]),
    ("make the whole page darker", [Restyle("background", "dark")]),
    ("make the buttons darker", [Restyle("tone", "darker")]),
    ("make it a darker blue", [Restyle("tone", "darker")]),
    ("change the accent colour to green", [Restyle("accent", "#15803d")]),
    ("change the accent color to #2a7", [Restyle("accent", "#22aa77")]),
    # Words that name a colour are words when they are a heading's new words.
    (
        "change the headline to Green Leaf Caf\u00e9",
        [SetText(HERO_HEADING, "Green Leaf Caf\u00e9")],
    ),
    ("Write me a poem", [Unsupported("Write me a poem")]),
    # The catalogue's names (sections.KIND_NAMES): a brief's word for a section is a person's.
    ("add a classes section", [AddSection("services")]),
    ("Add some reviews", [AddSection("testimonials")]),
    # A section's name describing something else is not that section.
    (
        "add a booking calendar with online payments",
        [Unsupported("add a booking calendar with online payments")],
    ),
    ("add a contact form", [Unsupported("add a contact form")]),
]


@pytest.mark.parametrize(("message", "expected"), PHRASINGS, ids=[m for m, _ in PHRASINGS])
def test_phrasings_read_as_requests(message: str, expected: list[Request]) -> None:
    # A refusal's reason is the intent tables' to pin (tests/unit/offline/test_intent_*.py).
    read = [Unsupported(r.words) if isinstance(r, Unsupported) else r for r in read_requests(message)]
    assert read == expected


def test_several_requests_are_read_in_order() -> None:
    requests = read_requests(
        "Please make the headline shorter and add an FAQ, then move contact to the top. "
        "Also use a serif font; and translate it into French"
    )

    assert [Unsupported(r.words) if isinstance(r, Unsupported) else r for r in requests] == [
        Resize(HERO_HEADING, longer=False),
        AddSection("faq"),
        MoveSection("contact", "top"),
        Restyle("font", SERIF),
        Unsupported("translate it into French"),
    ]


def test_and_inside_new_words_does_not_split_them() -> None:
    assert read_requests("Set the headline to Bread and Butter") == [
        SetText(HERO_HEADING, "Bread and Butter")
    ]


def test_build_requests_are_told_apart() -> None:
    assert is_build_request("Build the page from the brief and the facts.")
    assert is_build_request("Please check the page again.")
    assert not is_build_request("add an FAQ")


@pytest.mark.parametrize(
    "message",
    [
        "and add " * 20_000,
        "'" * 100_000,
        "\u201c" * 100_000,
        "change the " + "headline " * 20_000 + "to x",
        "#" * 100_000,
        "1 " * 50_000,
        "make the " + ". " * 50_000,
    ],
    ids=["ands", "quotes", "curly", "long-target", "hashes", "digits", "dots"],
)
def test_hostile_messages_are_read_in_bounded_time(message: str) -> None:
    started = time.perf_counter()
    requests = read_requests(message)
    elapsed = time.perf_counter() - started

    assert len(requests) <= MAX_REQUESTS
    assert elapsed < 0.5, elapsed
    assert all(len(getattr(r, "words", "")) <= MAX_MESSAGE for r in requests)


def test_a_colour_scan_over_a_long_style_string_is_linear() -> None:
    nodes = [
        {"id": f"n{i}", "type": "button", "parent": None,
         "style": {"base": {"background": "#c2410c", "border": "#" * 180 + " #c2410c"}}}
        for i in range(2_000)
    ]  # fmt: skip
    started = time.perf_counter()
    ops, said = look_ops(Restyle("accent", "#15803d"), nodes)
    assert time.perf_counter() - started < 1.0
    assert len(ops) == 2_000 and "#c2410c" in said
    assert ops[0]["patch"]["border"].endswith(" #15803d")


#: "Punchier" words are shorter words, not a bolder page.
PUNCHIER: list[tuple[str, list[Request]]] = [
    ("make the headline punchier", [Resize(HERO_HEADING, longer=False)]),
    ("a snappier subheading please", [Resize(Target(None, "text", hero_text=True), longer=False)]),
    ("make the services heading punchier", [Resize(Target("services", "heading"), longer=False)]),
]


@pytest.mark.parametrize(("message", "expected"), PUNCHIER, ids=[m for m, _ in PUNCHIER])
def test_punchier_words_are_shorter_words(message: str, expected: list[Request]) -> None:
    assert read_requests(message) == expected
