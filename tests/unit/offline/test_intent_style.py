"""The look intents' tables: "use blue instead" is a colour in place of the last one changed."""

from __future__ import annotations

import pytest
from tests.unit.offline.intent_table import Refused, check

from charlotte.offline.intents import read_requests
from charlotte.offline.looks import COLOURS
from charlotte.offline.requests import AddSection, Recolour, Request, Restyle, Unsupported

SERIF = "Georgia, Times New Roman, serif"

LOOKS: list[tuple[str, list[Request] | Refused]] = [
    ("use a darker palette", [Restyle("tone", "darker")]),
    ("make it warmer", [Restyle("tone", "warmer")]),
    ("use a cooler palette", [Restyle("tone", "cooler")]),
    ("make it more minimal", [Restyle("shape", "minimal")]),
    ("make it bolder", [Restyle("shape", "bold")]),
    ("use a serif font", [Restyle("font", SERIF)]),
    ("use a serif font for the headings", [Restyle("font", SERIF, "headings")]),
    ("make the background dark", [Restyle("background", "dark")]),
    ("Use a dark colour scheme.", [Restyle("background", "dark")]),
    ("switch to a light theme", [Restyle("background", "light")]),
    ("Switch to dark mode", [Restyle("background", "dark")]),
    ("use a warmer palette and a serif font", [Restyle("tone", "warmer"), Restyle("font", SERIF)]),
    ("a bolder, darker look", [Restyle("shape", "bold"), Restyle("tone", "darker")]),
    # The page itself darker: a dark page, not a darker accent on a light one.
    ("Make it darker", [Restyle("background", "dark")]),
    # The hero band itself, not its words.
    ("Make the hero shorter", [Restyle("height", "shorter", "hero")]),
    ("make the banner a bit taller", [Restyle("height", "taller", "hero")]),
    ("make the whole page darker", [Restyle("background", "dark")]),
    ("make the buttons darker", [Restyle("tone", "darker")]),
    ("make it a darker blue", [Restyle("tone", "darker")]),
    ("change the accent colour to green", [Restyle("accent", "#15803d")]),
    ("change the accent color to #2a7", [Restyle("accent", "#22aa77")]),
]


@pytest.mark.parametrize(("message", "expected"), LOOKS, ids=[m for m, _ in LOOKS])
def test_looks_are_read(message: str, expected: list[Request] | Refused) -> None:
    check(message, expected)


RECOLOURS: list[tuple[str, list[Request] | Refused]] = [
    ("use blue instead", [Recolour(COLOURS["blue"])]),
    ("make it green instead", [Recolour(COLOURS["green"])]),
    ("actually, try navy", [Recolour(COLOURS["navy"])]),
    ("let's go with #2a7 instead", [Recolour("#22aa77")]),
    ("Actually less blue, more of a teal", [Recolour(COLOURS["teal"])]),
    ("actually less blue", Refused()),
    ("actually less blue and more red and green", Refused()),
    # Not a recolour: a part of the page named is the look's own request; two colours, or other
    # words, are not understood.
    ("change the background to blue instead", [Restyle("background", COLOURS["blue"])]),
    ("change the accent colour to green", [Restyle("accent", COLOURS["green"])]),
    ("use blue and red instead", Refused()),
    ("use blue instead of the logo", Refused()),
    ("blue", Refused()),
]


@pytest.mark.parametrize(("message", "expected"), RECOLOURS, ids=[m for m, _ in RECOLOURS])
def test_a_colour_instead_is_read(message: str, expected: list[Request] | Refused) -> None:
    check(message, expected)


#: A look's words and nothing else: a part it cannot restyle alone is not made page-wide.
NOT_LOOKS: list[tuple[str, list[Request] | Refused]] = [
    ("use a warmer palette for the about section", Refused('did not understand "about section"')),
    ("write a bold poem", Refused()),
    ("make the logo blue", Refused()),
    ("make the logo's colour blue", Refused('did not understand "logo\'s"')),
    # The banner in one named colour: its ground; two colours, white or other words: refused.
    ("make the banner pink", [Restyle("background", COLOURS["pink"], "hero")]),
    ("make the top banner navy", [Restyle("background", COLOURS["navy"], "hero")]),
    ("use red for the banner", [Restyle("background", COLOURS["red"], "hero")]),
    ("make the banner pink and the text blue", Refused()),
    ("make the banner white", Refused()),
    ("make the banner pink like the logo", Refused()),
    # Cosier is warmer; a remark after a comma asks nothing.
    ("make it warmer and cosier", [Restyle("tone", "warmer")]),
    ("use a warmer palette, it's a bit cold", [Restyle("tone", "warmer")]),
    ("make it darker, it looks a bit washed out", [Restyle("background", "dark")]),
    ("make it darker, it should be blue", Refused()),
    ("Use a hot pink accent", [Restyle("accent", COLOURS["pink"])]),
    ("use a hot accent", Refused()),
]


@pytest.mark.parametrize(("message", "expected"), NOT_LOOKS, ids=[m for m, _ in NOT_LOOKS])
def test_words_a_look_cannot_place_are_refused(message: str, expected: list[Request] | Refused) -> None:
    check(message, expected)


def page(name: str) -> Restyle:
    return Restyle("colour", COLOURS[name])


#: More of a colour for no part of the page: the page's colour (the banner, the accent, the
#: tinted bands). A part named is that part's; two colours, a neutral or no colour: refused.
PAGE_COLOURS: list[tuple[str, list[Request] | Refused]] = [
    ("make it pinker!", [page("pink")]),
    ("could the whole thing be a little greener?", [page("green")]),
    ("could the whole thing be a little greener and bigger", Refused('did not understand "bigger"')),
    ("make it MORE purple", [page("purple")]),
    ("make it a bit more colourful? maybe purple", [page("purple")]),
    ("Can you make it even brighter and more colourful, maybe yellow?", [page("yellow")]),
    ("make it more colourful - maybe a bright teal?", [page("teal")]),
    ("could the site be a little greener", [page("green")]),
    ("make the whole page bluer please", [page("blue")]),
    ("more coral, please", [page("coral")]),
    ("make it more colourful, perhaps a vivid orange", [page("orange")]),
    ("make it warmer, more blush, less grey", [Restyle("tone", "warmer"), page("blush")]),
    ("make it redder and bolder", [page("red"), Restyle("shape", "bold")]),
    # A part named: that part's colour, nothing else.
    ("make the buttons pinker", [Restyle("accent", COLOURS["pink"])]),
    ("make the banner bluer", [Restyle("background", COLOURS["blue"], "hero")]),
    # Refused: a part it cannot colour, two colours, no colour, a neutral, "pink" without "more".
    ("make the text pinker", Refused("which part should change colour")),
    ("make the logo more purple", Refused("which part should change colour")),
    ("make it pinker and bluer", Refused()),
    ("make it more colourful", Refused("which colour")),
    ("make it a lot more colorful please", Refused("which colour")),
    ("make it more grey", Refused()),
    ("make it less grey", Refused()),
    ("make it pink", Refused()),
    ("make it more purple like the logo", Refused()),
]


@pytest.mark.parametrize(("message", "expected"), PAGE_COLOURS, ids=[m for m, _ in PAGE_COLOURS])
def test_more_of_a_colour_for_no_part_is_the_pages_colour(
    message: str, expected: list[Request] | Refused
) -> None:
    check(message, expected)


def test_a_hedged_suggestion_finishes_the_sentence_before_only_without_a_verb() -> None:
    assert read_requests("more colourful please. Perhaps a vivid teal!") == [page("teal")]
    # With a verb of its own it is a request of its own, read (and here refused) on its own.
    read = read_requests("add an FAQ? maybe move it to the top")
    assert [type(r) for r in read] == [AddSection, Unsupported]


def test_a_plural_colour_word_in_a_follow_up_is_no_colour() -> None:
    # "Oranges" and "limes" are fruit on a menu: no accent, no banner, no page colour.
    for message in ("add oranges to the menu please", "make the banner limes"):
        assert not any(isinstance(r, Restyle) for r in read_requests(message)), message
