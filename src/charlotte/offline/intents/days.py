"""Days of the week as people write them, read and written back in the same style.

``day_group("tue-fri")`` is the days one word names (a day, a plural, a dashed
range, "weekdays", "weekends", "daily"); ``read_days("Sun & Mon closed")`` reads
the days a row's name starts with, how it writes them and what follows;
``write_days`` writes a set of days in a row's own style ("Tue-Fri" minus
Friday is "Tue-Thu", a list "Mon, Tue, Thu" plus Wednesday is "Mon, Tue, Wed,
Thu"). Monday is 0.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

__all__ = ["DayStyle", "day_group", "day_of", "read_days", "write_days"]

_KEYS: Final = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_FULL: Final = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WORDS: Final = {
    **{f"{name}{end}": n for n, name in enumerate(_FULL) for end in ("", "s")},
    **{key: n for n, key in enumerate(_KEYS)},
    "tues": 1, "weds": 2, "thur": 3, "thurs": 3,
}  # fmt: skip
_GROUPS: Final = {
    "weekdays": frozenset(range(5)), "weekday": frozenset(range(5)),
    "weekends": frozenset({5, 6}), "weekend": frozenset({5, 6}),
    "daily": frozenset(range(7)), "everyday": frozenset(range(7)),
}  # fmt: skip
#: Words joining two days into a range, and into a list.
RANGE_JOINS: Final = frozenset({"-", "\u2013", "\u2014", "to", "through", "thru", "till", "until"})
LIST_JOINS: Final = frozenset({",", "&", "and", "+", "/"})
_TOKEN: Final = re.compile(r"[A-Za-z]+\.?|[-\u2013\u2014&,/+]")


def day_of(word: str) -> int | None:
    """The day one word names ("Mon", "tuesdays", "Thurs."), else None."""
    return _WORDS.get(word.lower().rstrip("."))


def _span(first: int, last: int) -> frozenset[int]:
    return frozenset((first + k) % 7 for k in range((last - first) % 7 + 1))


def day_group(word: str) -> frozenset[int] | None:
    """The days one word names: a day, "weekdays", "weekends", "daily" or a dashed range ("tue-fri")."""
    lower = word.lower().rstrip(".")
    if lower in _GROUPS:
        return _GROUPS[lower]
    day = day_of(lower)
    if day is not None:
        return frozenset({day})
    ends = re.split(r"[-\u2013\u2014]", lower)
    if len(ends) == 2 and (a := day_of(ends[0])) is not None and (b := day_of(ends[1])) is not None:
        return _span(a, b)
    return None


@dataclass(frozen=True, slots=True)
class DayStyle:
    """How a row writes its days: full names or not, the range dash, the list joiners, its shape."""

    full: bool = False
    dash: str = "-"
    join: str = ", "
    last: str = ", "
    shape: str = "single"  # "single", "range" (one span), "list" (single days joined), "mixed"
    plural: bool = False  # "Tuesdays"


def read_days(text: str) -> tuple[frozenset[int], DayStyle, str] | None:
    """The days ``text`` starts with, their style, and the rest ("Sun & Mon closed" → {6, 0}, " closed")."""
    days: set[int] = set()
    spans: list[tuple[int, int]] = []
    dash, joins = "-", [", "]
    full = plural = False
    pending: str | None = None  # a joining word read but not yet followed by a day
    end = seen = 0  # where the last day ends, where the last word read ends
    for m in _TOKEN.finditer(text):
        if text[seen : m.start()].strip():
            break
        word = m.group(0)
        day = day_of(word)
        if day is not None:
            full = full or len(word.rstrip(".")) > 5
            plural = plural or word.lower().endswith("days")
            joiner = text[end : m.start()] if pending is not None else ""
            if pending in RANGE_JOINS and spans and spans[-1][0] == spans[-1][1]:
                first = spans[-1][0]
                spans[-1] = (first, day)
                days.update(_span(first, day))
                dash = joiner
            elif pending in LIST_JOINS or not spans:
                if pending is not None:
                    joins.append(joiner)
                spans.append((day, day))
                days.add(day)
            else:
                break
            pending, end = None, m.end()
        elif spans and pending is None and word.lower() in RANGE_JOINS | LIST_JOINS:
            pending = word.lower()
        else:
            break
        seen = m.end()
    if not spans:
        return None
    singles = all(a == b for a, b in spans)
    shape = "single" if len(spans) == 1 and singles else "range" if len(spans) == 1 else "list" if singles else "mixed"
    style = DayStyle(full, dash, joins[1] if len(joins) > 2 else ", ", joins[-1], shape, plural)
    return frozenset(days), style, text[end:]


def _name(day: int, style: DayStyle) -> str:
    name = (_FULL if style.full else _KEYS)[day].capitalize()
    return f"{name}s" if style.full and style.plural else name


def write_days(days: frozenset[int], style: DayStyle) -> str:
    """``days`` in ``style``: a list day by day, otherwise runs of three or more as ranges."""
    ordered = sorted(days)
    items: list[str] = []
    if style.shape == "list":
        items = [_name(d, style) for d in ordered]
    else:
        runs: list[list[int]] = []
        for day in ordered:
            if runs and runs[-1][-1] == day - 1:
                runs[-1].append(day)
            else:
                runs.append([day])
        for run in runs:
            if len(run) >= 3 or (len(run) == 2 and len(runs) == 1 and style.shape == "range"):
                items.append(f"{_name(run[0], style)}{style.dash}{_name(run[-1], style)}")
            else:
                items += [_name(d, style) for d in run]
    if len(items) == 1:
        return items[0]
    return style.join.join(items[:-1]) + style.last + items[-1]
