"""Opening hours as people write them: "Mon-Fri 8am-6pm", "8:00-18:00", "open daily 7-15".

Every time becomes minutes after midnight (24-hour), so ``6pm``, ``6 p.m.`` and
``18:00`` are the same value; days become a set of weekday numbers (Monday = 0),
so ``Mon-Fri``, ``Monday to Friday`` and ``weekdays`` are the same set. A time
range is attached to the day group written nearest before or after it.

Bare ranges without am/pm or a colon ("7-15") are read as hours only next to
an opening-hours word or a day ("open daily 7-15", "Sat 9-1"); elsewhere
"ages 3-5" stays a plain range of numbers.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from charlotte.checks.amounts import is_unit_word

DAY_MINUTES = 24 * 60
ALL_DAYS = frozenset(range(7))
_DAY_KEYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")

#: ``Hours`` as the memos keep it: tag, start, end, days as bits (Monday = 1) or None.
PackedHours = tuple[Literal["hours"], int, int | None, int | None]


@dataclass(frozen=True, slots=True)
class Hours:
    """A time range (or a single time when ``end`` is None) on some days (None: not said)."""

    start: int
    end: int | None
    days: frozenset[int] | None

    def packed(self) -> PackedHours:
        """One flat tuple: a form the garbage collector does not track (``Memo``)."""
        bits = None if self.days is None else sum(1 << day for day in self.days)
        return ("hours", self.start, self.end, bits)

    @staticmethod
    def unpacked(packed: PackedHours) -> Hours:
        """The hours ``packed`` was made from."""
        _, start, end, bits = packed
        days = None if bits is None else frozenset(d for d in range(bits.bit_length()) if bits >> d & 1)
        return Hours(start, end, days)

    @property
    def value(self) -> str:
        """The normalised form, e.g. ``mon-fri 08:00-18:00``."""
        times = (
            _clock(self.start) if self.end is None else f"{_clock(self.start)}-{_clock(self.end)}"
        )
        return times if self.days is None else f"{show_days(self.days)} {times}"


@dataclass(frozen=True, slots=True)
class FoundHours:
    """Where an hours claim was read: the span of its times and the text with its days."""

    start: int
    end: int
    text: str
    hours: Hours


def _clock(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def show_days(days: frozenset[int]) -> str:
    """Day numbers as runs: ``{0,1,2,3,4,6}`` → ``mon-fri,sun``; all seven → ``daily``."""
    if days == ALL_DAYS:
        return "daily"
    runs: list[str] = []
    ordered = sorted(days)
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        first, last = _DAY_KEYS[ordered[i]], _DAY_KEYS[ordered[j]]
        runs.append(first if i == j else f"{first}-{last}")
        i = j + 1
    return ",".join(runs)


# --- days --------------------------------------------------------------------

# Abbreviations only as written with a capital ("Sat", "SUN"): "sat" and "sun"
# are ordinary words too. Full names in any case.
_DAY = (
    r"(?:(?i:(?:mon|tues|wednes|thurs|fri|satur|sun)days?)\b"
    r"|(?:Mon|Tues|Tue|Wed|Thurs|Thur|Thu|Fri|Sat|Sun|MON|TUE|WED|THU|FRI|SAT|SUN)\b\.?)"
)
_DAY_SPAN = rf"{_DAY}(?:\s*(?:-|\u2013|\u2014|to|through|thru|until|till)\s*{_DAY})?"
_DAY_WORDS = r"(?i:daily|every\s?day|(?:7|seven)\s+days\s+a\s+week|week\s?days|weekends?)\b"
_DAY_GROUP = re.compile(
    rf"(?<![\w])(?:{_DAY_WORDS}|{_DAY_SPAN}(?:\s*(?:,|&|and|\+|/)\s*{_DAY_SPAN})*)"
)
_DAY_SPAN_RE = re.compile(_DAY_SPAN)
_DAY_RE = re.compile(_DAY)


def is_day_group(text: str) -> bool:
    """True when ``text`` is days and nothing else ("Mon", "Tue-Fri", "weekends")."""
    return _DAY_GROUP.fullmatch(text.strip()) is not None


def _day_number(token: str) -> int:
    return _DAY_KEYS.index(token.lower()[:3])


def days_of(group: str) -> frozenset[int]:
    """The weekday numbers a day group names ("Mon-Fri & Sun" → {0..4, 6})."""
    lowered = " ".join(group.lower().split())
    if lowered.startswith(("daily", "every", "7 days", "seven days")):
        return ALL_DAYS
    if lowered.startswith("week") and "end" not in lowered:
        return frozenset(range(5))
    if lowered.startswith("weekend"):
        return frozenset({5, 6})
    days: set[int] = set()
    for span in _DAY_SPAN_RE.finditer(group):
        ends = [_day_number(d.group(0)) for d in _DAY_RE.finditer(span.group(0))]
        if len(ends) == 2:
            first, last = ends
            count = (last - first) % 7 + 1
            days.update((first + k) % 7 for k in range(count))
        else:
            days.update(ends)
    return frozenset(days)


# --- times -------------------------------------------------------------------

_MERIDIEM = r"(?:[ap]\.\s?m\.?|[ap]m)(?![a-z])"
_SIDE = rf"(?:\d{{1,2}}(?:[:.]\d{{2}})?\s?{_MERIDIEM}|\d{{1,2}}[:.]\d{{2}}|\d{{1,2}}|noon|midnight)"
_RANGE = re.compile(
    rf"(?<![\w.,:/])(?P<a>{_SIDE})\s*(?:-|\u2013|\u2014|to|until|till|through)\s*(?P<b>{_SIDE})"
    rf"(?![\w]|[.,:]\d)",
    re.IGNORECASE,
)
_SINGLE = re.compile(
    rf"(?<![\w.,:/])(?:\d{{1,2}}(?:[:.]\d{{2}})?\s?{_MERIDIEM}|\d{{1,2}}:\d{{2}})(?![\w]|[.,:]\d)",
    re.IGNORECASE,
)
_ALWAYS = re.compile(r"(?<![\w/])24\s?/\s?7(?![\w/])")
_SIDE_PARTS = re.compile(r"(\d{1,2})(?:([:.])(\d{2}))?\s?(?:([ap])\.?\s?m\.?)?", re.IGNORECASE)
_HOURS_WORDS = re.compile(
    r"(?i:\b(?:open|opens|opening|hours|closes|closing|daily|every\s?day|weekdays?|weekends?)\b)"
)
_NEXT_WORD = re.compile(r"\s*([^\W\d_]+)")
_LETTER = re.compile(r"[^\W\d_]")

_Side = tuple[int, int, str | None, bool]  # hour, minute, "a"/"p"/None, strong


def _side(token: str) -> _Side | None:
    t = token.strip().lower()
    if t == "noon":
        return (12, 0, "noon", True)
    if t == "midnight":
        return (0, 0, "midnight", True)
    m = _SIDE_PARTS.fullmatch(t)
    if m is None:
        return None
    hour, mark, minute, meridiem = int(m.group(1)), m.group(2), int(m.group(3) or 0), m.group(4)
    if minute >= 60:
        return None
    if meridiem is not None:
        return (hour, minute, meridiem, True) if 1 <= hour <= 12 else None
    if hour > 24 or (hour == 24 and minute):
        return None
    return (hour, minute, None, mark == ":")


def _minutes(side: _Side, meridiem: str | None) -> int:
    hour, minute, own, _ = side
    if own == "noon":
        return 12 * 60
    if own == "midnight":
        return 0
    mark = own or meridiem
    if mark == "a":
        hour %= 12
    elif mark == "p":
        hour = hour % 12 + 12
    return hour * 60 + minute


def _range(a: _Side, b: _Side) -> tuple[int, int] | None:
    ma = a[2] if a[2] in ("a", "p") else None
    mb = b[2] if b[2] in ("a", "p") else None
    end = _minutes(b, None)
    if ma is None and mb is not None and a[2] is None:
        # "9-5pm" is 9:00-17:00, "1-5pm" is 13:00-17:00: the start takes the
        # end's am/pm when that still starts before the end.
        start = _minutes(a, mb) if a[0] <= 12 and _minutes(a, mb) < end else _minutes(a, "a")
    elif mb is None and ma is not None and b[2] is None:
        start = _minutes(a, None)
        end = _minutes(b, ma) if _minutes(b, ma) > start else _minutes(b, "p" if ma == "a" else "a")
    else:
        start = _minutes(a, None)
        plain = a[2] is None and b[2] is None
        if plain and end <= start and a[0] <= 12 and b[0] < 12:
            end += 12 * 60  # "8-6" on an opening sign means 8:00-18:00
    if end == 0:
        end = DAY_MINUTES  # closing at midnight
    if start == end or start >= DAY_MINUTES or end > DAY_MINUTES:
        return None
    return start, end


def clock_range(first: str, last: str) -> tuple[int, int] | None:
    """The minutes a range written as ``first``-``last`` spans ("10", "5" → 10:00-17:00), else None."""
    a, b = _side(first), _side(last)
    return None if a is None or b is None else _range(a, b)


def clock_time(token: str) -> tuple[int, bool] | None:
    """The minutes ``token`` says ("8:30", "2pm", "8") and whether it says am/pm, else None."""
    side = _side(token)
    return None if side is None else (_minutes(side, None), side[2] is not None)


def opening_time(minutes: int, said: bool) -> int | None:
    """An opening time as shops mean it: a bare hour from 5 to 11 is in the morning; 1 to 4 is unclear."""
    return minutes if said or minutes >= 5 * 60 else None


def closing_time(minutes: int, said: bool) -> int | None:
    """A closing time as shops mean it: a bare hour from 1 to 11 is in the afternoon."""
    if said or minutes >= 12 * 60:
        return minutes
    return minutes + 12 * 60 if minutes >= 60 else None


_BARE_OPEN = re.compile(r"(?i)\b(?:open|opens|opening)\s+(?:at|from)\s+(\d{1,2}(?:[:.]\d{2})?)(?![\w:.]|\s?[ap]\.?m)")
_BARE_CLOSE = re.compile(
    r"(?i)\b(?:til|till|until|(?:close|closes|closing|shut|shuts)\s+at)\s+(\d{1,2}(?:[:.]\d{2})?)(?![\w:.]|\s?[ap]\.?m)"
)


def said_times(text: str) -> set[int]:
    """The opening and closing times ``text`` says as bare hours ("open at 8", "til 2")."""
    out: set[int] = set()
    for pattern, read in ((_BARE_OPEN, opening_time), (_BARE_CLOSE, closing_time)):
        for m in pattern.finditer(text):
            time = clock_time(m.group(1))
            minutes = read(*time) if time is not None else None
            if minutes is not None:
                out.add(minutes)
    return out


def _near_hours_words(text: str, start: int, end: int) -> bool:
    window = text[max(0, start - 30) : start] + " " + text[end : end + 20]
    # Every hours word and day has a letter: "9-5 9-5 9-5 …" needs no search.
    return bool(
        _LETTER.search(window) and (_HOURS_WORDS.search(window) or _DAY_GROUP.search(window))
    )


def _followed_by_unit(text: str, end: int) -> bool:
    m = _NEXT_WORD.match(text, end)
    return m is not None and is_unit_word(m.group(1))


#: The longest gap between a time and the day group it belongs to.
_DAY_GAP = 20


class _DayGroups:
    """The day groups of a text in order, found near a time by bisection, not by a scan."""

    __slots__ = ("_ends", "_starts", "groups")

    def __init__(self, groups: list[re.Match[str]]) -> None:
        self.groups = groups
        # Matches of one pattern never overlap: both lists are sorted.
        self._starts = [g.start() for g in groups]
        self._ends = [g.end() for g in groups]

    def near(self, start: int, end: int) -> list[re.Match[str]]:
        """The groups ending at most ``_DAY_GAP`` before ``start`` or starting as far after ``end``."""
        before = self.groups[
            bisect_left(self._ends, start - _DAY_GAP) : bisect_right(self._ends, start)
        ]
        after = self.groups[
            bisect_left(self._starts, end) : bisect_right(self._starts, end + _DAY_GAP)
        ]
        return before + after


def _day_for(text: str, groups: _DayGroups, start: int, end: int) -> re.Match[str] | None:
    """The day group written nearest before or after a time (a comma counts as far)."""
    best: tuple[int, re.Match[str]] | None = None
    for group in groups.near(start, end):
        if group.end() <= start:
            gap = text[group.end() : start]
            tie = 0
        elif group.start() >= end:
            gap = text[end : group.start()]
            tie = 1  # before wins a tie: "Mon-Fri: 8-18, Sat: 9-13"
        else:
            continue
        if len(gap) > _DAY_GAP or any(c.isdigit() or c in ".;!?\n" for c in gap):
            continue
        score = len(gap.strip()) * 2 + (20 if "," in gap else 0) + tie
        if best is None or score < best[0]:
            best = (score, group)
    return best[1] if best else None


def find_hours(text: str) -> tuple[list[FoundHours], list[tuple[int, int]]]:
    """The hours claims in ``text`` and the spans to mask (their times, "7 days a week")."""
    groups = _DayGroups(list(_DAY_GROUP.finditer(text)))
    found: list[FoundHours] = []
    always: list[tuple[int, int]] = []
    ranges: list[tuple[int, int]] = []

    def add(start: int, end: int, first: int | None, last: int | None) -> bool:
        if first is None:
            return False
        group = _day_for(text, groups, start, end)
        days = days_of(group.group(0)) if group else None
        lo = min(start, group.start()) if group else start
        hi = max(end, group.end()) if group else end
        found.append(FoundHours(start, end, text[lo:hi].strip(), Hours(first, last, days)))
        return True

    for m in _ALWAYS.finditer(text):
        found.append(FoundHours(m.start(), m.end(), m.group(0), Hours(0, DAY_MINUTES, ALL_DAYS)))
        always.append(m.span())
    # A range can only overlap a "24/7" (ranges never overlap each other); a
    # single time, either. Each test bisects a sorted list of disjoint spans.
    for m in _RANGE.finditer(text):
        if _overlaps(always, m.start(), m.end()):
            continue
        a, b = _side(m.group("a")), _side(m.group("b"))
        if a is None or b is None:
            continue
        if not (a[3] or b[3]) and (
            not _near_hours_words(text, m.start(), m.end()) or _followed_by_unit(text, m.end())
        ):
            continue
        span = _range(a, b)
        if span is not None and add(m.start(), m.end(), *span):
            ranges.append(m.span())
    taken = sorted(always + ranges)
    singles: list[tuple[int, int]] = []
    for m in _SINGLE.finditer(text):
        if not _overlaps(taken, m.start(), m.end()):
            side = _side(m.group(0))
            if side is not None and add(m.start(), m.end(), _minutes(side, None), None):
                singles.append(m.span())
    mask = [g.span() for g in groups.groups if any(c.isdigit() for c in g.group(0))]
    found.sort(key=lambda f: f.start)
    return found, taken + singles + mask


def _overlaps(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    """True when ``start:end`` overlaps one of ``spans`` (sorted, pairwise disjoint)."""
    # The span starting last before ``end`` is the only one that can reach past ``start``.
    i = bisect_left(spans, (end, end))
    return i > 0 and spans[i - 1][1] > start


def endpoints(hours: Hours) -> Iterator[int]:
    """The times a range starts and ends at (or the single time)."""
    yield hours.start
    if hours.end is not None:
        yield hours.end
