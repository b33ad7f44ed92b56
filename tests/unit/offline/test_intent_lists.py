"""The list intent's table: phrasings → the items as written and the list they go to."""

from __future__ import annotations

import pytest
from tests.unit.offline.intent_table import Refused, check

from charlotte.offline.requests import AddSection, AddToList, Request

ROWS: list[tuple[str, list[Request] | Refused]] = [
    ("Add Portishead to the areas we cover please", [AddToList("areas", ("Portishead",))]),
    ("add Caerphilly to the areas", [AddToList("areas", ("Caerphilly",))]),
    ("add Fareham to where I go", [AddToList("areas", ("Fareham",))]),
    ("add Syston and Anstey to the areas", [AddToList("areas", ("Syston", "Anstey"))]),
    ("add German to the languages", [AddToList("languages", ("German",))]),
    # Refused: a pronoun for the item, a word after the list not understood.
    ("please add it to the languages", Refused("what to add")),
    ("add Fareham to the areas on Tuesdays", Refused('"on tuesdays"')),
    # Not this intent: a section, or a place on the page.
    ("add an FAQ to the bottom", [AddSection("faq", "bottom")]),
]  # fmt: skip


@pytest.mark.parametrize(("message", "expected"), ROWS, ids=[m for m, _ in ROWS])
def test_list_additions_are_read_exactly(message: str, expected: list[Request] | Refused) -> None:
    check(message, expected)
