"""A dark page for a brief that asks for one: "dark and moody, black background", "a dark theme".

``asks_dark`` reads the request (not a refused one: "no dark background");
``dark`` turns a colour scheme dark: dark bands and cards, light words, the
hero kept when it is already dark, and the accent lightened until it reads on
the cards (4.5:1, ``colours.legible``), so its labels, prices and links read on
every ground; buttons on it take whichever of white or near-black reads.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Final

from charlotte.sections.colours import contrast, legible
from charlotte.sections.style import Scheme

__all__ = ["DARK_BANDS", "DARK_CARDS", "DARK_INK", "asks_dark", "dark"]

#: A dark page's grounds and words (the follow-up "a dark background" paints the same).
DARK_BANDS: Final = "#111827"
DARK_CARDS: Final = "#1f2937"
DARK_INK: Final = "#f3f4f6"
_DARK_TINT: Final = "#182031"
_DARK_HERO: Final = "#030712"
_ASKS: Final = re.compile(
    r"(?i)\b(?:(?:black|dark|charcoal|night)\s+(?:background|backdrop|theme|mode|colour\s+scheme)|"
    r"dark\s+and\s+moody|(?:site|page|website)\s+(?:dark|black)|dark\s+mode)\b"
)
_REFUSING: Final = frozenset({"no", "not", "without", "never", "avoid", "hate", "nothing"})


def asks_dark(brief: str) -> bool:
    """True when ``brief`` asks for a dark page, not when it refuses one ("no dark background")."""
    for found in _ASKS.finditer(brief):
        before = re.findall(r"[a-z']+", brief[: found.start()].lower())[-3:]
        if _REFUSING.isdisjoint(before):
            return True
    return False


def dark(scheme: Scheme) -> Scheme:
    """``scheme`` on dark grounds, its words and accent legible on each (4.5:1)."""
    hero = scheme.hero if contrast(DARK_INK, scheme.hero) >= 7 else _DARK_HERO
    return replace(
        scheme,
        hero=hero,
        on_hero=DARK_INK,
        accent=legible(scheme.accent, DARK_CARDS),
        tint=_DARK_TINT,
        ink=DARK_INK,
        paper=DARK_BANDS,
        card=DARK_CARDS,
    )
