"""The show-a-fact intent's table: a contact fact the page has, shown in the band named."""

from __future__ import annotations

import pytest
from tests.unit.offline.intent_table import Refused, check

from charlotte.offline.requests import AddSection, Request, ShowFact

ROWS: list[tuple[str, list[Request] | Refused]] = [
    ("add our email to the find us section", [ShowFact("email", "find us")]),
    ("please add the phone number to the opening hours too", [ShowFact("phone", "opening hours")]),
    ("add our address to the contact bit", [ShowFact("address", "contact")]),
    ("add e-mail address to the booking section please", [ShowFact("email", "booking")]),
    # Not this intent: a place on the page, the page as a whole, a section.
    ("add our email to the bottom", Refused()),
    ("add our email address to the page", Refused()),
    ("add our email hello@x.example to the find us section", Refused("the e-mail address the page has")),
    ("add opening hours", [AddSection("hours")]),
]  # fmt: skip


@pytest.mark.parametrize(("message", "expected"), ROWS, ids=[m for m, _ in ROWS])
def test_facts_named_for_a_band_are_read(message: str, expected: list[Request] | Refused) -> None:
    check(message, expected)
