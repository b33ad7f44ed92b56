"""The stated-value intent's table: phrasings → the new value, its shape, the words naming where it is."""

from __future__ import annotations

import pytest
from tests.unit.offline.intent_table import Refused, check

from charlotte.offline.requests import (
    ChangeFact,
    ChangeHours,
    ChangeValue,
    Request,
    SetText,
    Target,
)

ROWS: list[tuple[str, list[Request] | Refused]] = [
    ("Poetry night has moved to 7:30pm", [ChangeValue("7:30pm", "time", ("poetry", "night"))]),
    ("chnage the catering minimum to 30 guests", [ChangeValue("30 guests", "number", ("catering", "minimum"), "guests")]),
    ("We now cover up to 30 miles from York", [ChangeValue("30 miles", "number", ("york",), "miles")]),
    ("change instagram to @thistletwine", [ChangeValue("@thistletwine", "handle", ("instagram",))]),
    ("Could you write 'Children from age 5' instead?", [ChangeValue("Children from age 5", "quote", ())]),
    # An address that moved is still an address.
    ("we've moved to 5 Market Street, Leeds", [ChangeFact("address", "5 Market Street, Leeds")]),
    # Not this intent: two values, a negation, a text named, a quote with other words, no value.
    ("story time is 10am and poetry night 7:30pm", Refused()),
    ("poetry night is not at 7:30pm", Refused()),
    ("change the heading to 30 guests", [SetText(Target(None, "heading"), "30 guests")]),
    ("write 'Children from age 5' in the about section", Refused()),
    ("we cover more of York now", Refused()),
    # Opening hours said without a time of day are not a number and its unit: hours (test_intent_hours.py).
    ("We open at 8 on weekdays now, same closing", [ChangeHours(frozenset(range(5)), opens=480)]),
    ("open saturdays til 2 only now", [ChangeHours(frozenset({5}), closes=840)]),
    # A value with nothing naming where it is, or a size of the look, is not a stated value.
    ("use 3 columns", Refused()),
    ("make the headings 24 px", Refused()),
    ("show 4 photos in the gallery", Refused()),
    ("it's @newhandle now", Refused()),
]  # fmt: skip


@pytest.mark.parametrize(("message", "expected"), ROWS, ids=[m for m, _ in ROWS])
def test_stated_values_are_read_exactly(message: str, expected: list[Request] | Refused) -> None:
    check(message, expected)
