"""The font-size intent's table: bigger or smaller words are a size, never a length."""

from __future__ import annotations

import pytest
from tests.unit.offline.intent_table import Refused, check

from charlotte.offline.requests import ChangeFact, FontSize, Request, Resize, Restyle, Target

ROWS: list[tuple[str, list[Request] | Refused]] = [
    ("Make the text bigger", [FontSize("text", bigger=True)]),
    ("make the text a bit smaller", [FontSize("text", bigger=False)]),
    ("the text is too small on phones", [FontSize("text", True, "base")]),
    ("make the headings smaller on desktop", [FontSize("headings", False, "lg")]),
    ("bigger headings on tablets please", [FontSize("headings", True, "md")]),
    ("increase the font size", [FontSize("page", bigger=True)]),
    ("the headings are too big", [FontSize("headings", bigger=False)]),
    ("make the hero headline bigger", [FontSize("headline", bigger=True)]),
    ("make the heading font larger", [FontSize("headline", bigger=True)]),
    ("make the font bigger on mobile", [FontSize("page", True, "base")]),
    ("please make the text a touch smaller, it feels like it's shouting", [FontSize("text", bigger=False)]),
    ("smaller headings on mobile please, they wrap onto 3 lines", [FontSize("headings", False, "base")]),
    ("Make the fonts a little larger for older patients", [FontSize("page", bigger=True)]),
    ("make the text bigger for the menu", Refused()),
    ("make the text bigger for the old specials section customers", Refused()),
    # Refused: a remark that asks something; a section it cannot tell, two widths, two ways.
    ("make the text smaller, it is too big and the faq too", Refused()),
    ("make the text smaller, they should be blue", Refused()),
    ("make the about text bigger", Refused('did not understand "about"')),
    ("make the text bigger on phones and tablets", Refused("which width")),
    ("make the text bigger and smaller", Refused("which way")),
    # Two parts, each with its size: each is done; "the rest" is every other text and heading.
    ("make the text bigger and the headings smaller",
     [FontSize("text", True), FontSize("headings", False)]),
    ("make the phone number even bigger and the rest smaller",
     [FontSize("phone", True), FontSize("page", False, besides="phone")]),
    ("Make our phone number a bit larger", [FontSize("phone", bigger=True)]),
    ("the phone number is too small on mobiles", [FontSize("phone", True, "base")]),
    ("make the email bigger and everything else smaller",
     [FontSize("email", True), FontSize("page", False, besides="email")]),
    ("make the headings bigger and the rest of the text smaller",
     [FontSize("headings", True), FontSize("text", False, besides="headings")]),
    ("make the phone number bigger and the rest of the headings smaller",
     [FontSize("phone", True), FontSize("headings", False, besides="phone")]),
    # Near misses: the rest alone, the rest with a part, a phone (no number), two ways at once.
    ("make the rest smaller", Refused()),
    ("make the rest bigger and the rest smaller", Refused("which words")),
    ("make the phone bigger", Refused()),
    ("make the phone number bigger and smaller", Refused("which way")),
    ("make the phone number bigger and the rest smaller on phones and tablets", Refused("which width")),
    ("make the phone number bigger and the logo smaller", Refused()),
    # A number given is a new number, not a size.
    ("change the phone number to 029 2018 0499", [ChangeFact("phone", "029 2018 0499")]),
    # Not this intent: a band made bigger is taller; words made longer are longer.
    ("make the hero bigger", [Restyle("height", "taller", "hero")]),
    ("Make the hero text a little longer.", [Resize(Target(None, "text"), longer=True)]),
    ("make the buttons bigger", Refused()),
]


@pytest.mark.parametrize(("message", "expected"), ROWS, ids=[m for m, _ in ROWS])
def test_sizes_are_read_as_font_sizes(message: str, expected: list[Request] | Refused) -> None:
    check(message, expected)
