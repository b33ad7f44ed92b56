"""A shorter page that loses nothing: what the page says twice, said once.

"Make the page shorter", "shorter, the FAQ especially". The rule, the same for
every page: a later sentence of a text, or an FAQ question, goes when every
word of it that carries meaning (its numbers, prices, phone, e-mail, names
and other words; linking words and the FAQ's own "call"/"write to" aside) is
shown elsewhere on the page, in a node that stays. The first sentence of a
text and the first question of an FAQ always stay, the hero and the contact
band are never cut, and no fact leaves the page: whatever goes is said by
something that stays. When nothing is said twice, nothing is cut.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from charlotte.sections.page_view import PROP, PageView

__all__ = ["Trim", "said_twice"]

#: Words that carry no meaning of their own: linking words, and the FAQ's ways to reach someone.
_LINKING: Final = frozenset(
    {"a", "an", "the", "and", "or", "&", "to", "of", "in", "on", "at", "for", "with", "by", "from",
     "is", "are", "be", "we", "our", "us", "you", "your", "it", "its", "it's", "we're", "call",
     "write", "ring", "email", "e-mail", "phone", "open", "each", "per", "-", "\u2013", "\u2014", "/"}
)  # fmt: skip
#: Bands never cut: the hero heads the page, contact is how people reach the business.
_KEPT: Final = frozenset({"hero", "contact"})
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9£$€\"'])")


@dataclass(frozen=True, slots=True)
class Trim:
    """Ops saying less, and what they took out, in words for the reply."""

    ops: tuple[dict[str, Any], ...]
    took: tuple[str, ...]


def _meaning(text: str) -> Counter[str]:
    """The words of ``text`` that carry meaning, a plural as its singular ("buns" is said by "bun")."""
    words = (w.strip(".,;:!?()\"'\u2018\u2019\u201c\u201d").lower() for w in re.split(r"[\s;,()]+", text))
    return Counter(_singular(w) for w in words if w and w not in _LINKING)


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") and word.isalpha() else word


def _items(page: PageView, root: str) -> list[tuple[Mapping[str, Any], list[Mapping[str, Any]]]]:
    """An FAQ band's questions: each item node and its worded children (question, answer)."""
    nodes = page.inside(root)
    out = []
    for node in nodes:
        kids = [n for n in nodes if n.get("parent") == node["id"]]
        if len(kids) >= 2 and all(n.get("type") in PROP for n in kids):
            out.append((node, kids))
    return out


def said_twice(page: PageView, roots: Sequence[str]) -> Trim:
    """What of the bands ``roots`` the page says elsewhere too, taken out (see the module)."""
    own = {str(n["id"]): _meaning(page.words(n)) for n in page.nodes if n.get("type") in PROP}
    shown: Counter[str] = Counter()
    for counted in own.values():
        shown.update(counted)

    def elsewhere(meaning: Counter[str], outside: Counter[str]) -> bool:
        return bool(meaning) and all(shown[w] - outside[w] > 0 for w in meaning)

    ops: list[dict[str, Any]] = []
    took: list[str] = []
    for root in (r for r in roots if page.kind(r) not in _KEPT and r != page.hero()):
        if page.kind(root) == "faq":
            items = _items(page, root)
            gone = 0
            for item, kids in items[1:]:
                outside: Counter[str] = Counter()
                for kid in kids:
                    outside.update(own[str(kid["id"])])
                if elsewhere(sum((own[str(k["id"])] for k in kids[1:]), Counter()), outside):
                    ops.append({"t": "remove_node", "id": item["id"]})
                    shown.subtract(outside)
                    gone += 1
            if gone:
                took.append(f"{gone} question{'s' if gone > 1 else ''} of the {page.label(root)} section")
            continue
        for node in (n for n in page.inside(root) if n.get("type") == "text"):
            sentences = _SENTENCE_END.split(page.words(node).strip())
            kept = sentences[:1]
            for sentence in sentences[1:]:
                meaning = _meaning(sentence)
                if elsewhere(meaning, meaning):
                    shown.subtract(meaning)
                    took.append(f'"{sentence}" from the {page.label(root)} section')
                else:
                    kept.append(sentence)
            if len(kept) < len(sentences):
                patch = {PROP["text"]: " ".join(kept)}
                ops.append({"t": "set_node_props", "id": node["id"], "patch": patch})
    return Trim(tuple(ops), tuple(took))
