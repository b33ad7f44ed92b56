"""The opening-hours band as rows of days and hours, and a ``ChangeHours`` planned on it.

A row is a container of one or two texts: its days ("Tue-Fri", "Sun & Mon")
and its hours ("7:30am-3pm", "closed"), or one text saying both ("Sun & Mon
closed"). The days a request names leave the rows they are in (a row keeping
its other days is renamed: "Sun & Mon closed" becomes "Sun closed") and take
their new hours: in the row they filled, in a row showing the same hours
whose days they extend ("Tue-Fri" becomes "Mon-Fri"; a list "Mon, Tue, Thu"
takes "Wed" in its place), else in a new row like the others, after the
day before. Times are written the way the band writes them ("10am-2pm" or
"10:00-14:00"); no other row changes. A band it cannot read, a day in two
rows, or a new time for a day the page shows closed changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from charlotte.checks.claims import claims_in
from charlotte.checks.hours import Hours, clock_range
from charlotte.offline.edits import Context, Edit, Refusal
from charlotte.offline.intents.days import DayStyle, day_group, read_days, write_days
from charlotte.offline.requests import ChangeHours
from charlotte.page.ordering import key_between
from charlotte.sections.page_view import PageView

__all__ = ["plan_hours"]

Value = tuple[int, int] | None  # an opening and a closing time in minutes; None: closed
_CLOSED_WORDS: Final = ("closed", "shut")
_SIDE: Final = r"(\d{1,2})(?:([:.])(\d{2}))?(\s?)(am|pm|a\.m\.|p\.m\.)?"
_FIGURE: Final = re.compile(rf"(?i){_SIDE}(\s*(?:-|\u2013|\u2014|to)\s*){_SIDE}")


@dataclass(frozen=True, slots=True)
class _Times:
    """How a band writes a time range: 12-hour or 24, the separator, padding, ":00", the dash."""

    twelve: bool = True
    sep: str = ":"
    pad: bool = False
    zeros: bool = False
    space: str = ""
    upper: bool = False
    dash: str = "-"

    def side(self, minutes: int) -> str:
        hour, minute = divmod(minutes, 60)
        if not self.twelve:
            return f"{hour:02d}{self.sep}{minute:02d}" if self.pad else f"{hour}{self.sep}{minute:02d}"
        mark = "am" if hour % 24 < 12 else "pm"
        shown = f"{hour % 12 or 12}" + (f"{self.sep}{minute:02d}" if minute or self.zeros else "")
        return f"{shown}{self.space}{mark.upper() if self.upper else mark}"

    def write(self, value: tuple[int, int]) -> str:
        return f"{self.side(value[0])}{self.dash}{self.side(value[1])}"


def _read_times(text: str) -> tuple[tuple[int, int], _Times] | None:
    m = _FIGURE.fullmatch(text.strip())
    if m is None:
        return None
    a, b = m.group(0)[: m.start(6) - m.start()].strip(), m.group(0)[m.end(6) - m.start() :].strip()
    span = clock_range(a, b)
    if span is None:
        return None
    hours, seps, marks = (m.group(1), m.group(7)), (m.group(2), m.group(8)), (m.group(5), m.group(11))
    minutes = (m.group(3), m.group(9))
    style = _Times(
        twelve=any(marks), sep=next((s for s in seps if s), ":"),
        pad=any(len(h) == 2 and h.startswith("0") for h in hours), zeros=any(x == "00" for x in minutes),
        space=next((s for s, k in zip((m.group(4), m.group(10)), marks, strict=True) if k), ""),
        upper=any(k and k.isupper() for k in marks), dash=m.group(6),
    )  # fmt: skip
    return span, style


@dataclass(slots=True)
class _Row:
    node: Mapping[str, Any]
    name: Mapping[str, Any]
    figure: Mapping[str, Any] | None
    days: frozenset[int]
    style: DayStyle
    rest: str  # what follows the days in the name (" closed")
    value: Value
    times: _Times | None
    words: str = field(default="")  # the closed word as written ("closed", "Closed")


def _content(node: Mapping[str, Any]) -> str:
    props = node.get("props")
    value = props.get("content") if isinstance(props, Mapping) else None
    return value if isinstance(value, str) else ""


def _row(node: Mapping[str, Any], kids: list[Mapping[str, Any]]) -> _Row | None:
    if not 1 <= len(kids) <= 2 or any(k.get("type") != "text" for k in kids):
        return None
    name, figure = kids[0], (kids[1] if len(kids) == 2 else None)
    read = read_days(_content(name))
    if read is None:
        return None
    days, style, rest = read
    said = _content(figure) if figure is not None else rest.strip().lstrip(":-\u2013").strip()
    if figure is not None and rest.strip(" :"):
        return None
    if said.lower() in _CLOSED_WORDS:
        return _Row(node, name, figure, days, style, rest, None, None, said)
    times = _read_times(said)
    if times is None:
        return None
    return _Row(node, name, figure, days, style, rest, times[0], times[1])


class _Band:
    """The hours band's rows, read; ``other``: its rows it cannot read (their words)."""

    def __init__(self, page: PageView, band: str) -> None:
        self.rows: list[_Row] = []
        self.other: list[str] = []
        self.kids: dict[str, list[Mapping[str, Any]]] = {}
        for node in page.inside(band):
            parent = node.get("parent")
            if isinstance(parent, str):
                self.kids.setdefault(parent, []).append(node)
        for node in page.inside(band):
            kids = self.kids.get(str(node["id"]), [])
            if node.get("type") == "text" or not kids or any(k["id"] in self.kids for k in kids):
                continue
            row = _row(node, kids)
            if row is not None:
                self.rows.append(row)
            else:
                self.other.append(" ".join(_content(k) for k in kids))

    def value_of(self, day: int) -> list[_Row]:
        return [r for r in self.rows if day in r.days]


def _new_value(request: ChangeHours, row: _Row | None, band: _Band) -> Value | Refusal:
    if request.closed:
        return None
    if request.like:
        shown = {r.value for d in request.like for r in band.value_of(d)}
        if len(shown) != 1 or any(not band.value_of(d) for d in request.like):
            return Refusal(f"the page shows no one set of hours for {write_days(request.like, DayStyle())}")
        return shown.pop()
    if request.opens is not None and request.closes is not None:
        return request.opens, request.closes
    if row is None or row.value is None:
        which = write_days(row.days if row else request.days, DayStyle())
        return Refusal(f'the page shows no hours for {which} to change; say them ("{which} 10am-2pm")')
    opens, closes = request.opens, request.closes
    value = (row.value[0] if opens is None else opens, row.value[1] if closes is None else closes)
    if value[0] >= value[1]:
        return Refusal("the closing time would not be after the opening time")
    return value


def _joins(row: _Row, days: frozenset[int], value: Value) -> bool:
    """True when ``days`` with ``value`` may join ``row``: the same hours, extending its range or list."""
    if row.value != value or row.days & days:
        return False
    union = sorted(row.days | days)
    return row.style.shape == "list" or (row.style.shape == "range" and union[-1] - union[0] + 1 == len(union))


class _Plan:
    """The ops being built: texts set, rows removed, rows inserted, and what the reply says."""

    def __init__(self, page: PageView, band: _Band) -> None:
        self.page, self.band = page, band
        self.ops: list[dict[str, Any]] = []
        self.shown: list[str] = []
        self.after: dict[str, str] = {}  # the last key minted after a row

    def text(self, node: Mapping[str, Any], content: str) -> None:
        self.ops.append({"t": "set_node_props", "id": node["id"], "patch": {"content": content}})

    def closed_word(self, in_name: bool = False) -> str:
        """The word the band writes for a closed day, in a name ("Sun closed") or as a figure."""
        rows = [r for r in self.band.rows if r.value is None and (r.figure is None) == in_name]
        return rows[0].words if rows else "closed" if in_name else "Closed"

    def figure(self, value: Value, times: _Times | None) -> str:
        if value is None:
            return self.closed_word()
        style = times or next((r.times for r in self.band.rows if r.times), None) or _Times()
        return style.write(value)

    def insert(self, anchor: _Row, days: frozenset[int], value: Value, style: DayStyle, *, before: bool = False) -> None:
        """A new row after (or before) ``anchor``, built like a row with a figure (or a closed row like it)."""
        template = anchor if anchor.figure is not None or value is None else next(
            (r for r in self.band.rows if r.figure is not None), anchor)  # fmt: skip
        parent = anchor.node.get("parent")
        siblings = [n for n in self.page.nodes if n.get("parent") == parent]
        at = next(k for k, n in enumerate(siblings) if n["id"] == anchor.node["id"])
        low = self.after.get(str(anchor.node["id"]), anchor.node.get("order"))
        high = siblings[at + 1].get("order") if at + 1 < len(siblings) else None
        if before:
            low = siblings[at - 1].get("order") if at > 0 else None
            high = anchor.node.get("order")
        try:
            key = key_between(low if isinstance(low, str) else None, high if isinstance(high, str) else None)
        except ValueError:
            key = None
        if key is not None and not before:
            self.after[str(anchor.node["id"])] = key
        base = f"{parent}-{'-'.join(write_days(days, DayStyle()).lower().split())}"
        row_id = next(i for i in (base, *(f"{base}-{n}" for n in range(2, 99))) if i not in self.page.by_id)
        names = write_days(days, style)
        row = {k: v for k, v in template.node.items() if k in ("type", "layout", "style")}
        self.ops.append({"t": "insert_node", "node": {**row, "id": row_id, "parent": parent, "props": {},
                                                       **({"order": key} if key else {})}})  # fmt: skip
        node = {k: v for k, v in template.name.items() if k in ("type", "style", "order")}
        if template.figure is None:  # one text says both: "Sat closed"
            words = f"{names}{template.rest}" if value is None else f"{names} {self.figure(value, None)}"
            self.ops.append({"t": "insert_node", "node": {**node, "id": f"{row_id}-name", "parent": row_id,
                                                           "props": {"content": words}}})  # fmt: skip
            self.shown.append(words)
            return
        figure = self.figure(value, template.times)
        self.ops.append({"t": "insert_node", "node": {**node, "id": f"{row_id}-name", "parent": row_id,
                                                       "props": {"content": names}}})  # fmt: skip
        kind = {k: v for k, v in template.figure.items() if k in ("type", "style", "order")}
        self.ops.append({"t": "insert_node", "node": {**kind, "id": f"{row_id}-figure", "parent": row_id,
                                                       "props": {"content": figure}}})  # fmt: skip
        self.shown.append(f"{names} {figure}")

    def refill(self, row: _Row, value: Value) -> None:
        """``row``'s own days take ``value`` in place."""
        names = write_days(row.days, row.style) if row.figure is None else _content(row.name)
        if row.figure is not None and value is None and not any(
            r.value is None and r.figure is not None for r in self.band.rows
        ):
            # Closed days are one text on this band, as a first page writes them: "Sun closed".
            words = f"{names} {self.closed_word(in_name=True)}"
            self.text(row.name, words)
            self.ops.append({"t": "remove_node", "id": row.figure["id"]})
            self.shown.append(words)
            return
        if row.figure is not None:
            self.text(row.figure, self.figure(value, row.times))
            self.shown.append(f"{names} {self.figure(value, row.times)}")
            return
        other = next((r for r in self.band.rows if r.figure is not None), None)
        if value is None or other is None or other.figure is None:
            words = f"{names} {self.closed_word(in_name=True)}" if value is None else f"{names} {self.figure(value, None)}"
            self.text(row.name, words)
            self.shown.append(words)
            return
        self.text(row.name, names)
        kind = {k: v for k, v in other.figure.items() if k in ("type", "style")}
        figure = self.figure(value, None)
        if isinstance(row.name.get("order"), str):
            kind["order"] = key_between(str(row.name["order"]), None)
        self.ops.append({"t": "insert_node", "node": {**kind, "id": f"{row.node['id']}-figure",
                         "parent": row.node["id"], "props": {"content": figure}}})  # fmt: skip
        self.shown.append(f"{names} {figure}")


def plan_hours(request: ChangeHours, page: PageView, _context: Context) -> Edit | Refusal:
    """The ops giving ``request.days`` their new hours on the page's one opening-hours band."""
    bands = [r for r in page.roots if page.kind(r) == "hours"]
    if len(bands) != 1:
        return Refusal("the page shows no opening hours I can change" if not bands else "the page shows more than one opening-hours section")
    band = _Band(page, bands[0])
    if not band.rows:
        return Refusal("the opening hours are not rows of days and times I can change; you can change them by hand")
    wanted = request.days | request.like
    if any((day_group(w.strip(".,:;")) or frozenset()) & wanted for text in band.other for w in text.split()):
        return Refusal("a row of the opening hours I cannot read names those days; you can change it by hand")
    if any(len(band.value_of(d)) > 1 for d in wanted):
        return Refusal("a day is in two rows of the opening hours; you can change them by hand")
    plan = _Plan(page, band)
    pieces: list[tuple[_Row | None, frozenset[int], Value]] = []
    for row in band.rows:
        moved = row.days & request.days
        if moved:
            value = _new_value(request, row, band)
            if isinstance(value, Refusal):
                return value
            if value != row.value:
                pieces.append((row, moved, value))
    absent = frozenset(d for d in request.days if not band.value_of(d))
    if absent:
        value = _new_value(request, None, band)
        if isinstance(value, Refusal):
            return value
        pieces.append((None, absent, value))
    gone: set[str] = set()
    for source, days, value in pieces:
        target = next((r for r in band.rows if not r.days & request.days and _joins(r, days, value)), None)
        if source is not None:
            keep = source.days - days
            if keep:
                names = write_days(keep, source.style) + (source.rest if source.figure is None else "")
                plan.text(source.name, names)
                plan.shown.append(names if source.figure is None else f"{names} {_content(source.figure)}")
            elif target is not None:
                plan.ops.append({"t": "remove_node", "id": source.node["id"]})
                gone.add(str(source.node["id"]))
            else:
                plan.refill(source, value)
                continue
        if target is not None:
            names = write_days(target.days | days, target.style)
            plan.text(target.name, names + (target.rest if target.figure is None else ""))
            target.days = target.days | days
            plan.shown.append(f"{names} {plan.figure(value, target.times)}")
            continue
        anchor = source or _anchor(band, days)
        first = source is not None and min(days) < min(source.days - days)  # "Mon-Fri" before "Sat"
        plan.insert(anchor, days, value, anchor.style if source else DayStyle(full=anchor.style.full), before=first)
    if not plan.ops:
        return Edit((), "the opening hours already say so")
    shown = sorted(plan.shown, key=lambda row: min((read_days(row) or (frozenset({7}),))[0]))  # in day order
    said = f"changed the opening hours: {'; '.join(shown)}"
    elsewhere = _also_stated(page, bands[0], request.days)
    if elsewhere:
        said += f" (the {' and the '.join(elsewhere)} section also gives hours for those days: change it by hand)"
    return Edit(tuple(plan.ops), said)


def _also_stated(page: PageView, band: str, days: frozenset[int]) -> list[str]:
    """The other sections whose words give hours for any of ``days`` (an FAQ answer, a contact line)."""
    out: list[str] = []
    for root in page.roots:
        if root == band:
            continue
        for node in page.inside(root):
            if any(isinstance(f.key, Hours) and f.key.days and f.key.days & days for f in claims_in(page.words(node))):
                out.append(page.label(root))
                break
    return out


def _anchor(band: _Band, days: frozenset[int]) -> _Row:
    """The row a new row for ``days`` goes after: the one with the day before, else the last."""
    before = (min(days) - 1) % 7
    return next((r for r in band.rows if before in r.days), band.rows[-1])
