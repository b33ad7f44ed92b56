"""The opening-hours intent: phrasings read exactly (near-misses refused), and rows changed in place.

The planner is run on an hours band built as a first page builds it (a row per
entry, its days and hours in two texts, a closed day in one) and the ops are
applied by the page's reducer: the rows read back are the whole truth.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.unit.offline.intent_table import Refused, check

from charlotte.offline.edits import Context, Edit, Refusal
from charlotte.offline.intents import edit_for
from charlotte.offline.requests import ChangeHours, Request
from charlotte.page.model import empty_doc
from charlotte.page.ops import reduce_all
from charlotte.sections.page_view import PageView

WEEKDAYS = frozenset(range(5))
ROWS: list[tuple[str, list[Request] | Refused]] = [
    ("add that I do Sundays too, 10am-2pm", [ChangeHours(frozenset({6}), 600, 840)]),
    ("We're open on Mondays as well now, same hours as Tue-Fri",
     [ChangeHours(frozenset({0}), like=frozenset({1, 2, 3, 4}))]),
    ("We're closed on Sundays over the winter, please change Sunday to closed",
     [ChangeHours(frozenset({6}), closed=True)]),
    ("We open at 8 on weekdays now, same closing", [ChangeHours(WEEKDAYS, opens=480)]),
    ("We're open Mondays now too, 10-5", [ChangeHours(frozenset({0}), 600, 1020)]),
    ("open saturdays til 2 only now", [ChangeHours(frozenset({5}), closes=840)]),
    ("Opening times: I've added Wednesdays, 10am-8pm", [ChangeHours(frozenset({2}), 600, 1200)]),
    # Phrasings of our own: ranges of days, times with spaces, "to", 24-hour, weekends.
    ("We are open Monday to Friday 9am - 5pm now", [ChangeHours(WEEKDAYS, 540, 1020)]),
    ("open Mondays and Tuesdays from 9 to 5", [ChangeHours(frozenset({0, 1}), 540, 1020)]),
    ("we close at 4 on Fridays", [ChangeHours(frozenset({4}), closes=960)]),
    ("weekends 10:00-16:00 please", [ChangeHours(frozenset({5, 6}), 600, 960)]),
    ("Saturday hours are 9.30am to 1pm now", [ChangeHours(frozenset({5}), 570, 780)]),
    ("we're shut on Wednesdays now", [ChangeHours(frozenset({2}), closed=True)]),
    ("we open at 10 on sundays, same closing time", [ChangeHours(frozenset({6}), opens=600)]),
    ("Tue-Thu open till 7pm", [ChangeHours(frozenset({1, 2, 3}), closes=1140)]),
    ("open on Thursdays until 8 as well", [ChangeHours(frozenset({3}), closes=1200)]),
    ("change Saturday to closed", [ChangeHours(frozenset({5}), closed=True)]),
    # Refused: a time it cannot place, two changes at once, words it does not know, no hours.
    ("we open at 2 on sundays", Refused('the time "2"')),
    ("open Mondays 9-5 and Saturdays 10-2", Refused("one change of hours at a time")),
    ("we're not open on mondays any more", Refused("not")),
    ("open bank holiday Mondays 10-4", Refused("bank holiday")),
    ("We're open on Sundays now too", Refused("no hours for those days")),
    ("we're closed on Mondays 9-5", Refused("one change of hours")),
    ("open saturdays at 9, same opening", Refused("which time stays the same")),
    ("open Sundays 5pm-9am", Refused('the time "5pm-9am"')),
]  # fmt: skip


@pytest.mark.parametrize(("message", "expected"), ROWS, ids=[m for m, _ in ROWS])
def test_hours_are_read_exactly(message: str, expected: list[Request] | Refused) -> None:
    check(message, expected)


@pytest.mark.parametrize(
    "message",
    ["we've moved the Wednesday yin class to Thursday", "we now close at 6pm", "Tuesdays we're at Eaton Park now"],
)
def test_a_clause_without_days_and_hours_is_left_to_the_other_intents(message: str) -> None:
    from charlotte.offline.intents import read_requests

    assert not any(isinstance(r, ChangeHours) for r in read_requests(message))


# --- the planner on a band ---------------------------------------------------------------


def _band(rows: list[tuple[str, str | None]]) -> dict[str, Any]:
    """A document with an hours band as a first page writes it (a row per entry)."""
    ops: list[dict[str, Any]] = [
        {"t": "insert_node", "node": {"id": "hero", "type": "section", "parent": None, "order": "F"}},
        {"t": "insert_node", "node": {"id": "hero-title", "type": "heading", "parent": "hero", "order": "V",
                                      "props": {"content": "Crumb & Co", "level": 1}}},
        {"t": "insert_node", "node": {"id": "opening-hours", "type": "section", "parent": None, "order": "V"}},
        {"t": "insert_node", "node": {"id": "opening-hours-heading", "type": "heading", "parent": "opening-hours",
                                      "order": "V", "props": {"content": "Opening hours", "level": 2}}},
        {"t": "insert_node", "node": {"id": "opening-hours-list", "type": "stack", "parent": "opening-hours",
                                      "order": "VV", "layout": "stack"}},
    ]  # fmt: skip
    for n, (name, figure) in enumerate(rows, 1):
        row = f"opening-hours-row-{n}"
        style = {"base": {"direction": "row"}}
        ops.append({"t": "insert_node", "node": {"id": row, "type": "stack", "parent": "opening-hours-list",
                                                 "order": "V" * n, "layout": "stack", "style": style}})  # fmt: skip
        ops.append({"t": "insert_node", "node": {"id": f"{row}-name", "type": "text", "parent": row,
                                                 "order": "V", "props": {"content": name}}})  # fmt: skip
        if figure is not None:
            ops.append({"t": "insert_node", "node": {"id": f"{row}-figure", "type": "text", "parent": row,
                                                     "order": "VV", "props": {"content": figure}}})  # fmt: skip
    doc, skipped = reduce_all(empty_doc("p"), ops)
    assert not skipped
    return doc


def _children(doc: dict[str, Any], parent: str | None) -> list[dict[str, Any]]:
    kids = [n for n in doc["nodes"].values() if n.get("parent") == parent]
    return sorted(kids, key=lambda n: (str(n.get("order", "")), n["id"]))


def _view(doc: dict[str, Any]) -> PageView:
    out: list[dict[str, Any]] = []

    def walk(parent: str | None) -> None:
        for node in _children(doc, parent):
            out.append(node)
            walk(node["id"])

    walk(None)
    return PageView(out)


def _rows(doc: dict[str, Any]) -> list[str]:
    return [" ".join(k["props"]["content"] for k in _children(doc, r["id"]))
            for r in _children(doc, "opening-hours-list")]  # fmt: skip


def _apply(rows: list[tuple[str, str | None]], request: ChangeHours) -> tuple[list[str], set[str]]:
    """The rows after ``request``, and the ids of the nodes its ops name."""
    doc = _band(rows)
    edit = edit_for(request, _view(doc), Context("", {}))
    assert isinstance(edit, Edit), edit
    after, skipped = reduce_all(doc, list(edit.ops))
    assert not skipped, skipped
    return _rows(after), {str(op.get("id") or op["node"]["id"]) for op in edit.ops}


PLANS: list[tuple[list[tuple[str, str | None]], ChangeHours, list[str]]] = [
    # A day added after the day before it, in the band's own time style.
    ([("Mon-Sat", "8am-6pm")], ChangeHours(frozenset({6}), 600, 840), ["Mon-Sat 8am-6pm", "Sun 10am-2pm"]),
    # A closed day takes a row's hours: it joins that row's range and leaves the closed row.
    ([("Tue-Fri", "7:30am-3pm"), ("Sat", "8am-2pm"), ("Sun & Mon closed", None)],
     ChangeHours(frozenset({0}), like=frozenset({1, 2, 3, 4})),
     ["Mon-Fri 7:30am-3pm", "Sat 8am-2pm", "Sun closed"]),
    ([("Tue-Sat", "10:00-17:00"), ("Sun", "12:00-16:00"), ("Mon closed", None)],
     ChangeHours(frozenset({0}), 600, 1020), ["Mon-Sat 10:00-17:00", "Sun 12:00-16:00"]),
    # A day joins a list of days with the same hours, in its place.
    ([("Mon, Tue, Thu", "10am-8pm"), ("Sat", "9am-3pm")], ChangeHours(frozenset({2}), 600, 1200),
     ["Mon, Tue, Wed, Thu 10am-8pm", "Sat 9am-3pm"]),
    # Closed, written the way the band writes closed days.
    ([("Mon-Sat", "10am-5:30pm"), ("Sun", "11am-4pm")], ChangeHours(frozenset({6}), closed=True),
     ["Mon-Sat 10am-5:30pm", "Sun closed"]),
    # A new opening time for part of a row: the row splits, the closing stays.
    ([("Mon-Sat", "8:30-18:00"), ("Sun closed", None)], ChangeHours(WEEKDAYS, opens=480),
     ["Mon-Fri 8:00-18:00", "Sat 8:30-18:00", "Sun closed"]),
    ([("Tue-Sat", "8:30am-4:30pm")], ChangeHours(frozenset({5}), closes=840),
     ["Tue-Fri 8:30am-4:30pm", "Sat 8:30am-2pm"]),
    # A closed day's row takes hours in place when no row has the same ones; full names stay full.
    ([("Tue-Sat", "10am-5pm"), ("Mon closed", None)], ChangeHours(frozenset({0}), 540, 780),
     ["Tue-Sat 10am-5pm", "Mon 9am-1pm"]),
    ([("Monday to Friday", "9:00-17:00")], ChangeHours(frozenset({5}), 540, 1020), ["Monday to Saturday 9:00-17:00"]),
    # Not adjacent to a range with the same hours: a row of its own, the range untouched.
    ([("Mon-Wed", "9am-5pm"), ("Thu", "9am-1pm")], ChangeHours(frozenset({5}), 540, 1020),
     ["Mon-Wed 9am-5pm", "Thu 9am-1pm", "Sat 9am-5pm"]),
]  # fmt: skip


@pytest.mark.parametrize(("rows", "request_", "expected"), PLANS)
def test_hours_change_only_the_rows_of_those_days(
    rows: list[tuple[str, str | None]], request_: ChangeHours, expected: list[str]
) -> None:
    assert _apply(rows, request_)[0] == expected


def test_a_day_added_touches_no_other_row() -> None:
    _rows_after, named = _apply([("Mon-Fri", "9am-5pm"), ("Sat", "10am-2pm")],
                                ChangeHours(frozenset({6}), 600, 840))  # fmt: skip
    assert not any(i.startswith(("opening-hours-row-1", "opening-hours-row-2")) for i in named), named


REFUSED: list[tuple[list[tuple[str, str | None]], ChangeHours, str]] = [
    ([("Mon-Sat", "9am-5pm"), ("Sun closed", None)], ChangeHours(frozenset({6}), opens=600), "no hours for Sun"),
    ([("Mon-Sat", "9am-5pm")], ChangeHours(frozenset({0}), like=frozenset({6})), "no one set of hours"),
    ([("Mon-Fri", "9am-5pm"), ("Mon", "9am-1pm")], ChangeHours(frozenset({0}), closed=True), "two rows"),
    ([("Mon-Fri", "9am-5pm"), ("Sat by appointment", None)], ChangeHours(frozenset({5}), 600, 720), "cannot read"),
    ([("Mon-Sat", "9am-5pm")], ChangeHours(frozenset({5}), closes=480), "not be after the opening"),
]  # fmt: skip


@pytest.mark.parametrize(("rows", "request_", "why"), REFUSED)
def test_hours_it_cannot_place_change_nothing(
    rows: list[tuple[str, str | None]], request_: ChangeHours, why: str
) -> None:
    refused = edit_for(request_, _view(_band(rows)), Context("", {}))
    assert isinstance(refused, Refusal) and why in refused.reason, refused


def test_hours_the_page_already_shows_claim_nothing() -> None:
    refused = edit_for(ChangeHours(frozenset({5}), 540, 1020), _view(_band([("Mon-Sat", "9am-5pm")])), Context("", {}))
    assert isinstance(refused, Refusal) and "already" in refused.reason


def test_hours_stated_in_another_section_are_named_in_the_reply() -> None:
    doc = _band([("Mon-Sat", "8am-6pm")])
    faq = [{"t": "insert_node", "node": {"id": "faq", "type": "section", "parent": None, "order": "X"}},
           {"t": "insert_node", "node": {"id": "faq-heading", "type": "heading", "parent": "faq", "order": "V",
                                         "props": {"content": "FAQ", "level": 2}}},
           {"t": "insert_node", "node": {"id": "faq-answer", "type": "text", "parent": "faq", "order": "X",
                                         "props": {"content": "We are open Mon-Sat 8am-6pm."}}}]  # fmt: skip
    doc, _skipped = reduce_all(doc, faq)
    edit = edit_for(ChangeHours(frozenset({5}), closes=840), _view(doc), Context("", {}))
    assert isinstance(edit, Edit) and "FAQ section also gives hours" in edit.said, edit
    assert all(op.get("id") != "faq-answer" for op in edit.ops)
    sunday = edit_for(ChangeHours(frozenset({6}), 600, 840), _view(doc), Context("", {}))
    assert isinstance(sunday, Edit) and "also" not in sunday.said, sunday
