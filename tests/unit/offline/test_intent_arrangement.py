"""The arrangement intents' tables: two sections swapped; a shorter or longer page."""

from __future__ import annotations

import pytest
from tests.unit.offline.intent_table import Refused, check

from charlotte.offline.intents.intent import Clause
from charlotte.offline.intents.registry import read_clause
from charlotte.offline.requests import (
    Especially,
    PageLength,
    Request,
    Resize,
    Restyle,
    SetText,
    SwapSections,
    Target,
    Unsupported,
)

SWAPS: list[tuple[str, list[Request] | Refused]] = [
    ("swap services and prices", [SwapSections("services", "prices")]),
    ("swap the menu with the opening hours", [SwapSections("menu", "opening hours")]),
    ("switch the order of the menu and the FAQ", [SwapSections("menu", "faq")]),
    ("switch the menu and opening hours round", [SwapSections("menu", "opening hours")]),
    ("swap them", Refused("which two sections")),
    ("swap work and services", [SwapSections("work", "services")]),
    # Not a swap: "switch" to a look, and "and" between looks.
    ("switch to a light theme and a serif font", [Restyle("background", "light"), Restyle("font", "Georgia, Times New Roman, serif")]),
    ("Switch to dark mode", [Restyle("background", "dark")]),
]  # fmt: skip

LENGTHS: list[tuple[str, list[Request] | Refused]] = [
    ("make the page shorter", [PageLength(longer=False)]),
    ("the page is too long", [PageLength(longer=False)]),
    ("shorten the page a bit", [PageLength(longer=False)]),
    ("make the page longer", [PageLength(longer=True)]),
    ("the site feels too short", [PageLength(longer=True)]),
    ("make the page shorter on phones", Refused('did not understand "on phones"')),
    ("shorter page pls", [PageLength(longer=False)]),
    ("shorten the page, people won't read all that", [PageLength(longer=False)]),
    ("Please make the whole page a bit shorter", [PageLength(longer=False)]),
    # "it" alone is the page; after a request naming something, "it" is that (never the page).
    ("please make it even shorter", [PageLength(longer=False, it=True)]),
    ("could you make it a touch shorter", [PageLength(longer=False, it=True)]),
    ("change the headline to Fresh bread and make it shorter", [SetText(Target(None, "heading"), "Fresh bread"), Unsupported("make it shorter", '"make it shorter": I could not tell what "it" is; say which part')]),
    ("the about section could do with more, it's a bit thin. make it longer", [Resize(Target("about", "text"), longer=True)]),
    # A section singled out joins the page length before it; alone it asks nothing.
    ("Could you make it slightly shorter? The FAQ especially", [PageLength(longer=False, within="faq")]),
    ("make the page shorter, especially the menu", [PageLength(longer=False, within="menu")]),
    ("the FAQ especially", Refused("could not tell what to do")),
    ("make it bigger", Refused("")),
    # Not a page length: the hero band, the words.
    ("make the hero shorter", [Restyle("height", "shorter", "hero")]),
]


@pytest.mark.parametrize(("message", "expected"), SWAPS, ids=[m for m, _ in SWAPS])
def test_swaps_are_read(message: str, expected: list[Request] | Refused) -> None:
    check(message, expected)


@pytest.mark.parametrize(("message", "expected"), LENGTHS, ids=[m for m, _ in LENGTHS])
def test_page_lengths_are_read(message: str, expected: list[Request] | Refused) -> None:
    check(message, expected)


def test_a_section_singled_out_is_read_alone_and_joined_to_the_page_length_before_it() -> None:
    assert read_clause(Clause.of("The FAQ especially", [])) == [Especially("faq")]
    assert read_clause(Clause.of("especially the opening hours", [])) == [Especially("opening hours")]
    assert read_clause(Clause.of("the weather especially", []))[0].__class__ is Unsupported
