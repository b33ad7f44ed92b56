"""Content the person gives, added through a real Charlotte: an item like the list's others, a quote
verbatim, a contact fact the page has shown in one more band; nothing else changed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.unit.offline.follow_up_app import Follow, Turn
from tests.unit.offline.test_follow_up_precision import (
    changed_nodes,
    draft,
    not_done,
    ready_with_only,
)

from charlotte.offline.edits import Context, Edit
from charlotte.offline.intents import read_requests
from charlotte.offline.intents.registry import edit_for
from charlotte.sections.page_view import PageView
from charlotte.sections.writer import plan_page

BRIEF = (
    "Fresh Start Cleaning - domestic cleaning in Leicester. Regular cleans, deep cleans, oven cleaning. "
    "Please include services, areas we cover, the team, where to find us and contact."
)
FACTS = {
    "name": "Fresh Start Cleaning",
    "phone": "0116 496 0594",
    "email": "bookings@freshstart.test",
    "address": "4 Granby Street, Leicester LE1 6EJ",
    "areas": "Leicester city\nOadby\nWigston",
    "team": "Ailsa - deep cleans; Ryan - ovens",
}


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Follow]:
    made = Follow(Path(tmp_path_factory.mktemp("additions")) / "additions.db")
    yield made
    made.close()


def texts(turn: Turn, ids: set[str]) -> list[str]:
    return [str(turn.nodes[i]["props"].get("content", "")) for i in sorted(ids) if turn.nodes[i]["props"]]


def test_names_are_added_to_the_areas_as_rows_like_the_others(app: Follow) -> None:
    session = app.open(FACTS, BRIEF)
    before = draft(session)

    turn = session.turn("add Syston and Anstey to the areas")

    ready_with_only(turn)
    added = set(turn.nodes) - set(before)
    assert changed_nodes(before, turn) == added and len(added) == 4
    assert sorted(texts(turn, added)) == ["Anstey", "Syston"]
    rows = [n for n in turn.under("areas") if n["id"] in added and n["type"] == "stack"]
    old = next(n for n in turn.under("areas") if n["id"] == "areas-row-1")
    assert all(r["style"] == old["style"] and r["parent"] == old["parent"] for r in rows)
    assert turn.words("areas")[-2:] == ["Syston", "Anstey"]

    again = session.turn("add Oadby to the areas")
    not_done(again, turn.nodes)
    assert "already names Oadby" in again.reply


def test_a_team_member_gets_the_role_said_of_them_in_the_lists_own_form(app: Follow) -> None:
    session = app.open(FACTS, BRIEF)
    before = draft(session)

    turn = session.turn("add Jess to the team, she does extensions")

    ready_with_only(turn)
    added = set(turn.nodes) - set(before)
    assert changed_nodes(before, turn) == added
    assert texts(turn, added) == ["Jess - extensions"]
    assert all(n in turn.under("team") for n in (turn.nodes[i] for i in added))


def test_a_quote_given_is_shown_verbatim_in_a_new_testimonials_section(app: Follow) -> None:
    session = app.open(FACTS, BRIEF)
    before = draft(session)

    turn = session.turn("add a section for reviews. here's one: 'Sparkling, every single time' - Priya, Oadby")

    ready_with_only(turn)
    added = set(turn.nodes) - set(before)
    assert changed_nodes(before, turn) <= added | {r for r in before if before[r]["parent"] is None}
    words = texts(turn, added)
    assert "\u201cSparkling, every single time\u201d" in words and "Priya, Oadby" in words
    assert not any("here's" in w or "'" in w for w in words)

    more = session.turn('here\'s a review: "On time and so thorough" - Dev')
    ready_with_only(more)
    new = set(more.nodes) - set(turn.nodes)
    assert changed_nodes(turn.nodes, more) == new
    assert sorted(texts(more, new)) == ["Dev", "\u201cOn time and so thorough\u201d"]


def test_a_testimonials_section_with_no_quote_given_is_still_refused(app: Follow) -> None:
    session = app.open(FACTS, BRIEF)
    before = draft(session)
    turn = session.turn("here's one: 'great' - Tina")
    not_done(turn, before)


def test_the_email_the_page_shows_goes_into_the_band_named(app: Follow) -> None:
    session = app.open(FACTS, BRIEF)
    session.turn("update the email to hello@freshstart.test")
    before = draft(session)

    turn = session.turn("add our email to the find us section")

    ready_with_only(turn)
    added = set(turn.nodes) - set(before)
    assert changed_nodes(before, turn) == added and len(added) == 1
    [node] = [turn.nodes[i] for i in added]
    assert node["props"] == {"content": "hello@freshstart.test", "href": "mailto:hello@freshstart.test"}
    assert node["parent"] == "find-us"
    again = session.turn("add our email to the find us section")
    not_done(again, turn.nodes)


def test_an_faq_answers_only_what_the_facts_answer_and_says_which_asked_it_cannot(app: Follow) -> None:
    session = app.open(FACTS, BRIEF)
    before = draft(session)

    turn = session.turn("add a FAQ (what space do you need, do you bring music etc)")

    ready_with_only(turn)
    assert '"what space do you need" or "do you bring music"' in turn.reply
    added: dict[str, Any] = {i: turn.nodes[i] for i in set(turn.nodes) - set(before)}
    questions = [n["props"]["content"] for n in added.values() if n["type"] == "heading" and n["props"].get("level") == 3]
    assert questions and not any("music" in q or "space" in q for q in questions)


MASSAGE_BRIEF = "Kneadwell is a massage studio in Cardiff. The page should have treatments, areas and contact."
MASSAGE_FACTS = {
    "name": "Kneadwell",
    "phone": "07700 900 401",
    "treatments": "Sports massage; Deep tissue massage; Pregnancy massage",
}


def planned(message: str, facts: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """The ops ``message`` plans on the massage studio's first page (a refusal's reason instead)."""
    table = facts or MASSAGE_FACTS
    plan = plan_page(MASSAGE_BRIEF, table)
    view = PageView([op["node"] for b in plan.batches for op in b.ops if op.get("t") == "insert_node"])
    out: list[dict[str, Any]] = []
    for request in read_requests(message):
        edit = edit_for(request, view, Context(MASSAGE_BRIEF, table))
        out += list(edit.ops) if isinstance(edit, Edit) else [{"refused": edit.reason}]
    return out


def inserted(ops: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(op["node"]["type"], op["node"].get("props", {}).get("content", "")) for op in ops if "node" in op]


def test_an_offering_gets_its_note_under_its_name_never_in_it() -> None:
    ops = planned("Add hot stone massage to the treatments list, it's from the second trimester")
    assert inserted(ops) == [("card", ""), ("heading", "Hot stone massage"), ("text", "from the second trimester")]
    assert all(op["t"] == "insert_node" and op["node"]["id"].startswith("services-item-4") for op in ops)


def test_an_offering_already_listed_is_never_listed_twice_but_may_get_its_note() -> None:
    [op] = planned("Add pregnancy massage to the treatments list, it's from the second trimester")
    assert op["node"]["parent"] == "services-item-3" and op["node"]["props"] == {"content": "from the second trimester"}
    assert "already names sports massage" in planned("add sports massage to the treatments")[0]["refused"]


def test_a_list_in_one_text_gets_the_name_and_its_note_in_its_own_separator() -> None:
    facts = {**MASSAGE_FACTS, "areas": "Cardiff, Penarth and Barry"}
    [op] = planned("We're adding Caerphilly from March - please add it to the areas", facts)
    assert next(iter(op["patch"].values())) == "Cardiff, Penarth, Barry and Caerphilly (from March)"
