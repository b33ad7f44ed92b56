"""What the offline builder reads from a brief and the host's facts before it writes any band.

``context_of(brief, facts)`` reads them once: the business name, the hero's
line, the about text, the offerings the brief names and the facts a business
singles out. Every band of a page (and a band a follow-up adds) is written
from the same ``Context``, so they agree.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from charlotte.sections.about import Person, about_text, person_of
from charlotte.sections.brief import Lead, Offerings, business_name, lead_of, offerings_of
from charlotte.sections.brief_lists import bare_offerings
from charlotte.sections.catalogue import OFFER_KINDS
from charlotte.sections.facts import fact_key, featured_items
from charlotte.sections.section_list import kinds_named

__all__ = ["Context", "context_of"]


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


def context_of(brief: object, facts: object) -> Context:
    """The ``Context`` of ``brief`` and ``facts`` (anything else than a str or a mapping is empty)."""
    text = brief if isinstance(brief, str) else ""
    table = {fact_key(str(k)): v for k, v in facts.items()} if isinstance(facts, Mapping) else {}
    name = business_name(text, table)
    lead = lead_of(text, table, name)
    person = person_of(text)
    return Context(
        brief=text,
        facts=table,
        name=name or "Welcome",
        named=name is not None,
        lead=lead,
        subheading=lead.subheading,
        about=about_text(text, table, name, lead, person),
        person=person,
        offerings=offered if (offered := offerings_of(text, lead)).items else bare_offerings(
            text, asked=not set(OFFER_KINDS).isdisjoint(kinds_named(text))
        ),
        featured=tuple(featured_items(table)),
    )
