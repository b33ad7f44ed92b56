"""The look a brief asks for in so many words: its colour and its typeface.

``style.scheme_for`` picks a scheme from the kind of business and the tone
words (calm, minimal, warm…). A brief that names a colour ("loads of bright
orange", "navy and white", "minimal, in greens") or a typeface ("a classic
serif typeface", "a clean sans-serif font") gets it: ``brief_look`` lays
those words over the scheme.

- The first colour the brief names (``colours.colour_word``, the follow-ups'
  reader too; a plural as well: "greens and browns"), not a neutral (white,
  black, grey, cream, beige) and not refused ("no pink", "nothing orange"), is the hero's ground;
  the words on it are white or near-black, whichever reads (4.5:1); the accent
  is that colour's shade legible on white, and the tinted bands a pale shade
  of it. Named for the accent ("one green accent", "coral buttons"), it is the
  accent alone.
- "sans-serif"/"sans" sets every font to the sans stack; "serif" (alone) the
  headings to the serif stack. A typeface the brief names outranks the one
  its tone picks ("clean" alone reads as minimal, which sets serif headings).
- "dark and moody", "a black background", "dark mode" make the page dark
  (``dark``): dark bands and cards, light words, a legible accent.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Final

from charlotte.sections.colours import NEUTRALS, colour_word, contrast, legible, pale
from charlotte.sections.dark import asks_dark, dark
from charlotte.sections.style import SANS, SERIF, Scheme

__all__ = ["brief_look"]

_REFUSING: Final = frozenset({"no", "not", "nothing", "without", "never", "avoid", "hate"})
_ACCENT_WORDS: Final = frozenset({"accent", "accents", "highlight", "highlights", "buttons", "links"})
_WORD = re.compile(r"[a-z]+")
#: Words after a colour that make it the page's look ("green accent", "navy theme", "neon vibes").
_LOOK_WORDS: Final = frozenset(
    {"accent", "accents", "highlight", "highlights", "buttons", "links", "colour", "colours",
     "color", "colors", "tones", "tone", "palette", "theme", "scheme", "background", "vibe",
     "vibes", "feel", "look", "shades", "hues", "type", "text", "headings", "banner", "hero"}
)  # fmt: skip
_SANS_WORDS = re.compile(r"\bsans(?:[- ]?serif)?\b")
_SERIF_WORDS = re.compile(r"\bserif\b")


def brief_look(scheme: Scheme, brief: str) -> Scheme:
    """``scheme`` with the colour, typeface and dark grounds ``brief`` names (module docstring)."""
    looked = _named_look(scheme, brief)
    return dark(looked) if asks_dark(brief) else looked


def _named_look(scheme: Scheme, brief: str) -> Scheme:
    text = brief.lower()
    if _SANS_WORDS.search(text):
        scheme = replace(scheme, font=SANS, heading_font=SANS)
    elif _SERIF_WORDS.search(text):
        scheme = replace(scheme, heading_font=SERIF)
    named = _named_colour(text)
    if named is None:
        return scheme
    colour, accent_only = named
    if accent_only:
        return replace(scheme, accent=legible(colour, "#ffffff"))
    on = "#ffffff" if contrast("#ffffff", colour) >= 4.5 else "#111111"
    return replace(
        scheme, hero=colour, on_hero=on, accent=legible(colour, "#ffffff"), tint=pale(colour)
    )


def _named_colour(text: str) -> tuple[str, bool] | None:
    """The first colour ``text`` names as the look, as ``#rrggbb``, and whether it is named for
    the accent only ("one green accent", "coral buttons"); else None.

    A colour word is the look's when it is plural ("greens and browns"), ends its clause
    ("loads of bright orange,"), or comes before a look word or another colour ("navy and
    white", "purple and neon vibes"); before any other word it names a thing ("green
    woodwork", "Orange Street"), and a refused one ("no pink") is none.
    """
    found = list(_WORD.finditer(text))
    words = [m.group(0) for m in found]
    for n, word in enumerate(words):
        named = colour_word(word)
        if named is None or named[0] in NEUTRALS or not _REFUSING.isdisjoint(words[max(0, n - 3) : n]):
            continue
        name, colour = named
        after = words[n + 1 : n + 3]
        ends = n + 1 == len(found) or any(c in ".,;:!?\n(" for c in text[found[n].end() : found[n + 1].start()])
        looks = after[:1] == ["and"] or any(w in _LOOK_WORDS or colour_word(w) for w in after[:1])
        if word != name or ends or looks:
            return colour, not _ACCENT_WORDS.isdisjoint(after)
    return None
