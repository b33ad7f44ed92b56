"""The colours and type a page uses, read from its nodes' styles (the ``theme`` predicate's reader).

Only plain hex colours (``#rgb``, ``#rrggbb``) are read: the ones the offline
builder writes and the inert CSS values the asset policy lets through most
often. A colour in another notation is not counted.
"""

from __future__ import annotations

import colorsys
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from charlotte.page.model import node_map
from charlotte.page.tree import children_of, descendants_of

__all__ = ["Colours", "hue_name", "is_serif", "parse_hex"]

_HEX: Final = re.compile(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})")
_SERIFS: Final = (
    "georgia",
    "times",
    "garamond",
    "playfair",
    "merriweather",
    "baskerville",
    "serif",
)

RGB = tuple[float, float, float]


def parse_hex(value: object) -> RGB | None:
    """``#rgb``/``#rrggbb`` as (r, g, b) in 0…1, else None."""
    if not isinstance(value, str):
        return None
    match = _HEX.fullmatch(value.strip())
    if match is None:
        return None
    digits = match.group(1)
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    r, g, b = (int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return (r, g, b)


def luminance(rgb: RGB) -> float:
    """Relative luminance (WCAG's weights, without the gamma step: enough to sort dark from light)."""
    r, g, b = rgb
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def hue_name(rgb: RGB) -> str | None:
    """A colour's hue family (red, orange, yellow, green, teal, blue, purple, pink), None when grey."""
    h, lightness, s = colorsys.rgb_to_hls(*rgb)
    if s < 0.15 or lightness < 0.06 or lightness > 0.97:
        return None
    degrees = h * 360
    for name, top in (("red", 15), ("orange", 45), ("yellow", 70), ("green", 170),
                      ("teal", 200), ("blue", 255), ("purple", 290), ("pink", 345)):  # fmt: skip
        if degrees < top:
            return name
    return "red"


def _base(node: Mapping[str, Any]) -> Mapping[str, Any]:
    style = node.get("style")
    base = style.get("base") if isinstance(style, dict) else None
    return base if isinstance(base, dict) else {}


@dataclass(frozen=True, slots=True)
class Colours:
    """The section backgrounds (page order, white where a section sets none) and every colour used."""

    sections: tuple[RGB, ...]
    used: tuple[RGB, ...]

    @classmethod
    def of(cls, doc: Mapping[str, Any], within: Iterable[str] | None = None) -> Colours:
        """The colours of ``doc`` (of the sections ``within`` names, when given)."""
        nodes = node_map(doc)
        roots = [str(n.get("id")) for n in children_of(doc, None)]
        chosen = roots if within is None else [r for r in roots if r in set(within)]
        sections: list[RGB] = []
        used: list[RGB] = []
        for root in chosen:
            node = nodes.get(root)
            base = _base(node) if isinstance(node, dict) else {}
            sections.append(parse_hex(base.get("background")) or (1.0, 1.0, 1.0))
            for node_id in [root, *descendants_of(doc, root)]:
                inner = nodes.get(node_id)
                if not isinstance(inner, dict):
                    continue
                for key in ("background", "color", "borderColor"):
                    rgb = parse_hex(_base(inner).get(key))
                    if rgb is not None:
                        used.append(rgb)
        return cls(tuple(sections), tuple(used))

    def all(self) -> tuple[RGB, ...]:
        """Every colour counted: the section backgrounds and the colours of their nodes."""
        return self.sections + self.used

    def luminance(self) -> float:
        """The mean luminance of the section backgrounds (1.0 for a page without sections)."""
        if not self.sections:
            return 1.0
        return sum(luminance(c) for c in self.sections) / len(self.sections)

    def dark(self) -> bool:
        """Most of the page's area is dark: the mean section background is below 0.35."""
        return self.luminance() < 0.35

    def warmth(self) -> float:
        """How warm the page's colours are: the mean of red minus blue (-1 … 1)."""
        colours = self.all()
        if not colours:
            return 0.0
        return sum(r - b for r, _, b in colours) / len(colours)

    def distinct(self) -> int:
        """How many different section backgrounds the page uses."""
        return len(set(self.sections))

    def minimal(self) -> bool:
        """Restrained: below the first band (the hero may stay bold), at most two section
        backgrounds, all light (luminance ≥ 0.85)."""
        body = self.sections[1:]
        return len(set(body)) <= 2 and all(luminance(c) >= 0.85 for c in body)


def _family(nodes: Mapping[str, Any], node: Mapping[str, Any]) -> str | None:
    """The font stack a node is set in: its own, else its nearest ancestor's (depth-bounded)."""
    for _ in range(64):
        family = _base(node).get("fontFamily")
        if isinstance(family, str) and family.strip():
            return family
        above = node.get("parent")
        parent = nodes.get(above) if isinstance(above, str) else None
        if not isinstance(parent, dict):
            return None
        node = parent
    return None


def is_serif(doc: Mapping[str, Any]) -> bool:
    """True when most headings are set in a serif face (the first family of their stack)."""
    nodes = node_map(doc)
    votes: list[bool] = []
    for node in nodes.values():
        if not isinstance(node, dict) or node.get("type") != "heading":
            continue
        family = _family(nodes, node)
        if family is not None:
            first = family.split(",")[0].strip().strip("'\"").lower()
            votes.append("sans" not in first and any(s in first for s in _SERIFS))
    return bool(votes) and sum(votes) * 2 > len(votes)
