"""What the offline builder reads: the business name, the lead, the offerings and the sections.

Everything here reads the brief and the host's facts and keeps fact values
verbatim (``scalar``, ``fact_items``, ``contact_items``): the page may state
only what they say, and the facts check compares the page's words with theirs.
A brief mixes description with directions to the builder ("Sections: …",
"Warm, friendly tone; invite people to visit."): ``statements`` keeps only
the description, so directions never become copy.
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
    "OFFER_KINDS",
    "Kind",
    "Lead",
    "Offerings",
    "Section",
    "about_text",
    "business_name",
    "contact_items",
    "fact",
    "fact_items",
    "fact_key",
    "featured_items",
    "is_direction",
    "lead_of",
    "offerings_of",
    "scalar",
    "sections_of",
    "statements",
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
    # Never named by a brief's section list: added when the brief names what is on offer
    # and no other section would show it.
    Kind("offer", "What we offer", r"what\s+we\s+offer", (), "See what {name} offers."),
)
KIND_BY_KEY: Mapping[str, Kind] = {k.key: k for k in KINDS}
#: Section kinds that show what the business offers (the first one present shows the offerings).
OFFER_KINDS: Final = ("menu", "services", "features", "offer")

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
#: Words that make a clause a direction about the page's voice or look, not a statement.
_STYLE_WORDS = re.compile(
    r"(?i)\b(?:tone|voice|style|vibe|mood|feel|look\s+and\s+feel|colou?rs?|fonts?|layout|"
    r"design|wording|copy\s*writing|seo|keywords?|headlines?|emojis?|audience)\b"
)
#: A clause that opens with one of these verbs is an order to the builder.
_IMPERATIVE = re.compile(
    r"(?i)^\s*(?:please\s+)?(?:invite|encourage|keep|use|write|make|include|add|show|list|avoid|"
    r"mention|highlight|focus|emphasi[sz]e|stress|tell|say|give|sound|speak|aim|target|put|"
    r"link|let|be|do|don'?t|try|ensure|remember|promote|describe|explain|mirror|match|stick|"
    r"ask|urge)\b"
)
#: Adjectives a brief uses to set the voice ("Warm and friendly."): a clause of only these is one.
_TONE_ONLY = frozenset(
    {
        "warm", "friendly", "welcoming", "playful", "fun", "professional", "formal", "informal",
        "casual", "modern", "minimal", "minimalist", "elegant", "clean", "upbeat", "calm",
        "reassuring", "confident", "concise", "bold", "simple", "short", "punchy", "lively",
        "cheerful", "relaxed", "serious", "trustworthy", "approachable", "inviting", "cosy", "cozy",
        "and", "or", "but", "yet", "very", "not", "too", "a", "bit", "slightly",
    }
)
#: Verbs a brief uses to name what a business offers ("baking sourdough, …").
_OFFER_VERB = re.compile(
    r"(?i)\b(?P<verb>bak(?:es|ing)|serv(?:es|ing)|sell(?:s|ing)|offer(?:s|ing)|"
    r"mak(?:es|ing)|brew(?:s|ing)|roast(?:s|ing)|cook(?:s|ing)|provid(?:es|ing)|"
    r"specialis(?:es|ing)\s+in|specializ(?:es|ing)\s+in)\s+(?P<list>[^.;:!?()]+)"
)
#: Where a list of offerings ends: a qualifier that says when, where or for whom.
_LIST_END = re.compile(
    r"(?i)\s+(?:every|each|daily|all\s+day|since|for|to|in|at|from|on|across|near|around|"
    r"throughout|with|by|so|that|which|who|while|because|using)\b.*$"
)
_WHEN = re.compile(
    r"(?i)^\s*(?P<when>(?:fresh\s+)?(?:every|each)\s+(?:morning|day|week|evening)|"
    r"(?:fresh\s+)?daily|all\s+day)\b"
)
_PARTICIPLE: Final[Mapping[str, str]] = {
    "bak": "Baked",
    "brew": "Brewed",
    "roast": "Roasted",
    "mak": "Made",
    "cook": "Cooked",
    "serv": "Served",
}
#: Facts a business singles out; shown verbatim as a highlight next to the offerings.
_FEATURED_KEYS = (
    "signature",
    "signature_dish",
    "specialty",
    "speciality",
    "special",
    "specials",
    "bestseller",
    "best_seller",
    "highlight",
)
#: Longest offering kept (in words): a longer run is prose, not a list.
_ITEM_WORDS: Final = 6


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


def is_direction(clause: str) -> bool:
    """True when ``clause`` tells the builder what to do (sections, tone, calls to visit)."""
    if _INSTRUCTION.search(clause) or _STYLE_WORDS.search(clause) or _IMPERATIVE.search(clause):
        return True
    words = re.findall(r"[\w']+", clause.lower())
    return bool(words) and all(w in _TONE_ONLY for w in words)


def statements(brief: str) -> list[str]:
    """The brief's descriptive sentences, without the clauses that direct the builder."""
    out: list[str] = []
    for sentence in _sentences(brief):
        clauses = [c.strip() for c in sentence.split(";")]
        kept = [c for c in clauses if c.strip(" .!?") and not is_direction(c)]
        if not kept:
            continue
        text = "; ".join(c.rstrip(" .!?") for c in kept)
        end = sentence[-1] if sentence[-1] in ".!?" else "."
        out.append(text + end)
    return out


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


@dataclass(frozen=True, slots=True)
class Lead:
    """How the page opens: the hero's subheading, where it came from, the brief's description."""

    subheading: str | None
    used: str | None  # the fact key or brief sentence it came from (the about text skips it)
    description: str | None = None  # "a family bakery in Lisbon baking …", as the brief puts it


def _head(description: str) -> str:
    """The description up to what it offers: "a family bakery in Lisbon" of "… baking bread"."""
    offer = _OFFER_VERB.search(description)
    head = description[: offer.start()].rstrip(" ,") if offer else description.rstrip(" .!?")
    # Too short a head ("a bakery") says less than the whole description.
    return head if len(head.split()) >= 3 else description.rstrip(" .!?")


def lead_of(brief: str, facts: Mapping[str, Any], name: str | None) -> Lead:
    """The hero's subheading: a tagline fact, else what the brief says the business is."""
    for key in _TAGLINE_KEYS:
        if (text := scalar(facts.get(key))) is not None:
            return Lead(text, key)
    for sentence in _sentences(brief):
        described = None
        if name:
            described = re.match(
                rf"\s*{re.escape(name)}\s+(?:is|are)\s+(.+)$", sentence
            ) or re.search(rf"\bfor\s+{re.escape(name)}\s*,\s*(.+)$", sentence)
        if described:
            description = described.group(1).split(";")[0].rstrip(" .!?")
            if not is_direction(description):
                return Lead(_capitalised(_head(description)) + ".", sentence, description)
    rest = statements(brief)
    return Lead(rest[0], rest[0]) if rest else Lead(None, None)


@dataclass(frozen=True, slots=True)
class Offerings:
    """What the brief says the business offers, in its words, and when ("Baked every morning.")."""

    items: tuple[str, ...]
    note: str | None = None


def _items(listing: str) -> list[str]:
    parts = re.split(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&)\s+", listing.strip())
    items = [p.strip(" ,") for p in parts if p.strip(" ,")]
    if any(len(i.split()) > _ITEM_WORDS for i in items):
        return []
    return list(dict.fromkeys(_capitalised(i) for i in items))[:MAX_ITEMS]


def offerings_of(brief: str, lead: Lead) -> Offerings:
    """The first list of offerings the brief's description or statements name, items verbatim."""
    for sentence in ([lead.description] if lead.description else []) + statements(brief):
        for match in _OFFER_VERB.finditer(sentence):
            listing = match.group("list")
            items = _items(_LIST_END.sub("", listing))
            if not items:
                continue
            note = None
            tail = _LIST_END.search(listing)
            when = _WHEN.match(tail.group(0)) if tail else None
            stem = re.match(r"(?i)[a-z]+?(?=e?s$|e?ing$|s$)", match.group("verb").split()[0])
            verb = _PARTICIPLE.get(stem.group(0).lower()) if stem else None
            if when and verb:
                note = f"{verb} {when.group('when').lower()}."
            return Offerings(tuple(items), note)
    return Offerings(())


def featured_items(facts: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(label, words) for the facts a business singles out ("signature"), words verbatim."""
    out: list[tuple[str, str]] = []
    for key in _FEATURED_KEYS:
        text = scalar(facts.get(key))
        if text is not None:
            out.append((_capitalised(key.replace("_", " ")), text))
    return out


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


def sections_of(brief: str, facts: Mapping[str, Any], offers: bool = False) -> list[Section]:
    """The sections: those the brief names in its order, then those the facts feed; contact last.

    ``offers``: there is something to show of what the business offers; when no
    section would show it, a "What we offer" section opens the page's body.
    """
    keys = _mentioned(brief)
    for kind in KINDS:
        if kind.key not in keys and kind.facts and fact(facts, kind.facts) is not None:
            keys.append(kind.key)
    if offers and not any(k in OFFER_KINDS for k in keys):
        keys.insert(0, "offer")
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


def about_text(brief: str, facts: Mapping[str, Any], name: str | None, lead: Lead) -> str | None:
    """The about text: an about-like fact, else what the brief says the business is and does."""
    keys = ["about", "story", "about_us"] + ([] if lead.used == "description" else ["description"])
    text = scalar(fact(facts, keys))
    if text:
        return text
    parts: list[str] = []
    if name and lead.description:
        parts.append(f"{name} is {lead.description}.")
    parts += [
        s
        for s in statements(brief)
        if s != lead.used and not (lead.description and lead.description in s)
    ]
    return " ".join(parts[:3]) or None
