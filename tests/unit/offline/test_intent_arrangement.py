"""The arrangement intents' tables: two sections swapped; a shorter or longer page."""

from __future__ import annotations

import pytest
from tests.unit.offline.intent_table import Refused, check

from charlotte.offline.requests import PageLength, Request, Restyle, SwapSections

SWAPS: list[tuple[str, list[Request] | Refused]] = [
    ("swap services and prices", [SwapSections("services", "prices")]),
    ("swap the menu with the opening hours", [SwapSections("menu", "opening hours")]),
    ("switch the order of the menu and the FAQ", [SwapSections("menu", "faq")]),
    ("switch the menu and opening hours round", [SwapSections("menu", "opening hours")]),
    ("swap them", Refused("which two sections")),
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
    # Not a page length: the hero band, the words.
    ("make the hero shorter", [Restyle("height", "shorter", "hero")]),
]


@pytest.mark.parametrize(("message", "expected"), SWAPS, ids=[m for m, _ in SWAPS])
def test_swaps_are_read(message: str, expected: list[Request] | Refused) -> None:
    check(message, expected)


@pytest.mark.parametrize(("message", "expected"), LENGTHS, ids=[m for m, _ in LENGTHS])
def test_page_lengths_are_read(message: str, expected: list[Request] | Refused) -> None:
    check(message, expected)
