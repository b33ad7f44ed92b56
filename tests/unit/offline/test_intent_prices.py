"""The price intent's table: phrasings → the item and the price, exactly as given."""

from __future__ import annotations

import pytest
from tests.unit.offline.intent_table import Refused, check

from charlotte.offline.requests import ChangePrice, Request

ROWS: list[tuple[str, list[Request] | Refused]] = [
    ("Consultations now cost £52", [ChangePrice("consultations", "£52")]),
    ("city centre drop is £10 now and urgent is £24", [ChangePrice("city centre drop", "£10"), ChangePrice("urgent", "£24")]),
    ("please drop lessons to £30", [ChangePrice("lessons", "£30")]),
    # A verb word inside a name only as its last word, a noun of it: "drop the cut to £28" is not read.
    ("drop the cut to £28", Refused('did not understand "cut"')),
    ("the drop-in class is £14 now, not £12", [ChangePrice("drop-in class", "£14", "£12")]),
    ("change the price of the drop-in class from £12 to £14", [ChangePrice("drop-in class", "£14", "£12")]),
    ("set the consultation price to £52", [ChangePrice("consultation", "£52")]),
    ("the sourdough loaf costs £5 now", [ChangePrice("sourdough loaf", "£5")]),
    ("a cinnamon bun is now £3.10 instead of £2.80", [ChangePrice("cinnamon bun", "£3.10", "£2.80")]),
    ("Consultation: £52", [ChangePrice("consultation", "£52")]),
    # People's phrasings: a link verb ("gone up to", "start at"), what it is per, when, a closing request.
    ("hourly rate's gone up to £52", [ChangePrice("hourly rate", "£52")]),
    ("Full wedding packages start at £1,050 now, not £950.", [ChangePrice("full wedding packages", "£1,050", "£950")]),
    ("buttonholes are going up to £14 each, pls update", [ChangePrice("buttonholes", "£14")]),
    ("Sourdough is £5 a loaf now, sadly", [ChangePrice("sourdough", "£5", None, "loaf")]),
    ("Soup's £7 now", [ChangePrice("soup", "£7")]),
    ("Follow-ups are £55 from this month.", [ChangePrice("follow-ups", "£55")]),
    ("45 minute lessons are £34 from September", [ChangePrice("45 minute lessons", "£34")]),
    ("A private check-up costs £60 now, can you update it?", [ChangePrice("private check-up", "£60")]),
    ("Regular cleans are £18 an hour from next month, can you change that",
     [ChangePrice("regular cleans", "£18", None, "hour")]),
    ("Lock change from £95 please", [ChangePrice("lock change", "from £95")]),
    # Several items in one clause, pair by pair; a preamble ("Lessons went up,") names none.
    ("party package is £425 now and wedding evening £595",
     [ChangePrice("party package", "£425"), ChangePrice("wedding evening", "£595")]),
    ("men's cuts are £28 now, blow dries £30", [ChangePrice("men's cuts", "£28"), ChangePrice("blow dries", "£30")]),
    ("Lessons went up, single lesson is £40 and block of 10 is £370.",
     [ChangePrice("single lesson", "£40"), ChangePrice("block of 10", "£370")]),
    ("Cupcakes are £26 a dozen now, and the deposit is £25",
     [ChangePrice("cupcakes", "£26", None, "dozen"), ChangePrice("deposit", "£25")]),
    # Refused: a word it cannot place, a range, a "don't", no item.
    ("the drop-in class is £14 on weekdays", Refused('did not understand "on weekdays"')),
    ("the drop-in class costs £12-£14", Refused("which price is the new one")),
    ("don't set consultations to £52", Refused("don't")),
    ("it's £52 now", Refused("which item")),
    ("change the lock change price from £95", Refused("which price is the new one")),
    ("the class is £14 from the weekend", Refused('"from the weekend"')),
    ("the class is £14 and the workshop £30 on weekdays", Refused('"on weekdays"')),
    ("the class is £14 £16", Refused("which item")),
    ("add a row for the bootcamp at £12", Refused()),
    ("the class is £14 now, not £12, not £10", Refused()),
    # Not this intent: words that hold a price are words; a price with no price is nothing.
    ("prices are going up", Refused()),
]  # fmt: skip


@pytest.mark.parametrize(("message", "expected"), ROWS, ids=[m for m, _ in ROWS])
def test_prices_are_read_exactly(message: str, expected: list[Request] | Refused) -> None:
    check(message, expected)
