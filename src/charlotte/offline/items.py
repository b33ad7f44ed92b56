"""The items a band lists (cards or rows of one kind), and a new item made like the last.

A band lists items when one container (a grid or a stack) right under it holds
cards or rows of one type, each showing its words in text or heading nodes: the
areas a business covers ("areas-row-3" with its name), the team's cards, the
quotes of a testimonials band. ``new_item`` makes the ops inserting one more
item after the last, a copy of its nodes (type, style, layout) with the new
words, under ids clear of the page's; the page's look carries over because the
styles are the ones the page shows now.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from charlotte.sections.page_view import PROP, PageView

__all__ = ["Item", "items_of", "new_item", "words_of"]

_ITEM_TYPES: Final = frozenset({"card", "stack"})
_WORD_TYPES: Final = frozenset({"heading", "text"})
_COPIED: Final = ("type", "layout", "style", "constraints", "className")
_NUMBERED: Final = re.compile(r"^(.*?)(\d+)$")


@dataclass(frozen=True, slots=True)
class Item:
    """One item of a band's list: its node and its word nodes in reading order."""

    node: Mapping[str, Any]
    words: tuple[Mapping[str, Any], ...]


def _kids(page: PageView, node_id: str) -> list[Mapping[str, Any]]:
    return [n for n in page.nodes if n.get("parent") == node_id]


def items_of(page: PageView, root: str) -> list[Item]:
    """The items the band ``root`` lists, in order; empty when it lists none of one kind."""
    for box in _kids(page, root):
        if box.get("type") not in ("grid", "stack"):
            continue
        kids = _kids(page, str(box["id"]))
        if not kids or len({k.get("type") for k in kids}) != 1 or kids[0].get("type") not in _ITEM_TYPES:
            continue
        out: list[Item] = []
        for kid in kids:
            inner = _kids(page, str(kid["id"]))
            words = tuple(n for n in inner if n.get("type") in _WORD_TYPES)
            if not words or len(words) != len(inner):
                return []  # an item holding a button, an image or a box of its own
            out.append(Item(kid, words))
        return out
    return []


def words_of(page: PageView, item: Item) -> list[str]:
    """The words of each of ``item``'s word nodes."""
    return [page.words(n) for n in item.words]


def _free_id(page: PageView, last: str, siblings: Sequence[Mapping[str, Any]]) -> str | None:
    match = _NUMBERED.match(last)
    if match is None:
        return None
    stem = match.group(1)
    numbers = [int(m.group(2)) for s in siblings if (m := _NUMBERED.match(str(s["id"]))) and m.group(1) == stem]
    n = max(numbers, default=0) + 1
    while f"{stem}{n}" in page.by_id:
        n += 1
    return f"{stem}{n}"


def _copy(node: Mapping[str, Any], node_id: str, parent: str) -> dict[str, Any]:
    out: dict[str, Any] = {"id": node_id, "parent": parent}
    out.update({key: node[key] for key in _COPIED if key in node})
    props = node.get("props")
    out["props"] = {k: v for k, v in props.items() if k != PROP.get(str(node.get("type")), "content")} \
        if isinstance(props, dict) else {}  # fmt: skip
    return out


def new_item(page: PageView, items: Sequence[Item], words: Sequence[str]) -> list[dict[str, Any]] | None:
    """Insert ops for one more item after the last, its word nodes saying ``words`` in order.

    The item is made like the last item with as many word nodes (else the last); a
    note beyond its word nodes is a plain text under them. None when the ids cannot
    be made or ``words`` is more than one beyond.
    """
    if not items or not words:
        return None
    model = next((i for i in reversed(items) if len(i.words) >= len(words)), items[-1])
    node_id = _free_id(page, str(items[-1].node["id"]), [i.node for i in items])
    if node_id is None or len(words) > len(model.words) + 1:
        return None
    nodes = [_copy(model.node, node_id, str(model.node.get("parent")))]
    old = str(model.node["id"])
    for k, said in enumerate(words):
        if k < len(model.words):
            source = model.words[k]
            sid = str(source["id"])
            child = _copy(source, f"{node_id}{sid[len(old) :] if sid.startswith(old) else f'-{k}'}", node_id)
        else:
            child = {"id": f"{node_id}-note", "type": "text", "parent": node_id, "props": {}}
        child["props"][PROP.get(str(child["type"]), "content")] = said
        nodes.append(child)
    if any(n["id"] in page.by_id for n in nodes) or len({n["id"] for n in nodes}) != len(nodes):
        return None
    return [{"t": "insert_node", "node": node} for node in nodes]
