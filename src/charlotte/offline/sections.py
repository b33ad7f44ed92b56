"""The section catalogue the offline builder plans a page from.

A page's body is a run of bands (sections), each of a known ``Kind``: its
default title, the words a brief names it by, the words a person may call it
in a follow-up ("add an FAQ section") and the host's facts that feed it. The
brief reader reads it to find the sections a brief names, the band builders
(``bands``) to title and fill each band. No kind has fallback copy: a band that
nothing in the brief or the facts feeds is left out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

__all__ = [
    "KINDS",
    "KIND_BY_KEY",
    "KIND_KEYS",
    "KIND_NAMES",
    "MAX_ITEMS",
    "OFFER_KINDS",
    "Kind",
    "Section",
]

#: Items a section shows at most (keeps a batch far below the op limit).
MAX_ITEMS: Final = 12


@dataclass(frozen=True, slots=True)
class Section:
    """A band of the page: its node id (from its name), title and kind."""

    id: str
    title: str
    kind: str


@dataclass(frozen=True, slots=True)
class Kind:
    """A section kind: its title, the brief's words for it, its names, the facts that feed it.

    ``words`` is what a brief's description is searched for (a regex
    alternation, matched as whole words; kept narrow so prose does not name a
    section by accident); ``names`` are the plain words a person calls the
    section by, for a follow-up parser.
    """

    key: str
    title: str
    words: str
    names: tuple[str, ...]
    facts: tuple[str, ...]


KINDS: tuple[Kind, ...] = (
    Kind(
        "menu",
        "Menu",
        r"menu|our bakes|dishes",
        ("menu", "our menu", "food menu", "dishes", "our bakes"),
        ("menu", "products", "bakes", "dishes", "food"),
    ),
    Kind(
        "pricing",
        "Pricing",
        r"pricing|prices|price\s+list|plans|rates|fees",
        ("pricing", "prices", "price list", "plans", "rates", "fees", "costs"),
        ("pricing", "prices", "price_list", "plans", "rates", "fees"),
    ),
    Kind(
        "services",
        "Services",
        r"services|treatments|classes|courses|lessons",
        (
            "services",
            "service",
            "our services",
            "treatments",
            "classes",
            "courses",
            "lessons",
            "what we do",
        ),
        ("services", "treatments", "classes", "courses", "lessons"),
    ),
    Kind("features", "Features", r"features", ("features",), ("features",)),
    Kind(
        "about",
        "About us",
        r"about(?!\s+\d)|our story",
        ("about", "about us", "our story", "who we are"),
        ("about", "story", "about_us"),
    ),
    Kind(
        "team",
        "Team",
        r"team|our\s+staff",
        ("team", "our team", "staff", "our staff", "the team", "our people"),
        ("team", "staff", "people"),
    ),
    Kind(
        "gallery",
        "Gallery",
        r"gallery|portfolio",
        ("gallery", "photo gallery", "portfolio", "photos", "pictures", "images", "our work"),
        ("gallery", "portfolio", "photos", "images"),
    ),
    Kind(
        "testimonials",
        "What people say",
        r"testimonials|reviews",
        ("testimonials", "testimonial", "reviews", "what people say", "quotes"),
        ("testimonials", "reviews"),
    ),
    Kind(
        "faq",
        "Questions",
        r"faqs?|questions",
        ("faq", "faqs", "questions", "frequently asked questions", "q&a"),
        ("faq", "faqs", "questions"),
    ),
    Kind(
        "hours",
        "Opening hours",
        r"opening\s+hours|opening\s+times|hours",
        ("opening hours", "opening times", "hours", "when we are open"),
        ("opening_hours", "hours", "opening_times"),
    ),
    Kind(
        "location",
        "Find us",
        r"location|find\s+us|where\s+we\s+are",
        ("location", "find us", "where to find us", "where we are", "directions", "map"),
        ("address", "location"),
    ),
    Kind(
        "cta",
        "Call to action",
        r"call\s+to\s+action|cta",
        ("call to action", "cta", "call-to-action", "booking", "book now"),
        (),
    ),
    Kind(
        "contact",
        "Contact",
        r"contact|get\s+in\s+touch",
        ("contact", "contact us", "contact details", "get in touch"),
        ("contact",),
    ),
    # Never named by a brief's section list: added when the brief names what is on offer
    # and no other section would show it.
    Kind("offer", "What we offer", r"what\s+we\s+offer", ("what we offer", "offerings"), ()),
)
KIND_BY_KEY: Mapping[str, Kind] = MappingProxyType({k.key: k for k in KINDS})
#: Every section kind ``bands.build_section`` builds, in catalogue order.
KIND_KEYS: Final = tuple(k.key for k in KINDS)
#: kind → the words a person calls it by ("faq": ("faq", "faqs", "questions", …)).
KIND_NAMES: Mapping[str, tuple[str, ...]] = MappingProxyType({k.key: k.names for k in KINDS})
#: Section kinds that show what the business offers (the first one present shows the offerings).
OFFER_KINDS: Final = ("menu", "services", "features", "offer")
