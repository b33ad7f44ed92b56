"""What the read tools show of a page: the (sub)tree, the outline, search matches.

All three walk the document the same way: depth first from the roots in
order, a node before its children, then any orphan chain (a node whose parent
is missing) from its top, by id. Every node is shown once, so the model sees
every node it may edit. Page words are shortened and their whitespace
collapsed; they stay data inside JSON strings.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, Final

from charlotte.checks.copytext import COPY_PROPS
from charlotte.errors import PageSessionError
from charlotte.page.model import node_map
from charlotte.page.tree import children_index

#: Characters of a node's text an outline line shows.
OUTLINE_TEXT: Final = 60
#: Characters of text around a match that a search result shows.
EXCERPT: Final = 80
_INDENT = "  "


def walk(doc: object, start: str | None = None) -> Iterator[tuple[dict[str, Any], int]]:
    """(node, depth) depth first; ``start`` only that node's subtree (it is depth 1)."""
    nodes = node_map(doc)
    index = children_index(doc)
    seen: set[str] = set()
    if start is not None:
        tops = [nodes[start]]
    else:
        tops = list(index.get(None, []))
        # Tops of orphan chains: a string parent that is not in the map.
        orphans = [n for key, kids in index.items() if key is not None and key not in nodes for n in kids]
        tops += sorted(orphans, key=lambda n: str(n["id"]))
    stack: list[tuple[dict[str, Any], int]] = [(n, 1) for n in reversed(tops)]
    while stack:
        node, depth = stack.pop()
        node_id: str = node["id"]
        if node_id in seen:
            continue
        seen.add(node_id)
        yield node, depth
        stack.extend((kid, depth + 1) for kid in reversed(index.get(node_id, [])))


def text_of(node: dict[str, Any]) -> str:
    """The node's own words (content, label or alt), whitespace collapsed; ``""`` when none."""
    node_type = node.get("type")
    prop = COPY_PROPS.get(node_type) if isinstance(node_type, str) else None
    props = node.get("props")
    words = props.get(prop) if prop and isinstance(props, dict) else None
    return " ".join(words.split()) if isinstance(words, str) else ""


def shorten(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def page_view(doc: dict[str, Any], node: str | None = None, depth: int | None = None) -> dict[str, Any]:
    """The page (or ``node``'s subtree) with nodes in reading order, at most ``depth`` levels.

    ``unexpanded`` lists the nodes whose children the depth left out. A
    ``node`` that does not exist raises ``PageSessionError("node_not_found")``.
    """
    if node is not None and node not in node_map(doc):
        raise PageSessionError("node_not_found", detail="node: not found")
    index = children_index(doc)
    shown: list[dict[str, Any]] = []
    unexpanded: list[str] = []
    for item, level in walk(doc, node):
        if depth is not None and level > depth:
            continue
        shown.append(item)
        if depth is not None and level == depth and index.get(item["id"]):
            unexpanded.append(item["id"])
    view: dict[str, Any] = {}
    if node is None:
        view = {key: doc[key] for key in ("id", "meta", "theme", "breakpoints") if key in doc}
    view["nodes"] = shown
    if unexpanded:
        view["unexpanded"] = unexpanded
    return view


def outline(doc: object) -> str:
    """One line per node: indent by depth, id, type and the start of its text (quoted)."""
    lines = []
    for node, depth in walk(doc):
        line = f"{_INDENT * (depth - 1)}{node['id']} {node.get('type')}"
        words = text_of(node)
        if words:
            line += " " + json.dumps(shorten(words, OUTLINE_TEXT), ensure_ascii=False)
        lines.append(line)
    return "\n".join(lines)


def find(
    doc: object, text: str | None = None, node_type: str | None = None, limit: int = 20
) -> tuple[list[dict[str, Any]], int]:
    """Nodes whose words contain ``text`` (case-insensitive) and/or of ``node_type``.

    Returns the first ``limit`` matches (id, type, parent, excerpt) and how
    many nodes matched in all.
    """
    needle = " ".join(text.split()).casefold() if text is not None else None
    matches: list[dict[str, Any]] = []
    total = 0
    for node, _depth in walk(doc):
        if node_type is not None and node.get("type") != node_type:
            continue
        words = text_of(node)
        at = 0
        if needle is not None:
            # casefold may change a word's length (ß → ss): the excerpt window
            # can shift by a few characters, which is all ``at`` is used for.
            at = words.casefold().find(needle)
            if at < 0:
                continue
        total += 1
        if len(matches) < limit:
            matches.append(
                {"id": node["id"], "type": node.get("type"), "parent": node.get("parent"),
                 "excerpt": _excerpt(words, at)}
            )
    return matches, total


def _excerpt(words: str, at: int) -> str:
    """About ``EXCERPT`` characters of ``words`` around position ``at``."""
    start = max(0, at - EXCERPT // 4)
    if start == 0:
        return shorten(words, EXCERPT)
    return "…" + shorten(words[start:], EXCERPT - 1)
