"""A class moved to another day: phrasings read exactly, and the one row it names renamed (and kept in day order)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.unit.offline.intent_table import Refused, check

from charlotte.offline.edits import Context, Edit, Refusal
from charlotte.offline.intents import edit_for
from charlotte.offline.requests import ChangeValue, MoveToDay, Request
from charlotte.page.model import empty_doc
from charlotte.page.ops import reduce_all
from charlotte.sections.page_view import PageView

ROWS: list[tuple[str, list[Request] | Refused]] = [
    ("we've moved the Wednesday yin class to Thursday", [MoveToDay(2, 3, ("yin",))]),
    ("move the Wednesday yin class to Thursday", [MoveToDay(2, 3, ("yin",))]),
    ("Move the Saturday beginners class to Tuesday please", [MoveToDay(5, 1, ("beginners",))]),
    ("the yin class has moved to Thursday", [MoveToDay(None, 3, ("yin",))]),
    ("we've moved the Monday session to Fridays", [MoveToDay(0, 4, ())]),
    # A time is another intent's; two days, or nothing naming the class, is refused.
    ("Poetry night has moved to 7:30pm", [ChangeValue("7:30pm", "time", ("poetry", "night"))]),
    ("we've moved the Wednesday and Friday yin classes to Thursday", Refused("which one class")),
    ("we've moved the class to Thursday", Refused("which one class")),
]  # fmt: skip


@pytest.mark.parametrize(("message", "expected"), ROWS, ids=[m for m, _ in ROWS])
def test_moves_to_a_day_are_read_exactly(message: str, expected: list[Request] | Refused) -> None:
    check(message, expected)


TIMETABLE = [("Mon", "6pm Hatha"), ("Wed", "7pm Yin"), ("Sat", "9:30am Beginners"), ("Sun", "10am Slow flow")]


def _doc(rows: list[tuple[str, str]]) -> dict[str, Any]:
    ops: list[dict[str, Any]] = [
        {"t": "insert_node", "node": {"id": "hero", "type": "section", "parent": None, "order": "F"}},
        {"t": "insert_node", "node": {"id": "hero-title", "type": "heading", "parent": "hero", "order": "V",
                                      "props": {"content": "The Yoga Loft", "level": 1}}},
        {"t": "insert_node", "node": {"id": "timetable", "type": "section", "parent": None, "order": "V"}},
        {"t": "insert_node", "node": {"id": "timetable-list", "type": "stack", "parent": "timetable", "order": "V"}},
    ]  # fmt: skip
    for n, (name, figure) in enumerate(rows, 1):
        row = f"timetable-row-{n}"
        ops += [
            {"t": "insert_node", "node": {"id": row, "type": "stack", "parent": "timetable-list", "order": "V" * n}},
            {"t": "insert_node", "node": {"id": f"{row}-name", "type": "text", "parent": row, "order": "V",
                                          "props": {"content": name}}},
            {"t": "insert_node", "node": {"id": f"{row}-figure", "type": "text", "parent": row, "order": "VV",
                                          "props": {"content": figure}}},
        ]  # fmt: skip
    doc, skipped = reduce_all(empty_doc("p"), ops)
    assert not skipped
    return doc


def _view(doc: dict[str, Any]) -> PageView:
    out: list[dict[str, Any]] = []

    def walk(parent: str | None) -> None:
        kids = sorted((n for n in doc["nodes"].values() if n.get("parent") == parent), key=lambda n: n["order"])
        for node in kids:
            out.append(node)
            walk(node["id"])

    walk(None)
    return PageView(out)


def _rows(doc: dict[str, Any]) -> list[str]:
    view = _view(doc)
    rows = [n for n in view.nodes if n.get("parent") == "timetable-list"]
    return [" ".join(view.words(k) for k in view.nodes if k.get("parent") == r["id"]) for r in rows]


@pytest.mark.parametrize(
    ("request_", "expected"),
    [
        (MoveToDay(2, 3, ("yin",)), ["Mon 6pm Hatha", "Thu 7pm Yin", "Sat 9:30am Beginners", "Sun 10am Slow flow"]),
        (MoveToDay(None, 3, ("yin",)), ["Mon 6pm Hatha", "Thu 7pm Yin", "Sat 9:30am Beginners", "Sun 10am Slow flow"]),
        # Out of day order after the move: the row moves to its place, no other row changes.
        (MoveToDay(5, 1, ("beginners",)), ["Mon 6pm Hatha", "Tue 9:30am Beginners", "Wed 7pm Yin", "Sun 10am Slow flow"]),
    ],
)
def test_the_one_row_named_takes_the_new_day(request_: MoveToDay, expected: list[str]) -> None:
    doc = _doc(TIMETABLE)
    edit = edit_for(request_, _view(doc), Context("", {}))
    assert isinstance(edit, Edit), edit
    after, skipped = reduce_all(doc, list(edit.ops))
    assert not skipped and _rows(after) == expected


@pytest.mark.parametrize(
    ("request_", "why"),
    [
        (MoveToDay(2, 3, ("hatha",)), "no row for Wed hatha"),  # the Wednesday class is yin
        (MoveToDay(None, 3, ("contact",)), "no row"),
        (MoveToDay(2, 3, ("yin",)), "more than one row for Wed yin"),  # two Wednesday yin classes
    ],
)
def test_a_row_it_cannot_tell_is_not_moved(request_: MoveToDay, why: str) -> None:
    refused = edit_for(request_, _view(_doc([*TIMETABLE, ("Wed", "8pm Yin")])), Context("", {}))
    assert isinstance(refused, Refusal) and why in refused.reason, refused
