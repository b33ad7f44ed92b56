"""The look intents' tables: "use blue instead" is a colour in place of the last one changed."""

from __future__ import annotations

import pytest
from tests.unit.offline.intent_table import Refused, check

from charlotte.offline.looks import COLOURS
from charlotte.offline.requests import Recolour, Request, Restyle

RECOLOURS: list[tuple[str, list[Request] | Refused]] = [
    ("use blue instead", [Recolour(COLOURS["blue"])]),
    ("make it green instead", [Recolour(COLOURS["green"])]),
    ("actually, try navy", [Recolour(COLOURS["navy"])]),
    ("let's go with #2a7 instead", [Recolour("#22aa77")]),
    # Not a recolour: a part of the page named is the look's own request; two colours, or other
    # words, are not understood.
    ("change the background to blue instead", [Restyle("background", COLOURS["blue"])]),
    ("change the accent colour to green", [Restyle("accent", COLOURS["green"])]),
    ("use blue and red instead", Refused()),
    ("use blue instead of the logo", Refused()),
    ("blue", Refused()),
]


@pytest.mark.parametrize(("message", "expected"), RECOLOURS, ids=[m for m, _ in RECOLOURS])
def test_a_colour_instead_is_read(message: str, expected: list[Request] | Refused) -> None:
    check(message, expected)
