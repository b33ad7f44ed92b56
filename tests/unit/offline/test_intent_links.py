"""The profile-link intent's table: a named network (or an address on its site) → one link."""

from __future__ import annotations

import pytest
from tests.unit.offline.intent_table import Refused, check

from charlotte.offline.requests import AddLink, AddSection, Request

ROWS: list[tuple[str, list[Request] | Refused]] = [
    ("add a link to our Facebook page", [AddLink("facebook")]),
    ("link to our instagram please", [AddLink("instagram")]),
    ("add a link to https://www.facebook.com/crumbandco", [AddLink("facebook", "https://www.facebook.com/crumbandco")]),
    ("add a link to facebook.com/crumbandco please", [AddLink("facebook", "facebook.com/crumbandco")]),
    ("put our LinkedIn profile in the contact section", [AddLink("linkedin")]),
    ("add a link to our facebook page - facebook.com/secondchapterhay", [AddLink("facebook", "facebook.com/secondchapterhay")]),
    # Refused: an address on another site, two at once, words it cannot place.
    ("add a link to https://evil.example/facebook on facebook", Refused("is not an address on Facebook")),
    ("add links to facebook and instagram", Refused("one link at a time")),
    ("add our facebook page and a gallery", Refused('did not understand "gallery"')),
    ("add a facebook like button", Refused()),
    ("add a link to https://example.com", Refused()),
    ("add a link to our facebook page - and a gallery", Refused('did not understand "gallery"')),
    # Not this intent: a section.
    ("Add an FAQ", [AddSection("faq")]),
]  # fmt: skip


@pytest.mark.parametrize(("message", "expected"), ROWS, ids=[m for m, _ in ROWS])
def test_profile_links_are_read(message: str, expected: list[Request] | Refused) -> None:
    check(message, expected)
