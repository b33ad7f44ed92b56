"""The intents on a page's look: colours, the colour scheme, the fonts, minimal or bold.

"Change the accent colour to green", "use a warmer palette", "make the
background dark", "use a serif font". The words and the ops are
``offline/looks.py``'s. "Use blue instead" (``Recolour``) names a colour and
no part of the page: it goes where the person's last colour change went (the
accent, or a background), else to the accent.
"""

from __future__ import annotations

from typing import Final

from charlotte.offline.clauses import folded
from charlotte.offline.edits import Context, Edit, Refusal, restyle
from charlotte.offline.intents.facts import unaccounted
from charlotte.offline.intents.intent import CHANGE, FILLERS, Clause, Intent, Reading
from charlotte.offline.looks import COLOURS, FONTS, colour_of, read_looks
from charlotte.offline.requests import Recolour, Restyle
from charlotte.sections.page_view import PageView

__all__ = ["RECOLOUR", "RESTYLE"]

#: Words that say "in place of the last one" ("use blue instead", "try green rather").
_INSTEAD: Final = frozenset({"instead", "rather", "actually"})
_RECOLOUR_WORDS: Final = CHANGE | FILLERS | _INSTEAD | frozenset(
    {"it", "try", "go", "with", "colour", "color", "the", "a", "that", "this", "one", "maybe",
     "let's", "how", "about", "of", "in"}
)  # fmt: skip


#: Words a look request is made of besides its look words ("make the design more minimal").
_LOOK_WORDS: Final = CHANGE | FILLERS | frozenset(COLOURS) | frozenset(
    w for name, _stack in FONTS for w in name.replace("-", " ").split()
) | frozenset(
    {"the", "a", "an", "more", "less", "bit", "little", "lot", "much", "slightly", "it", "its",
     "page", "site", "website", "whole", "everything", "look", "design", "style", "feel", "colour",
     "color", "colours", "colors", "palette", "scheme", "theme", "mode", "accent", "button",
     "buttons", "link", "links", "brand", "highlight", "background", "backgrounds", "font",
     "fonts", "typeface", "typefaces", "heading", "headings", "headline", "headlines", "titles",
     "dark", "light", "night", "bright", "plain", "for", "of", "in", "on", "with", "and", "our",
     "my", "all", "hero", "banner", "overall", "tone", "shade", "sans-serif", "give", "be", "try",
     "go", "too", "is", "are", "way", "very", "really", "one", "hot"}
)  # fmt: skip


#: Words naming the hero band ("the banner", "the top banner", "the header").
_HERO: Final = frozenset({"hero", "banner", "header", "masthead"})
_BANNER_WORDS: Final = CHANGE | FILLERS | _HERO | frozenset(
    {"the", "a", "top", "our", "for", "in", "be", "colour", "color", "background", "bit", "more",
     "it", "please", "at"}
)  # fmt: skip


def _banner(clause: Clause) -> list[Restyle]:
    """"make the banner blue", "use red for the banner": the hero's ground in one named colour."""
    words = clause.words_of(0, len(clause.lower))
    named = [w for w in words if colour_of([w]) is not None]
    if len(named) != 1 or not _HERO & set(words) or named[0] in ("white", "black"):
        return []
    if unaccounted([w for w in words if w not in named], _BANNER_WORDS):
        return []
    colour = colour_of(named)
    return [Restyle("background", colour, "hero")] if colour else []


#: Colours said as "more of": "pinker", "bluer" (what ``colour_of`` reads as the colour).
_COMPARATIVE: Final = {"pinker": "pink", "bluer": "blue", "greener": "green", "redder": "red",
                       "purpler": "purple", "yellower": "yellow", "oranger": "orange"}  # fmt: skip


def _vague(clause: Clause) -> Reading | None:
    """"make it pinker", "more colourful, maybe purple": a colour for no part of the page.

    Which part should wear it (the banner, the buttons) is a guess, so nothing changes
    and the reply names the two requests it can carry out.
    """
    words = clause.words_of(0, len(clause.lower))
    named = [_COMPARATIVE.get(w, w) for w in words if w in _COMPARATIVE or colour_of([w]) is not None]
    colourful = {"colourful", "colorful"} & set(words)
    if not named and not colourful:
        return None
    if named and not colourful and not _COMPARATIVE.keys() & set(words) and "more" not in words:
        return None
    colour = named[0] if len(set(named)) == 1 else "teal"
    example = f'"make the banner {colour}" or "change the accent colour to {colour}"'
    return Reading(20, (), why=f"I could not tell which part should change colour; say, for example, {example}")


def _read(clause: Clause) -> Reading | None:
    looks = read_looks(clause.lower)
    if not looks:
        banner = _banner(clause)  # every word of it accounted for
        return Reading(30, tuple(banner)) if banner else _vague(clause)
    words = clause.words_of(0, len(clause.lower))
    left = [w for w in unaccounted(words, _LOOK_WORDS | _INSTEAD)
            if not read_looks(w) and colour_of([w]) is None]  # fmt: skip
    if left:
        return Reading(30, (), why=f'I did not understand "{" ".join(left)}"')
    return Reading(30, tuple(looks))


def _plan(request: Restyle, page: PageView, _context: Context) -> Edit | Refusal:
    return restyle(page, request)


def _read_recolour(clause: Clause) -> Reading | None:
    words = clause.words_of(0, len(clause.lower))
    # "less blue, more of a teal": the colour said "less" of is the one replaced.
    less = [i + 1 for i, w in enumerate(words[:-1]) if w == "less" and colour_of([words[i + 1]])]
    if less and "more" in words:
        words = [w for i, w in enumerate(words) if i not in less and w not in ("less", "more")]
    colour = colour_of(words)
    if colour is None or not _INSTEAD & set(words):
        return None
    named = [w for w in words if colour_of([w]) is not None]
    left = unaccounted([w for w in words if w not in named], _RECOLOUR_WORDS)
    if len(named) != 1 or left:
        return None  # "the background blue instead": the look's own reading names where
    return Reading(35, (Recolour(colour),))


def _last_colour(earlier: tuple[str, ...]) -> str:
    """The aspect the person's latest colour change set (accent or background), else the accent."""
    for message in reversed(earlier):
        for look in reversed(read_looks(folded(message))):
            if look.aspect in ("accent", "background") and look.value.startswith("#"):
                return look.aspect
    return "accent"


def _plan_recolour(request: Recolour, page: PageView, context: Context) -> Edit | Refusal:
    return restyle(page, Restyle(_last_colour(context.earlier), request.colour))


RECOLOUR: Final = Intent(
    "a colour instead",
    _read_recolour,
    (Recolour,),
    _plan_recolour,
    "use another colour in place of the one you last changed (the accent, or a background)",
)
RESTYLE: Final = Intent(
    "change the look",
    _read,
    (Restyle,),
    _plan,
    "change the look (the accent colour, a dark or light background, a warmer or cooler palette, "
    "minimal or bold, a font)",
)
