"""Which band a person's words name: headings said whole, the catalogue's names, other names; never a guess."""

from __future__ import annotations

from typing import Any

import pytest

from charlotte.offline.edits import Context, Edit, Refusal
from charlotte.offline.intents import edit_for, read_requests
from charlotte.offline.naming import bands_named
from charlotte.offline.requests import MoveSection, SetText, SwapSections, Target
from charlotte.sections.page_view import PageView

CONTEXT = Context("Studio Fern is a design studio in Bristol.", {"name": "Studio Fern"})


def _band(band_id: str, title: str, level: int = 2) -> list[dict[str, Any]]:
    return [
        {"id": band_id, "type": "section", "parent": None, "props": {}, "style": {}},
        {"id": f"{band_id}-h", "type": "heading", "parent": band_id, "props": {"content": title, "level": level}, "style": {}},
        {"id": f"{band_id}-t", "type": "text", "parent": band_id, "props": {"content": f"{title} words."}, "style": {}},
    ]  # fmt: skip


PAGE = PageView([
    *_band("hero", "Studio Fern", 1), *_band("gallery", "Gallery"), *_band("services", "Services"),
    *_band("stock", "Bikes for sale"), *_band("testimonials", "What people say"),
    *_band("team", "Meet us"), *_band("pricing", "Prices"), *_band("about", "About Studio Fern"),
    *_band("contact", "Contact"),
])  # fmt: skip

NAMES: list[tuple[str, list[str]]] = [
    # A heading said whole, quoted or not.
    ("bikes for sale", ["stock"]),
    ("the 'Bikes for sale' section", ["stock"]),
    # The catalogue's names, the hero's among them.
    ("the kind words from couples", ["testimonials"]),
    ("the reviews", ["testimonials"]),
    ("the top bit", ["hero"]),
    ("the top banner", ["hero"]),
    ("the 'about me' bit", ["about"]),
    ("the prices", ["pricing"]),
    ("the treatments", ["services"]),
    # Other names, and the words the catalogue feeds a kind from, when one kind has them.
    ("work", ["gallery"]),
    ("my work", ["gallery"]),
    ("the teachers", ["team"]),
    ("the packages", ["pricing"]),
    # Not a band of this page.
    ("the FAQ", []),
    ("bikes for hire", []),
    ("the workshop", []),
    ("", []),
]


@pytest.mark.parametrize(("words", "bands"), NAMES, ids=[w or "(nothing)" for w, _ in NAMES])
def test_a_band_is_named_by_its_heading_or_the_catalogues_words(words: str, bands: list[str]) -> None:
    assert bands_named(PAGE, words) == bands


def test_a_heading_that_says_the_word_comes_before_another_name() -> None:
    page = PageView([*_band("hero", "Fern", 1), *_band("how", "How we work"), *_band("gallery", "Gallery")])
    assert bands_named(page, "work") == ["how"]  # the page's own heading, not the gallery


def test_two_bands_the_words_cannot_tell_apart_are_asked_about_not_guessed() -> None:
    page = PageView([*_band("hero", "Fern", 1), *_band("treatments", "Treatments"), *_band("classes", "Classes")])
    assert bands_named(page, "the classes") == ["classes"]  # its heading, said whole
    asked = edit_for(MoveSection("lessons", "top"), page, CONTEXT)
    assert isinstance(asked, Refusal) and "could be the Treatments or the Classes section" in asked.reason
    # Of two bands of a kind, the one built as that kind is named ("Quotes" are free quotes here).
    quotes = PageView([*_band("hero", "Fern", 1), *_band("testimonials", "What people say"), *_band("quotes", "Quotes")])
    assert bands_named(quotes, "the reviews") == ["testimonials"]


@pytest.mark.parametrize(
    ("message", "order"),
    [
        ("I'd like the kind words from couples straight after the top banner", ["hero", "testimonials", "gallery"]),
        ("please put the reviews first (after the top bit)", ["hero", "testimonials", "gallery"]),
        ("The 'about me' bit should come first, before the gallery.", ["hero", "about", "gallery"]),
        ("put the teachers below the prices", ["pricing", "team"]),
        ("swap work and services", ["hero", "services", "gallery"]),
    ],
)  # fmt: skip
def test_a_move_named_in_a_persons_words_lands_where_they_said(message: str, order: list[str]) -> None:
    (request,) = read_requests(message)
    edit = edit_for(request, PAGE, CONTEXT)
    assert isinstance(edit, Edit), edit
    roots = _applied(PAGE, edit)
    at = roots.index(order[0])
    assert roots[at : at + len(order)] == order


def test_two_places_that_disagree_are_refused() -> None:
    refused = edit_for(MoveSection("about", "top", None, ("above", "the prices")), PAGE, CONTEXT)
    assert isinstance(refused, Edit)  # first is above the prices: they agree
    refused = edit_for(MoveSection("about", "top", None, ("below", "the prices")), PAGE, CONTEXT)
    assert isinstance(refused, Refusal) and "disagree" in refused.reason
    refused = edit_for(MoveSection("about", "top", None, ("above", "the FAQ")), PAGE, CONTEXT)
    assert isinstance(refused, Refusal) and "no faq section" in refused.reason


def test_a_band_is_renamed_by_the_words_its_heading_says() -> None:
    edit = edit_for(SetText(Target("bikes for sale", "heading"), "Second-hand bikes"), PAGE, CONTEXT)
    assert isinstance(edit, Edit)
    assert edit.ops == ({"t": "set_node_props", "id": "stock-h", "patch": {"content": "Second-hand bikes"}},)
    refused = edit_for(SetText(Target("bikes for hire", "heading"), "Bikes"), PAGE, CONTEXT)
    assert isinstance(refused, Refusal) and "no bikes for hire section" in refused.reason
    swap = edit_for(SwapSections("work", "the workshop"), PAGE, CONTEXT)
    assert isinstance(swap, Refusal) and "no workshop section" in swap.reason


def _applied(page: PageView, edit: Edit) -> list[str]:
    """The roots' order after ``edit``'s move ops (each a new order key for one band)."""
    keys = {r: str(i).zfill(4) for i, r in enumerate(page.roots)}
    for op in edit.ops:
        if op["t"] == "reorder_roots":
            return list(op["order"])
        if op["t"] == "move_node":
            keys[op["id"]] = op["order"]
    return sorted(page.roots, key=lambda r: keys[r])
