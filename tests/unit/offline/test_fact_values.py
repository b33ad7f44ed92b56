"""Value changes planned on a real first page: exactly the value, in exactly the places that state it."""

from __future__ import annotations

from typing import Any

from charlotte.offline.edits import Context, Edit, Refusal
from charlotte.offline.intents import read_requests
from charlotte.offline.intents.registry import edit_for
from charlotte.sections.page_view import PageView
from charlotte.sections.writer import plan_page

BRIEF = "Kneadwell is a massage studio in York. The page should have prices, questions and contact."
FACTS: dict[str, Any] = {
    "name": "Kneadwell",
    "phone": "01904 555 0123",
    "prices": "30 min £35; 60 min £55; Group walk (1 hr) £14; Beach bootcamp £10; Cupcakes £24 a dozen",
    "emergencies": "Out-of-hours line: 01904 555 0999",
    "ordering": "Order at least 2 weeks ahead. £20 deposit to book your date.",
    "faq": "Self assessment only: £295",
}


def page() -> PageView:
    plan = plan_page(BRIEF, FACTS)
    return PageView([op["node"] for b in plan.batches for op in b.ops if op.get("t") == "insert_node"])


def changes(message: str) -> list[dict[str, Any]]:
    """The ops each request of ``message`` plans (a refusal's reason for one that is refused)."""
    view, out = page(), []
    for request in read_requests(message):
        edit = edit_for(request, view, Context(BRIEF, FACTS))
        out += list(edit.ops) if isinstance(edit, Edit) else [{"refused": edit.reason}]
    return out


def said(ops: list[dict[str, Any]]) -> dict[str, str]:
    return {op["id"]: next(iter(op["patch"].values())) for op in ops if op.get("t") == "set_node_props"}


def rows_and_answer(ops: dict[str, str]) -> tuple[list[str], str]:
    """The row figures an edit wrote, and the questions band's answer (which lists the prices too)."""
    answer = next((text for node_id, text in ops.items() if node_id.startswith("questions")), "")
    return [text for node_id, text in ops.items() if not node_id.startswith("questions")], answer


def test_a_price_named_by_part_of_its_row_changes_that_row_and_that_part_only() -> None:
    figures, answer = rows_and_answer(said(changes("bootcamp is £12 now")))
    assert figures == ["£12"]
    assert "Beach bootcamp: £12;" in answer and "£10" not in answer and "£14" in answer
    figures, answer = rows_and_answer(said(changes("group walks £15 now")))
    assert figures == ["£15"] and "Group walk (1 hr): £15;" in answer and "£10" in answer


def test_two_prices_in_one_message_change_their_two_rows() -> None:
    ops = [op for op in changes("60 min is £58 now and 30 min is £40") if "questions" not in op["id"]]
    assert sorted(said(ops).values()) == ["£40", "£58"]


def test_what_a_price_is_for_stays_and_must_be_what_the_row_says() -> None:
    assert list(said(changes("Cupcakes are £26 a dozen now")).values()) == ["£26 a dozen"]
    [refused] = changes("Cupcakes are £26 a box now")
    assert "per box" in refused["refused"]


def test_a_price_inside_a_sentence_changes_in_that_sentence() -> None:
    [text] = said(changes("the deposit is £25")).values()
    assert text == "Order at least 2 weeks ahead. £25 deposit to book your date."


def test_an_old_price_that_is_not_shown_or_an_unknown_item_changes_nothing() -> None:
    assert "not £9" in changes("bootcamp is £12 now, not £9")[0]["refused"]
    assert "no price" in changes("yoga is £12 now")[0]["refused"]
    # "min" names three rows with different prices: which one is not guessed.
    assert "more than one price" in changes("min is £12 now")[0]["refused"]


def test_a_new_phone_number_leaves_another_number_the_page_shows() -> None:
    ops = said(changes("our phone number is 01904 555 0177 now"))
    shown = [n for n in page().nodes if "0999" in str(n.get("props"))]
    assert shown and ops and not {str(n["id"]) for n in shown} & set(ops)
    assert all("0177" in text or text == "Call us" for text in ops.values())


VENUE_BRIEF = "Second Chapter is a bookshop in Hay-on-Wye. The page should have events, areas and contact."
VENUE: dict[str, Any] = {
    "name": "Second Chapter",
    "events": "Poetry night - first Thursday of the month, 7pm; Story time - Saturdays 10:30am",
    "areas": "Bristol, Bath and the Cotswolds",
    "catering": "Parties and work dos. Minimum 40 guests.",
    "instagram": "@secondchapter",
}


def venue(message: str) -> list[dict[str, Any]]:
    plan = plan_page(VENUE_BRIEF, VENUE)
    ops = [op for b in plan.batches for op in b.ops]
    gone = {op["id"] for op in ops if op.get("t") == "remove_node"}
    # The page as written: a "Follow us" handle made a link is the link alone.
    view = PageView([op["node"] for op in ops if op.get("t") == "insert_node" and op["node"]["id"] not in gone])
    out: list[dict[str, Any]] = []
    for request in read_requests(message):
        edit = edit_for(request, view, Context(VENUE_BRIEF, VENUE))
        out += list(edit.ops) if isinstance(edit, Edit) else [{"refused": edit.reason}]
    return out


def test_a_stated_value_changes_in_the_one_place_its_words_name() -> None:
    assert list(said(venue("Poetry night has moved to 7:30pm")).values()) == ["7:30pm"]
    assert list(said(venue("change the catering minimum to 30 guests")).values()) == [
        "Parties and work dos. Minimum 30 guests."
    ]
    assert list(said(venue("change instagram to @second.chapter")).values()) == ["@second.chapter"]
    # The handle links to its profile: the address follows it.
    (op,) = venue("change instagram to @second.chapter")
    assert op["patch"] == {"content": "@second.chapter", "href": "https://www.instagram.com/second.chapter"}


def test_a_value_whose_place_is_not_named_or_not_single_changes_nothing() -> None:
    assert "no value like 8pm" in venue("quiz night has moved to 8pm")[0]["refused"]
    assert "more than one" in venue("the event has moved to 8pm")[0]["refused"]


def test_names_added_to_a_list_go_at_its_end_in_its_own_words() -> None:
    assert list(said(venue("add Portishead and Frome to the areas we cover")).values()) == [
        "Bristol, Bath, the Cotswolds, Portishead and Frome"
    ]
    assert "already names Bath" in venue("add Bath to the areas")[0]["refused"]


def test_price_rows_named_by_their_words_are_removed_and_never_the_whole_list() -> None:
    dental = {"name": "Smile", "prices": "NHS Band 1 £26.80; NHS Band 2 £73.50; Private check-up £55"}
    plan = plan_page("Smile is a dental practice. The page should have prices.", dental)
    ops = [op for b in plan.batches for op in b.ops]
    gone = {op["id"] for op in ops if op.get("t") == "remove_node"}
    # The page as written: a "Follow us" handle made a link is the link alone.
    view = PageView([op["node"] for op in ops if op.get("t") == "insert_node" and op["node"]["id"] not in gone])
    [request] = read_requests("Please take the NHS fees off")
    edit = edit_for(request, view, Context("", dental))
    assert isinstance(edit, Edit)
    removed = {op["id"] for op in edit.ops}
    assert all(op["t"] == "remove_node" for op in edit.ops) and len(removed) == 2
    kept = [view.words(n) for n in view.nodes if n.get("parent") not in removed and view.words(n)]
    assert "£55" in kept and "£26.80" not in " ".join(kept)
    only = {"name": "Smile", "prices": "NHS Band 1 £26.80; NHS Band 2 £73.50"}
    plan = plan_page("Smile is a dental practice. The page should have prices.", only)
    ops = [op for b in plan.batches for op in b.ops]
    gone = {op["id"] for op in ops if op.get("t") == "remove_node"}
    # The page as written: a "Follow us" handle made a link is the link alone.
    view = PageView([op["node"] for op in ops if op.get("t") == "insert_node" and op["node"]["id"] not in gone])
    refused = edit_for(request, view, Context("", only))
    assert isinstance(refused, Refusal) and "whole list" in refused.reason


def test_a_place_on_a_day_changes_that_day_only_and_never_a_row_of_two_days() -> None:
    van = {"name": "Bun Bus", "schedule": "Tue - UEA campus; Wed - Norwich Market; Fri & Sat - Brewery"}
    plan = plan_page("Bun Bus is a burger van in Norwich. The page should have the schedule.", van)
    ops = [op for b in plan.batches for op in b.ops]
    gone = {op["id"] for op in ops if op.get("t") == "remove_node"}
    # The page as written: a "Follow us" handle made a link is the link alone.
    view = PageView([op["node"] for op in ops if op.get("t") == "insert_node" and op["node"]["id"] not in gone])

    def plan_of(message: str) -> Edit | Refusal:
        [request] = read_requests(message)
        return edit_for(request, view, Context("", van))

    edit = plan_of("We don't park at UEA on Tuesdays any more, Tuesdays we're at Eaton Park now")
    assert isinstance(edit, Edit) and list(said(list(edit.ops)).values()) == ["Tue - Eaton Park"]
    for message, why in [("Fridays we're at the Forum", "other days"),
                         ("We don't park at the quay on Tuesdays any more, Tuesdays we're at the Forum", "not the quay"),
                         ("Mondays we're at the Forum", "no row")]:  # fmt: skip
        refused = plan_of(message)
        assert isinstance(refused, Refusal) and why in refused.reason, (message, refused)
