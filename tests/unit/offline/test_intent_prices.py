"""The price intent's table: phrasings → the item and the price, exactly as given."""

from __future__ import annotations

import pytest
from tests.unit.offline.intent_table import Refused, check

from charlotte.offline.requests import ChangePrice, Request

ROWS: list[tuple[str, list[Request] | Refused]] = [
    ("Consultations now cost £52", [ChangePrice("consultations", "£52")]),
    ("the drop-in class is £14 now, not £12", [ChangePrice("drop-in class", "£14", "£12")]),
    ("change the price of the drop-in class from £12 to £14", [ChangePrice("drop-in class", "£14", "£12")]),
    ("set the consultation price to £52", [ChangePrice("consultation", "£52")]),
    ("the sourdough loaf costs £5 now", [ChangePrice("sourdough loaf", "£5")]),
    ("a cinnamon bun is now £3.10 instead of £2.80", [ChangePrice("cinnamon bun", "£3.10", "£2.80")]),
    ("Consultation: £52", [ChangePrice("consultation", "£52")]),
    # Refused: a word it cannot place, a range, a "don't", no item.
    ("the drop-in class is £14 on weekdays", Refused('did not understand "on weekdays"')),
    ("the drop-in class costs £12-£14", Refused("which price is the new one")),
    ("don't set consultations to £52", Refused("don't")),
    ("it's £52 now", Refused("which item")),
    # Not this intent: words that hold a price are words; a price with no price is nothing.
    ("prices are going up", Refused()),
]  # fmt: skip


@pytest.mark.parametrize(("message", "expected"), ROWS, ids=[m for m, _ in ROWS])
def test_prices_are_read_exactly(message: str, expected: list[Request] | Refused) -> None:
    check(message, expected)
