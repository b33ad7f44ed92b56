"""One reader of colour words, for briefs and follow-ups: a name, its plural, its comparative, a hex."""

from __future__ import annotations

import pytest

from charlotte.sections.bands import scheme_of
from charlotte.sections.colours import NAMED_COLOURS, colour_word

WORDS: list[tuple[str, tuple[str, str] | None]] = [
    ("pink", ("pink", NAMED_COLOURS["pink"])),
    ("greens", ("green", NAMED_COLOURS["green"])),
    ("pinker", ("pink", NAMED_COLOURS["pink"])),
    ("bluer", ("blue", NAMED_COLOURS["blue"])),
    ("blush", ("blush", NAMED_COLOURS["blush"])),
    ("#2a7", ("#2a7", "#22aa77")),
    ("#22AA77", ("#22AA77", "#22aa77")),
    # Near misses: not a colour, a hex of the wrong length, a word that only ends like one.
    ("pinkish", None),
    ("#2a77", None),
    ("#ggg", None),
    ("reds-", None),
    ("was", None),
    ("bus", None),
]


@pytest.mark.parametrize(("word", "expected"), WORDS, ids=[w for w, _ in WORDS])
def test_a_word_names_a_colour_or_none(word: str, expected: tuple[str, str] | None) -> None:
    assert colour_word(word) == expected


def test_a_follow_up_reads_no_plural_as_a_colour() -> None:
    # "add limes to the menu", "we sell oranges": fruit, not a colour.
    assert colour_word("limes", plurals=False) is None and colour_word("oranges", plurals=False) is None
    assert colour_word("pinker", plurals=False) == ("pink", NAMED_COLOURS["pink"])


def test_a_brief_reads_its_colour_words_with_the_same_reader() -> None:
    # "soft blush and ivory": blush is the look (before "and"), ivory is no colour we paint.
    scheme = scheme_of("Petal & Vow, wedding flowers. Romantic, soft blush and ivory.", {})
    assert scheme.hero == NAMED_COLOURS["blush"]
