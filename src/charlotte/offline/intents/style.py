"""The intents on a page's look: colours, the colour scheme, the fonts, minimal or bold.

"Change the accent colour to green", "use a warmer palette", "make the
background dark", "use a serif font". The words and the ops are
``offline/looks.py``'s. "Use blue instead" (``Recolour``) names a colour and
no part of the page: it goes where the person's last colour change went (the
accent, or a background), else to the accent.
"""

from __future__ import annotations

from typing import Final

from charlotte.offline.edits import Context, Edit, Refusal, restyle
from charlotte.offline.intents.facts import unaccounted
from charlotte.offline.intents.intent import CHANGE, FILLERS, Clause, Intent, Reading
from charlotte.offline.looks import COLOURS, FONTS, colour_of, read_looks
from charlotte.offline.requests import Recolour, Restyle
from charlotte.sections.colours import NEUTRALS, colour_word
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
     "go", "too", "is", "are", "way", "very", "really", "one", "hot", "thing"}
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


#: Words naming a part of the page: a colour said with one is that part's, never the page's.
_PARTS: Final = _HERO | frozenset(
    {"accent", "accents", "button", "buttons", "link", "links", "brand", "highlight", "highlights",
     "background", "backgrounds", "text", "texts", "words", "heading", "headings", "headline",
     "headlines", "title", "titles", "font", "fonts", "logo", "section", "sections", "border",
     "borders", "icons", "photo", "photos", "footer", "menu", "card", "cards"}
)  # fmt: skip
#: Words that ask for more colour ("more colourful") or say how strong ("a bright teal").
_COLOURFUL: Final = frozenset({"colourful", "colorful"})
_STRONG: Final = frozenset({"bright", "brighter", "vivid", "vibrant", "strong", "stronger", "rich"})
#: Words a page-colour request may carry besides its colour ("a bit more colourful, maybe purple").
_PAGE_WORDS: Final = frozenset(
    {"more", "even", "maybe", "perhaps", "possibly", "ideally", "something", "like", "say", "some",
     "of", "with", "and", "too", "really", "very", "way", "far", "lots", "touch", "tad", "overall",
     "kind", "sort", "shade", "hue", "bit"}
) | _COLOURFUL | _STRONG  # fmt: skip


def _colours(words: list[str]) -> list[tuple[int, str, str]]:
    """(where, name, hex) of each colour ``words`` name ("pinker": pink), but a "less grey"."""
    out = []
    for i, word in enumerate(words):
        found = colour_word(word, plurals=False)
        if found is not None and not (found[0] in NEUTRALS and i and words[i - 1] == "less"):
            out.append((i, found[0], found[1]))
    return out


def _more(words: list[str], named: list[tuple[int, str, str]]) -> bool:
    """Whether ``words`` ask for more of a colour: "pinker", "more purple", "more colourful"."""
    said = any(words[i] != name for i, name, _hex in named)  # "pinker" (a plural is no name here)
    return said or any(i and words[i - 1] == "more" for i, _n, _h in named) or bool(_COLOURFUL & set(words))


def _page_colour(words: list[str]) -> tuple[str, int, set[int]] | None:
    """"Make it pinker", "more purple", "more colourful, maybe teal": the page's colour.

    The colour (hex), where it is said, and the words it accounts for; None when the
    clause names a part of the page (the buttons, the banner: theirs), names two colours
    or a neutral, or asks for no more of one ("make it pink" alone is not read here).
    "Less grey" beside it is what a colour (or a warmer tone) does to the page's greys.
    """
    named = _colours(words)
    if _PARTS & set(words) or len({h for _i, _n, h in named}) != 1 or not _more(words, named):
        return None
    at, name, colour = named[0]
    if name in NEUTRALS or name.startswith("#"):
        return None
    used = {i for i, _n, _h in named} | {i for i, w in enumerate(words) if w in _COLOURFUL | _STRONG}
    used |= {i - 1 for i, _n, _h in named if i and words[i - 1] == "more"}
    used |= {i for i, w in enumerate(words) if w in NEUTRALS and i and words[i - 1] == "less"}
    used |= {i - 1 for i, w in enumerate(words) if w in NEUTRALS and i and words[i - 1] == "less"}
    return colour, at, used


def _vague(clause: Clause) -> Reading | None:
    """"Make the text pinker", "more colourful": a colour for a part it cannot paint, or no colour.

    Nothing changes and the reply says how to ask.
    """
    words = clause.words_of(0, len(clause.lower))
    named = [n for n in _colours(words) if n[1] not in NEUTRALS]
    if not _more(words, named):
        return None
    if not named:
        return Reading(20, (), why='I could not tell which colour; say, for example, "make it more teal"')
    example = f'"make the banner {named[0][1]}" or "make it more {named[0][1]}"'
    return Reading(20, (), why=f"I could not tell which part should change colour; say, for example, {example}")


def _looks(words: list[str]) -> list[Restyle]:
    """The look changes ``words`` ask for: ``read_looks``' and the page's colour, in order."""
    page = _page_colour(words)
    if page is None:
        return read_looks(" ".join(words))
    colour, at, used = page
    before = [w for i, w in enumerate(words) if i not in used and i < at]
    after = [w for i, w in enumerate(words) if i not in used and i > at]
    return [*read_looks(" ".join(before)), Restyle("colour", colour), *read_looks(" ".join(after))]


def _read(clause: Clause) -> Reading | None:
    # A dash between a request and its colour ("more colourful - maybe teal") is no word.
    words = [w for w in clause.words_of(0, len(clause.lower)) if w.strip("-\u2013\u2014")]
    looks = _looks(words)
    if not looks:
        banner = _banner(clause)  # every word of it accounted for
        return Reading(30, tuple(banner)) if banner else _vague(clause)
    page = _page_colour(words)
    accounted = _LOOK_WORDS | _INSTEAD | (_PAGE_WORDS if page else frozenset())
    rest = [w for i, w in enumerate(words) if not page or i not in page[2]]
    left = [w for w in unaccounted(rest, accounted) if not read_looks(w) and colour_of([w]) is None]
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


def _last_colour(earlier: tuple[str, ...]) -> tuple[str, str]:
    """The aspect and scope the person's latest colour change set (the accent, a background,
    the banner's), else the page's colour (what a brief's colour set: "use blue instead")."""
    for message in reversed(earlier):
        clause = Clause.of(message, ())
        looks = _looks(clause.words_of(0, len(clause.lower))) or _banner(clause)
        for look in reversed(looks):
            if look.aspect in ("accent", "background", "colour") and look.value.startswith("#"):
                return look.aspect, look.scope
    return "colour", "page"


def _plan_recolour(request: Recolour, page: PageView, context: Context) -> Edit | Refusal:
    aspect, scope = _last_colour(context.earlier)
    return restyle(page, Restyle(aspect, request.colour, scope))


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
