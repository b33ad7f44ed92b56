"""The removal intent's table: price rows named by their words, a band taken off by its name."""

from __future__ import annotations

import pytest
from tests.unit.offline.intent_table import Refused, check

from charlotte.offline.requests import RemoveRows, RemoveSection, Request

ROWS: list[tuple[str, list[Request] | Refused]] = [
    ("Please take the NHS fees off.", [RemoveRows("nhs")]),
    ("remove the NHS fees", [RemoveRows("nhs")]),
    ("take the hygienist price off please", [RemoveRows("hygienist")]),
    ("Could you take the pass rate off?", [RemoveSection("pass rate")]),
    # Not this intent: the whole price list is the section's; words after "off" not understood.
    ("remove the prices", [RemoveSection("pricing")]),
    ("take the NHS fees off on Saturdays", Refused()),
]  # fmt: skip


@pytest.mark.parametrize(("message", "expected"), ROWS, ids=[m for m, _ in ROWS])
def test_removals_are_read_exactly(message: str, expected: list[Request] | Refused) -> None:
    check(message, expected)
