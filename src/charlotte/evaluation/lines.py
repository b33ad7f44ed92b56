"""How a person reads the page's words, for the predicates: a row as one line, a quote without its marks."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from charlotte.page.model import node_map
from charlotte.page.tree import children_index

__all__ = ["rows", "unmarked"]

_MARKS: Final = re.compile(r"[\"\u201c\u201d\u2018\u2019]|(?<!\w)'|'(?!\w)|(?<=\s)[-\u2013\u2014](?=\s)")


def unmarked(text: str) -> str:
    """``text`` without quote marks (an apostrophe inside a word stays) and free-standing dashes, its
    spaces squeezed."""
    return " ".join(_MARKS.sub(" ", text).split())


#: The most children a row has that reads as one line (a name, a figure, a note).
_ROW_CHILDREN: Final = 4


def rows(doc: Mapping[str, Any], said: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """(row id, its words) for each row the page shows as one line: a node inside a band whose 2
    to 4 children all say words, hold nothing and are no heading (a price row's name and figure),
    its children's words in order."""
    words = dict(said)
    index = children_index(doc)
    nodes = node_map(doc)
    out: list[tuple[str, str]] = []
    for parent, children in index.items():
        if parent is None or not 2 <= len(children) <= _ROW_CHILDREN:
            continue
        if (nodes.get(parent) or {}).get("parent") is None:
            continue  # a band: its heading and text are not one line
        ids = [str(c.get("id")) for c in children]
        if all(
            i in words and not index.get(i) and c.get("type") != "heading"
            for i, c in zip(ids, children, strict=True)
        ):
            out.append((parent, " ".join(words[i] for i in ids)))
    return out
