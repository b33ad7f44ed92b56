"""The profile-link intent's table: a named network (or an address on its site) → one link."""

from __future__ import annotations

import pytest
from tests.unit.offline.intent_table import Refused, check

from charlotte.offline.edits import Context, Edit, Refusal
from charlotte.offline.intents import edit_for
from charlotte.offline.requests import AddLink, AddSection, Request
from charlotte.sections.page_view import PageView

ROWS: list[tuple[str, list[Request] | Refused]] = [
    ("add a link to our Facebook page", [AddLink("facebook")]),
    ("link to our instagram please", [AddLink("instagram")]),
    ("add a link to https://www.facebook.com/crumbandco", [AddLink("facebook", "https://www.facebook.com/crumbandco")]),
    ("add a link to facebook.com/crumbandco please", [AddLink("facebook", "facebook.com/crumbandco")]),
    ("put our LinkedIn profile in the contact section", [AddLink("linkedin")]),
    ("add a link to our facebook page - facebook.com/secondchapterhay", [AddLink("facebook", "facebook.com/secondchapterhay")]),
    ("make our insta handle a link", [AddLink("instagram")]),
    ("turn our instagram into a clickable link", [AddLink("instagram")]),
    ("add a link to our fb page", [AddLink("facebook")]),
    # Refused: an address on another site, two at once, words it cannot place.
    ("add a link to https://evil.example/facebook on facebook", Refused("is not an address on Facebook")),
    ("add links to facebook and instagram", Refused("one link at a time")),
    ("add our facebook page and a gallery", Refused('did not understand "gallery"')),
    ("add a facebook like button", Refused()),
    ("add a link to https://example.com", Refused()),
    ("add a link to our facebook page - and a gallery", Refused('did not understand "gallery"')),
    ("make our insta handle and fb page links", Refused("one link at a time")),
    ("make the phone number a link to instagram", Refused('did not understand "phone number"')),
    # Not this intent: a section.
    ("Add an FAQ", [AddSection("faq")]),
]  # fmt: skip


@pytest.mark.parametrize(("message", "expected"), ROWS, ids=[m for m, _ in ROWS])
def test_profile_links_are_read(message: str, expected: list[Request] | Refused) -> None:
    check(message, expected)


def _page(*texts: tuple[str, str]) -> PageView:
    nodes: list[dict[str, object]] = [{"id": "follow-us", "type": "section", "parent": None, "order": "a0"}]
    nodes += [{"id": i, "type": "text", "parent": "follow-us", "order": f"a{n + 1}",
               "props": {"content": words}, "style": {"base": {"color": "#333333"}}}
              for n, (i, words) in enumerate(texts)]  # fmt: skip
    return PageView(nodes)


def test_a_handle_the_page_shows_becomes_the_link_to_its_profile_in_its_place() -> None:
    page = _page(("ig-label", "Instagram"), ("ig-handle", "@crumb_co"))
    edit = edit_for(AddLink("instagram"), page, Context("", {"insta": "@crumb_co"}))
    assert isinstance(edit, Edit)
    assert edit.ops == (
        {"t": "remove_node", "id": "ig-handle"},
        {"t": "insert_node", "node": {"id": "ig-handle", "parent": "follow-us", "order": "a2",
                                      "style": {"base": {"color": "#333333"}}, "type": "link",
                                      "props": {"content": "@crumb_co", "href": "https://www.instagram.com/crumb_co"}}},
    )  # fmt: skip


def test_a_handle_shown_twice_or_not_a_handle_adds_no_link_in_place() -> None:
    twice = _page(("one", "@crumb_co"), ("two", "@crumb_co"))
    edit = edit_for(AddLink("instagram"), twice, Context("", {"instagram": "@crumb_co"}))
    assert isinstance(edit, Edit) and all(op["t"] == "insert_node" for op in edit.ops)
    assert not any(op["node"]["id"] in ("one", "two") for op in edit.ops)
    # A fact that is no handle and no address there gives no address: the reply asks for it.
    refused = edit_for(AddLink("instagram"), twice, Context("", {"instagram": "crumb co"}))
    assert isinstance(refused, Refusal) and "give no Instagram address" in refused.reason
