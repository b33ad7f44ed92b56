"""The words intents' table: set a heading, text or button to the person's words; shorter, longer.

The new words are the person's, verbatim, and only theirs: a correction's "it
should be", polite words closing the request and words beside quoted ones are
never part of them.
"""

from __future__ import annotations

import pytest
from tests.unit.offline.intent_table import Refused, check

from charlotte.offline.requests import (
    AddSection,
    Request,
    Resize,
    Restyle,
    SetText,
    Target,
    Unsupported,
)

HERO_HEADING = Target(None, "heading")

ROWS: list[tuple[str, list[Request] | Refused]] = [
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
    # More words asked for a section; a remark sentence after it asks nothing.
    ("Can you add a bit more to our story? It feels short", [Resize(Target("our story", "text"), longer=True)]),
    ("add some more detail to the services section", [Resize(Target("services", "text"), longer=True)]),
    ("add a bit more to our story and a gallery", [AddSection("about"), AddSection("gallery")]),
    ("add more photos to the gallery", [AddSection("gallery")]),
    # Words that name a colour are words when they are a heading's new words.
    (
        "change the headline to Green Leaf Caf\u00e9",
        [SetText(HERO_HEADING, "Green Leaf Caf\u00e9")],
    ),
    # A correction gives its new words, never its own.
    ("the headline is wrong, it should be Fresh bread daily", [SetText(HERO_HEADING, "Fresh bread daily")]),
    ("the headline says the wrong thing, it should be Fresh bread", [SetText(HERO_HEADING, "Fresh bread")]),
    ("the headline should be changed to Fresh bread", [SetText(HERO_HEADING, "Fresh bread")]),
    ("the button text should be Order now please", [SetText(Target(None, "button"), "Order now")]),
    ('make the headline "Fresh bread" please', [SetText(HERO_HEADING, "Fresh bread")]),
    ("the headline is Bread to go", [SetText(HERO_HEADING, "Bread to go")]),
    ("make the headline punchier", [Resize(HERO_HEADING, longer=False)]),
    ("a snappier subheading please", [Resize(Target(None, "text", hero_text=True), longer=False)]),
    # An apostrophe inside quoted words ("you'll") does not close them.
    ("Can you change the headline to 'Flowers for the day you'll remember'?", [SetText(HERO_HEADING, "Flowers for the day you'll remember")]),
    ('Can we have the headline say "Roofs done properly since 1986"?', [SetText(HERO_HEADING, "Roofs done properly since 1986")]),
    ("Could the headline be 'Made in Scotland, chosen with care'?", [SetText(HERO_HEADING, "Made in Scotland, chosen with care")]),
    ("The headline should say: Happy dogs, fluffy tails", [SetText(HERO_HEADING, "Happy dogs, fluffy tails")]),
    ("make the headline more fun, something like 'Parties kids never forget!'", [SetText(HERO_HEADING, "Parties kids never forget!")]),
    # A section renamed: its heading.
    ("Please rename the treatments section to 'What we treat'", [SetText(Target("treatments", "heading"), "What we treat")]),
    ("rename bikes for sale to 'Second-hand bikes'", [SetText(Target("bikes for sale", "heading"), "Second-hand bikes")]),
    # Refused: a complaint with no new words; words beside quoted ones; a correction it cannot read.
    ("make the headline more fun", Refused()),
    ("add a gallery. It should have photos", [AddSection("gallery"), Unsupported("It should have photos")]),
    ("rename the font to serif", [Restyle("font", "Georgia, Times New Roman, serif")]),
    ("the headline is wrong", Refused("no new words")),
    ('change the headline to "Fresh bread" and more', Refused('did not understand "more"')),
    ("set the headline to Get changed to swim", Refused('did not understand "get"')),
]  # fmt: skip


@pytest.mark.parametrize(("message", "expected"), ROWS, ids=[m for m, _ in ROWS])
def test_words_are_read_as_the_persons_own(message: str, expected: list[Request] | Refused) -> None:
    check(message, expected)
