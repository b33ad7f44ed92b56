"""WCAG 2.2 colour maths for the quality checks: CSS colours the renderer writes, luminance, ratios.

A colour is resolvable when the stylesheet holds it as a literal the browser
needs nothing else to read: ``#rgb``, ``#rgba``, ``#rrggbb``, ``#rrggbbaa``,
``rgb()``/``rgba()`` (commas or spaces, numbers or percentages, an alpha) or
a named colour of the table below. ``var()``, gradients, images and any other
value are ``None``: the checks call that ``contrast_unknown``, never guess.
"""

from __future__ import annotations

import re
from typing import Final

#: (red, green, blue) in 0..255 and alpha in 0..1.
RGBA = tuple[float, float, float, float]

WHITE: Final[RGBA] = (255.0, 255.0, 255.0, 1.0)
BLACK: Final[RGBA] = (0.0, 0.0, 0.0, 1.0)
#: A transparent colour: nothing painted (``transparent``, ``none``).
CLEAR: Final[RGBA] = (0.0, 0.0, 0.0, 0.0)

#: The WCAG 2.2 AA bounds: normal text, and large text (≥ 24 px, or ≥ 18.66 px bold).
NORMAL_BOUND: Final = 4.5
LARGE_BOUND: Final = 3.0
LARGE_PX: Final = 24.0
LARGE_BOLD_PX: Final = 18.66

_NAMED: Final[dict[str, str]] = {
    "black": "#000000", "white": "#ffffff", "red": "#ff0000", "green": "#008000",
    "blue": "#0000ff", "yellow": "#ffff00", "navy": "#000080", "teal": "#008080",
    "maroon": "#800000", "purple": "#800080", "olive": "#808000", "lime": "#00ff00",
    "aqua": "#00ffff", "cyan": "#00ffff", "fuchsia": "#ff00ff", "magenta": "#ff00ff",
    "silver": "#c0c0c0", "gray": "#808080", "grey": "#808080", "orange": "#ffa500",
    "darkgray": "#a9a9a9", "darkgrey": "#a9a9a9", "lightgray": "#d3d3d3",
    "lightgrey": "#d3d3d3", "dimgray": "#696969", "dimgrey": "#696969",
    "whitesmoke": "#f5f5f5", "gainsboro": "#dcdcdc", "ivory": "#fffff0", "beige": "#f5f5dc",
    "darkblue": "#00008b", "darkgreen": "#006400", "darkred": "#8b0000", "gold": "#ffd700",
    "pink": "#ffc0cb", "brown": "#a52a2a", "crimson": "#dc143c", "indigo": "#4b0082",
    "coral": "#ff7f50", "tomato": "#ff6347", "salmon": "#fa8072", "tan": "#d2b48c",
    "khaki": "#f0e68c", "linen": "#faf0e6", "snow": "#fffafa", "cream": "#fffdd0",
    "midnightblue": "#191970", "slategray": "#708090", "slategrey": "#708090",
    "darkslategray": "#2f4f4f", "darkslategrey": "#2f4f4f", "steelblue": "#4682b4",
    "royalblue": "#4169e1", "forestgreen": "#228b22", "seagreen": "#2e8b57",
    "chocolate": "#d2691e", "sienna": "#a0522d", "firebrick": "#b22222",
}
_HEX = re.compile(r"#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})")
_NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)%?"
_RGB = re.compile(
    rf"rgba?\(\s*({_NUMBER})\s*[, ]\s*({_NUMBER})\s*[, ]\s*({_NUMBER})"
    rf"(?:\s*[,/]\s*({_NUMBER}))?\s*\)"
)


def parse_colour(value: str) -> RGBA | None:
    """The colour ``value`` names, or None when it is not a literal colour.

    >>> parse_colour("#7c2d12"), parse_colour("rgb(0 0 0 / 50%)"), parse_colour("var(--ink)")
    ((124.0, 45.0, 18.0, 1.0), (0.0, 0.0, 0.0, 0.5), None)
    """
    text = value.strip().lower()
    if len(text) > 60:
        return None
    if text in ("transparent", "none"):
        return CLEAR
    text = _NAMED.get(text, text)
    hexed = _HEX.fullmatch(text)
    if hexed:
        digits = hexed.group(1)
        if len(digits) in (3, 4):
            digits = "".join(c * 2 for c in digits)
        channels = [int(digits[k : k + 2], 16) for k in range(0, len(digits), 2)]
        alpha = channels[3] / 255 if len(channels) == 4 else 1.0
        return (float(channels[0]), float(channels[1]), float(channels[2]), alpha)
    rgb = _RGB.fullmatch(text)
    if rgb is None:
        return None
    r, g, b = (_channel(rgb.group(k)) for k in (1, 2, 3))
    alpha = _alpha(rgb.group(4)) if rgb.group(4) else 1.0
    return (r, g, b, alpha)


def _channel(text: str) -> float:
    value = float(text[:-1]) * 2.55 if text.endswith("%") else float(text)
    return min(255.0, max(0.0, value))


def _alpha(text: str) -> float:
    value = float(text[:-1]) / 100 if text.endswith("%") else float(text)
    return min(1.0, max(0.0, value))


def over(top: RGBA, below: RGBA) -> RGBA:
    """``top`` painted over the opaque ``below`` (source-over compositing)."""
    a = top[3]
    return (
        top[0] * a + below[0] * (1 - a),
        top[1] * a + below[1] * (1 - a),
        top[2] * a + below[2] * (1 - a),
        1.0,
    )


def luminance(colour: RGBA) -> float:
    """The WCAG relative luminance of an opaque colour (0 for black to 1 for white)."""

    def linear(channel: float) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(colour[0]) + 0.7152 * linear(colour[1]) + 0.0722 * linear(colour[2])


def ratio(text: RGBA, ground: RGBA) -> float:
    """The WCAG contrast ratio of ``text`` on the opaque ``ground`` (1 to 21).

    >>> round(ratio(parse_colour("#7c2d12"), parse_colour("#111827")), 2)
    1.9
    """
    a, b = luminance(over(text, ground)), luminance(ground)
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)


def hex_of(colour: RGBA) -> str:
    """``#rrggbb`` of an opaque colour (for a finding's message)."""
    return "#" + "".join(f"{round(c):02x}" for c in colour[:3])


def is_large(size_px: float | None, bold: bool) -> bool:
    """True for WCAG large text: at least 24 px, or 18.66 px when bold."""
    if size_px is None:
        return False
    return size_px >= (LARGE_BOLD_PX if bold else LARGE_PX)
