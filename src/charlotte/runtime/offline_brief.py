"""What the offline builder reads: the business name, the subheading and the sections a brief asks for.

Everything here reads the brief and the host's facts and keeps fact values
verbatim (``scalar``, ``fact_items``, ``contact_items``): the page may state
only what they say, and the facts check compares the page's words with theirs.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from charlotte.checks.contacts import parse_phone

__all__ = [
    "KINDS",
    "KIND_BY_KEY",
    "Kind",
    "Section",
    "about_text",
    "business_name",
    "contact_items",
    "fact",
    "fact_items",
    "fact_key",
    "scalar",
    "sections_of",
    "subheading_of",
]

#: Longest business name used as the headline (the copy check warns past 80).
MAX_NAME: Final = 60
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
)
KIND_BY_KEY: Mapping[str, Kind] = {k.key: k for k in KINDS}

_NAME_KEYS = (
    "name",
    "business_name",
    "business",
    "company",
    "brand",
    "product",
    "product_name",
    "site_name",
)
_TAGLINE_KEYS = ("tagline", "slogan", "summary", "description")
_PHONE_KEYS = ("phone", "telephone", "tel", "phone_number")
_EMAIL_KEYS = ("email", "e_mail", "mail")
_ADDRESS_KEYS = ("address", "location")

_INSTRUCTION = re.compile(
    r"(?i)\b(?:sections?|landing\s+page|web\s*page|website|site|pages?|include|should|must|"
    r"please|want|needs?|make|build|create|add|show|list|call\s+to\s+action|cta)\b"
)
_NAME_WORD = r"[A-Z0-9][\w'\u2019&.+-]*"
_JOINER = r"(?:&|and|of|the|de|la|le)"
_STOP_START = frozenset(
    {"A", "An", "This", "We", "Our", "Please", "Make", "Build", "Create", "It", "They"}
)


def fact_key(name: str) -> str:
    """A fact's name as the builder looks it up: lower case, words joined by ``_``."""
    return re.sub(r"[\s-]+", "_", name.strip().lower())


def fact(facts: Mapping[str, Any], keys: Sequence[str]) -> Any:
    """The value of the first of ``keys`` the facts have, else None."""
    for key in keys:
        if key in facts:
            return facts[key]
    return None


def scalar(value: Any) -> str | None:
    """A fact value as the page shows it: strings verbatim, numbers as JSON writes them."""
    if isinstance(value, str):
        return value.strip() or None
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return None


def fact_items(value: Any) -> list[tuple[str | None, str | None]]:
    """A fact as (title, detail) pairs, each part verbatim from the fact."""
    out: list[tuple[str | None, str | None]] = []
    if isinstance(value, Mapping):
        for key, item in value.items():
            detail = scalar(item)
            if detail is None and isinstance(item, Mapping | list):
                parts = [
                    s
                    for s in map(scalar, item.values() if isinstance(item, Mapping) else item)
                    if s
                ]
                detail = " · ".join(parts) or None
            out.append((str(key).strip() or None, detail))
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, Mapping):
                title = scalar(fact(item, ("name", "title", "plan", "item", "day", "days")))
                rest = [
                    s
                    for k, v in item.items()
                    if k not in ("name", "title", "plan", "item") and (s := scalar(v))
                ]
                out.append((title, " · ".join(rest) or None))
            elif (text := scalar(item)) is not None:
                out.append((text, None))
    elif (text := scalar(value)) is not None:
        out.append((None, text))
    return [(t, d) for t, d in out if t or d][:MAX_ITEMS]


def _sentences(brief: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+|\n+", brief) if s.strip()]


def _clean_name(words: str) -> str | None:
    words = re.sub(rf"(?:\s+{_JOINER})+$", "", words.strip(" ,;:")).strip()
    if not words or len(words) > MAX_NAME or words.split()[0] in _STOP_START:
        return None
    return words


def business_name(brief: str, facts: Mapping[str, Any]) -> str | None:
    """The business name: a ``name``-like fact, else a quoted or leading name in the brief."""
    named = scalar(fact(facts, _NAME_KEYS))
    if named and len(named) <= MAX_NAME:
        return named
    quoted = re.search(r"[\"“]([^\"”\n]{2,60})[\"”]", brief)
    if quoted:
        return quoted.group(1).strip()
    run = rf"{_NAME_WORD}(?:\s+(?:{_JOINER}|{_NAME_WORD})){{0,5}}"
    leading = re.match(rf"\s*({run})\s+(?:is|are)\b", brief)
    if leading and (found := _clean_name(leading.group(1))):
        return found
    for match in re.finditer(rf"\b(?:for|called|named)\s+({run})", brief):
        if found := _clean_name(match.group(1)):
            return found
    return None


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def subheading_of(
    brief: str, facts: Mapping[str, Any], name: str | None
) -> tuple[str | None, str | None]:
    """The subheading, and the fact key or brief sentence it came from (the about text skips it)."""
    for key in _TAGLINE_KEYS:
        if (text := scalar(facts.get(key))) is not None:
            return text, key
    for sentence in _sentences(brief):
        if name:
            after = re.match(rf"\s*{re.escape(name)}\s+(?:is|are)\s+(.+)$", sentence)
            if after:
                return _capitalised(after.group(1)), sentence
            after = re.search(rf"\bfor\s+{re.escape(name)}\s*,\s*(.+)$", sentence)
            if after:
                return _capitalised(after.group(1)), sentence
        if not _INSTRUCTION.search(sentence):
            return sentence, sentence
    return None, None


def _mentioned(brief: str) -> list[str]:
    """Section kinds the brief names, in the order it names them."""
    found: list[tuple[int, str]] = []
    for kind in KINDS:
        match = re.search(rf"(?i)\b(?:{kind.words})\b", brief)
        if match:
            found.append((match.start(), kind.key))
    return [key for _, key in sorted(found)]


def _slug(title: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    return slug[:40] or "section"


def sections_of(brief: str, facts: Mapping[str, Any]) -> list[Section]:
    """The sections: those the brief names in its order, then those the facts feed; contact last."""
    keys = _mentioned(brief)
    for kind in KINDS:
        if kind.key not in keys and fact(facts, kind.facts) is not None:
            keys.append(kind.key)
    if any(fact(facts, k) is not None for k in (_PHONE_KEYS, _EMAIL_KEYS, _ADDRESS_KEYS)):
        keys.append("contact")
    # Contact closes the page: the call to action points at it.
    keys = [k for k in dict.fromkeys(keys) if k != "contact"] + ["contact"]
    taken = {"hero", "call-to-action"}
    out: list[Section] = []
    for key in keys:
        kind = KIND_BY_KEY[key]
        slug = _slug(kind.title)
        unique, n = slug, 2
        while unique in taken:
            unique, n = f"{slug}-{n}", n + 1
        taken.add(unique)
        out.append(Section(unique, kind.title, key))
    return out


def contact_items(facts: Mapping[str, Any]) -> list[tuple[str, str, str | None]]:
    """(label, words, href) for the phone, e-mail and address facts, verbatim."""
    out: list[tuple[str, str, str | None]] = []
    phone = scalar(fact(facts, _PHONE_KEYS))
    if phone:
        digits = re.sub(r"[^\d+]", "", phone)
        said, dialled = parse_phone(phone), parse_phone(digits, dialled=True)
        # A tel: link is a phone claim of its own: only for text that reads as that number.
        linked = said is not None and dialled is not None and said.matches(dialled)
        out.append(("phone", phone, f"tel:{digits}" if linked else None))
    email = scalar(fact(facts, _EMAIL_KEYS))
    if email:
        plain = re.fullmatch(r"[^\s@<>\"]+@[^\s@<>\"]+\.[A-Za-z]{2,}", email)
        out.append(("email", email, f"mailto:{email}" if plain else None))
    address = scalar(fact(facts, _ADDRESS_KEYS))
    if address:
        out.append(("address", address, None))
    return out


def about_text(brief: str, facts: Mapping[str, Any], used: str | None) -> str | None:
    """The about text: an about-like fact, else the brief's descriptive sentences not yet shown."""
    keys = ["about", "story", "about_us"] + ([] if used == "description" else ["description"])
    text = scalar(fact(facts, keys))
    if text:
        return text
    rest = [s for s in _sentences(brief) if not _INSTRUCTION.search(s) and s != used]
    return " ".join(rest[:3]) or None
