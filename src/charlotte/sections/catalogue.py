"""The section catalogue a page is planned from, and the kinds a text names.

A page's body is a run of bands (sections), each of a known ``Kind``: its
default title, the words a brief names it by, the words a person may call it
in a follow-up ("add an FAQ section") and the host's facts that feed it. The
brief reader reads it to find the sections a brief names, the band builders
(``bands``) to title and fill each band. No kind has fallback copy: a band that
nothing in the brief or the facts feeds is left out. ``kinds_in(text)`` is
the kinds a text names by those words (a band's id or heading, a person's
request), in order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

__all__ = [
    "ALSO_CALLED",
    "KINDS",
    "KIND_BY_KEY",
    "KIND_KEYS",
    "KIND_NAMES",
    "MAX_ITEMS",
    "OFFER_KINDS",
    "SECTION_WORDS",
    "Kind",
    "Section",
    "kind_spans",
    "kinds_in",
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
        ("pricing", "prices", "price_list", "plans", "rates", "fees", "packages", "price",
         "costs", "tariff", "tariffs", "charges"),
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
        ("services", "treatments", "classes", "courses", "lessons", "repairs"),
    ),
    Kind("features", "Features", r"features", ("features",), ("features",)),
    Kind(
        "about",
        "About us",
        r"about(?!\s+\d)|our story",
        ("about", "about us", "about me", "our story", "who we are"),
        ("about", "story", "about_us"),
    ),
    Kind(
        "team",
        "Team",
        r"team|our\s+staff",
        ("team", "our team", "staff", "our staff", "the team", "our people"),
        ("team", "staff", "people", "teachers", "tutors", "instructors", "trainers", "coaches",
         "therapists", "stylists", "our_team", "meet_the_team"),
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
        ("testimonials", "testimonial", "reviews", "what people say", "quotes", "kind words"),
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

#: Section kinds a person may name, with the words they name them by (longest first): the
#: catalogue's names (``KIND_NAMES``), and the hero's.
SECTION_WORDS: Final[Mapping[str, tuple[str, ...]]] = {
    **{kind: tuple(sorted(names, key=len, reverse=True)) for kind, names in KIND_NAMES.items()},
    "hero": ("hero", "banner", "header", "top banner", "top bit", "top part", "top section"),
}
#: Other words a person calls a band by in a follow-up ("swap work and services"), too loose
#: to name a kind in a heading ("How we work" is no gallery): they name a band only when no
#: heading does and the page has one band of that kind (``offline/naming.py``).
ALSO_CALLED: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType({
    "gallery": ("work", "my work", "past work", "recent work", "projects", "shots"),
    "about": ("bio", "my story"),
    "services": ("what i do",),
    "testimonials": ("feedback", "what customers say", "what clients say", "what couples say"),
})  # fmt: skip


def kind_spans(lower: str) -> list[tuple[int, str, str]]:
    """(where, kind, the word after its name) for each section kind ``lower`` names, in order."""
    padded = " " + "".join(c if c.isalnum() or c in "&-'" else " " for c in lower) + " "
    found: list[tuple[int, str, str]] = []
    taken: list[tuple[int, int]] = []
    for kind, phrases in SECTION_WORDS.items():
        for phrase in phrases:
            at = padded.find(f" {phrase} ")
            if at < 0 or any(a <= at < b for a, b in taken):
                continue
            end = at + len(phrase) + 1
            taken.append((at, end))
            following = padded[end:].split(maxsplit=1)
            found.append((at, kind, following[0] if following else ""))
            break
    return sorted(found)


def kinds_in(lower: str) -> list[str]:
    """The section kinds ``lower`` names, in the order it names them (each once)."""
    return [kind for _at, kind, _next in kind_spans(lower)]
