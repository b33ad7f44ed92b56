"""The registry of intents: every request type has one planner, every intent a table and a sentence."""

from __future__ import annotations

import typing
from pathlib import Path

from charlotte.offline.intents import INTENTS
from charlotte.offline.requests import Request, Unsupported

TABLES = sorted(Path(__file__).parent.glob("test_intent_*.py"))


def test_every_request_type_is_made_and_planned_by_its_intents() -> None:
    planned = [kind for intent in INTENTS for kind in intent.makes]
    wanted = set(typing.get_args(Request)) - {Unsupported}
    assert set(planned) == wanted
    # One planner per type: intents sharing a type share its planner.
    for kind in wanted:
        assert len({intent.plan for intent in INTENTS if kind in intent.makes}) == 1, kind


def test_every_intent_has_a_sentence_and_a_table() -> None:
    tables = " ".join(path.read_text(encoding="utf-8") for path in TABLES)
    assert len({intent.name for intent in INTENTS}) == len(INTENTS)
    for intent in INTENTS:
        assert intent.capability and len(intent.capability.split()) <= 25, intent.name
        assert any(f"{kind.__name__}(" in tables for kind in intent.makes), intent.name
