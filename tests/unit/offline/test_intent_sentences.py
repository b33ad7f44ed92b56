"""The person's own sentences added to a section; a section's text made longer from the brief."""

from __future__ import annotations

import pytest
from tests.unit.offline.intent_table import Refused, check

from charlotte.offline.edits import Context, Edit, Refusal
from charlotte.offline.intents import edit_for
from charlotte.offline.requests import AddSentences, ChangeFact, Request, Resize, Target
from charlotte.sections.page_view import PageView

ROWS: list[tuple[str, list[Request] | Refused]] = [
    # Words to add after "mention", "say that": the person's, as written, made a sentence.
    ("Please expand the about me section a little - mention I've practised for twelve years", [AddSentences("about me", "I've practised for twelve years.")]),
    ("could you add to the about me bit, mention I've taught for over fifteen years", [AddSentences("about me bit", "I've taught for over fifteen years.")]),
    ("add to the about section - say we are family run", [AddSentences("about", "We are family run.")]),
    ("add to the about section, mention prices", Refused("in your own words")),
    ("lengthen the team section and say that we're all qualified", [AddSentences("team", "We're all qualified.")]),
    ("add a line about the team: Jo has cut hair for 20 years", [AddSentences("team", "Jo has cut hair for 20 years.")]),
    # "A sentence about the studio": the sentences that follow are the words (the business is the about section).
    ("Could you add a sentence or two more about the studio? It's a lovely light room with big windows over the park.", [AddSentences("about", "It's a lovely light room with big windows over the park.")]),
    ("add a couple of sentences about us. We opened in 2009. Everything is baked on site.", [AddSentences("about", "We opened in 2009. Everything is baked on site.")]),
    # No words given, or only a remark on the page: the text made longer from the brief and the facts.
    ("add a sentence about us", [Resize(Target("about", "text"), longer=True)]),
    ("add a sentence about us? It feels short", [Resize(Target("about", "text"), longer=True)]),
    ("the about section could do with more", [Resize(Target("about", "text"), longer=True)]),
    ("the menu needs more", [Resize(Target("menu", "text"), longer=True)]),
    ("expand the about section", [Resize(Target("about", "text"), longer=True)]),
    ("make the about section longer", [Resize(Target("about", "text"), longer=True)]),
    # Near misses: what to write about is not words to write; no section; the hero's height.
    ("expand the about section to mention prices", Refused("in your own words")),
    ("expand the about section, mention our prices and opening hours", Refused("in your own words")),
    ("add a sentence about the weather", Refused("which section")),
    ("the parking could do with more signs", Refused("")),
    # A request after it is a request, not a sentence to add.
    ("add a sentence about us. Change the phone number to 0113 496 0000", [Resize(Target("about", "text"), longer=True), ChangeFact("phone", "0113 496 0000")]),
    # Manners stay off the page.
    ("add a line about us: we're open late on Fridays, thanks", [AddSentences("about", "We're open late on Fridays.")]),
]  # fmt: skip


@pytest.mark.parametrize(("message", "expected"), ROWS, ids=[m for m, _ in ROWS])
def test_sentences_are_read(message: str, expected: list[Request] | Refused) -> None:
    check(message, expected)


def _band(band_id: str, title: str, text: str | None) -> list[dict[str, object]]:
    nodes: list[dict[str, object]] = [
        {"id": band_id, "type": "section", "parent": None, "props": {}},
        {"id": f"{band_id}-h", "type": "heading", "parent": band_id, "props": {"content": title, "level": 2}},
    ]
    if text is not None:
        nodes.append({"id": f"{band_id}-t", "type": "text", "parent": band_id, "props": {"content": text}})
    return nodes


PAGE = PageView([*_band("hero", "Loft", "Yoga in Leeds."), *_band("about", "About the Loft", "A studio in Leeds."),
                 *_band("team", "Team", None)])  # fmt: skip
CONTEXT = Context("The Loft is a yoga studio in Leeds.", {"name": "The Loft"})


def test_the_persons_sentences_go_on_the_sections_text_as_written() -> None:
    edit = edit_for(AddSentences("about me", "I've practised for twelve years."), PAGE, CONTEXT)
    assert isinstance(edit, Edit)
    patch = {"content": "A studio in Leeds. I've practised for twelve years."}
    assert edit.ops == ({"t": "set_node_props", "id": "about-t", "patch": patch},)


@pytest.mark.parametrize(
    ("request_", "why"),
    [
        (AddSentences("about", "A studio in Leeds."), "already says that"),
        (AddSentences("team", "We're all qualified."), "no text"),
        (AddSentences("faq", "We reply within a day."), "no faq section"),
    ],
)
def test_sentences_with_nowhere_to_go_change_nothing(request_: AddSentences, why: str) -> None:
    refused = edit_for(request_, PAGE, CONTEXT)
    assert isinstance(refused, Refusal) and why in refused.reason, refused
