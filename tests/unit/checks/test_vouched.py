"""What people vouched for on a page: its texts, their bound, and the checks taking them as evidence."""

from __future__ import annotations

from typing import Any

from charlotte.checks import PageChecks
from charlotte.checks.vouched import (
    VOUCHED_CHARACTERS,
    VOUCHED_TEXTS,
    counted_vouched,
    vouched_texts,
)


def _doc(*texts: str, href: str | None = None) -> dict[str, Any]:
    nodes: dict[str, Any] = {"s": {"id": "s", "type": "section", "parent": None, "order": "V"}}
    for n, text in enumerate(texts):
        nodes[f"t{n}"] = {"id": f"t{n}", "type": "text", "parent": "s", "order": f"V{n}",
                          "props": {"content": text}}  # fmt: skip
    if href is not None:
        nodes["b"] = {"id": "b", "type": "button", "parent": "s", "order": "W",
                      "props": {"label": "Call us", "href": href}}  # fmt: skip
    return {"nodes": nodes}


def test_one_text_per_value_published_first_then_approved_then_edits_newest_first() -> None:
    published = _doc("Loaf £4.50", "Mon-Fri 8:00-17:00", href="tel:01603%205550123")
    approved = [[{"t": "insert_node", "node": {"id": "x", "type": "text", "parent": "s",
                                               "props": {"content": "Cake £3"}}}]]  # fmt: skip
    edits = [
        {"t": "set_node_props", "id": "t0", "patch": {"content": "Bun £1"}},
        {"t": "remove_node", "id": "t1"},
        {"t": "set_meta", "patch": {"title": "Rosa's"}},
    ]
    assert vouched_texts(published, approved, edits) == (
        "Loaf £4.50", "Mon-Fri 8:00-17:00", "Call us", "01603 5550123", "Cake £3", "Rosa's", "Bun £1",
    )  # fmt: skip
    assert vouched_texts(None, [None, "x"], [None, 3, {"t": "insert_node", "node": []}]) == ()


def test_the_count_and_the_characters_are_bounded_and_each_text_counts_once() -> None:
    many = [f"text {n}" for n in range(VOUCHED_TEXTS + 10)]
    assert counted_vouched(many) == tuple(many[:VOUCHED_TEXTS])
    big = "x" * (VOUCHED_CHARACTERS - 5)
    assert counted_vouched([big, "too long", "1234", "1234", " "]) == (big, "1234")


def test_what_people_vouched_for_backs_the_page_like_the_brief() -> None:
    page = _doc("Sourdough £4.50, call 01603 555 0123, Mon-Fri 8:00-17:00")
    assert {f.code for f in PageChecks().run(page, only="facts")} == {
        "unsupported_price", "unsupported_phone", "unsupported_hours",
    }  # fmt: skip
    vouched = vouched_texts(_doc("£4.50", "01603 555 0123", "Mon-Fri 8:00-17:00"), [], [])
    assert PageChecks(vouched=vouched).run(page, only="facts") == []
    # A phone number at the end of one text is not read on into the next one.
    split = vouched_texts(_doc("01603 555", "0123"), [], [])
    assert [f.code for f in PageChecks(vouched=split).run(page, only="facts")] == [
        "unsupported_price", "unsupported_phone", "unsupported_hours",
    ]  # fmt: skip
