"""Where a page states the price of an item, and which of those places a person's words name.

A place is a price the page shows with the words that name it: a row (a name
beside a figure: "Beach bootcamp" · "£10"), a node saying both ("Consultation
£45"), or one part of a longer text, cut at ``;``, a new line or a sentence
end ("Sole trader: from £45/month; Self assessment only: £295."), that holds
one price. ``places(page)`` finds them all in one pass; ``named(places,
item, old)`` keeps those the item's words name, best first: the same words,
then the item's words all in the name ("bootcamp": "Beach bootcamp"), then
the name's all in the item ("45 minute lessons": "45 minutes"), then the same
without the words any priced thing may carry ("package", "session"); with an
old price given, a row showing it whose name shares a word with the item.
Words are compared bare: lower case, plural endings, articles and hyphens aside.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Any, Final

from charlotte.checks.claims import Found, read

__all__ = ["Place", "name_words", "named", "places", "price_in"]

_ARTICLES: Final = frozenset({"the", "a", "an", "our", "my", "your", "their", "of", "from", "for"})
#: Words any priced thing may be called by: "party package" names the row "Party (4hrs)".
_GENERIC: Final = frozenset(
    {"package", "session", "lesson", "class", "service", "option", "item", "deal", "visit",
     "appointment", "treatment", "booking", "one", "price", "rate", "fee", "cost"}
)  # fmt: skip
_CUTS: Final = ("; ", "\n", ". ")


@dataclass(frozen=True, slots=True)
class Place:
    """A price on the page: the node, where in its words, the price, and the words naming it."""

    node: Mapping[str, Any]
    price: Found
    name: tuple[str, ...]
    #: The words around the price (its name and its figure): what it is per ("/hour", "a dozen").
    around: frozenset[str]


def _stem(word: str) -> str:
    """``word`` without a plural ending ("classes": "class", "dries": "dry", "lessons": "lesson")."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "ches", "shes", "xes")):
        return word[:-2]
    return word[:-1] if word.endswith("s") and not word.endswith(("ss", "us")) and len(word) > 2 else word


def name_words(text: str) -> tuple[str, ...]:
    """The bare words of ``text``: lower case, articles dropped, hyphens and brackets apart, stemmed."""
    out: list[str] = []
    for raw in text.lower().split():
        word = raw.strip(".,:;()!?\"'\u201c\u201d-\u2013")
        if not word or word in _ARTICLES:
            continue
        for part in word.replace("/", "-").replace("(", "-").replace(")", "-").split("-"):
            part = part.removesuffix("'s").strip("'")
            if part:
                out.append(_stem(part))
    return tuple(out)


def price_in(text: str) -> list[Found]:
    """The prices ``text`` states (a range as one, its first reading)."""
    out: list[Found] = []
    for found in read(text).found:
        if found.kind == "price" and not (out and out[-1].start == found.start):
            out.append(found)
    return out


def _segments(text: str) -> list[tuple[int, int]]:
    """(start, end) of each part of ``text`` cut at ``;``, a new line or a sentence end."""
    bounds = [0]
    for i in range(len(text)):
        if any(text.startswith(cut, i) for cut in _CUTS):
            bounds.append(i + 1)
    bounds.append(len(text))
    return [(a, b) for a, b in pairwise(bounds) if b > a]


def places(page: Any) -> list[Place]:
    """Every price the page states with the words naming it (``page``: a ``PageView``)."""
    texts = [n for n in page.nodes if n.get("type") in ("text", "heading")]
    figures: dict[str, Mapping[str, Any]] = {}
    out: list[Place] = []
    for node in texts:
        words = page.words(node)
        if node.get("type") != "text" or price_in(words):
            continue  # a band's heading names the band, not a price in it
        siblings = [n for n in page.nodes if n.get("parent") == node.get("parent") and n is not node
                    and n.get("type") == "text" and node.get("parent") is not None]  # fmt: skip
        priced = [(n, found) for n in siblings if len(found := price_in(page.words(n))) == 1]
        if len(priced) == 1 and words.strip():
            figure, [price] = priced[0]
            figures[str(figure["id"])] = figure
            around = frozenset(name_words(f"{words} {page.words(figure)}"))
            out.append(Place(figure, price, name_words(words), around))
    for node in texts:
        if str(node["id"]) in figures:
            continue
        words = page.words(node)
        for start, end in _segments(words):
            part = words[start:end]
            found = price_in(part)
            if len(found) != 1:
                continue
            price = found[0]
            at = replace(price, start=price.start + start, end=price.end + start)
            name = name_words(part[: price.start] + " " + part[price.end :])
            out.append(Place(node, at, name, frozenset(name_words(part))))
    return out


def _level(item: tuple[str, ...], name: tuple[str, ...]) -> int | None:
    """How closely ``name`` is the item's (0: the same words … 3: the same but for generic words)."""
    if not item or not name:
        return None
    if item == name:
        return 0
    if set(item) <= set(name):
        return 1
    if set(name) <= set(item):
        return 2
    core = {w for w in item if w not in _GENERIC}
    if core and (core == set(name) or core <= set(name)):
        return 3
    return None


def named(found: list[Place], item: str, old: Found | None) -> list[Place]:
    """The places ``item`` names, at the closest level any reaches (see the module docstring)."""
    words = name_words(item)
    for level in range(4):
        here = [p for p in found if _level(words, p.name) == level]
        if here:
            return here
    if old is None:
        return []
    core = {w for w in words if w not in _GENERIC and not w.isdigit()}
    return [p for p in found if p.price.value == old.value and core & set(p.name)]
