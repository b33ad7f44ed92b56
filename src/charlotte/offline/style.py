"""How the offline builder styles a page: a palette per kind of business, a style per role.

Styles use only the page's style keys (``page.node_types.STYLE_KEYS``) with
plain values (hex colours, font stacks, px lengths), so every value passes the
asset policy's inert-CSS check. Breakpoints are mobile first: ``md`` widens
padding and type.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

__all__ = ["Palette", "palette_for", "style_of"]


@dataclass(frozen=True, slots=True)
class Palette:
    """Colours and type of one page."""

    hero: str  # hero and call-to-action background
    on_hero: str  # text on it
    accent: str  # buttons and links
    tint: str  # every other section's background
    ink: str  # body text
    font: str
    heading_font: str


_SANS: Final = "system-ui, -apple-system, Segoe UI, Roboto, sans-serif"
_SERIF: Final = "Georgia, Times New Roman, serif"

_PALETTES: Final[tuple[tuple[str, Palette], ...]] = (
    (
        r"bak|caf[eé]|coffee|restaurant|bistro|kitchen|food|patisserie|deli",
        Palette("#4a2c1d", "#fff8f0", "#c2410c", "#fdf3e7", "#2b1d14", _SANS, _SERIF),
    ),
    (
        r"dent|clinic|health|doctor|physio|care|medical|vet",
        Palette("#0f4c5c", "#f0fbfc", "#0e7490", "#eef7f8", "#16323a", _SANS, _SANS),
    ),
    (
        r"saas|software|app|platform|cloud|api|startup|product|developer",
        Palette("#1e1b4b", "#eef2ff", "#4f46e5", "#f5f5ff", "#1f2937", _SANS, _SANS),
    ),
)
_FALLBACKS: Final[tuple[Palette, ...]] = (
    Palette("#14532d", "#f0fdf4", "#15803d", "#f3faf5", "#1c2b22", _SANS, _SERIF),
    Palette("#7c2d12", "#fff7ed", "#ea580c", "#fff8f1", "#2d1a10", _SANS, _SANS),
    Palette("#1f2937", "#f9fafb", "#2563eb", "#f3f4f6", "#111827", _SANS, _SANS),
)


def palette_for(text: str, seed: int) -> Palette:
    """The palette for a business described by ``text``; ``seed`` picks one when nothing matches."""
    for pattern, palette in _PALETTES:
        if re.search(pattern, text):
            return palette
    return _FALLBACKS[seed % len(_FALLBACKS)]


def _px(value: float) -> dict[str, Any]:
    return {"value": value, "unit": "px"}


def style_of(role: str, p: Palette) -> dict[str, Any]:
    """The node style (``{"base": …, "md"?: …}``) for ``role`` in palette ``p``."""
    base, md = _ROLES[role](p)
    return {"base": base, "md": md} if md else {"base": base}


_Style = tuple[dict[str, Any], dict[str, Any]]


def _band(background: str, color: str, p: Palette) -> _Style:
    return (
        {
            "background": background,
            "color": color,
            "padding": _px(48),
            "gap": _px(16),
            "fontFamily": p.font,
            "direction": "column",
        },
        {"padding": _px(80)},
    )


_ROLES: Final[Mapping[str, Callable[[Palette], _Style]]] = {
    "hero": lambda p: (
        {
            "background": p.hero,
            "color": p.on_hero,
            "padding": _px(64),
            "gap": _px(20),
            "align": "center",
            "textAlign": "center",
            "fontFamily": p.font,
            "direction": "column",
        },
        {"padding": _px(120)},
    ),
    "hero-heading": lambda p: (
        {
            "fontSize": _px(40),
            "fontWeight": 800,
            "lineHeight": 1.1,
            "fontFamily": p.heading_font,
            "letterSpacing": _px(-1),
        },
        {"fontSize": _px(64)},
    ),
    "hero-text": lambda p: (
        {"fontSize": _px(20), "lineHeight": 1.5, "opacity": 0.9},
        {"fontSize": _px(24)},
    ),
    "hero-button": lambda p: (
        {
            "background": p.accent,
            "color": "#ffffff",
            "padding": _px(14),
            "radius": _px(999),
            "fontWeight": 600,
            "fontSize": _px(18),
        },
        {},
    ),
    "section": lambda p: _band("#ffffff", p.ink, p),
    "section-tint": lambda p: _band(p.tint, p.ink, p),
    "section-heading": lambda p: (
        {"fontSize": _px(30), "fontWeight": 700, "fontFamily": p.heading_font, "margin": _px(0)},
        {"fontSize": _px(40)},
    ),
    "body": lambda p: ({"fontSize": _px(17), "lineHeight": 1.6}, {"fontSize": _px(18)}),
    "title": lambda p: ({"fontSize": _px(20), "fontWeight": 600, "margin": _px(0)}, {}),
    "link": lambda p: ({"color": p.accent, "fontSize": _px(18), "fontWeight": 600}, {}),
    "list": lambda p: ({"gap": _px(8), "direction": "column"}, {}),
    "label": lambda p: (
        {
            "color": p.accent,
            "fontSize": _px(13),
            "fontWeight": 700,
            "letterSpacing": _px(1),
            "margin": _px(0),
        },
        {},
    ),
    # Columns come from the base style only (the stylesheet reads no breakpoint columns).
    "grid-1": lambda p: ({"columns": 1, "gap": _px(20)}, {}),
    "grid-2": lambda p: ({"columns": 2, "gap": _px(20)}, {}),
    "grid-3": lambda p: ({"columns": 3, "gap": _px(20)}, {}),
    "card": lambda p: (
        {
            "background": "#ffffff",
            "padding": _px(24),
            "radius": _px(16),
            "gap": _px(8),
            "border": "1px solid #e5e7eb",
            "boxShadow": "0 1px 3px rgba(0, 0, 0, 0.08)",
            "direction": "column",
        },
        {},
    ),
    "card-featured": lambda p: (
        {
            "background": "#ffffff",
            "padding": _px(24),
            "radius": _px(16),
            "gap": _px(6),
            "border": f"2px solid {p.accent}",
            "direction": "column",
        },
        {"padding": _px(32)},
    ),
    "cta": lambda p: (
        {
            "background": p.accent,
            "color": "#ffffff",
            "padding": _px(56),
            "gap": _px(20),
            "align": "center",
            "textAlign": "center",
            "fontFamily": p.font,
            "direction": "column",
        },
        {"padding": _px(96)},
    ),
    "cta-heading": lambda p: (
        {"fontSize": _px(30), "fontWeight": 700, "fontFamily": p.heading_font},
        {"fontSize": _px(40)},
    ),
    "cta-button": lambda p: (
        {
            "background": "#ffffff",
            "color": p.accent,
            "padding": _px(14),
            "radius": _px(999),
            "fontWeight": 600,
            "fontSize": _px(18),
        },
        {},
    ),
}
