"""The intent on a class or session moving to another day: "we've moved the Wednesday yin class to Thursday".

The clause moves (*move*, *moved*, *moving*) something from one day to
another named after its last *to*; its other words, generic ones aside
("the", "class", "session"), name the row: the one row of the page whose
name is that one day ("Wed") and whose words hold them all ("7pm Yin"). That
row's day becomes the new one, written as the row writes days; the row moves
among its siblings only when the days would be out of order. A time in the
clause ("moved to 7:30pm") is another intent's; two days before *to*, or no
such row or more than one, changes nothing.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any, Final

from charlotte.offline.edits import Context, Edit, Refusal
from charlotte.offline.intents.days import DayStyle, day_of, read_days, write_days
from charlotte.offline.intents.intent import FILLERS, Clause, Intent, Reading
from charlotte.offline.requests import MoveToDay
from charlotte.page.ordering import key_between
from charlotte.sections.page_view import PageView

__all__ = ["MOVE_TO_DAY"]

_MOVES: Final = frozenset({"move", "moved", "moving", "moves", "shift", "shifted"})
_GENERIC: Final = FILLERS | frozenset(
    {"we've", "have", "has", "is", "are", "been", "the", "our", "my", "class", "classes", "session",
     "sessions", "lesson", "lessons", "on", "from", "it", "that", "now", "one"}
)  # fmt: skip
_SCORE: Final = 86


def _read(clause: Clause) -> Reading | None:
    words = clause.words_of(0, len(clause.lower))
    if not _MOVES & set(words) or any(c.isdigit() for c in clause.lower):
        return None
    cut = max((k for k, w in enumerate(words) if w == "to"), default=-1)
    after = [w for w in words[cut + 1 :] if w not in FILLERS] if cut >= 0 else []
    new = day_of(after[0]) if len(after) == 1 else None
    if new is None:
        return None
    days = [d for w in words[:cut] if (d := day_of(w)) is not None]
    item = tuple(w for w in words[:cut] if w not in _GENERIC | _MOVES and day_of(w) is None)
    if len(days) > 1 or not (days or item):
        return Reading(_SCORE, (), why="I could not tell which one class moves from which one day")
    return Reading(_SCORE, (MoveToDay(days[0] if days else None, new, item),))


def _rows(page: PageView) -> list[tuple[Mapping[str, Any], Mapping[str, Any], str, frozenset[int], DayStyle, str]]:
    """(row, its name node, the row's words, the days its name starts with, their style, the name's rest)."""
    kids: dict[str, list[Mapping[str, Any]]] = {}
    for node in page.nodes:
        parent = node.get("parent")
        if isinstance(parent, str):
            kids.setdefault(parent, []).append(node)
    out = []
    for node in page.nodes:
        texts = kids.get(str(node["id"]), [])
        if not 1 <= len(texts) <= 2 or any(t.get("type") != "text" or t["id"] in kids for t in texts):
            continue
        read = read_days(page.words(texts[0]))
        if read is not None:
            words = " ".join(page.words(t) for t in texts)
            out.append((node, texts[0], words, read[0], read[1], read[2]))
    return out


def _plan(request: MoveToDay, page: PageView, _context: Context) -> Edit | Refusal:
    rows = _rows(page)
    old = "" if request.old is None else write_days(frozenset({request.old}), DayStyle())
    found = [r for r in rows if len(r[3]) == 1 and (request.old is None or r[3] == {request.old})
             and all(w in r[2].lower().replace(",", " ").split() for w in request.item)]  # fmt: skip
    what = f"{old} {' '.join(request.item)}".strip()
    if len(found) != 1:
        return Refusal(f"the page shows {'no' if not found else 'more than one'} row for {what}")
    row, name, words, _days, style, rest = found[0]
    content = write_days(frozenset({request.new}), style) + rest
    ops: list[dict[str, Any]] = [{"t": "set_node_props", "id": name["id"], "patch": {"content": content}}]
    # Keep the rows in day order: the row goes after the last sibling on a day before its new one.
    siblings = [r for r in rows if r[0].get("parent") == row.get("parent") and len(r[3]) == 1]
    others = [r for r in siblings if r[0]["id"] != row["id"]]
    at = sum(1 for r in others if min(r[3]) <= request.new)
    place = [r[0]["id"] for r in siblings].index(row["id"])
    if at != place and all(isinstance(r[0].get("order"), str) for r in siblings):
        low = str(others[at - 1][0]["order"]) if at > 0 else None
        high = str(others[at][0]["order"]) if at < len(others) else None
        with contextlib.suppress(ValueError):
            ops.append({"t": "move_node", "id": row["id"], "parent": row.get("parent"), "order": key_between(low, high)})
    new = write_days(frozenset({request.new}), DayStyle(full=True))
    return Edit(tuple(ops), f'moved "{words}" to {new}')


MOVE_TO_DAY: Final = Intent(
    "move a class or session to another day",
    _read,
    (MoveToDay,),
    _plan,
    "move a class the timetable shows to another day (\"we've moved the Wednesday yin class to Thursday\")",
)
