"""The section catalogue the offline builder plans a page from.

A page's body is a run of bands (sections), each of a known ``Kind``: its
default title, the words a brief names it by, the host's facts that feed it and
the claim-free sentence it falls back on when no fact does. The brief reader
reads it to find the sections a brief names, and the copy writer to title each
band and pick the one that shows the offerings, so it stands apart from both.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

__all__ = ["KINDS", "KIND_BY_KEY", "MAX_ITEMS", "OFFER_KINDS", "Kind", "Section"]

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
    """A section kind: its default title, the brief's words for it, the facts that feed it."""

    key: str
    title: str
    words: str  # a regex alternation, matched as whole words
    facts: tuple[str, ...]
    generic: str  # claim-free copy when no fact feeds it; {name} is the business name


KINDS: tuple[Kind, ...] = (
    Kind(
        "menu",
        "Menu",
        r"menu|our bakes|dishes",
        ("menu", "products", "bakes", "dishes", "food"),
        "Ask us what is on the menu today.",
    ),
    Kind(
        "pricing",
        "Pricing",
        r"pricing|prices|plans",
        ("pricing", "prices", "plans", "price_list"),
        "Get in touch and we will talk you through the options.",
    ),
    Kind(
        "services",
        "Services",
        r"services|treatments",
        ("services", "treatments"),
        "Get in touch to find out how {name} can help.",
    ),
    Kind("features", "Features", r"features", ("features",), "See what {name} can do for you."),
    Kind(
        "about",
        "About us",
        r"about(?!\s+\d)|our story",
        ("about", "story", "about_us"),
        "Learn more about {name}.",
    ),
    Kind(
        "team",
        "Team",
        r"team|our\s+staff",
        ("team", "staff", "people"),
        "Meet the people behind {name}.",
    ),
    Kind(
        "testimonials",
        "What people say",
        r"testimonials|reviews",
        ("testimonials", "reviews"),
        "Tell us what you think of {name}.",
    ),
    Kind(
        "faq",
        "Questions",
        r"faqs?|questions",
        ("faq", "faqs", "questions"),
        "Send us your questions about {name}.",
    ),
    Kind(
        "hours",
        "Opening hours",
        r"opening\s+hours|opening\s+times|hours",
        ("opening_hours", "hours", "opening_times"),
        "Get in touch to ask when we are open.",
    ),
    Kind(
        "contact", "Contact", r"contact|get\s+in\s+touch", ("contact",), "Get in touch with {name}."
    ),
    # Never named by a brief's section list: added when the brief names what is on offer
    # and no other section would show it.
    Kind("offer", "What we offer", r"what\s+we\s+offer", (), "See what {name} offers."),
)
KIND_BY_KEY: Mapping[str, Kind] = {k.key: k for k in KINDS}
#: Section kinds that show what the business offers (the first one present shows the offerings).
OFFER_KINDS: Final = ("menu", "services", "features", "offer")
