"""The intents on a page's look: colours, the colour scheme, the fonts, minimal or bold.

"Change the accent colour to green", "use a warmer palette", "make the
background dark", "use a serif font". The words and the ops are
``offline/looks.py``'s.
"""

from __future__ import annotations

from typing import Final

from charlotte.offline.edits import Context, Edit, Refusal, restyle
from charlotte.offline.intents.intent import Clause, Intent, Reading
from charlotte.offline.looks import read_looks
from charlotte.offline.requests import Restyle
from charlotte.sections.page_view import PageView

__all__ = ["RESTYLE"]


def _read(clause: Clause) -> Reading | None:
    looks = read_looks(clause.lower)
    return Reading(30, tuple(looks)) if looks else None


def _plan(request: Restyle, page: PageView, _context: Context) -> Edit | Refusal:
    return restyle(page, request)


RESTYLE: Final = Intent(
    "change the look",
    _read,
    (Restyle,),
    _plan,
    "change the look (the accent colour, a light or dark background, a warmer, cooler, darker or "
    "lighter palette, more minimal or bolder, a font, a shorter or taller hero)",
)
