"""What the offline builder reads from a brief and the host's facts before it writes any band.

``context_of(brief, facts)`` reads them once: the business name, the hero's
line, the about text, the offerings the brief names and the facts a business
singles out. Every band of a page (and a band a follow-up adds) is written
from the same ``Context``, so they agree.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from charlotte.sections.about import Person, about_text, person_of
from charlotte.sections.brief import Lead, Offerings, business_name, lead_of, offerings_of
from charlotte.sections.brief_lists import bare_offerings
from charlotte.sections.catalogue import KIND_BY_KEY, OFFER_KINDS
from charlotte.sections.facts import fact, fact_items, fact_key, featured_items, priced
from charlotte.sections.section_list import kinds_named

__all__ = ["Context", "context_of"]

#: Prices asked for as part of another band: "what we bake with prices", "treatments and their prices".
_WITH_PRICES: Final = re.compile(
    r"(?i)\b(?:with|and)\s+(?:the\s+|their\s+|its\s+)?(?:prices|pricing|price\s+list|rates|fees)\b"
)


@dataclass(frozen=True, slots=True)
class Context:
    """A brief and the host's facts as the bands read them."""

    brief: str
    facts: Mapping[str, Any]  # keys folded by ``fact_key``
    name: str  # the business name, or "Welcome" when neither names it
    named: bool  # the brief or the facts name the business
    lead: Lead
    subheading: str | None  # the hero's line (None: the brief says nothing of the business)
    about: str | None
    person: Person | None  # the one the brief speaks as or names as doing the work
    offerings: Offerings
    featured: tuple[tuple[str, str], ...]
    #: The offer kind whose priced fact is the pricing band's too ("courses" with prices, a
    #: brief asking for prices and no price fact): its band names the items, the pricing band
    #: prices them.
    prices_in: str | None = None


def context_of(brief: object, facts: object) -> Context:
    """The ``Context`` of ``brief`` and ``facts`` (anything else than a str or a mapping is empty)."""
    text = brief if isinstance(brief, str) else ""
    table = {fact_key(str(k)): v for k, v in facts.items()} if isinstance(facts, Mapping) else {}
    name = business_name(text, table)
    lead = lead_of(text, table, name)
    person = person_of(text)
    asked = kinds_named(text)
    return Context(
        brief=text,
        facts=table,
        name=name or "Welcome",
        named=name is not None,
        lead=lead,
        subheading=lead.subheading,
        about=about_text(text, table, name, lead, person),
        person=person,
        offerings=offered
        if (offered := offerings_of(text, lead)).items
        else bare_offerings(text, asked=not set(OFFER_KINDS).isdisjoint(asked)),
        featured=tuple(featured_items(table)),
        prices_in=_prices_in(text, asked, table),
    )


def _prices_in(brief: str, asked: list[str], facts: Mapping[str, Any]) -> str | None:
    """The offer kind whose priced fact the pricing band shows, when the brief asks for prices.

    Only when no fact is a price list of its own: the person asked for a band of what is on
    offer and one of prices, and one fact holds both. "What we bake with prices" asks for one
    band: the offer band shows the prices.
    """
    if "pricing" not in asked or fact(facts, KIND_BY_KEY["pricing"].facts) is not None:
        return None
    if _WITH_PRICES.search(brief):
        return None
    for kind in sorted(OFFER_KINDS, key=lambda k: asked.index(k) if k in asked else len(asked)):
        if priced(fact_items(fact(facts, KIND_BY_KEY[kind].facts))):
            return kind
    return None
