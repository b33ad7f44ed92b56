"""The intent on a price the page shows: "Consultations now cost £52", "the drop-in class is £14 now, not £12".

The item is named by the words before the price ("the price of …", "… now
costs"), and found on the page by ``price_places`` (a row, or the part of a
text naming it); its price becomes the one the person gave, as written, and
only the price: what the row says around it ("from", "/hour") stays. Several
items and prices in one clause are read pair by pair ("60 min is £58 now and
90 min is £80"). An old price the person names ("not £12", "instead of £12")
must be the one the page shows. After a price may come what it is for ("a
dozen", "an hour": the row must say it), when it starts ("from September")
and a closing request ("can you update it"); any other word is not understood.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from charlotte.checks.claims import Found
from charlotte.offline.edits import Context, Edit, Refusal
from charlotte.offline.intents.facts import unaccounted
from charlotte.offline.intents.intent import (
    ADD,
    CHANGE,
    FILLERS,
    MOVE,
    REMOVE,
    Clause,
    Intent,
    Reading,
)
from charlotte.offline.intents.price_places import name_words, named, places, price_in
from charlotte.offline.requests import ChangePrice
from charlotte.sections.page_view import PROP, PageView

__all__ = ["CHANGE_PRICE"]

_VERBS: Final = CHANGE | {"raise", "lower", "increase", "reduce", "adjust", "drop", "decrease", "chnage", "udpate"}
#: Words that link an item to its price ("… now costs £52", "the price of … to £52").
_LINKS: Final = frozenset(
    {"now", "costs", "cost", "is", "are", "should", "be", "will", "to", "from", "price", "prices",
     "at", "goes", "go", "up", "becomes", "become", "of", "for", "the", "not", "instead", "was",
     "were", "it's", "it", "each", "new", "changed", "has", "have", "per", "gone", "going", "went",
     "start", "starts", "starting", "risen", "rise", "rises", "increased", "down", "charged"}
)  # fmt: skip
_ARTICLES: Final = frozenset({"the", "a", "an", "our", "my", "your", "their"})
_NEGATIONS: Final = frozenset({"not", "don't", "never", "no", "dont", "doesn't"})
_TEXT_WORDS: Final = frozenset({"headline", "heading", "title", "button", "label", "text", "intro"})
#: Words a price may be followed by: when, a feeling, a closing request ("can you update it").
_TAIL: Final = FILLERS | frozenset(
    {"now", "each", "sadly", "unfortunately", "i'm", "afraid", "too", "update", "change", "it",
     "that", "this", "pls", "plz", "thx", "cheers"}
)  # fmt: skip
_MONTHS: Final = frozenset(
    {"january", "february", "march", "april", "may", "june", "july", "august", "september",
     "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
     "sept", "oct", "nov", "dec"}
)  # fmt: skip
_PERIODS: Final = frozenset({"month", "week", "year", "term", "season", "spring", "summer", "autumn", "winter"})
#: How a preamble ends: "Lessons went up, single lesson is £40 …".
_RISEN: Final = frozenset({"up", "down", "changed", "increased", "risen"})


@dataclass
class _Pair:
    """One item and its new price as read (the old price and the words after it, if any)."""

    item: list[str]
    price: Found
    written: str
    old: Found | None = None
    tail: list[str] = field(default_factory=list)


def _item(words: list[str]) -> list[str]:
    """The item's words out of the words before the price: verb, "the price of", links dropped."""
    if words and words[0] in _VERBS:
        words = words[1:]
    while words and words[0] in _ARTICLES | {"price", "prices", "cost", "of", "for"}:
        words = words[1:]
    while words and words[-1] in _LINKS:
        words = words[:-1]
    while words and words[-1] in ("price", "prices", "cost"):
        words = words[:-1]
    if words and words[-1].endswith("'s"):
        words = [*words[:-1], words[-1][:-2]]  # "soup's £7", "the rate's gone up"
    return words


def _old_marker(words: list[str]) -> int:
    """How many of the last ``words`` say the price after them is the old one ("not", "instead of")."""
    if words[-2:] == ["instead", "of"]:
        return 2
    return 1 if words[-1:] in (["not"], ["was"], ["from"]) else 0


def _tail(words: list[str]) -> tuple[str | None, list[str]]:
    """What the price is per ("a dozen": "dozen") and the words after it not understood."""
    unit: str | None = None
    left: list[str] = []
    k = 0
    while k < len(words):
        word, after = words[k], words[k + 1] if k + 1 < len(words) else ""
        if word in ("a", "an", "per") and after and unit is None and after not in _TAIL:
            unit, k = after, k + 2
        elif word in ("from", "starting") and (after in _MONTHS or after in ("next", "this")):
            k += 3 if after in ("next", "this") and k + 2 < len(words) and words[k + 2] in _PERIODS else 2
            if after in ("next", "this") and words[k - 1] not in _PERIODS:
                left.append(" ".join(words[k - 2 : k]))
        elif word in ("this", "next") and after in _PERIODS:
            k += 2
        elif word in _TAIL:
            k += 1
        else:
            left.append(word)
            k += 1
    return unit, left


def _first_item(clause: Clause, end: int) -> list[str]:
    """The words naming the first item, a preamble ("Lessons went up,") left off."""
    text = clause.lower[clause.at : end]
    before, comma, after = text.rpartition(", ")
    pre = [w.strip(".,!?;:") for w in before.split()]
    if comma and pre and pre[-1] in _RISEN and len(pre) <= 5:
        return [w for w in (w.strip(".,!?;:()") for w in after.split()) if w]
    return clause.words_of(clause.at, end)


def _pairs(clause: Clause, prices: list[Found]) -> list[_Pair] | str:
    """The clause's items and prices in order, or what it could not tell."""
    pairs: list[_Pair] = []
    cursor = clause.at
    lower = clause.lower
    for price in prices:
        words = clause.words_of(cursor, price.start)
        marker = _old_marker(words)
        if pairs and marker and pairs[-1].old is None:
            pairs[-1].old = price
            pairs[-1].tail += words[: len(words) - marker]
            cursor = price.end
            continue
        written = price.text
        if not pairs:
            item = _first_item(clause, price.start)
            if marker and words[-1] == "from" and clause.verb not in _VERBS:
                written, item = f"from {price.text}", item[:-1]  # "Lock change from £95": the row's words
            elif marker:
                return "I could not tell which price is the new one"
        else:
            between = lower[cursor : price.start]
            cut = max(between.rfind(","), between.rfind(" and "), between.rfind(";"))
            if cut < 0:
                return "I could not tell which price is for which item"
            pairs[-1].tail += clause.words_of(cursor, cursor + cut)
            item = [w for w in clause.words_of(cursor + cut, price.start) if w != "and"]
        pairs.append(_Pair(_item(item), price, written))
        cursor = price.end
    if pairs:
        pairs[-1].tail += clause.words_of(cursor, len(lower))
    return pairs


def _range(clause: Clause, prices: list[Found]) -> Reading | None:
    """ "from £12 to £14", read as one range: the first is the old price, the second the new."""
    text = prices[0].text
    at = text.find(" to ")
    words = clause.words_of(clause.at, prices[0].start)
    if at < 0 or words[-1:] != ["from"]:
        return Reading(72, (), why="I could not tell which price is the new one")
    item = _item(words[:-1])
    left = unaccounted(clause.words_of(prices[0].end, len(clause.lower)), _TAIL)
    if not item or left:
        return Reading(72, (), why=f'I did not understand "{" ".join(left or ["which item"])}"')
    return Reading(72, (ChangePrice(" ".join(item), text[at + 4 :].strip(), text[:at].strip()),))


def _read(clause: Clause) -> Reading | None:
    found = clause.found
    prices = [f for f in found if f.kind == "price"]
    seen = set(clause.words_of(0, len(clause.lower)))
    if not prices or _TEXT_WORDS & seen or any(f.kind in ("phone", "email") for f in found):
        return None
    if len(prices) == 2 and prices[0].start == prices[1].start:
        return _range(clause, prices)
    if len({p.start for p in prices}) != len(prices):
        return Reading(72, (), why="I could not tell which price is the new one")
    pairs = _pairs(clause, prices)
    if isinstance(pairs, str):
        return Reading(72, (), why=pairs)
    out: list[ChangePrice] = []
    for pair in pairs:
        unit, left = _tail(pair.tail)
        # A verb word ends an item's name only as a noun of it ("city centre drop is £10 now"):
        # the plan must then find a row of those words, else nothing changes.
        wrong = [
            w for n, w in enumerate(pair.item)
            if w in _NEGATIONS or (w in ADD | REMOVE | MOVE and not 0 < n == len(pair.item) - 1)
        ]  # fmt: skip
        if not pair.item or wrong or left:
            words = left or wrong or ["which item"]
            return Reading(72, (), why=f'I did not understand "{" ".join(words)}"')
        old = pair.old.text if pair.old else None
        out.append(ChangePrice(" ".join(pair.item), pair.written, old, unit))
    return Reading(72, tuple(out))


def _plan(request: ChangePrice, page: PageView, _context: Context) -> Edit | Refusal:
    olds = price_in(request.old) if request.old else []
    old = olds[0] if len(olds) == 1 else None
    rows = named(places(page), request.item, old)
    if not rows:
        return Refusal(f'the page shows no price for "{request.item}"')
    shown = sorted({place.price.text for place in rows})
    if len({place.price.value for place in rows}) > 1:
        return Refusal(f'the page shows more than one price for "{request.item}" ({", ".join(shown)})')
    was = rows[0].price.text
    if old is not None and old.value != rows[0].price.value:
        return Refusal(f'the page shows {was} for "{request.item}", not {request.old}')
    if request.unit and not any(name_words(request.unit)[0] in place.around for place in rows):
        return Refusal(f'the page does not say the price of "{request.item}" is per {request.unit}')
    by_node: dict[str, list[Any]] = {}
    for place in rows:
        by_node.setdefault(str(place.node["id"]), []).append(place)
    ops: list[dict[str, Any]] = []
    for node_id, here in by_node.items():
        node = here[0].node
        text = page.words(node)
        for place in sorted(here, key=lambda p: -p.price.start):
            price = request.price
            if price.startswith("from ") and text[: place.price.start].lower().endswith("from "):
                price = price[5:]
            text = text[: place.price.start] + price + text[place.price.end :]
        ops.append({"t": "set_node_props", "id": node_id, "patch": {PROP[str(node["type"])]: text}})
    places_said = "" if len(ops) == 1 else f" ({len(ops)} places)"
    return Edit(tuple(ops), f'changed the price of "{request.item}" from {was} to {request.price}{places_said}')


CHANGE_PRICE: Final = Intent(
    "change a price",
    _read,
    (ChangePrice,),
    _plan,
    "change a price the page shows (\"the drop-in class is now £14\")",
)
