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

from collections.abc import Mapping
from typing import Any, Final

from charlotte.offline.clauses import is_remark, quoted, remark_at, split_clauses, unquote
from charlotte.offline.edits import Context, Edit, Refusal
from charlotte.offline.intents.arrangement import ESPECIALLY, PAGE_LENGTH, SWAP_SECTIONS, scoped
from charlotte.offline.intents.day_moves import MOVE_TO_DAY
from charlotte.offline.intents.facts import CHANGE_FACT
from charlotte.offline.intents.hours import CHANGE_HOURS
from charlotte.offline.intents.intent import FILLERS, OTHER_VERBS, VERBS, Clause, Intent, Reading
from charlotte.offline.intents.links import ADD_LINK
from charlotte.offline.intents.lists import ADD_TO_LIST
from charlotte.offline.intents.prices import CHANGE_PRICE
from charlotte.offline.intents.quotes import ADD_QUOTE, joined
from charlotte.offline.intents.removals import REMOVE_ROWS
from charlotte.offline.intents.schedule import CHANGE_PLACE
from charlotte.offline.intents.sections import ADD_SECTION, MOVE_SECTION, REMOVE_SECTION, resolved
from charlotte.offline.intents.sentences import ADD_SENTENCES, filled, finished
from charlotte.offline.intents.show_fact import SHOW_FACT
from charlotte.offline.intents.sizes import FONT_SIZE
from charlotte.offline.intents.style import RECOLOUR, RESTYLE
from charlotte.offline.intents.text import LONGER, RESIZE, SET_TEXT, SHORTER
from charlotte.offline.intents.values import CHANGE_VALUE
from charlotte.offline.looks import colour_of, read_looks
from charlotte.offline.requests import MAX_MESSAGE, MAX_REQUESTS, Request, Unsupported
from charlotte.sections.catalogue import kinds_in
from charlotte.sections.page_view import PageView

__all__ = ["INTENTS", "edit_for", "read_clause", "read_requests"]

#: Every intent the offline builder carries out, in the order a tie is broken.
INTENTS: Final[tuple[Intent, ...]] = (
    ADD_LINK,
    REMOVE_SECTION,
    ADD_SECTION,
    MOVE_SECTION,
    SWAP_SECTIONS,
    PAGE_LENGTH,
    ESPECIALLY,
    ADD_SENTENCES,
    CHANGE_FACT,
    CHANGE_PRICE,
    CHANGE_VALUE,
    ADD_TO_LIST,
    ADD_QUOTE,
    SHOW_FACT,
    REMOVE_ROWS,
    CHANGE_PLACE,
    CHANGE_HOURS,
    MOVE_TO_DAY,
    FONT_SIZE,
    RESIZE,
    SET_TEXT,
    RECOLOUR,
    RESTYLE,
)


def _opens(word: str) -> bool:
    return word in VERBS or word in OTHER_VERBS or word in SHORTER or word in LONGER


def _acts(word: str) -> bool:
    return _opens(word) or colour_of([word]) is not None or bool(kinds_in(word)) or bool(read_looks(word))


def _covers(clause: Clause, reading: Reading) -> bool:
    end = len(clause.lower) if reading.end is None else reading.end
    outside = clause.words_of(0, reading.start) + clause.words_of(end, len(clause.lower))
    return all(w in FILLERS for w in outside)


def read_clause(clause: Clause) -> list[Request]:
    """The requests one clause asks for (``Unsupported`` when none reads all of it)."""
    best: tuple[Reading, Intent] | None = None
    for intent in INTENTS:
        reading = intent.recognize(clause)
        full = reading is not None and _covers(clause, reading)
        if full and reading is not None and (best is None or reading.score > best[0].score):
            best = reading, intent
    if (best is None or not best[0].requests) and (cut := remark_at(clause.text, _acts)) > 0:
        return read_clause(Clause.of(clause.text[:cut], clause.runs))  # "…, it feels like shouting"
    if best is None:
        return [Unsupported(clause.shown())]
    reading, intent = best
    if reading.requests:
        return list(reading.requests)
    why = f'I can\'t do "{clause.shown()}": {reading.why}; I can {intent.capability}' if reading.why else ""
    return [Unsupported(clause.shown(), why)]


def read_requests(message: str) -> list[Request]:
    """The requests in ``message``, in order (at most ``MAX_REQUESTS``)."""
    text, runs = quoted(message[:MAX_MESSAGE])
    out: list[Request] = []
    taken = 0  # sentences taken as the words of "add a sentence about the studio? It's …"
    for k, part in enumerate(split_clauses(text, _opens)):
        more = filled(out[-1], unquote(part, runs), taken) if k and out else None
        if more is not None and all(isinstance(r, Unsupported) for r in read_clause(Clause.of(part, runs))):
            out[-1], taken = more, taken + 1
            continue
        taken = 0
        if k and is_remark(part, _acts):
            continue  # "… to our story? It feels short": a remark after a request asks nothing
        out += read_clause(Clause.of(part, runs))
        if len(out) >= MAX_REQUESTS:
            break
    # "move it": the section the request before named; "here's one: '…'": the testimonials it
    # added; "shorter? The FAQ especially": one request; sentences after a request are its words.
    return finished(scoped(joined(resolved(out[:MAX_REQUESTS]))))


def _changes(op: Mapping[str, Any], page: PageView) -> bool:
    """Whether ``op`` would change ``page`` (a patch to what a node already has changes nothing)."""
    node = page.by_id.get(str(op.get("id")))
    patch = op.get("patch")
    if node is None or not isinstance(patch, dict):
        return True
    if op.get("t") == "set_node_props":
        now = node.get("props")
    elif op.get("t") == "set_style":
        style = node.get("style")
        now = style.get(op.get("breakpoint")) if isinstance(style, dict) else None
    else:
        return True
    now = now if isinstance(now, dict) else {}
    return any(now.get(key) != value for key, value in patch.items())


def edit_for(request: Request, page: PageView, context: Context) -> Edit | Refusal:
    """The ops carrying out ``request`` on ``page`` (its intent's planner), or why not.

    Ops that would leave the page as it is are dropped; with none left, nothing is
    claimed: the reply says the page already is that way.
    """
    for intent in INTENTS:
        if isinstance(request, intent.makes):
            edit = intent.plan(request, page, context)
            if isinstance(edit, Refusal):
                return edit
            ops = tuple(op for op in edit.ops if _changes(op, page))
            if not ops:
                return Refusal(f"the page already is that way, so nothing changed ({edit.said})")
            return Edit(ops, edit.said)
    assert isinstance(request, Unsupported)
    return Refusal(f'"{request.words}" is not something the offline builder can do')
