"""The sections of a first page: those the brief names, in its order, then those the facts feed.

``kinds_named`` finds the kinds a brief names by the catalogue's words;
``sections_of`` orders them, adds the kinds the host's facts feed, and closes
the page with the call to action and contact; ``section_slug`` is a kind's
node id.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from charlotte.sections.catalogue import KIND_BY_KEY, KINDS, OFFER_KINDS, Section
from charlotte.sections.facts import fact, has_contact

__all__ = ["kinds_named", "section_slug", "sections_of"]


def kinds_named(brief: str) -> list[str]:
    """Section kinds the brief names, in the order it names them."""
    found: list[tuple[int, str]] = []
    for kind in KINDS:
        match = re.search(rf"(?i)\b(?:{kind.words})\b", brief)
        if match:
            found.append((match.start(), kind.key))
    return [key for _, key in sorted(found)]


def section_slug(key: str) -> str:
    """The node id of a section of kind ``key`` ("opening-hours" for hours), before de-duplication."""
    if key == "cta":
        return "call-to-action"
    slug = re.sub(r"[^a-z0-9]+", "-", KIND_BY_KEY[key].title.lower()).strip("-")
    return slug[:40] or "section"


def sections_of(brief: str, facts: Mapping[str, Any], offers: bool = False) -> list[Section]:
    """The sections: those the brief names in its order, then those the facts feed; contact last.

    Sections come out in the order built; ``bands.build_section`` leaves out any
    that nothing feeds.

    ``offers``: there is something to show of what the business offers; when no
    section would show it, a "What we offer" section opens the page's body.
    """
    keys = kinds_named(brief)
    for kind in KINDS:
        # A location band only when asked for: the contact band shows the address anyway.
        fed = kind.key not in ("location", "contact") and kind.facts
        if kind.key not in keys and fed and fact(facts, kind.facts) is not None:
            keys.append(kind.key)
    if "offer" in keys:
        # "What we offer" is what a fact-fed offer kind (services, a menu) shows: it takes its place.
        listed = [
            k
            for k in keys
            if k in OFFER_KINDS and k != "offer" and fact(facts, KIND_BY_KEY[k].facts)
        ]
        if listed:
            keys[keys.index("offer")] = listed[0]
    if offers and not any(k in OFFER_KINDS for k in keys):
        keys.insert(0, "offer")
    if has_contact(facts):
        keys.append("contact")
    # The call to action, then contact, close the page.
    ends: list[str] = [k for k in ("cta", "contact") if k in keys]
    keys = [k for k in dict.fromkeys(keys) if k not in ends] + ends
    taken = {"hero"}
    out: list[Section] = []
    for key in keys:
        kind = KIND_BY_KEY[key]
        slug = section_slug(key)
        unique, n = slug, 2
        while unique in taken:
            unique, n = f"{slug}-{n}", n + 1
        taken.add(unique)
        out.append(Section(unique, kind.title, key))
    return out
