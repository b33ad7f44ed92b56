"""Colour arithmetic of the offline builder: tones and legibility of ``#rrggbb`` colours.

``tone_of`` moves a colour toward a tone (warmer, cooler, darker, lighter),
as a follow-up asks and a brief's tone words do; ``contrast`` is WCAG 2's
contrast ratio and ``legible`` the nearest shade of a colour that reaches
it against a ground (the WCAG maths of the quality check,
``checks.contrast``, so the builder and the check never disagree). Plain
``colorsys``: a colour library would bring more than these functions need.
"""

from __future__ import annotations

import colorsys
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final

from charlotte.checks.contrast import luminance, parse_colour, ratio

__all__ = [
    "HEX",
    "NAMED_COLOURS",
    "NEUTRALS",
    "colour_word",
    "contrast",
    "hsv",
    "legible",
    "legible_words",
    "long_hex",
    "pale",
    "tone_of",
    "word_grounds",
]


#: Colours by the names people use ("navy", "coral"): a brief's colour words and a
#: follow-up's ("make the buttons green") mean these.
NAMED_COLOURS: Final[Mapping[str, str]] = {
    "red": "#dc2626", "green": "#15803d", "blue": "#2563eb", "navy": "#1e3a8a", "teal": "#0f766e",
    "orange": "#ea580c", "purple": "#7c3aed", "pink": "#db2777", "yellow": "#facc15",
    "gold": "#b45309", "brown": "#78350f", "black": "#111111", "grey": "#4b5563", "gray": "#4b5563",
    "white": "#ffffff", "cream": "#fdf6e3", "beige": "#f5f0e6", "olive": "#4d7c0f",
    "burgundy": "#7f1d1d", "maroon": "#7f1d1d", "turquoise": "#0d9488", "lime": "#65a30d",
    "indigo": "#4338ca", "violet": "#7c3aed", "coral": "#f97361", "mint": "#10b981",
    "blush": "#e8a0b8", "lavender": "#9f7aea", "lilac": "#a78bfa", "magenta": "#c026d3",
    "crimson": "#b91c1c", "scarlet": "#dc2626",
}  # fmt: skip
#: The names of colours no page is "in" (a page in greens, never in greys): grounds and ink.
NEUTRALS: Final = frozenset({"white", "black", "grey", "gray", "cream", "beige"})
#: Colours said as "more of" them ("make it pinker"): the name each means.
_MORE_OF: Final[Mapping[str, str]] = {
    "pinker": "pink", "bluer": "blue", "greener": "green", "redder": "red", "purpler": "purple",
    "yellower": "yellow", "oranger": "orange",
}  # fmt: skip
HEX: Final = frozenset("0123456789abcdefABCDEF")


def long_hex(value: str) -> str:
    """``#rgb`` or ``#rrggbb`` as lower-case ``#rrggbb``."""
    digits = value[1:].lower()
    return "#" + ("".join(c * 2 for c in digits) if len(digits) == 3 else digits)


def colour_word(word: str, *, plurals: bool = True) -> tuple[str, str] | None:
    """The colour one lower-case word names, as (its name, ``#rrggbb``); else None.

    The one reader of colour words, for briefs and follow-ups alike: a name of
    ``NAMED_COLOURS``, its plural ("greens and browns"; not with ``plurals`` False:
    a follow-up's "add limes to the menu" names fruit), its comparative ("pinker"),
    or a ``#rgb``/``#rrggbb`` value (its own name). A caller tells a plural or a
    comparative by the word differing from the name.
    """
    if word.startswith("#") and len(word) in (4, 7) and all(c in HEX for c in word[1:]):
        return word, long_hex(word)
    name = word if word in NAMED_COLOURS else _MORE_OF.get(word)
    if name is None and plurals:
        name = word.removesuffix("s")
    return (name, NAMED_COLOURS[name]) if name is not None and name in NAMED_COLOURS else None


def hsv(hex_value: str) -> tuple[float, float, float]:
    """Hue, saturation and value (0..1) of a ``#rrggbb`` colour."""
    r, g, b = (int(hex_value[k : k + 2], 16) / 255 for k in (1, 3, 5))
    return colorsys.rgb_to_hsv(r, g, b)


def _hex(h: float, s: float, v: float) -> str:
    r, g, b = colorsys.hsv_to_rgb(h % 1.0, min(max(s, 0.0), 1.0), min(max(v, 0.0), 1.0))
    return "#" + "".join(f"{round(x * 255):02x}" for x in (r, g, b))


def pale(colour: str, strength: float = 0.1) -> str:
    """A very light shade of ``colour``'s hue: a band's ground that keeps the page's colour."""
    h, s, _v = hsv(colour)
    return _hex(h, min(s, 1.0) * strength, 0.98)


def _toward(h: float, goal: float, step: float) -> float:
    diff = (goal - h + 0.5) % 1.0 - 0.5
    return h + max(-step, min(step, diff))


def tone_of(tone: str, *, richer: bool = False) -> Callable[[str], str]:
    """A change of ``#rrggbb`` colours toward ``tone``: warmer, cooler, darker or lighter.

    ``richer``: a colour already of a warm (cool) tone's hue grows more saturated in it, so a
    page already in that tone, asked for more of it, changes visibly (a follow-up's "warmer").
    """
    def change(value: str) -> str:
        h, s, v = hsv(value)
        goal = 25 / 360 if tone == "warmer" else 215 / 360
        # A colour already of the tone's hue can only grow richer in it: its saturation grows
        # (a bakery's browns and creams, asked "warmer", would otherwise barely move).
        there = richer and abs((goal - h + 0.5) % 1.0 - 0.5) < 20 / 360
        if s < 0.15 and tone in ("warmer", "cooler"):
            # A grey takes a tint of the tone (a black-and-white page gets warm or cool greys),
            # a white a faint one (cream, ice); a tint of the tone already a stronger one.
            tint = 0.3 if v < 0.5 else 0.12 if v < 0.97 else 0.05
            if s >= 0.02 and there:
                return _hex(h, min(max(s * 1.5, tint), 0.14), v)
            return _hex(35 / 360 if tone == "warmer" else goal, max(s, tint), v)
        if s < 0.15:  # whites, greys and near-whites stay darker or lighter as they are
            return value
        if tone == "darker":
            return _hex(h, s, v * 0.72)
        if tone == "lighter":
            return _hex(h, s * 0.75, v + (1 - v) * 0.35)
        moved = _toward(h, goal, 30 / 360)
        if there:
            s = s + (1 - s) * 0.3
        if _luminance(_hex(moved, s, v)) <= _luminance(value):
            return _hex(moved, s, v)
        return _hex(moved, s, _value_for(moved, s, _luminance(value)))

    return change


def _value_for(h: float, s: float, luminance: float) -> float:
    """The value at which hue ``h`` and saturation ``s`` have ``luminance`` (the nearest it reaches).

    A hue moved toward a tone grows no lighter than it was, so words in it keep
    their contrast on the light grounds they sit on (a teal turned green would
    otherwise be lighter, and under 4.5:1 on white).
    """
    low, high = 0.0, 1.0
    for _ in range(24):  # luminance grows with value: bisect
        mid = (low + high) / 2
        if _luminance(_hex(h, s, mid)) < luminance:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def _luminance(value: str) -> float:
    """WCAG 2's relative luminance of a ``#rrggbb`` colour (0 black to 1 white): the quality check's own."""
    colour = parse_colour(value)
    if colour is None:
        raise ValueError("luminance takes #rrggbb colours")
    return luminance(colour)


def contrast(a: str, b: str) -> float:
    """The WCAG 2 contrast ratio of two ``#rrggbb`` colours (1 to 21): the quality check's own."""
    first, second = parse_colour(a), parse_colour(b)
    if first is None or second is None:
        raise ValueError("contrast takes #rrggbb colours")
    return ratio(first, second)


def legible(colour: str, against: str, ratio: float = 4.5) -> str:
    """``colour`` darkened (or, on a dark ground, lightened) until text and ground differ by ``ratio``.

    WCAG's 4.5:1 for body text by default; a hue moved toward a tone can lose
    contrast (a blue turned orange is lighter), so a toned colour scheme passes here.
    """
    h, s, v = hsv(colour)
    # Toward whichever end of the scale stands further from the ground.
    lighten = contrast(against, "#ffffff") > contrast(against, "#000000")
    for _ in range(24):
        if contrast(colour, against) >= ratio:
            return colour
        if lighten:
            # Value alone stops short for a saturated hue (a bright orange on navy tops out
            # near 4.2:1): it pales as it lightens.
            v, s = v + (1 - v) * 0.2, s * 0.95
        else:
            v = v * 0.9
        colour = _hex(h, s, v)
    if contrast(colour, against) >= ratio:
        return colour
    # A ground in the middle of the scale can leave no shade of the hue at the ratio: the
    # end of the scale it was moving toward reads best.
    return "#ffffff" if lighten else "#000000"


def _written_hex(value: object) -> str | None:
    """``value`` when it is a ``#rrggbb`` colour (what the builder writes), lower-cased; else None."""
    if isinstance(value, str) and len(value) == 7 and value[0] == "#":
        try:
            int(value[1:], 16)
        except ValueError:
            return None
        return value.lower()
    return None


def word_grounds(nodes: Iterable[Mapping[str, Any]]) -> dict[str, tuple[str, str]]:
    """``{node id: (words, ground)}`` for every node whose own base colour sits on a known ground.

    A node's words are its own base ``color``; its ground is the nearest base
    ``background`` at or above its parent. A node with a background of its own
    (a button, a card) sets its own ground and is left out. Linear: each node
    walks up at most the page's depth.
    """
    by_id = {str(node.get("id")): node for node in nodes}

    def base(node: Mapping[str, Any]) -> Mapping[str, Any]:
        style = node.get("style")
        found = style.get("base") if isinstance(style, Mapping) else None
        return found if isinstance(found, Mapping) else {}

    def ground(node_id: object) -> str | None:
        seen = 0
        node = by_id.get(str(node_id))
        while node is not None and seen <= len(by_id):
            background = _written_hex(base(node).get("background"))
            if background is not None:
                return background
            node = by_id.get(str(node.get("parent")))
            seen += 1
        return None

    found: dict[str, tuple[str, str]] = {}
    for node_id, node in by_id.items():
        style = base(node)
        words = _written_hex(style.get("color"))
        behind = ground(node.get("parent")) if words and style.get("background") is None else None
        if words is not None and behind is not None:
            found[node_id] = (words, behind)
    return found


def legible_words(nodes: Iterable[Mapping[str, Any]], ratio: float = 4.5) -> dict[str, str]:
    """The words to recolour, ``{node id: colour}``, so each reads at ``ratio`` on its ground.

    ``nodes``: the page's nodes as they will be (their base styles); see
    ``word_grounds``. The words move, never the ground.
    """
    return {
        node_id: legible(words, behind, ratio)
        for node_id, (words, behind) in word_grounds(nodes).items()
        if contrast(words, behind) < ratio
    }
