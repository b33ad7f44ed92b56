"""The intent on where a business is on a day: "Tuesdays we're at Eaton Park now".

A schedule band lists a row per day and place ("Tue - UEA campus"). "<days>
we're at <place>" or "we're at <place> on <days>" puts the place, as
written, after the day in the one row that names that day alone; a lead
saying where it no longer is ("We don't park at UEA on Tuesdays any more,")
must name a place that row shows. A row naming other days too ("Fri & Sat -
…"), or none, changes nothing.
"""

from __future__ import annotations

from typing import Final

from charlotte.offline.edits import Context, Edit, Refusal
from charlotte.offline.intents.intent import FILLERS, Clause, Intent, Reading
from charlotte.offline.requests import ChangePlace
from charlotte.sections.page_view import PROP, PageView

__all__ = ["CHANGE_PLACE"]

_DAYS: Final = {
    f"{name}{end}": name[:3]
    for name in ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
    for end in ("", "s")
} | {d: d for d in ("mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun")}
_AT: Final = (" we're at ", " we are at ", " we'll be at ", " we're now at ", " we will be at ")
_NO_MORE: Final = ("any more", "anymore", "no longer")
_LEAD: Final = FILLERS | frozenset({"on", "from", "this", "next", "week", "so", "but"})
_SEPARATORS: Final = (" - ", " \u2013 ", " \u00b7 ")


def _day(word: str) -> str | None:
    found = _DAYS.get(word.strip(".,!?;:"))
    return found[:3] if found else None


def _read(clause: Clause) -> Reading | None:
    lower = f" {clause.lower}"
    at, link = max(((lower.rfind(a), a) for a in _AT), key=lambda x: x[0])
    if at < 0:
        return None
    words = clause.words_of(0, len(clause.lower))
    days = {d for w in words if (d := _day(w))}
    if len(days) != 1:
        return Reading(70, (), why="I could not tell which one day")
    start = at + len(link) - 1  # ``at`` is where "we're" starts in ``clause.lower``
    tail = clause.text[start:]
    cut = next((tail.lower().find(f" on {w}") for w in _DAYS if f" on {w}" in tail.lower()), -1)
    place_words = (tail[:cut] if cut >= 0 else tail).strip(" .,!").split()
    while place_words and place_words[-1].lower().strip(".,!") in ("now", "instead", "please"):
        place_words.pop()
    lead = clause.lower[:at]
    old: str | None = None
    if any(m in lead for m in _NO_MORE):
        # "We don't park at UEA on Tuesdays any more": the place it no longer is.
        j = lead.find(" at ")
        k = lead.find(" on ", j + 4) if j >= 0 else -1
        if k < 0 or not ("don't" in lead[:j] or "no longer" in lead[:j]):
            return Reading(70, (), why="I could not tell where you no longer are")
        old = clause.text[j + 4 : k]
    elif [w for w in clause.words_of(0, at) if w not in _LEAD and not _day(w)]:
        return None
    if not place_words or any(c.isdigit() for w in place_words for c in w):
        return Reading(70, (), why="I found no new place (a place, not a time)")
    return Reading(70, (ChangePlace(days.pop(), " ".join(place_words), old),))


def _plan(request: ChangePlace, page: PageView, _context: Context) -> Edit | Refusal:
    rows = []
    for node in page.nodes:
        text = page.words(node)
        sep = next((s for s in _SEPARATORS if s in text), None)
        if node.get("type") != "text" or sep is None:
            continue
        head, place = text.split(sep, 1)
        if any(c.isdigit() for c in place):
            continue  # "Tue - 9am-5pm" is a time, not a place
        named = {d for w in head.replace("&", " ").replace(",", " ").replace("-", " ").split() if (d := _day(w.lower()))}
        if request.day in named:
            rows.append((node, text, sep, named))
    if len(rows) != 1:
        return Refusal(f"the page shows {'no' if not rows else 'more than one'} row for that day")
    node, text, sep, named = rows[0]
    if len(named) > 1:
        return Refusal(f'"{text}" names other days too; you can change it by hand')
    if request.old and request.old.lower() not in text.lower():
        return Refusal(f'the page shows "{text}", not {request.old}')
    new = f"{text.split(sep, 1)[0]}{sep}{request.place}"
    op = {"t": "set_node_props", "id": node["id"], "patch": {PROP[str(node["type"])]: new}}
    return Edit((op,), f'changed "{text}" to "{new}"')


CHANGE_PLACE: Final = Intent(
    "change where the business is on a day",
    _read,
    (ChangePlace,),
    _plan,
    "change where you are on a day the schedule lists (\"Tuesdays we're at Eaton Park now\")",
)
