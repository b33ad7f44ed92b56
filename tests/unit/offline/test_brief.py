"""How the offline builder reads a brief: the business name, and directions kept out of the copy."""

from __future__ import annotations

from typing import Any

import pytest

from charlotte.offline.brief import business_name, is_direction, statements


@pytest.mark.parametrize(
    ("brief", "facts", "name"),
    [
        ("Crumb & Co is a bakery.", {}, "Crumb & Co"),
        ("A landing page for Brightsmile Dental, a family dentist.", {}, "Brightsmile Dental"),
        ('We are "The Daily Grind", a café.', {}, "The Daily Grind"),
        ("A page for a bakery.", {}, None),
        ("Anything.", {"business_name": "Fig & Fern"}, "Fig & Fern"),
    ],
)
def test_business_name(brief: str, facts: dict[str, Any], name: str | None) -> None:
    assert business_name(brief, facts) == name


@pytest.mark.parametrize(
    ("clause", "direction"),
    [
        ("Warm, friendly tone; invite people to visit.", True),
        ("Warm and friendly.", True),
        ("Sections: our menu, about us, opening hours and contact.", True),
        ("Keep the copy short.", True),
        ("Please mention the parking.", True),
        ("We bake sourdough every morning.", False),
        ("Open every day since 1998.", False),
        ("A friendly neighbourhood bakery in Leeds.", False),
    ],
)
def test_is_direction(clause: str, direction: bool) -> None:
    assert is_direction(clause) is direction


def test_statements_keep_the_description_and_drop_the_directions() -> None:
    brief = "We bake daily; keep it casual. Family run since 1998. Playful tone."
    assert statements(brief) == ["We bake daily.", "Family run since 1998."]
