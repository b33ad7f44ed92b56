"""Services a brief lists without a verb: "Plumber, Leeds. Boilers, leaks, bathrooms. …".

``brief.offerings_of`` reads what a brief offers from a verb ("fixing
punctures, gears and brakes") or a colon ("in Whitby: sports injuries, …"). A
brief often lists them bare, one sentence of nothing but the list, or after
the name and a dash ("Paws About - group walks, solo walks, puppy visits").
``bare_offerings`` reads that list from the brief's first four statements,
when nothing else gave offerings: its items while they read as a service
(three at least, or two of two words or more when the brief asks for a section
of them; "…, table centrepieces, all seasonal" ends before "all"): at most five words, none opening like a quality or a
clause ("fully insured", "by Carys Evans", "all seasonal"), none placing the
business ("driving instructor in Cardiff"), none only tone
words ("pretty, pastel, a bit whimsical"), none naming a section. Items are
split at commas and a last "and", never at "or" ("weekly or fortnightly
cleans" is one service), and kept verbatim (first letter capitalised).
"""

from __future__ import annotations

import re
from typing import Final

from charlotte.sections.brief import TONE_ONLY, Offerings, names_a_section, statements
from charlotte.sections.catalogue import MAX_ITEMS
from charlotte.sections.colours import NAMED_COLOURS
from charlotte.sections.facts import capitalised

__all__ = ["bare_offerings"]

#: Words that open no service ("by Carys Evans", "all seasonal", "fully insured").
_NOT_AN_ITEM: Final = frozenset(
    {"a", "an", "all", "any", "by", "every", "for", "from", "fully", "i", "in", "is", "it", "no",
     "not", "our", "so", "we", "with"}
)  # fmt: skip
_ITEM_WORDS: Final = 5
#: Words of the look, not of a service.
_STYLE: Final = frozenset(
    {"font", "fonts", "type", "typeface", "serif", "sans", "background", "colour", "colours",
     "color", "colors", "feel", "vibe", "vibes", "look", "style", "palette", "tone", *NAMED_COLOURS}
)  # fmt: skip
#: Statements read from the brief's start: a list further down is rarely what it offers.
_SEARCHED: Final = 4


def bare_offerings(brief: str, *, asked: bool = False) -> Offerings:
    """The first of the brief's opening statements that is only a list of services.

    ``asked``: the brief asks for a section of them ("Treatments, prices, …"), so when no
    statement lists three, two of two words or more are a list ("sports and deep tissue
    massage, pregnancy massage, by …"; never "Plumber, Leeds").
    """
    opening = statements(brief)[:_SEARCHED]
    for sentence in opening:
        if items := _bare_list(sentence, 3):
            return Offerings(tuple(items))
    for sentence in opening if asked else ():
        if (items := _bare_list(sentence, 2)) and all(" " in item for item in items):
            return Offerings(tuple(items))
    return Offerings(())


def _bare_list(sentence: str, least: int) -> list[str]:
    listing = re.split(r"\s[-\u2013\u2014]\s", sentence)[-1].strip().rstrip(".!")
    parts = [p.strip().removeprefix("and ").strip() for p in listing.split(",")]
    # The list runs while its items read as services ("…, table centrepieces, all seasonal").
    kept: list[str] = []
    for part in parts:
        if not _a_service(part):
            break
        kept.append(part)
    last, _and, tail = kept[-1].partition(" and ") if kept else ("", "", "")
    if tail and _a_service(last) and _a_service(tail):
        kept[-1:] = [last, tail]  # "ceremony arches and table centrepieces"
    if len(kept) < least:
        return []
    return list(dict.fromkeys(capitalised(i) for i in kept))[:MAX_ITEMS]


def _a_service(item: str) -> bool:
    words = re.findall(r"[\w'-]+", item.lower())
    return not (
        not words
        or len(words) > _ITEM_WORDS
        or words[0] in _NOT_AN_ITEM
        or all(w in TONE_ONLY for w in words)
        or names_a_section(item)
        or re.search(r"\b(?:in|at|near) [A-Z]", item)  # "driving instructor in Cardiff"
        or not _STYLE.isdisjoint(words)  # "old-fashioned serif type", "cream background"
    )
