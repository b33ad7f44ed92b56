"""Services a brief lists without a verb: "Plumber, Leeds. Boilers, leaks, bathrooms. …".

``brief.offerings_of`` reads what a brief offers from a verb ("fixing
punctures, gears and brakes") or a colon ("in Whitby: sports injuries, …"). A
brief that asks for a services section often lists them bare, one sentence of
nothing but the list, or after the name and a dash ("Paws About - group walks,
solo walks, puppy visits"). ``bare_offerings`` reads that list, only when the
brief asks for services and nothing else gave offerings, and only when every
item reads as a service: at most five words, none opening like a quality or a
clause ("fully insured", "by Carys Evans", "all seasonal"), none placing the
business ("driving instructor in Cardiff"), none only tone
words ("pretty, pastel, a bit whimsical"), none naming a section. Items are
split at commas and a last "and", never at "or" ("weekly or fortnightly
cleans" is one service), and kept verbatim (first letter capitalised).
"""

from __future__ import annotations

import re
from typing import Final

from charlotte.sections.brief import TONE_ONLY, Offerings, kinds_named, names_a_section, statements
from charlotte.sections.catalogue import MAX_ITEMS
from charlotte.sections.facts import capitalised

__all__ = ["bare_offerings"]

#: Words that open no service ("by Carys Evans", "all seasonal", "fully insured").
_NOT_AN_ITEM: Final = frozenset(
    {"a", "an", "all", "any", "by", "every", "for", "from", "fully", "i", "in", "is", "it", "no",
     "not", "our", "so", "we", "with"}
)  # fmt: skip
_ITEM_WORDS: Final = 5
#: Statements read from the brief's start: a list further down is rarely what it offers.
_SEARCHED: Final = 4


def bare_offerings(brief: str) -> Offerings:
    """The first statement that is only a list of services, when the brief asks for services."""
    if "services" not in kinds_named(brief):
        return Offerings(())
    for sentence in statements(brief)[:_SEARCHED]:
        if items := _bare_list(sentence):
            return Offerings(tuple(items))
    return Offerings(())


def _bare_list(sentence: str) -> list[str]:
    listing = re.split(r"\s[-\u2013\u2014]\s", sentence)[-1].strip().rstrip(".!")
    parts = [p.strip() for p in listing.split(",")]
    if len(parts) < 2:
        return []
    last, _and, tail = parts[-1].partition(" and ")
    parts[-1:] = [last, tail] if tail else [last.removeprefix("and ")]
    items = [p.removeprefix("and ").strip() for p in parts if p.strip()]
    if len(items) < 3:
        return []
    for item in items:
        words = re.findall(r"[\w'-]+", item.lower())
        if (
            not words
            or len(words) > _ITEM_WORDS
            or words[0] in _NOT_AN_ITEM
            or all(w in TONE_ONLY for w in words)
            or names_a_section(item)
            or re.search(r"\b(?:in|at|near) [A-Z]", item)  # "driving instructor in Cardiff"
        ):
            return []
    return list(dict.fromkeys(capitalised(i) for i in items))[:MAX_ITEMS]
