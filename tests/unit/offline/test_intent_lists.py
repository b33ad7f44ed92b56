"""The list intent's table: phrasings → the items as written, the list they go to, their note."""

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
    # A listing kind by its names; an offering need not be capitalised.
    ("add hot stone massage to the treatments", [AddToList("services", ("hot stone massage",))]),
    ("please add Reiki to our services list", [AddToList("services", ("Reiki",))]),
    ("add Priya to the staff", [AddToList("team", ("Priya",))]),
    ("add Banana bread to the menu too", [AddToList("menu", ("Banana bread",))]),
    # A remark describing the one item is its note, never part of its name.
    ("add Jess to the team, she does extensions", [AddToList("team", ("Jess",), "extensions")]),
    ("add Sam to the tutors, he does the kids sessions", [AddToList("team", ("Sam",), "the kids sessions")]),
    ("add Priya to the stylists", [AddToList("team", ("Priya",), "")]),
    ("add shadows to the stylists", Refused()),
    ("add Tom to the team - he's our new barber", [AddToList("team", ("Tom",), "new barber")]),
    ("Add pregnancy massage to the treatments list, it's from the second trimester",
     [AddToList("services", ("pregnancy massage",), "from the second trimester")]),
    ("Add kids' yoga to the classes, it is for ages 5 to 11", [AddToList("services", ("kids' yoga",), "for ages 5 to 11")]),
    # "We're adding X …, add it to …": the item named before, what follows it its note.
    ("We're adding German from January - please add it to the languages",
     [AddToList("languages", ("German",), "from January")]),
    ("we're adding Mandarin, can you add it to the languages", [AddToList("languages", ("Mandarin",))]),
    # Refused: a pronoun for the item, a word after the list not understood, a person or a
    # place not named as one, a part of the page or its look, a note for two items.
    ("please add it to the languages", Refused("what to add")),
    ("add Fareham to the areas on Tuesdays", Refused('"on tuesdays"')),
    ("add jess to the team", Refused("what to add")),
    ("add shadows to the services", Refused("what to add")),
    ("add a photo to the team", Refused("what to add")),
    ("add pink to the services", Refused("what to add")),
    ("add Jess and Tom to the team, she does extensions", Refused("what to add")),
    ("We're adding german classes soon - please add it to the languages", Refused()),
    # A remark that is an opinion is no note, and is never written (a remark the registry
    # knows as one is left out; another is not understood).
    ("add Jess to the team, she's lovely", Refused()),
    ("add hot stone massage to the treatments, it's great", [AddToList("services", ("hot stone massage",))]),
    ("add Sam to the team, he is a barber", [AddToList("team", ("Sam",), "barber")]),
    ("add yin yoga to the classes - it's suitable for beginners", [AddToList("services", ("yin yoga",), "suitable for beginners")]),
    # Not this intent: a section, or a place on the page; a remark that is no note.
    ("add an FAQ to the bottom", [AddSection("faq", "bottom")]),
    ("add Jess to the team, the team section is too long", Refused()),
]  # fmt: skip


@pytest.mark.parametrize(("message", "expected"), ROWS, ids=[m for m, _ in ROWS])
def test_list_additions_are_read_exactly(message: str, expected: list[Request] | Refused) -> None:
    check(message, expected)
