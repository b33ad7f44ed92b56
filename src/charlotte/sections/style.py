"""How the offline builder styles a page: a colour scheme per kind of business and tone, a style per role.

Headings are bold whatever their style says (a browser's ``<hN>`` sets its own
weight inside the node's element), so the looks differ in colour, type and shape.
Styles use only the page's style keys (``page.node_types.STYLE_KEYS``) with
plain values (hex colours, font stacks, px lengths), so every value passes the
asset policy's inert-CSS check. Breakpoints are mobile first: ``base`` is a
390 px phone, ``md`` (768 px) and ``lg`` (1024 px) widen padding and type.
Grid columns and stack directions come from the base style only (the format
reads no breakpoint columns), so every layout is chosen to hold at 390 px:
``fit`` sizes a headline so its longest word fits the phone's width, and
``columns_for`` picks one or two grid columns by the longest word a card shows.

The tone words of a brief pick the look: "elegant", "minimal" give a light,
serif, borderless page; "calm", "reassuring" a soft, rounded one; anything
else the bold default. "Warm", "cosy", "earthy" move the kind's colours
toward warm hues (and its greys toward warm greys), "cool", "crisp" toward
cool ones, as the follow-up "make the colours warmer" does; the text colours
are then checked against their grounds (WCAG 4.5:1, ``legible``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Final

from charlotte.sections.colours import contrast, legible, tone_of

__all__ = [
    "CARD_WIDTH",
    "PHONE_WIDTH",
    "SANS",
    "SERIF",
    "Scheme",
    "columns_for",
    "fit",
    "fits",
    "longest_run",
    "scheme_for",
    "style_of",
]

#: The narrowest screen a page is laid out for, in px.
PHONE_WIDTH: Final = 390
#: The width a card's words have at 390 px (section and card padding off).
CARD_WIDTH: Final = 390 - 2 * 24 - 2 * 20
#: Section padding per breakpoint (base, md, lg), px.
_PAD: Final = (24, 48, 80)
_HERO_PAD: Final = (32, 72, 112)
_CARD_PAD: Final = 20
_GAP: Final = 16
#: Average advance of a character, in ems, for bold type (wide enough for capitals).
_EM_PER_CHAR: Final = 0.68


@dataclass(frozen=True, slots=True)
class Scheme:
    """The colour scheme of one page: its colours, type and look."""

    hero: str  # hero and call-to-action background
    on_hero: str  # text on it
    accent: str  # buttons and links
    tint: str  # every other section's background
    ink: str  # body text
    font: str
    heading_font: str
    look: str = "bold"  # "bold", "calm" or "minimal"
    radius: int = 16
    paper: str = "#ffffff"  # the untinted sections' background (a dark page's is dark)
    card: str = "#ffffff"  # cards' and rows' background


SANS: Final = "system-ui, -apple-system, Segoe UI, Roboto, sans-serif"
SERIF: Final = "Georgia, Times New Roman, serif"

_SCHEMES: Final[tuple[tuple[str, Scheme], ...]] = (
    (
        r"bak|caf[eé]|coffee|restaurant|bistro|kitchen|food|patisserie|deli",
        Scheme("#4a2c1d", "#fff8f0", "#c2410c", "#fdf3e7", "#2b1d14", SANS, SERIF),
    ),
    (
        r"dent|clinic|health|doctor|physio|care|medical|vet",
        Scheme("#0f4c5c", "#f0fbfc", "#0e7490", "#eef7f8", "#16323a", SANS, SANS),
    ),
    (
        r"saas|software|app|platform|cloud|api|startup|product|developer",
        Scheme("#1e1b4b", "#eef2ff", "#4f46e5", "#f5f5ff", "#1f2937", SANS, SANS),
    ),
    (
        r"bike|cycl|repair|plumb|heating|electric|garage|mechanic|builder|joiner|locksmith",
        Scheme("#1c1917", "#fafaf9", "#b45309", "#f5f5f4", "#1c1917", SANS, SANS),
    ),
    (
        r"photo|studio|gallery|art|design|wedding|portrait|film",
        Scheme("#111111", "#f5f5f4", "#a3452a", "#f5f5f4", "#1f1f1f", SANS, SERIF),
    ),
    (
        r"yoga|pilates|wellness|spa|massage|therap|meditat",
        Scheme("#3f5e4a", "#f3f7f2", "#4d7c5b", "#f3f6f1", "#1f2d24", SANS, SERIF),
    ),
)
_FALLBACKS: Final[tuple[Scheme, ...]] = (
    Scheme("#14532d", "#f0fdf4", "#15803d", "#f3faf5", "#1c2b22", SANS, SERIF),
    Scheme("#7c2d12", "#fff7ed", "#ea580c", "#fff8f1", "#2d1a10", SANS, SANS),
    Scheme("#1f2937", "#f9fafb", "#2563eb", "#f3f4f6", "#111827", SANS, SANS),
)
_MINIMAL = re.compile(r"\b(?:elegant|minimal|minimalist|clean|refined|understated|simple)\b")
#: Words that ask for warm or cool colours; a brief with both (or neither) keeps its scheme's.
_WARM = re.compile(r"\b(?:warm|warmth|cosy|cozy|earthy|rustic|homely|homey|sunny|terracotta)\b")
_COOL = re.compile(r"\b(?:cool|crisp|icy|frosty|nordic|coastal)\b")
_CALM = re.compile(r"\b(?:calm|reassuring|gentle|soothing|relaxed|peaceful|soft|caring)\b")


def scheme_for(text: str, seed: int) -> Scheme:
    """The colour scheme for a business described by ``text`` (lower case), its look from the tone words.

    ``seed`` picks a fallback scheme when no kind of business matches.
    """
    scheme = next((p for pattern, p in _SCHEMES if re.search(pattern, text)), None)
    if scheme is None:
        scheme = _FALLBACKS[seed % len(_FALLBACKS)]
    warm, cool = _WARM.search(text) is not None, _COOL.search(text) is not None
    if warm != cool:
        scheme = _toned(scheme, "warmer" if warm else "cooler")
    scheme = replace(scheme, accent=legible(scheme.accent, "#ffffff"))
    if _MINIMAL.search(text):
        # Light and quiet: the hero on white, ink headlines in a serif, square corners.
        return replace(
            scheme,
            hero="#ffffff",
            on_hero=scheme.ink,
            tint="#ffffff",
            heading_font=SERIF,
            look="minimal",
            radius=0,
        )
    if _CALM.search(text):
        # Soft: the hero on the tint, rounded corners, lighter headlines.
        return replace(
            scheme,
            hero=scheme.tint,
            on_hero=scheme.hero,
            look="calm",
            radius=24,
        )
    return scheme


def _toned(scheme: Scheme, tone: str) -> Scheme:
    """``scheme`` with every colour moved toward ``tone``, its pairs kept legible (``legible``)."""
    change = tone_of(tone)
    hero, on_hero, accent = change(scheme.hero), change(scheme.on_hero), change(scheme.accent)
    tint, ink = change(scheme.tint), change(scheme.ink)
    return replace(
        scheme,
        hero=legible(hero, on_hero),
        on_hero=on_hero,
        accent=accent,
        tint=tint,
        ink=legible(ink, tint),
    )


def longest_run(text: str) -> int:
    """Characters in ``text``'s longest run a browser cannot break (it breaks at spaces and after ``-``)."""
    return max((len(run) for run in re.split(r"\s+|(?<=-)", text)), default=0)


def fit(text: str, width: float, largest: int, smallest: int = 18) -> int:
    """The largest font size (px, at most ``largest``) at which ``text``'s longest run fits ``width``."""
    size = int(width / (max(longest_run(text), 1) * _EM_PER_CHAR))
    return max(smallest, min(largest, size))


def fits(text: str, width: float, size: float) -> bool:
    """True when ``text``'s longest unbreakable run, at ``size`` px, fits ``width``."""
    return longest_run(text) * size * _EM_PER_CHAR <= width


def columns_for(words: list[str], count: int) -> int:
    """Grid columns (1 or 2) a run of ``count`` cards can hold at 390 px, given their words."""
    if count < 2:
        return 1
    column = (PHONE_WIDTH - 2 * _PAD[0] - _GAP) / 2 - 2 * _CARD_PAD
    return 2 if all(fits(text, column, 18) for text in words) else 1


def hero_fit(text: str) -> tuple[int, int, int]:
    """Hero headline sizes (base, md, lg) at which ``text``'s longest word fits each width."""
    return (
        fit(text, PHONE_WIDTH - 2 * _HERO_PAD[0], 44, 16),
        fit(text, 768 - 2 * _HERO_PAD[1], 60, 28),
        fit(text, 1024 - 2 * _HERO_PAD[2], 72, 32),
    )


def _px(value: float) -> dict[str, Any]:
    return {"value": value, "unit": "px"}


def style_of(role: str, p: Scheme, size: int | None = None) -> dict[str, Any]:
    """The node style (``{"base": …, "md"?: …, "lg"?: …}``) for ``role`` in scheme ``p``.

    ``size`` overrides the base font size (a headline or link sized by ``fit``).
    """
    base, md, lg = _ROLES[role](p)
    base = dict(base)
    if size is not None:
        base["fontSize"] = _px(size)
    out: dict[str, Any] = {"base": base}
    if md:
        out["md"] = md
    if lg:
        out["lg"] = lg
    return out


_Style = tuple[dict[str, Any], dict[str, Any], dict[str, Any]]


def _band(background: str, color: str, p: Scheme) -> _Style:
    return (
        {
            "background": background,
            "color": color,
            "padding": _px(_PAD[0]),
            "gap": _px(_GAP),
            "fontFamily": p.font,
            "direction": "column",
        },
        {"padding": _px(_PAD[1]), "gap": _px(20)},
        {"padding": _px(_PAD[2])},
    )


def _on(ground: str) -> str:
    """White words on ``ground`` where they read (4.5:1), else near-black."""
    return "#ffffff" if contrast("#ffffff", ground) >= 4.5 else "#111111"


def _edge(p: Scheme, light: str = "#e5e7eb") -> str:
    """A card's or row's outline: ``light`` on a light card, a grey that shows on a dark one."""
    return "1px solid #374151" if contrast("#ffffff", p.card) >= 4.5 else f"1px solid {light}"


def _card(p: Scheme) -> dict[str, Any]:
    card: dict[str, Any] = {
        "background": p.card,
        "padding": _px(_CARD_PAD),
        "radius": _px(p.radius),
        "gap": _px(6),
        "direction": "column",
    }
    if p.look == "minimal":
        card["border"] = _edge(p, "#e7e5e4")
    elif p.look == "calm":
        card["boxShadow"] = "0 2px 12px rgba(0, 0, 0, 0.07)"
    else:
        card["border"] = _edge(p)
        card["boxShadow"] = "0 1px 3px rgba(0, 0, 0, 0.08)"
    return card


def _row_edge(p: Scheme) -> dict[str, Any]:
    # Calm rows float on a soft shadow (a line would read harder); the others are outlined.
    if p.look == "calm":
        return {"boxShadow": "0 1px 6px rgba(0, 0, 0, 0.07)"}
    return {"border": _edge(p, "#e7e5e4")}


def _button(background: str, color: str, p: Scheme) -> _Style:
    style: dict[str, Any] = {
        "background": background,
        "color": color,
        "padding": _px(14),
        "radius": _px(0 if p.look == "minimal" else 999),
        "fontWeight": 600,
        "fontSize": _px(17),
    }
    if p.look == "minimal":
        style["border"] = f"1px solid {color if background == 'transparent' else background}"
    return style, {"fontSize": _px(18)}, {}


def _heading(p: Scheme, size: int) -> _Style:
    return (
        {
            "fontSize": _px(size),
            "fontFamily": p.heading_font,
            "lineHeight": 1.2,
        },
        {"fontSize": _px(size + 6)},
        {"fontSize": _px(size + 10)},
    )


_NONE: Final[dict[str, Any]] = {}


def _filled(p: Scheme) -> str:
    """The ground of the page's buttons and call-to-action band: the accent, ink when minimal."""
    return p.accent if p.look != "minimal" else p.ink


def _hero(p: Scheme) -> _Style:
    # A minimal page aligns its hero with the sections' left edge; the others centre it.
    pad = _PAD if p.look == "minimal" else _HERO_PAD
    return (
        {
            "background": p.hero,
            "color": p.on_hero,
            "padding": _px(pad[0]),
            "gap": _px(18),
            "align": "start" if p.look == "minimal" else "center",
            "textAlign": "left" if p.look == "minimal" else "center",
            "fontFamily": p.font,
            "direction": "column",
        },
        {"padding": _px(pad[1]), "gap": _px(24)},
        {"padding": _px(pad[2])},
    )


_ROLES: Final[Mapping[str, Callable[[Scheme], _Style]]] = {
    "hero": _hero,
    # Sizes come from ``hero_fit`` (``style_of(size=)`` and the writer's md/lg).
    "hero-heading": lambda p: (
        {
            "lineHeight": 1.1,
            "fontFamily": p.heading_font,
            "letterSpacing": _px(1 if p.look == "minimal" else -1),
        },
        {},
        {},
    ),
    "hero-text": lambda p: (
        {"fontSize": _px(19), "lineHeight": 1.5},
        {"fontSize": _px(22)},
        {"fontSize": _px(24)},
    ),
    "hero-button": lambda p: _button(_filled(p), _on(_filled(p)), p),
    "section": lambda p: _band(p.paper, p.ink, p),
    "section-tint": lambda p: _band(p.tint, p.ink, p),
    "section-heading": lambda p: _heading(p, 28),
    "body": lambda p: ({"fontSize": _px(17), "lineHeight": 1.6}, {"fontSize": _px(18)}, _NONE),
    "lead": lambda p: (
        {"fontSize": _px(19), "lineHeight": 1.6},
        {"fontSize": _px(21)},
        _NONE,
    ),
    "title": lambda p: (
        {"fontSize": _px(18), "lineHeight": 1.3},
        {"fontSize": _px(20)},
        _NONE,
    ),
    "quote": lambda p: (
        {"fontSize": _px(18), "lineHeight": 1.6, "fontFamily": p.heading_font},
        {"fontSize": _px(20)},
        _NONE,
    ),
    # A contact value as a link styled as the page's own (a button inherits its wrapper's colour).
    "contact-link": lambda p: (
        {"color": p.accent, "fontSize": _px(18), "fontWeight": 600},
        {"fontSize": _px(20)},
        _NONE,
    ),
    "list": lambda p: ({"gap": _px(10), "direction": "column"}, _NONE, _NONE),
    # One line of a price list or timetable: the name left, the figure right.
    "row": lambda p: (
        {
            "direction": "row",
            "justify": "between",
            "align": "center",
            "gap": _px(12),
            "padding": _px(14 if p.look != "minimal" else 8),
            "radius": _px(min(p.radius, 12)),
            "background": p.card if p.look != "minimal" else p.tint,
            **_row_edge(p),
        },
        {"padding": _px(18 if p.look != "minimal" else 12)},
        _NONE,
    ),
    "row-name": lambda p: ({"fontSize": _px(17), "lineHeight": 1.4}, {"fontSize": _px(18)}, _NONE),
    "row-figure": lambda p: (
        {"fontSize": _px(17), "fontWeight": 700, "color": p.accent, "textAlign": "right"},
        {"fontSize": _px(18)},
        _NONE,
    ),
    "label": lambda p: (
        {
            "color": p.accent,
            "fontSize": _px(13),
            "fontWeight": 700,
            "letterSpacing": _px(1),
        },
        _NONE,
        _NONE,
    ),
    # Columns come from the base style only (the stylesheet reads no breakpoint columns).
    "grid-1": lambda p: ({"columns": 1, "gap": _px(_GAP)}, {"gap": _px(20)}, _NONE),
    "grid-2": lambda p: ({"columns": 2, "gap": _px(_GAP)}, {"gap": _px(24)}, _NONE),
    "card": lambda p: (_card(p), {"padding": _px(28)}, _NONE),
    "card-featured": lambda p: (
        {**_card(p), "border": f"2px solid {p.accent}"},
        {"padding": _px(28)},
        _NONE,
    ),
    # An image slot of the gallery: a tinted box a person fills from the asset library.
    "slot": lambda p: (
        {
            "background": "#f5f5f4" if p.look == "minimal" and p.card == "#ffffff" else p.tint,
            "border": f"1px dashed {p.accent}",
            "radius": _px(p.radius),
            "padding": _px(16),
            "direction": "column",
            "justify": "end",
        },
        _NONE,
        _NONE,
    ),
    "cta": lambda p: (
        {
            "background": _filled(p),
            "color": _on(_filled(p)),
            "padding": _px(40),
            "gap": _px(18),
            "align": "center",
            "textAlign": "center",
            "fontFamily": p.font,
            "direction": "column",
        },
        {"padding": _px(72)},
        {"padding": _px(96)},
    ),
    "cta-heading": lambda p: _heading(p, 28),
    "cta-button": lambda p: _button(p.card, _filled(p), p),
}
