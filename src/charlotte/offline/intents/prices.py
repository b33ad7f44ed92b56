"""The intent on a price the page shows: "Consultations now cost £52", "the drop-in class is £14 now, not £12".

The item is named by the words before the price ("the price of …", "… now
costs"), and found on the page as a row whose name is those words (a plural
or an article aside); its price, in the row's name or beside it, becomes the
one the person gave, as written. An old price the person names ("not £12",
"from £12") must be the one the page shows. Any word the clause holds that is
neither the item, a price, nor a word linking them is not understood.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from charlotte.checks.claims import Found, read
from charlotte.offline.edits import Context, Edit, Refusal
from charlotte.offline.intents.facts import unaccounted
from charlotte.offline.intents.intent import CHANGE, FILLERS, Clause, Intent, Reading
from charlotte.offline.requests import ChangePrice
from charlotte.sections.page_view import PROP, PageView

__all__ = ["CHANGE_PRICE"]

_VERBS: Final = CHANGE | {"raise", "lower", "increase", "reduce", "adjust"}
#: Words that link an item to its price ("… now costs £52", "the price of … to £52").
_LINKS: Final = frozenset(
    {"now", "costs", "cost", "is", "are", "should", "be", "will", "to", "from", "price", "prices",
     "at", "goes", "go", "up", "becomes", "become", "of", "for", "the", "not", "instead", "was",
     "were", "it's", "it", "each", "new", "changed", "has", "have", "per"}
)  # fmt: skip
_ARTICLES: Final = frozenset({"the", "a", "an", "our", "my", "your", "their"})
_NEGATIONS: Final = frozenset({"not", "don't", "never", "no", "dont", "doesn't"})
_TEXT_WORDS: Final = frozenset({"headline", "heading", "title", "button", "label", "text", "intro"})


def _stem(word: str) -> str:
    """``word`` without a plural ending ("classes" is "class", "consultations" "consultation")."""
    if word.endswith(("sses", "ches", "shes", "xes")):
        return word[:-2]
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


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
    return words


def _last(clause: Clause, at: int, n: int) -> list[str]:
    """The last ``n`` words before ``at`` (read from a short window: a price list stays linear)."""
    return clause.words_of(max(0, at - 24), at)[-n:]


def _prices(clause: Clause, prices: list[Found]) -> tuple[str, str | None] | None:
    """(the new price, the old one or None) as written, or None when it cannot tell."""
    if len(prices) == 2 and prices[0].start == prices[1].start:
        # "from £12 to £14" is read as a range: the first is the old price, the second the new.
        text = prices[0].text
        at = text.find(" to ")
        if at < 0 or _last(clause, prices[0].start, 1) != ["from"]:
            return None
        return text[at + 4 :].strip(), text[:at].strip()
    olds = [p for p in prices if _last(clause, p.start, 1) in (["not"], ["from"], ["was"])
            or _last(clause, p.start, 2) == ["instead", "of"]]  # fmt: skip
    news = [p for p in prices if p not in olds]
    if len(news) != 1 or len(olds) > 1:
        return None
    return news[0].text, olds[0].text if olds else None


def _read(clause: Clause) -> Reading | None:
    found = clause.found
    prices = [f for f in found if f.kind == "price"]
    seen = set(clause.words_of(0, len(clause.lower)))
    if not prices or _TEXT_WORDS & seen or any(f.kind in ("phone", "email") for f in found):
        return None
    given = _prices(clause, prices)
    if given is None:
        return Reading(72, (), why="I could not tell which price is the new one")
    item = _item(clause.words_of(clause.at, prices[0].start))
    between = clause.words_of(prices[0].end, prices[-1].start) if prices[-1].start > prices[0].end else []
    left = unaccounted(between + clause.words_of(prices[-1].end, len(clause.lower)), _LINKS | FILLERS)
    if not item or _NEGATIONS & set(item) or left:
        words = left or [w for w in item if w in _NEGATIONS] or ["which item"]
        return Reading(72, (), why=f'I did not understand "{" ".join(words)}"')
    return Reading(72, (ChangePrice(" ".join(item), *given),))


def _name(words: str) -> list[str]:
    bare = [w.strip(".,:;()!?") for w in words.lower().split()]
    return [_stem(w) for w in bare if w and w not in _ARTICLES]


def _price_in(text: str) -> Found | None:
    prices = [f for f in read(text).found if f.kind == "price"]
    return prices[0] if len(prices) == 1 else None


def _rows(page: PageView, item: list[str]) -> list[tuple[Mapping[str, Any], Found]]:
    """(the node showing the price, the price) of each row the item's words name."""
    rows: list[tuple[Mapping[str, Any], Found]] = []
    for node in page.nodes:
        if node.get("type") not in ("text", "heading"):
            continue
        text = page.words(node)
        price = _price_in(text)
        name = text[: price.start] + text[price.end :] if price else text
        if _name(name) != item:
            continue
        if price is not None:
            rows.append((node, price))
            continue
        siblings = [n for n in page.nodes if n.get("parent") == node.get("parent") and n is not node
                    and n.get("type") == "text"]  # fmt: skip
        shown = [(n, p) for n in siblings if (p := _price_in(page.words(n))) is not None]
        if len(shown) == 1:
            rows.append(shown[0])
    return rows


def _plan(request: ChangePrice, page: PageView, _context: Context) -> Edit | Refusal:
    rows = _rows(page, _name(request.item))
    if not rows:
        return Refusal(f'the page shows no price for "{request.item}"')
    shown = {price.value for _node, price in rows}
    if len(shown) > 1:
        return Refusal(f'the page shows more than one price for "{request.item}"')
    was = rows[0][1].text
    if request.old is not None and _price_in(request.old) is not None:
        old = _price_in(request.old)
        if old is not None and old.value not in shown:
            return Refusal(f'the page shows {was} for "{request.item}", not {request.old}')
    ops: list[dict[str, Any]] = []
    for node, price in rows:
        text = page.words(node)
        new = text[: price.start] + request.price + text[price.end :]
        ops.append({"t": "set_node_props", "id": node["id"], "patch": {PROP[str(node["type"])]: new}})
    places = "" if len(ops) == 1 else f" ({len(ops)} places)"
    return Edit(tuple(ops), f'changed the price of "{request.item}" from {was} to {request.price}{places}')


CHANGE_PRICE: Final = Intent(
    "change a price",
    _read,
    (ChangePrice,),
    _plan,
    "change a price the page shows (\"the drop-in class is now £14\")",
)
