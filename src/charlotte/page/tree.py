"""Tree walks over the flat node map, in the exact orders fancy-cms uses.

Every walk tolerates malformed documents (a missing or non-dict ``nodes``,
entries that are not dicts, cycles): it sees an empty page or stops, and never
raises.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from charlotte.page.model import node_map
from charlotte.page.ordering import key_between


def _sort_key(node: Mapping[str, Any]) -> tuple[str, str]:
    order = node.get("order")
    nid = node.get("id")
    return (order if isinstance(order, str) else "", nid if isinstance(nid, str) else "")


def _is_node(value: object) -> bool:
    return isinstance(value, dict) and isinstance(value.get("id"), str)


def children_of(doc: object, parent: str | None) -> list[dict[str, Any]]:
    """Nodes whose parent is ``parent`` (``None``: the roots), by ``order`` then ``id``."""
    kids = [n for n in node_map(doc).values() if _is_node(n) and n.get("parent") == parent]
    kids.sort(key=_sort_key)
    return kids


def root_ids(doc: object) -> list[str]:
    """Ids of the root nodes in order. An orphan (parent set but missing) is no root."""
    return [n["id"] for n in children_of(doc, None)]


def children_index(doc: object) -> dict[str | None, list[dict[str, Any]]]:
    """Parent id → ordered children, for every parent, built in one pass."""
    index: dict[str | None, list[dict[str, Any]]] = {}
    for n in node_map(doc).values():
        if _is_node(n):
            parent = n.get("parent")
            # Same rule as children_of: only None is a root; a parent of any
            # other non-string type belongs to no list.
            if parent is None or isinstance(parent, str):
                index.setdefault(parent, []).append(n)
    for kids in index.values():
        kids.sort(key=_sort_key)
    return index


def descendants_of(doc: object, id: str) -> list[str]:
    """Every transitive descendant id of ``id`` (``id`` itself excluded).

    Iterative and cycle-safe: when a node is popped, all its ordered children
    are appended to the output at once, then pushed.
    """
    index = children_index(doc)
    out: list[str] = []
    seen = {id}
    stack = [id]
    while stack:
        current = stack.pop()
        for child in index.get(current, ()):
            cid: str = child["id"]
            if cid in seen:
                continue
            seen.add(cid)
            out.append(cid)
            stack.append(cid)
    return out


def ancestors_of(doc: object, id: str) -> list[str]:
    """Ancestor ids of ``id``, nearest first; stops at an id missing from the map."""
    nodes = node_map(doc)
    out: list[str] = []
    seen = {id}
    node = nodes.get(id)
    while isinstance(node, dict):
        parent = node.get("parent")
        if not isinstance(parent, str) or parent in seen or not isinstance(nodes.get(parent), dict):
            break
        seen.add(parent)
        out.append(parent)
        node = nodes[parent]
    return out


def is_ancestor_or_self(doc: object, ancestor: str, id: str) -> bool:
    """True when ``ancestor`` is ``id`` or one of its ancestors."""
    return ancestor == id or ancestor in ancestors_of(doc, id)


def append_order(doc: object, parent: str | None) -> str:
    """The order key that appends a new child after ``parent``'s last child."""
    kids = children_of(doc, parent)
    last = kids[-1].get("order") if kids else None
    return key_between(last if isinstance(last, str) else None, None)
