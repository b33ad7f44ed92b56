"""The intent on opening hours: "add that I do Sundays too, 10am-2pm", "open saturdays til 2 only now".

A clause names days (``days.py``: "Sundays", "Tue-Fri", "weekdays") and what
they are now: a time range ("10-5", "10am to 2pm"), an opening time ("we open
at 8 on weekdays", the closing kept), a closing time ("til 2", "close at 5"),
closed ("change Sunday to closed"), or another row's hours ("same hours as
Tue-Fri"). Every word must be a day, a time or one of the small tables below
("too", "as well", "over the winter"); a clause with days, an hours word and
any other word is refused, and one without days is left to the other intents.
A time without am/pm is read the way shops are open: an opening hour from 5
to 11 is in the morning, a closing hour from 1 to 11 in the afternoon; an
opening at 1 to 4 without am/pm is refused. The planner is ``hours_rows.py``.
"""

from __future__ import annotations

import re
from typing import Final

from charlotte.checks.hours import clock_range, clock_time, closing_time, opening_time
from charlotte.offline.intents.days import LIST_JOINS, RANGE_JOINS, day_group
from charlotte.offline.intents.hours_rows import plan_hours
from charlotte.offline.intents.intent import FILLERS, Clause, Intent, Reading
from charlotte.offline.requests import ChangeHours

__all__ = ["CHANGE_HOURS"]

_OPEN: Final = frozenset({"open", "opens", "opening", "do", "work"})
_CLOSE: Final = frozenset({"close", "closes", "closing", "shuts", "finish", "finishes"})
_CLOSED: Final = frozenset({"closed", "shut"})
_UNTIL: Final = frozenset({"til", "till", "until", "to"})
_AT: Final = frozenset({"at", "from"})
_HOURS: Final = frozenset({"hours", "times", "time"})
_SEASONS: Final = frozenset({"winter", "summer", "autumn", "spring", "holidays", "season"})
_SEASON_LEADS: Final = frozenset({"over", "in", "for", "during", "through", "this"})
#: Words around the days and times that ask nothing more ("We're open on Mondays as well now").
_LINKS: Final = FILLERS | frozenset(
    {"we're", "are", "i've", "i'm", "we've", "we'll", "that", "the", "on", "only", "too", "as",
     "well", "add", "added", "adding", "our", "is", "be", "same", "every", "each", "change",
     "set", "make", "update", "updated", "days", "day", "us", "it's", "it"}
)  # fmt: skip
_TIME: Final = re.compile(r"\d{1,2}(?:[:.]\d{2})?(?:am|pm)?|noon|midnight")
_RANGE: Final = re.compile(rf"({_TIME.pattern})-({_TIME.pattern})")
_SCORE: Final = 86  # above "add …" read as a section it cannot build (85)


def _tokens(lower: str) -> list[str]:
    text = lower.replace("\u2019", "'").replace("\u2013", "-").replace("\u2014", "-")
    text = re.sub(r"\b([ap])\.m\.?", r"\1m", text)
    out: list[str] = []
    for raw in text.split():
        word = raw.strip(".,!?;:()'\"")
        if word in ("am", "pm") and out and _TIME.fullmatch(out[-1]):
            out[-1] += word  # "10 am"
        elif word:
            out.append(word)
    return out


class _Parts:
    """What a clause's words say: days, times, closed, another row's days, words not understood."""

    def __init__(self) -> None:
        self.days: set[int] = set()
        self.like: set[int] = set()
        self.ranges: list[tuple[int, int]] = []
        self.opens: list[int] = []
        self.closes: list[int] = []
        self.closed = False
        self.same: str | None = None  # "same closing": the other end stays
        self.cue = False  # an hours word or a time
        self.unclear: list[str] = []
        self.left: list[str] = []


def _parts(words: list[str]) -> _Parts:
    p = _Parts()
    like = False
    i, n = 0, len(words)
    while i < n:
        w = words[i]
        group = day_group(w)
        if group is not None:
            if i + 2 < n and words[i + 1] in RANGE_JOINS and (last := day_group(words[i + 2])):
                group = frozenset(range(min(group), max(last) + 1))  # "Monday to Friday"
                i += 2
            (p.like if like else p.days).update(group)
        elif w == "same" and i + 1 < n and words[i + 1] in _OPEN | _CLOSE:
            p.same = "closing" if words[i + 1] in _CLOSE else "opening"
            i += 2 if i + 2 < n and words[i + 2] in _HOURS else 1
        elif w == "same" and i + 2 < n and words[i + 1] in _HOURS and words[i + 2] == "as":
            like, p.cue = True, True
            i += 2
        elif w in _SEASON_LEADS and words[i + 1 : i + 2] and (
            words[i + 1] in _SEASONS or (words[i + 1] == "the" and words[i + 2 : i + 3] and words[i + 2] in _SEASONS)
        ):
            i += 2 if words[i + 1] in _SEASONS else 3
            continue
        elif m := _RANGE.fullmatch(w):
            _range(p, m.group(1), m.group(2), w)
        elif _TIME.fullmatch(w):
            if i + 2 < n and words[i + 1] in _UNTIL | {"-", "and"} and _TIME.fullmatch(words[i + 2]):
                _range(p, w, words[i + 2], " ".join(words[i : i + 3]))
                i += 2
            else:
                _single(p, w, words[max(0, i - 2) : i])
        elif w in _CLOSED:
            p.closed = p.cue = True
        elif w in _OPEN | _CLOSE | _HOURS:
            p.cue = True
        elif w not in _LINKS | _UNTIL | _AT | LIST_JOINS | {"-", "between"} | _SEASON_LEADS:
            p.left.append(w)
        i += 1
    return p


def _range(p: _Parts, first: str, last: str, said: str) -> None:
    p.cue = True
    span = clock_range(first, last)
    if span is None or span[0] >= span[1]:  # no night hours: "5pm-9am" is a slip
        p.unclear.append(said)
    else:
        p.ranges.append(span)


def _single(p: _Parts, word: str, before: list[str]) -> None:
    p.cue = True
    time = clock_time(word)
    if time is None or not before:
        p.unclear.append(word)
        return
    closing = before[-1] in _UNTIL or (before[-1] == "at" and len(before) > 1 and before[0] in _CLOSE)
    if not closing and before[-1] not in _AT:
        p.unclear.append(word)
        return
    minutes = closing_time(*time) if closing else opening_time(*time)
    if minutes is None:
        p.unclear.append(word)
    else:
        (p.closes if closing else p.opens).append(minutes)


def _refuse(why: str) -> Reading:
    return Reading(_SCORE, (), why=why)


def _read(clause: Clause) -> Reading | None:
    p = _parts(_tokens(clause.lower))
    if not p.days or not p.cue:
        return None  # no days, or no hours: another intent's, or none's
    if p.left:
        return Reading(40, (), why=f'I did not understand "{" ".join(p.left)}"')
    if p.unclear:
        return _refuse(f'I could not tell the time "{p.unclear[0]}" (say it with am or pm, "10am-2pm")')
    days = frozenset(p.days)
    kinds = sum((bool(p.ranges), bool(p.opens or p.closes), p.closed, bool(p.like)))
    if kinds > 1 or len(p.ranges) > 1 or len(p.opens) > 1 or len(p.closes) > 1 or p.like & p.days:
        return _refuse("I could not tell which hours you mean; one change of hours at a time, please")
    if (p.same == "closing" and (p.closes or not p.opens)) or (p.same == "opening" and (p.opens or not p.closes)):
        return _refuse("I could not tell which time stays the same")
    if p.closed:
        return Reading(_SCORE, (ChangeHours(days, closed=True),))
    if p.like:
        return Reading(_SCORE, (ChangeHours(days, like=frozenset(p.like)),))
    if p.ranges:
        return Reading(_SCORE, (ChangeHours(days, *p.ranges[0]),))
    if p.opens or p.closes:
        opens = p.opens[0] if p.opens else None
        closes = p.closes[0] if p.closes else None
        if opens is not None and closes is not None and closes <= opens:
            return _refuse("the closing time is not after the opening time")
        return Reading(_SCORE, (ChangeHours(days, opens, closes),))
    return _refuse('I found no hours for those days; say them ("Sundays 10am-2pm") or "closed"')


CHANGE_HOURS: Final = Intent(
    "change the opening hours of some days",
    _read,
    (ChangeHours,),
    plan_hours,
    'change the opening hours of a day ("open Sundays too, 10am-2pm", "close at 2 on Saturdays")',
)
