"""The About band's words and whose they are: the business's, or the person's behind it.

``about_text`` is an about-like fact, else the brief's own sentences about the
business beyond the hero's line (directions and tone words are never copy).
``person_of`` reads the one person a brief speaks as or names as the one who
does the work ("I'm Tom, a wedding photographer …", "… by Carys Evans, a
qualified massage therapist in Cardiff"): their words open the About, and
their first name titles it ("About Carys"; "About me" where the brief calls
the section so). Only the brief's words are used; a word is dropped ("by"),
never added.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from charlotte.sections.batch import Builder
from charlotte.sections.brief import Lead, statements
from charlotte.sections.facts import fact, scalar

__all__ = ["Person", "about_band", "about_text", "about_title", "person_of"]

#: Sentences an About says at most.
_SENTENCES: Final = 3
_HONORIFIC = r"(?:(?:Dr|Mr|Mrs|Ms|Miss|Mx|Prof)\.?\s+)?"
_FIRST = r"(?P<first>[A-Z][a-z]+(?:['\u2019][A-Za-z]+)?)"
_SURNAME = r"[A-Z][A-Za-z]+(?:['\u2019-][A-Za-z]+)*"
#: "I'm Tom, …", "I am Dr Ruth Okafor, …", "My name is Ana and …": the brief in their voice.
_SELF: Final = re.compile(
    rf"\b(?:I['\u2019]m|I am|[Mm]y name is)\s+{_HONORIFIC}{_FIRST}(?:\s+{_SURNAME})?"
    r"(?=\s*[,;.]|\s+and\s|\s*$)"
)
#: "… by Carys Evans, a qualified massage therapist in Cardiff": a full name and what they are.
_BY: Final = re.compile(
    rf"\b(?:run\s+by|owned\s+by|by)\s+(?P<words>{_HONORIFIC}{_FIRST}\s+{_SURNAME},\s+"
    r"(?:a|an|the)\s[^.;:!?()]+)"
)


@dataclass(frozen=True, slots=True)
class Person:
    """The person behind a business as the brief puts them: first name and the brief's words."""

    first: str  # "Ruth" of "I'm Dr Ruth Okafor"
    words: str  # "I'm Dr Ruth Okafor, an integrative counsellor …." or "Carys Evans, a …."


def person_of(brief: str) -> Person | None:
    """The person the brief speaks as or names as the one at work, or None."""
    for sentence in statements(brief):
        if found := _SELF.search(sentence):
            return Person(found.group("first"), sentence[found.start() :])
        if found := _BY.search(sentence):
            return Person(found.group("first"), found.group("words").rstrip(" ,") + ".")
    return None


def about_title(brief: str, person: Person | None, name: str | None) -> str:
    """The About band's heading: "About me" or "About <first name>" for a person, else the name's."""
    if person is not None:
        return "About me" if re.search(r"(?i)\babout\s+me\b", brief) else f"About {person.first}"
    return f"About {name}" if name and len(name) < 60 else "About us"


def about_text(
    brief: str,
    facts: Mapping[str, Any],
    name: str | None,
    lead: Lead,
    person: Person | None = None,
) -> str | None:
    """The about text: an about-like fact, else the brief's sentences about the business."""
    keys = ["about", "story", "about_us"] + ([] if lead.used == "description" else ["description"])
    text = scalar(fact(facts, keys))
    if text:
        return text
    parts: list[str] = []
    if person is not None:
        parts.append(person.words)
    elif name and lead.description and lead.used:
        # The brief's own words when its sentence opens with the name ("X - garden design in
        # York"), up to the end of the description (a direction after a ";" is no copy).
        at = lead.used.find(lead.description)
        opens = lead.used.startswith(name) and at > 0
        parts.append(
            f"{lead.used[:at]}{lead.description}." if opens else f"{name} is {lead.description}."
        )
    said = person.words.rstrip(".") if person is not None else None
    parts += [
        s
        for s in statements(brief)
        if s != lead.used
        and not (lead.description and lead.description in s)
        and not (said and said in s)
    ]
    return " ".join(parts[:_SENTENCES]) or None


def about_band(b: Builder, root: str, text: str | None, hero: str | None, name: str) -> bool:
    """The About band's words under ``root``; False when there are none beyond the hero's line."""
    if not text or _same(text, hero, name):
        return False
    b.text(f"{root}-text", root, text, "lead")
    return True


def _same(text: str, hero: str | None, name: str) -> bool:
    """True when ``text`` says no more than the hero's line ("X is a bakery." vs "A bakery.")."""
    if not hero:
        return False

    def plain(words: str) -> str:
        opening = rf"^{re.escape(name)}(?:\s+(?:is|are)\s+|\s*[-\u2013\u2014:,]\s+)"
        words = re.sub(opening, "", words.strip(), flags=re.I)
        return " ".join(re.findall(r"\w+", words.lower()))

    return plain(text) == plain(hero)
