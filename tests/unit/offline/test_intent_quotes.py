"""The quote intent's table: a quote the person gives, verbatim, and who said it, as written."""

from __future__ import annotations

import pytest
from tests.unit.offline.intent_table import Refused, check

from charlotte.offline.requests import AddQuote, AddSection, Request

ROWS: list[tuple[str, list[Request] | Refused]] = [
    # A testimonials section with the person's quote, in one clause or the next.
    ('Please add a testimonials section with this one: "Eleanor is patient and makes practice fun" - Helen, mum of Ava',
     [AddSection("testimonials", quotes=(("Eleanor is patient and makes practice fun", "Helen, mum of Ava"),))]),
    ("add a section for reviews. here's one: 'Bella came back looking like a show dog' - Tina",
     [AddSection("testimonials", quotes=(("Bella came back looking like a show dog", "Tina"),))]),
    ("add reviews with this quote: \u201cBest cut I've had in years\u201d \u2013 Sam P.",
     [AddQuote("Best cut I've had in years", "Sam P")]),
    ('add a testimonials section, here is one: "Lovely, calm, on time"',
     [AddSection("testimonials", quotes=(("Lovely, calm, on time", ""),))]),
    # A quote named as a review stands on its own.
    ("here's a review: 'Great work, lovely people' from Sam", [AddQuote("Great work, lovely people", "Sam")]),
    ('add this testimonial too: "Worth every penny" - Chris', [AddQuote("Worth every penny", "Chris")]),
    # Refused: "here's one" naming nothing; who said it not a name; a quote for another section.
    ("here's one: 'great' - Tina", Refused("could not tell what it is")),
    ("here's a review: 'great' - tina", Refused("who said it")),
    ('add an FAQ with this one: "Do you park on site?"', Refused("a quote goes in a testimonials section")),
    ("add 'great' to the reviews", Refused("what the quoted words are")),
    ("add a 'what people say' section", [AddSection("testimonials")]),
    # Not this intent: quoted words for a heading.
    ("make the headline 'Happy dogs' - thanks", Refused()),
]  # fmt: skip


@pytest.mark.parametrize(("message", "expected"), ROWS, ids=[m for m, _ in ROWS])
def test_quotes_are_read_verbatim(message: str, expected: list[Request] | Refused) -> None:
    check(message, expected)
