"""The page as a follow-up reads it: bands in order, each band's nodes, what a band is.

``PageView`` is built from a ``cms_get`` result (nodes in reading order). It
finds the hero (the band holding the first level-1 heading), a band's kind
(from its id, else its heading's words, by the names of ``catalogue.KIND_NAMES``:
"opening-hours", "When we are open" and "Classes" name kinds, "When the doors
open" does not), and the band a person's words name ("the specials" matches
the words of its id or heading). Every band's nodes are indexed once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final

from charlotte.sections.catalogue import kinds_in

__all__ = ["PROP", "PageView", "outline_rows"]

#: The prop that holds a node's words, by type.
PROP: Final = {"heading": "content", "text": "content", "button": "label", "link": "content"}
_STOP = frozenset({"the", "a", "an", "our", "section", "part", "bit", "block"})


def outline_rows(outline: object) -> Iterator[tuple[str, str, str | None, str]]:
    """Each node of a ``cms_outline`` text: its id, type, parent and the start of its words ("" if none)."""
    path: list[str] = []
    for line in outline.splitlines() if isinstance(outline, str) else ():
        # "<indent>id type \"words\"": two spaces of indent per level of depth.
        depth = (len(line) - len(line.lstrip(" "))) // 2
        node_id, _, rest = line.strip().partition(" ")
        node_type, _, quoted = rest.partition(" ")
        if not node_id or not node_type:
            continue
        del path[depth:]
        yield node_id, node_type, path[-1] if path else None, _unquoted(quoted)
        path.append(node_id)


def _unquoted(quoted: str) -> str:
    try:
        value = json.loads(quoted) if quoted else ""
    except ValueError:
        return ""
    return value if isinstance(value, str) else ""


class PageView:
    """The page as ``cms_get`` showed it: nodes in reading order, roots in order."""

    def __init__(self, nodes: Sequence[Mapping[str, Any]]) -> None:
        self.nodes = [n for n in nodes if isinstance(n.get("id"), str)]
        self.by_id = {n["id"]: n for n in self.nodes}
        self.roots: list[str] = [str(n["id"]) for n in self.nodes if n.get("parent") is None]
        self._top: dict[str, str | None] = {}
        self._under: dict[str, list[Mapping[str, Any]]] = {r: [] for r in self.roots}
        for node in self.nodes:
            top = self.root_of(node["id"])
            if top is not None and top != node["id"]:
                self._under[top].append(node)
        self._hero = self._find_hero()

    def root_of(self, node_id: str) -> str | None:
        seen: list[str] = []
        current: str | None = node_id
        while current is not None and current not in self._top and current in self.by_id:
            seen.append(current)
            if len(seen) > len(self.by_id):
                break  # a cycle: no root
            parent = self.by_id[current].get("parent")
            current = parent if isinstance(parent, str) else None
            if current is None:
                self._top.update({s: seen[-1] for s in seen})
                return seen[-1]
        top = self._top.get(current) if current is not None else None
        self._top.update({s: top for s in seen})
        return top

    def inside(self, root: str) -> list[Mapping[str, Any]]:
        """The nodes under ``root`` in reading order."""
        return self._under.get(root, [])

    def words(self, node: Mapping[str, Any]) -> str:
        props = node.get("props")
        value = (
            props.get(PROP.get(str(node.get("type")), "content"))
            if isinstance(props, dict)
            else None
        )
        return str(value) if isinstance(value, str) else ""

    def title(self, root: str) -> str:
        heading = next((n for n in self.inside(root) if n.get("type") == "heading"), None)
        return self.words(heading) if heading else ""

    def kind(self, root: str) -> str | None:
        if root == self.hero():
            return "hero"
        found = kinds_in(root.replace("-", " ")) or kinds_in(self.title(root).lower())
        return found[0] if found else None

    def hero(self) -> str | None:
        """The band holding the page's first level-1 heading (else the first band)."""
        return self._hero

    def _find_hero(self) -> str | None:
        for root in self.roots:
            if root == "hero" or any(
                n.get("type") == "heading" and n.get("props", {}).get("level") == 1
                for n in self.inside(root)
            ):
                return root
        return self.roots[0] if self.roots else None

    def section(self, words: str) -> str | None:
        """The root the person's words name: by kind, else by the words of its id and heading."""
        lower = words.lower()
        for kind in kinds_in(lower):
            found = next((r for r in self.roots if self.kind(r) == kind), None)
            if found is not None:
                return found
        wanted = [w for w in re.split(r"[^\w&'-]+", lower) if w and w not in _STOP]
        for root in self.roots:
            seen = f"{root.replace('-', ' ')} {self.title(root).lower()}"
            if wanted and all(w in seen for w in wanted):
                return root
        return None

    def label(self, root: str) -> str:
        kind = self.kind(root)
        return "hero" if kind == "hero" else (self.title(root) or root)
