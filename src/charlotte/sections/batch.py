"""One ``cms_apply`` batch of the offline builder, and the builder that writes its ops.

``Builder`` appends ``insert_node`` ops, each node styled from the colour scheme by
its role (``style.style_of``). A heading's size is the size its words are
shown at: the renderer wraps ``<hN>`` in the node's element, and a browser
sizes ``<h1>`` at 2em, ``<h2>`` at 1.5em and ``<h3>`` at 1.17em of it, so the
builder writes the wrapper's size divided by that factor.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from charlotte.page.model import Op
from charlotte.sections.style import CARD_WIDTH, Scheme, fit, fits, style_of

__all__ = ["MAX_TEXT", "Batch", "Builder"]

MAX_TEXT: Final = 2_000
#: The em size a browser gives ``<h1>`` … ``<h6>`` inside the node's element.
_HEADING_EM: Final[Mapping[int, float]] = {1: 2.0, 2: 1.5, 3: 1.17, 4: 1.0, 5: 0.83, 6: 0.67}


@dataclass(frozen=True, slots=True)
class Batch:
    """One ``cms_apply`` batch: it inserts the root node ``root`` and its subtree."""

    root: str
    title: str
    ops: tuple[Op, ...]

    def node_ids(self) -> list[str]:
        """The ids of the nodes the batch inserts, in order."""
        return [op["node"]["id"] for op in self.ops if op["t"] == "insert_node"]


def _scaled(style: dict[str, Any], em: float) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for breakpoint, props in style.items():
        size = props.get("fontSize")
        if isinstance(size, dict) and size.get("unit") == "px":
            props = {**props, "fontSize": {"value": round(size["value"] / em, 2), "unit": "px"}}
        out[breakpoint] = props
    return out


def _phone_size(text: str, role: str, scheme: Scheme) -> int | None:
    """A smaller base size for ``text`` when its longest unbreakable run is wider than a card on a phone."""
    size = style_of(role, scheme)["base"].get("fontSize")
    value = size.get("value") if isinstance(size, dict) else None
    if not isinstance(value, int | float) or fits(text, CARD_WIDTH, value):
        return None
    return fit(text, CARD_WIDTH, int(value), 10)


class Builder:
    """Ops for one batch: nodes appended under their parents, styled from the colour scheme."""

    def __init__(self, scheme: Scheme) -> None:
        self.scheme = scheme
        self.ops: list[Op] = []

    def node(
        self,
        node_id: str,
        node_type: str,
        parent: str | None,
        role: str,
        props: Mapping[str, Any] | None = None,
        layout: str | None = None,
        *,
        size: int | None = None,
        style: Mapping[str, Any] | None = None,
        constraints: Mapping[str, Any] | None = None,
    ) -> str:
        """Append a node; ``size`` overrides the role's base font size, ``style`` its breakpoints."""
        node: dict[str, Any] = {"id": node_id, "type": node_type, "parent": parent}
        if props:
            node["props"] = dict(props)
        if layout:
            node["layout"] = layout
        styled = style_of(role, self.scheme, size)
        for breakpoint, extra in (style or {}).items():
            styled[breakpoint] = {**styled.get(breakpoint, {}), **extra}
        if node_type == "heading":
            level = props.get("level", 2) if props else 2
            styled = _scaled(styled, _HEADING_EM.get(level, 1.0))
        node["style"] = styled
        if constraints:
            node["constraints"] = dict(constraints)
        self.ops.append({"t": "insert_node", "node": node})
        return node_id

    def text(self, node_id: str, parent: str, text: str, role: str = "body") -> str:
        """A paragraph (cut to ``MAX_TEXT``), smaller on a phone when a word would not fit."""
        text = text[:MAX_TEXT]
        return self.node(
            node_id,
            "text",
            parent,
            role,
            {"content": text},
            size=_phone_size(text, role, self.scheme),
        )

    def title(self, node_id: str, parent: str, text: str, limit: int = 80) -> str:
        """A card's title: an ``<h3>`` when short enough for a heading, else a paragraph."""
        if len(text) <= limit:
            props = {"content": text, "level": 3}
            size = _phone_size(text, "title", self.scheme)
            return self.node(node_id, "heading", parent, "title", props, size=size)
        return self.text(node_id, parent, text)

    def batch(self, root: str, title: str) -> Batch:
        """The ops written so far as the batch for ``root``."""
        return Batch(root, title, tuple(self.ops))
