"""The follow-up reader across intents: several requests in order, refusals, hostile messages stay linear.

Each intent's own phrasings are its table, ``tests/unit/offline/test_intent_*.py``.
"""

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
    ("Write me a poem", [Unsupported("Write me a poem")]),
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
    assert is_build_request("Can you check it again?") and is_build_request("try again")
    # A build word inside another request is that request's, not a rebuild said to be done.
    assert not is_build_request("add a quiz so students can check their level before booking")
    assert not is_build_request("can you add a search box so people can check if we have a book in stock")


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
        "the loaf costs " + "£1 " * 20_000,
        "phone is " + "0113 496 0550 " * 5_000,
        "swap " + "a and " * 20_000,
        "the text is too " + "too small on " * 10_000,
        "add a link to " + "https://facebook.com/x " * 5_000,
        "the headline is wrong, it should be " * 2_000,
        "change the headline to " + "'a' " * 30_000,
        "change the price of x from £1 to £2 " * 3_000,
    ],
    ids=["ands", "quotes", "curly", "long-target", "hashes", "digits", "dots", "prices", "phones",
         "swaps", "sizes", "links", "corrections", "quoted-words", "price-ranges"],
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

