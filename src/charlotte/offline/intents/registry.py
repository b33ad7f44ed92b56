"""The registry of intents: a message read as requests, and a request planned as ops.

``read_requests(message)`` cuts the message into clauses (``offline/clauses.py``)
and asks every intent to read each one. A reading counts only when its span,
with nothing but polite fillers around it, covers the whole clause; of those the
highest score wins (the first in ``INTENTS`` on a tie). A winning reading
without requests, or a clause no reading covers, is ``Unsupported`` with what
was not understood. Reading is a linear scan over a bounded message: words are
compared with small tables, never matched by a backtracking regex.

>>> [type(r).__name__ for r in read_requests("Make the headline shorter and add an FAQ")]
['Resize', 'AddSection']
"""

from __future__ import annotations

from typing import Final

from charlotte.offline.clauses import quoted, split_clauses
from charlotte.offline.edits import Context, Edit, Refusal
from charlotte.offline.intents.facts import CHANGE_FACT
from charlotte.offline.intents.intent import FILLERS, OTHER_VERBS, VERBS, Clause, Intent, Reading
from charlotte.offline.intents.sections import ADD_SECTION, MOVE_SECTION, REMOVE_SECTION
from charlotte.offline.intents.style import RESTYLE
from charlotte.offline.intents.text import LONGER, RESIZE, SET_TEXT, SHORTER
from charlotte.offline.requests import MAX_MESSAGE, MAX_REQUESTS, Request, Unsupported
from charlotte.sections.page_view import PageView

__all__ = ["INTENTS", "edit_for", "read_clause", "read_requests"]

#: Every intent the offline builder carries out, in the order a tie is broken.
INTENTS: Final[tuple[Intent, ...]] = (
    REMOVE_SECTION,
    ADD_SECTION,
    MOVE_SECTION,
    CHANGE_FACT,
    RESIZE,
    SET_TEXT,
    RESTYLE,
)


def _opens(word: str) -> bool:
    return word in VERBS or word in OTHER_VERBS or word in SHORTER or word in LONGER


def _covers(clause: Clause, reading: Reading) -> bool:
    end = len(clause.lower) if reading.end is None else reading.end
    outside = clause.words_of(0, reading.start) + clause.words_of(end, len(clause.lower))
    return all(w in FILLERS for w in outside)


def read_clause(clause: Clause) -> list[Request]:
    """The requests one clause asks for (``Unsupported`` when none reads all of it)."""
    best: Reading | None = None
    for intent in INTENTS:
        reading = intent.recognize(clause)
        full = reading is not None and _covers(clause, reading)
        if full and reading is not None and (best is None or reading.score > best.score):
            best = reading
    if best is not None and best.requests:
        return list(best.requests)
    return [Unsupported(clause.shown())]


def read_requests(message: str) -> list[Request]:
    """The requests in ``message``, in order (at most ``MAX_REQUESTS``)."""
    text, runs = quoted(message[:MAX_MESSAGE])
    out: list[Request] = []
    for part in split_clauses(text, _opens):
        out += read_clause(Clause.of(part, runs))
        if len(out) >= MAX_REQUESTS:
            break
    return out[:MAX_REQUESTS]


def edit_for(request: Request, page: PageView, context: Context) -> Edit | Refusal:
    """The ops carrying out ``request`` on ``page`` (its intent's planner), or why not."""
    for intent in INTENTS:
        if isinstance(request, intent.makes):
            return intent.plan(request, page, context)
    assert isinstance(request, Unsupported)
    return Refusal(f'"{request.words}" is not something the offline builder can do')
