"""The schedule intent's table: a day and the place, as written; the place it no longer is."""

from __future__ import annotations

import pytest
from tests.unit.offline.intent_table import Refused, check

from charlotte.offline.requests import ChangePlace, Request

ROWS: list[tuple[str, list[Request] | Refused]] = [
    ("We don't park at UEA on Tuesdays any more, Tuesdays we're at Eaton Park now",
     [ChangePlace("tue", "Eaton Park", "UEA")]),
    ("we're at Eaton Park on Wednesdays", [ChangePlace("wed", "Eaton Park")]),
    ("on Thursdays we're at the Forum", [ChangePlace("thu", "the Forum")]),
    # Refused: two days, a lead it cannot read; not this intent: other words before it.
    ("Tuesdays and Thursdays we're at the Forum", Refused("which one day")),
    ("We park at UEA any more, Tuesdays we're at Eaton Park", Refused("no longer")),
    ("Tuesdays we're at the market, 9am-1pm", Refused("a place, not a time")),
    ("we love it when we're at the Forum on Tuesdays", Refused()),
]  # fmt: skip


@pytest.mark.parametrize(("message", "expected"), ROWS, ids=[m for m, _ in ROWS])
def test_places_on_a_day_are_read_exactly(message: str, expected: list[Request] | Refused) -> None:
    check(message, expected)
