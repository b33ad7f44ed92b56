"""How the offline builder reads the brief: the business name, lead, offerings and sections.

A brief mixes description with directions to the builder ("Sections: …",
"Warm, friendly tone; invite people to visit."): ``statements`` keeps only
the description, so directions never become copy. Where one of the host's
facts says the same (a name, a tagline, an about text) the fact wins, read
verbatim through ``facts``; what the brief says is kept in its words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from charlotte.sections.catalogue import KINDS, MAX_ITEMS
from charlotte.sections.facts import capitalised, fact, scalar

__all__ = [
    "NAME_KEYS",
    "TAGLINE_KEYS",
    "TONE_ONLY",
    "Lead",
    "Offerings",
    "business_name",
    "is_direction",
    "lead_of",
    "names_a_section",
    "offerings_of",
    "statements",
]

#: Longest business name used as the headline (the copy check warns past 80).
MAX_NAME: Final = 60

NAME_KEYS = (
    "name",
    "business_name",
    "business",
    "company",
    "brand",
    "product",
    "product_name",
    "site_name",
)
TAGLINE_KEYS = ("tagline", "slogan", "summary", "description")

_INSTRUCTION = re.compile(
    r"(?i)\b(?:sections?|landing\s+page|web\s*page|website|site|pages?|include|should|must|"
    r"please|want|needs?|(?:'d|\s+would)\s+like|make|build|create|add|show|list|call\s+to\s+action|cta)\b"
)
_NAME_WORD = r"[A-Z0-9][\w'\u2019&.+-]*"
_JOINER = r"(?:&|and|of|the|de|la|le)"
_STOP_START = frozenset(
    {"A", "An", "This", "We", "Our", "Please", "Make", "Build", "Create", "It", "They"}
)
#: Words that make a clause a direction about the page's voice or look, not a statement.
_STYLE_WORDS = re.compile(
    r"(?i)\b(?:tone|voice|style|vibe|mood|feel|look\s+and\s+feel|colou?rs?|fonts?|typefaces?|layout|"
    r"design|white\s+space|wording|copy\s*writing|seo|keywords?|headlines?|emojis?|audience)\b"
)
#: A clause that opens with one of these verbs is an order to the builder.
_IMPERATIVE = re.compile(
    r"(?i)^\s*(?:please\s+)?(?:invite|encourage|keep|use|write|make|include|add|show|list|avoid|"
    r"mention|highlight|focus|emphasi[sz]e|stress|tell|say|give|sound|speak|aim|target|put|"
    r"link|let|be|do|don'?t|try|ensure|remember|promote|describe|explain|mirror|match|stick|"
    r"ask|urge)\b"
)
#: Adjectives a brief uses to set the voice ("Warm and friendly."): a clause of only these is one.
TONE_ONLY = frozenset(
    {
        "warm",
        "friendly",
        "welcoming",
        "playful",
        "fun",
        "professional",
        "formal",
        "informal",
        "casual",
        "modern",
        "minimal",
        "minimalist",
        "elegant",
        "clean",
        "upbeat",
        "calm",
        "reassuring",
        "confident",
        "concise",
        "bold",
        "simple",
        "short",
        "punchy",
        "lively",
        "cheerful",
        "relaxed",
        "serious",
        "trustworthy",
        "approachable",
        "no",  # "no-nonsense" reads as two words
        "nonsense",
        "earthy",
        "straightforward",
        "honest",
        "practical",
        "gentle",
        "classic",
        "refined",
        "rustic",
        "sophisticated",
        "stylish",
        "inviting",
        "cosy",
        "cozy",
        "pretty",
        "pastel",
        "whimsical",
        "romantic",
        "moody",
        "natural",
        "soothing",
        "quirky",
        "loud",
        "chunky",
        "airy",
        "light",
        "soft",
        "bright",
        "dark",
        "and",
        "or",
        "but",
        "yet",
        "very",
        "not",
        "too",
        "a",
        "bit",
        "slightly",
    }
)
#: Verbs a brief uses to name what a business offers ("baking sourdough, …").
_FORMS = (
    r"bak(?:es|ing)|serv(?:es|ing)|sell(?:s|ing)|offer(?:s|ing)|"
    r"mak(?:es|ing)|brew(?:s|ing)|roast(?:s|ing)|cook(?:s|ing)|provid(?:es|ing)|"
    r"fix(?:es|ing)|repair(?:s|ing)|teach(?:es|ing)|run(?:s|ning)|install(?:s|ing)|"
    r"shoot(?:s|ing)|photograph(?:s|ing)|cover(?:s|ing)|treat(?:s|ing)|"
    r"specialis(?:es|ing)\s+in|specializ(?:es|ing)\s+in"
)
#: The same verbs as "we" or "I" say them ("We treat …", "I teach …", "and run …").
_BASE = (
    r"bake|serve|sell|offer|make|brew|roast|cook|provide|fix|repair|teach|run|install|treat|"
    r"do|restore|deliver|clean|build|design|grow|supply"
)
_OFFER_VERB = re.compile(
    rf"(?i)\b(?P<verb>{_FORMS}|(?:(?<=\bwe\s)|(?<=\bi\s)|(?<=\balso\s))(?:{_BASE}))"
    # "We repair and restore …": two verbs, one list.
    rf"(?:\s+(?:and|&)\s+(?:{_BASE})(?=\s))?"
    # Not a verb but what the business is: "an alterations and repairs shop".
    r"\s+(?!(?:shop|workshop|business|company|studio|centre|center|service|specialists?|firm|van|"
    r"team|man|woman|people)\b)"
    r"(?P<list>[^.;:!?()]+)"
)
#: A second verb that starts a list of its own: "…, and run small Pilates classes".
_AND_VERB = re.compile(rf"(?i),?\s+and\s+(?=(?:{_FORMS}|{_BASE})\s)")
_CHAINED = re.compile(rf"(?i)(?P<verb>{_FORMS}|{_BASE})\s+(?P<list>[^.;:!?()]+)")
#: Where a list of offerings ends: a qualifier that says when, where or for whom.
_LIST_END = re.compile(
    r"(?i)\s+(?:every|each|daily|all\s+day|since|for|to|in|at|from|on|across|near|around|"
    r"throughout|with|by|so|that|which|who|while|because|using)\b.*$"
    # A new clause with its own subject: "…, and we can collect grandfather clocks".
    r"|,?\s+(?:and|but)\s+(?:we|i|our|they|it)\b.*$"
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
#: Longest offering kept (in words): a longer run is prose, not a list.
_ITEM_WORDS: Final = 6


def _sentences(brief: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+|\n+", brief) if s.strip()]


def is_direction(clause: str) -> bool:
    """True when ``clause`` tells the builder what to do (sections, tone, calls to visit)."""
    if _INSTRUCTION.search(clause) or _IMPERATIVE.search(clause):
        return True
    if any(not _trade(clause, m) for m in _STYLE_WORDS.finditer(clause)):
        return True
    words = re.findall(r"[\w']+", clause.lower())
    # "Lessons, prices, about, contact.": the page's sections, named without "Sections:".
    listed = "," in clause and _names_sections(clause)
    return bool(words) and (all(w in TONE_ONLY for w in words) or listed)


def _trade(clause: str, word: re.Match[str]) -> bool:
    """True for a style word that names a trade or a state: "garden design", "low mood".

    Only "design", "mood" and "style" are read so, and only after a word that is no tone
    word, article or possessive ("a modern design" and "our style" still direct the page).
    """
    if word.group(0).lower() not in ("design", "mood", "style"):
        return False
    before = re.findall(r"[A-Za-z][\w'-]*", clause[: word.start()])
    return bool(before) and before[-1].lower() not in TONE_ONLY | _OWNERS


_OWNERS: Final = frozenset({"the", "its", "our", "my", "your", "their", "this", "that", "of"})


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
    named = scalar(fact(facts, NAME_KEYS))
    if named and len(named) <= MAX_NAME:
        return named
    quoted = re.search(r"[\"“]([^\"”\n]{2,60})[\"”]", brief)
    if quoted:
        return quoted.group(1).strip()
    # A name is on one line: a line break ends it ("Rose\nRose" is no name).
    run = rf"{_NAME_WORD}(?:[ \t]+(?:{_JOINER}|{_NAME_WORD})){{0,5}}"
    # "Crumb & Co is …", "Fernhill Pottery Studio in Bristol: …", "Spokes, a bike shop …",
    # "Brightsmile Dental \u2013 …", "Hollow Oak Joinery - …" (two words at least before a
    # colon or dash).
    ends = r"\s+(?:is|are)\b|\s+in\s+[A-Z]|,\s+(?:a|an|the)\s|(\s*[:(\u2013\u2014]|\s+-\s)"
    leading = re.match(rf"\s*({run})(?:{ends})", brief)
    if (
        leading
        and not _INSTRUCTION.search(leading.group(1))
        and (leading.group(2) is None or " " in leading.group(1).strip())
        and (found := _clean_name(leading.group(1)))
    ):
        return found
    for match in re.finditer(rf"\b(?:for|called|named)\s+({run})", brief):
        if found := _clean_name(match.group(1)):
            return found
    return None


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
    for key in TAGLINE_KEYS:
        if (text := scalar(facts.get(key))) is not None:
            return Lead(text, key)
    for sentence in _sentences(brief):
        described = None
        if name:
            # "X is a …", "X - garden design in York", "X: …", "X, a family dentist …"
            described = re.match(
                rf"\s*{re.escape(name)}(?:\s+(?:is|are)\s+|\s+[-\u2013\u2014]\s+|:\s+|"
                rf",\s+(?=(?:a|an|the)\s))(.+)$",
                sentence,
            ) or re.search(
                rf"\bfor\s+{re.escape(name)}\s*(?:,\s*|\s(?=(?:in|at|near|on)\s))(.+)$", sentence
            )
        if described:
            description = described.group(1).split(";")[0].rstrip(" .!?")
            head, colon, listing = description.partition(":")
            if colon and _names_sections(listing):
                description = head.rstrip()  # "in London: services, our team, contact"
            if not is_direction(description) and not _names_sections(description):
                return Lead(capitalised(_head(description)) + ".", sentence, description)
    rest = statements(brief)
    return Lead(rest[0], rest[0]) if rest else Lead(None, None)


@dataclass(frozen=True, slots=True)
class Offerings:
    """What the brief says the business offers, in its words, and when ("Baked every morning.")."""

    items: tuple[str, ...]
    note: str | None = None


def _items(listing: str) -> list[str]:
    if re.match(r"(?i)\s*(?:and|or|&)\b", listing):
        return []  # the tail of another list ("stool making and green woodwork"), not a list
    parts = re.split(r"\s*,\s*(?:and\s+|or\s+)?", listing.strip())
    # Only the last part of "A, B and C" holds the list's "and": "back and neck pain" before
    # a comma is one item.
    parts[-1:] = re.split(r"\s+(?:and|or|&)\s+", parts[-1])
    items = [p.strip(" ,") for p in parts if p.strip(" ,")]
    if any(len(i.split()) > _ITEM_WORDS for i in items):
        return []
    return list(dict.fromkeys(capitalised(i) for i in items))[:MAX_ITEMS]


def _verb_lists(sentence: str) -> list[tuple[re.Match[str], str]]:
    """Each offer verb of ``sentence`` with its list, which ends where "and <verb>" starts another."""
    out: list[tuple[re.Match[str], str]] = []
    found = _OFFER_VERB.search(sentence)
    while found is not None:
        listing = found.group("list")
        more = _AND_VERB.search(listing)
        out.append((found, listing if more is None else listing[: more.start()]))
        found = None if more is None else _CHAINED.match(listing, more.end())
    return out


def _least(verb: re.Match[str]) -> int:
    """Items a verb's list needs: two after a bare "we"/"I" verb ("We run a shop" lists nothing)."""
    return 2 if re.fullmatch(rf"(?i){_BASE}", verb.group("verb")) else 1


def offerings_of(brief: str, lead: Lead) -> Offerings:
    """The first list of offerings the brief's description or statements name, items verbatim."""
    for sentence in ([lead.description] if lead.description else []) + statements(brief):
        lists = _verb_lists(sentence)
        for n, (match, listing) in enumerate(lists):
            items = _verb_items(lists[n:], keep=lambda _item: True)
            if len(_items(_LIST_END.sub("", listing))) < _least(match):
                continue
            note = None
            tail = _LIST_END.search(listing)
            when = _WHEN.match(tail.group(0)) if tail else None
            stem = re.match(r"(?i)[a-z]+?(?=e?s$|e?ing$|s$)", match.group("verb").split()[0])
            verb = _PARTICIPLE.get(stem.group(0).lower()) if stem else None
            if when and verb:
                note = f"{verb} {when.group('when').lower()}."
            return Offerings(tuple(items), note)
        if listed := _colon_list(sentence):
            return Offerings(tuple(listed))
    # A sentence that reads as a direction only for what it lists ("…: fixing road bikes,
    # …, a price list"): its offer verb's list, else its colon list (decided by the words
    # before the colon).
    for sentence in _sentences(brief):
        lists = _verb_lists(sentence)
        for n in range(len(lists)):
            first = [i for i in _items(_LIST_END.sub("", lists[n][1])) if not names_a_section(i)]
            if len(first) >= 2:
                return Offerings(
                    tuple(_verb_items(lists[n:], keep=lambda i: not names_a_section(i)))
                )
        if listed := _colon_list(sentence):
            return Offerings(tuple(listed))
    return Offerings(())


def _verb_items(lists: list[tuple[re.Match[str], str]], keep: Callable[[str], bool]) -> list[str]:
    """The items of a verb's list and of the verbs after it ("We treat …, and run Pilates classes")."""
    items: list[str] = []
    for _verb, listing in lists:
        items += [i for i in _items(_LIST_END.sub("", listing)) if i not in items and keep(i)]
    return items[:MAX_ITEMS]


def _colon_list(sentence: str) -> list[str]:
    """The items of "… in Whitby: sports injuries, back pain, home visits." (two or more, no figures).

    Not after a direction ("Sections: …", "Call to action: …"): the last words before the
    colon decide.
    """
    head, colon, rest = sentence.partition(":")
    if not colon or is_direction(" ".join(head.split()[-3:])):
        return []
    items = _items(rest.strip().rstrip(" .!?"))
    if _names_sections(rest):
        return []
    # The section names and directions in a mixed list ("a class price list", "how to
    # book") are the page's sections, not offerings.
    offered = [item for item in items if not names_a_section(item)]
    if offered:
        # Only the offerings' last item has a tail saying when or where ("… and e-bikes
        # while you wait"); an earlier item keeps its words ("classes for beginners").
        offered[-1] = _LIST_END.sub("", offered[-1]) or offered[-1]
    if len(offered) < 2 or any(re.search(r"\d", item) for item in offered):
        return []
    return offered


def names_a_section(item: str) -> bool:
    """True for a list item that names a section or tells the builder something ("a price list")."""
    words = item.lower().split()
    if words[:1] in (["a"], ["an"], ["the"], ["our"]):
        words = words[1:]
    if words[:2] == ["how", "to"] or is_direction(item):
        return True
    # The item's last one, two or three words: "class price list" ends with "price list".
    return any(" ".join(words[-n:]) in _SECTION_NAMES for n in (1, 2, 3) if len(words) >= n)


_SECTION_NAMES: Final = frozenset(name for kind in KINDS for name in kind.names)


def _names_sections(listing: str) -> bool:
    """True when ``listing`` is mostly section names ("services, our team and contact")."""
    items = [i.lower() for i in _items(listing.strip().rstrip(" .!?"))]
    return bool(items) and sum(1 for i in items if i in _SECTION_NAMES) * 2 >= len(items)
