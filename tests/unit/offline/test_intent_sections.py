"""The section intents' table: add, remove and move a section, named by kind or by its words."""

from __future__ import annotations

import pytest
from tests.unit.offline.intent_table import Refused, check

from charlotte.offline.requests import (
    AddSection,
    ChangeFact,
    ChangePrice,
    MoveSection,
    RemoveSection,
    Request,
    Unsupported,
)

ROWS: list[tuple[str, list[Request] | Refused]] = [
    ("add an FAQ", [AddSection("faq")]),
    # Questions the person names in brackets are kept to say which the facts do not answer.
    ("add a FAQ (what space do you need, do you bring music etc)", [AddSection("faq", asked=("what space do you need", "do you bring music"))]),
    ("add an FAQ (how long does it take, where do you park)", [AddSection("faq", asked=("how long does it take", "where do you park"))]),
    ("add an FAQ (parking, prices)", Refused("in brackets")),
    ("add a gallery (with photos of the shop)", Refused("in brackets")),
    # Questions said to be the usual ones are the FAQ; any other word after them is not understood.
    ("Please add a section answering the questions people always ring us about", [AddSection("faq")]),
    ("add the questions customers ask", [AddSection("faq")]),
    ("add a section with questions people ask about parking", Refused("not a kind of section")),
    ("add a section with our opening hours", [AddSection("hours")]),
    ("add a section about our team", [AddSection("team")]),
    ("add an about section", [AddSection("about")]),
    ("Add a 'find us' section with the address", [AddSection("location")]),
    ("remove the 'specials' section", [RemoveSection("specials")]),
    ("please  add   an  FAQ", [AddSection("faq")]),
    ("add testimonials and a gallery", [AddSection("testimonials"), AddSection("gallery")]),
    ("add a call to action at the bottom", [AddSection("cta", "bottom")]),
    (
        "add a contact section below the about section",
        [AddSection("contact", "below", "the about section")],
    ),
    ("put the pricing above services", [MoveSection("pricing", "above", "services")]),
    ("move contact to the top", [MoveSection("contact", "top")]),
    ("can u move contact to the top", [MoveSection("contact", "top")]),
    ("put opening hours first", [MoveSection("opening hours", "top")]),
    ("remove the gallery", [RemoveSection("gallery")]),
    ("delete the team section", [RemoveSection("team")]),
    ("drop the specials section", [RemoveSection("specials")]),
    # Words beyond the sections' names ask something else of them: never their removal.
    ("cut the prices by 10%", Refused("besides removing it")),
    ("delete the second testimonial", Refused("besides removing it")),
    ("drop the about text to two sentences", Refused("besides removing it")),
    ("drop the menu font size a bit", Refused("besides removing it")),
    ("Remove the reviews section for now", [RemoveSection("testimonials")]),
    ("get rid of the faq pls", [RemoveSection("faq")]),
    ("remove the whole testimonials section please", [RemoveSection("testimonials")]),
    # A price in the clause: it lowers a price, it takes no section off ("drop lessons to £30").
    ("please drop lessons to £30", [ChangePrice("lessons", "£30")]),
    ("get rid of the about section", [RemoveSection("about")]),
    # The catalogue's names (sections.KIND_NAMES): a brief's word for a section is a person's.
    ("add a classes section", [AddSection("services")]),
    ("Add some reviews", [AddSection("testimonials")]),
    # A second place in an aside is checked against the first, never a second move.
    ("Move the FAQ to the very end of the page, after contact.", [MoveSection("faq", "bottom", None, ("below", "contact"))]),
    ("please put the reviews first (after the top bit)", [MoveSection("reviews", "top", None, ("below", "the top bit"))]),
    ("I'd like the FAQ after the fees, before contact", [MoveSection("faq", "below", "the fees", ("above", "contact"))]),
    # Words saying how exactly ("straight after", "right under") are not the section's name.
    ("put the prices right under the top banner", [MoveSection("prices", "below", "the top banner")]),
    ("move the reviews up above what we do", [MoveSection("reviews", "above", "what we do")]),
    # A section wanted somewhere without a verb of moving.
    ("I'd like the kind words from couples straight after the top banner", [MoveSection("kind words from couples", "below", "the top banner")]),
    ("we'd like our gallery at the very top", [MoveSection("gallery", "top")]),
    ("The 'about me' bit should come first, before the lessons.", [MoveSection("about me bit", "top", None, ("above", "the lessons"))]),
    ("the prices should go at the bottom", [MoveSection("prices", "bottom")]),
    ("the opening hours need to be above the map", [MoveSection("opening hours", "above", "the map")]),
    # …but only a section: a thing wanted somewhere, or a change said with "should", is no move.
    ("I want a blue background at the top", Refused("")),
    ("the gallery should be below 10 photos", Refused("")),
    ("I'd like the headline to be bigger at the top", Refused("")),
    ("the phone number should be 0113 496 0000", [ChangeFact("phone", "0113 496 0000")]),
    # A remark after a comma names no section to act on; a list going on does.
    ("Please remove the find us section, the address is in the contact bit anyway", [RemoveSection("location")]),
    ("remove the gallery, it's useless - nobody looks at the faq", [RemoveSection("gallery")]),
    ("remove the gallery, and the team too", [RemoveSection("gallery"), RemoveSection("team")]),
    ("delete the about section from the page", [RemoveSection("about")]),
    ("remove the photos from the gallery", Refused("inside a section")),
    # "it": the section the request before added or moved, else nothing is guessed.
    ("add an FAQ and move it to the end", [AddSection("faq"), MoveSection("faq", "bottom")]),
    ("move it to the top", Refused("which section")),
    ("remove the gallery and move it to the top", [RemoveSection("gallery"), Unsupported("move it", '"move it": I could not tell which section "it" is; say its name, for example "move the FAQ to the bottom"')]),
    # Refused: a name describing something else is not that section.
    ("add a booking calendar with online payments", Refused("not a kind of section")),
    ("add a contact form", Refused("not a kind of section")),
    ("add an about", [AddSection("about")]),
    ("add a link to https://example.com", Refused("not a kind of section")),
]  # fmt: skip


@pytest.mark.parametrize(("message", "expected"), ROWS, ids=[m for m, _ in ROWS])
def test_sections_are_read(message: str, expected: list[Request] | Refused) -> None:
    check(message, expected)
