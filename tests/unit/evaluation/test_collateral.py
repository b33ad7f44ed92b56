"""Collateral edits: what a turn touched beyond what it asked for, read from two drafts."""

from __future__ import annotations

import copy
from typing import Any

from charlotte.evaluation.collateral import collateral, touched
from charlotte.offline.looks import Restyle, look_ops, read_looks


def _doc() -> dict[str, Any]:
    nodes: dict[str, Any] = {}

    def node(id: str, parent: str | None, order: str, type: str = "section", **props: Any) -> None:
        nodes[id] = {"id": id, "type": type, "parent": parent, "order": order, "props": props,
                     "style": {"base": {"background": "#ffffff"}} if parent is None else {}}  # fmt: skip

    node("hero", None, "a")
    node("hero-heading", "hero", "a", "heading", content="Rose Bakery", level=1)
    node("hero-call", "hero", "b", "button", label="01603 555 0123", href="tel:+441603555013")
    node("menu", None, "b")
    node("menu-heading", "menu", "a", "heading", content="Menu", level=2)
    node("contact", None, "c")
    node("contact-heading", "contact", "a", "heading", content="Contact", level=2)
    node("contact-phone", "contact", "b", "text", content="01603 555 0123")
    return {"nodes": nodes, "meta": {}}


def test_a_new_order_key_that_keeps_a_nodes_place_is_no_change() -> None:
    before = _doc()
    after = copy.deepcopy(before)
    after["nodes"]["contact"]["order"] = "cc"  # re-keyed, still last
    assert touched(before, after) == set()
    after["nodes"]["contact"]["order"] = "0"  # moved to the top
    assert touched(before, after) == {"contact"}


def test_a_heading_set_in_the_hero_touches_nothing_beyond_it() -> None:
    before = _doc()
    after = copy.deepcopy(before)
    after["nodes"]["hero-heading"]["props"]["content"] = "Handmade in Leeds"
    asked = [{"text_contains": {"within": "hero", "type": "heading", "words": ["Handmade"]}}]
    assert collateral(asked, before, after) == ()
    after["nodes"]["menu-heading"]["props"]["content"] = "Our menu"
    assert collateral(asked, before, after) == ("menu-heading",)


def test_a_phone_changed_may_touch_every_place_that_shows_it() -> None:
    before = _doc()
    after = copy.deepcopy(before)
    after["nodes"]["hero-call"]["props"].update(label="01603 555 0177", href="tel:+441603555017")
    after["nodes"]["contact-phone"]["props"]["content"] = "01603 555 0177"
    asked = [{"fact": {"phone": "01603 555 0177"}}]
    assert collateral(asked, before, after) == ()
    after["nodes"]["menu"]["style"] = {"base": {"background": "#000000"}}
    assert collateral(asked, before, after) == ("menu",)


def test_a_restyle_of_one_band_is_scoped_to_it_and_of_the_page_to_all() -> None:
    before = _doc()
    after = copy.deepcopy(before)
    for root in ("hero", "contact"):
        after["nodes"][root]["style"] = {"base": {"background": "#1e3a8a"}}
    assert collateral([{"theme": {"hue": "blue", "within": "hero"}}], before, after) == ("contact",)
    assert collateral([{"theme": {"dark": True}}], before, after) == ()


def test_a_shorter_page_is_scoped_to_the_page_and_a_shorter_band_to_the_band() -> None:
    before = _doc()
    after = copy.deepcopy(before)
    del after["nodes"]["menu-heading"]
    asked = [{"fact": {"phone": "01603 555 0123"}}]
    assert collateral([{"shorter": {}}, *asked], before, after) == ()
    assert collateral([{"shorter": {"within": "contact"}}, *asked], before, after) == ("menu-heading",)
    assert collateral(asked, before, after) == ("menu-heading",)


def test_unscoped_predicates_are_not_judged_and_an_unsupported_request_may_touch_nothing() -> None:
    before = _doc()
    after = copy.deepcopy(before)
    after["nodes"]["menu-heading"]["props"]["content"] = "Our menu"
    assert collateral([{"unchanged": False}, {"ready": True}], before, after) is None
    assert collateral([{"unchanged": True}], before, after, supported=False) == ("menu-heading",)


def test_the_hero_background_changes_the_hero_alone() -> None:
    # "Make the hero background navy blue" turned every band navy before.
    looks = read_looks("make the hero background navy blue")
    assert looks == [Restyle("background", "#1e3a8a", "hero")]
    before = _doc()
    nodes = list(before["nodes"].values())
    ops, said = look_ops(looks[0], nodes)
    assert ops and {op["id"] for op in ops} <= {"hero", "hero-heading", "hero-call"}
    assert said.startswith("gave the hero")


def test_a_card_added_only_to_hold_the_asked_link_is_in_scope_and_one_holding_more_is_not() -> None:
    before = _doc()
    after = copy.deepcopy(before)
    card = {"id": "contact-facebook-card", "type": "card", "parent": "contact", "order": "c", "props": {}}
    label = {"id": "contact-facebook-label", "type": "text", "parent": card["id"], "order": "a",
             "props": {"content": "Facebook"}}
    link = {"id": "contact-facebook", "type": "link", "parent": card["id"], "order": "b",
            "props": {"content": "facebook.com/rose", "href": "https://facebook.com/rose"}}  # fmt: skip
    after["nodes"].update({n["id"]: n for n in (card, label, link)})
    asked = [{"text_contains": {"type": "link", "words": ["facebook"]}}]
    assert collateral(asked, before, after) == ()
    # A card that also holds words nobody asked for is not only a holder.
    stray = {"id": "contact-stray", "type": "text", "parent": card["id"], "order": "c", "props": {"content": "Hi"}}
    after["nodes"][stray["id"]] = stray
    assert collateral(asked, before, after) == ("contact-facebook-card", "contact-stray")


def test_words_asked_to_go_scope_the_nodes_that_said_them() -> None:
    before = _doc()
    after = copy.deepcopy(before)
    after["nodes"]["contact-phone"]["props"]["content"] = "01603 555 0177"
    asked = [{"text_absent": {"words": ["01603 555 0123"]}}]
    # The button said it too (as its label) and is left: only what changed is judged.
    assert collateral(asked, before, after) == ()
    after["nodes"]["menu-heading"]["props"]["content"] = "Our menu"
    assert collateral(asked, before, after) == ("menu-heading",)


def test_a_band_taken_off_with_the_only_value_it_showed_is_in_scope_with_its_heading() -> None:
    before = _doc()
    after = copy.deepcopy(before)
    for node_id in ("contact", "contact-heading", "contact-phone"):
        del after["nodes"][node_id]
    asked = [{"text_absent": {"words": ["01603 555 0123"]}}]
    assert collateral(asked, before, after) == ()
    # The menu band holds words nobody asked to go: taking it off is collateral.
    for node_id in ("menu", "menu-heading"):
        del after["nodes"][node_id]
    assert collateral(asked, before, after) == ("menu", "menu-heading")


def test_the_box_of_a_new_list_item_saying_the_words_asked_for_is_in_scope() -> None:
    before = _doc()
    after = copy.deepcopy(before)
    after["nodes"]["menu-row"] = {"id": "menu-row", "type": "stack", "parent": "menu", "order": "b",
                                  "props": {}, "style": {}}  # fmt: skip
    after["nodes"]["menu-row-name"] = {"id": "menu-row-name", "type": "text", "parent": "menu-row",
                                       "order": "a", "props": {"content": "Rye loaf"}, "style": {}}  # fmt: skip
    asked = [{"text_contains": {"words": ["Rye loaf"]}}]
    assert collateral(asked, before, after) == ()
    # A box holding anything else the turn added is not the item's: it is collateral.
    after["nodes"]["menu-row-note"] = {"id": "menu-row-note", "type": "text", "parent": "menu-row",
                                       "order": "b", "props": {"content": "Daily"}, "style": {}}  # fmt: skip
    assert collateral(asked, before, after) == ("menu-row", "menu-row-note")
    # An empty box added is collateral too.
    del after["nodes"]["menu-row-note"], after["nodes"]["menu-row-name"]
    assert collateral(asked, before, after) == ("menu-row",)


def _in_greens() -> dict[str, Any]:
    """A page in greens: a green hero, labels in the green accent, a pale green band."""
    doc = _doc()
    nodes = doc["nodes"]
    nodes["hero"]["style"] = {"base": {"background": "#15803d", "color": "#ffffff"}}
    nodes["hero-call"]["style"] = {"base": {"background": "#15803d", "border": "1px solid #15803d"}}
    nodes["menu"]["style"] = {"base": {"background": "#e5faed"}}
    nodes["menu-heading"]["style"] = {"base": {"color": "#15803d"}}
    nodes["contact-phone"]["style"] = {"base": {"color": "#15803d"}}
    return doc


def test_the_pages_colour_changed_may_change_it_wherever_the_page_wears_it() -> None:
    # "Use blue instead" on a page in greens: the accent's words and the tinted band go blue too.
    before = _in_greens()
    after = copy.deepcopy(before)
    nodes = after["nodes"]
    nodes["hero"]["style"]["base"]["background"] = "#2563eb"
    nodes["hero-call"]["style"]["base"].update(background="#2563eb", border="1px solid #2563eb")
    nodes["menu"]["style"]["base"]["background"] = "#f2f6fe"
    nodes["menu-heading"]["style"]["base"]["color"] = "#2563eb"
    asked = [{"theme": {"hue": "blue", "within": "hero"}}]
    assert collateral(asked, before, after) == ()
    # A colour that is not the asked one, a white band painted, or words changed: collateral.
    red = copy.deepcopy(after)
    red["nodes"]["contact-phone"]["style"]["base"]["color"] = "#dc2626"
    assert collateral(asked, before, red) == ("contact-phone",)
    white = copy.deepcopy(after)
    white["nodes"]["contact"]["style"]["base"]["background"] = "#2563eb"
    assert collateral(asked, before, white) == ("contact",)
    worded = copy.deepcopy(after)
    worded["nodes"]["menu-heading"]["props"]["content"] = "Our menu"
    assert collateral(asked, before, worded) == ("menu-heading",)
    # The section swapped nothing (or not to the asked hue): nothing outside it is the request.
    only_labels = copy.deepcopy(before)
    only_labels["nodes"]["menu-heading"]["style"]["base"]["color"] = "#2563eb"
    assert collateral(asked, before, only_labels) == ("menu-heading",)
    # More of the asked hue ("more purple" on a purple page): a deeper tint of it.
    purple = copy.deepcopy(before)
    purple["nodes"]["menu"]["style"]["base"]["background"] = "#f3eefc"
    deeper = copy.deepcopy(purple)
    deeper["nodes"]["menu"]["style"]["base"]["background"] = "#e0d0fa"
    assert collateral([{"theme": {"hue": "purple", "within": "hero"}}], purple, deeper) == ()


def _hours(rows: list[tuple[str, str, str | None]]) -> dict[str, Any]:
    """A page whose hours band has a row per (id, days, hours): the days and hours in two texts."""
    doc = _doc()
    nodes = doc["nodes"]
    nodes["hours"] = {"id": "hours", "type": "section", "parent": None, "order": "bb", "props": {}, "style": {}}
    nodes["hours-list"] = {"id": "hours-list", "type": "stack", "parent": "hours", "order": "a", "props": {}}
    for n, (row, days, figure) in enumerate(rows):
        nodes[row] = {"id": row, "type": "stack", "parent": "hours-list", "order": "abcdefgh"[n], "props": {}}
        nodes[f"{row}-name"] = {"id": f"{row}-name", "type": "text", "parent": row, "order": "a",
                                "props": {"content": days}}  # fmt: skip
        if figure is not None:
            nodes[f"{row}-figure"] = {"id": f"{row}-figure", "type": "text", "parent": row, "order": "b",
                                      "props": {"content": figure}}  # fmt: skip
    return doc


def test_hours_said_by_a_row_scope_that_row_and_the_rows_of_those_days() -> None:
    # "We open at 8 on weekdays now": Mon-Sat splits into Mon-Fri (new) and Sat.
    before = _hours([("r1", "Mon-Sat", "8:30-18:00"), ("r2", "Sun closed", None)])
    after = _hours([("r0", "Mon-Fri", "8:00-18:00"), ("r1", "Sat", "8:30-18:00"), ("r2", "Sun closed", None)])
    asked = [{"fact": {"hours": "Mon-Fri 8:00-18:00"}}]
    assert collateral(asked, before, after) == ()
    # The closed Sunday's row is no day of the fact: touching it is collateral.
    after["nodes"]["r2-name"]["props"]["content"] = "Sun 10am-2pm"
    assert collateral(asked, before, after) == ("r2-name",)


def test_words_that_had_to_go_scope_the_nodes_and_rows_that_said_them() -> None:
    # "Open Mondays too, 10-5": Tue-Sat takes Monday and the "Mon closed" row goes.
    before = _hours([("r1", "Tue-Sat", "10:00-17:00"), ("r2", "Sun", "12:00-16:00"), ("r3", "Mon closed", None)])
    after = _hours([("r1", "Mon-Sat", "10:00-17:00"), ("r2", "Sun", "12:00-16:00")])
    asked = [{"fact": {"hours": "Mon-Sat 10:00-17:00"}}, {"text_absent": {"words": ["Mon closed"]}}]
    assert collateral(asked, before, after) == ()
    # Without the words that had to go, the removed row is collateral.
    assert collateral(asked[:1], before, after) == ("r3", "r3-name")
    # A band saying a fact across its rows does not scope the band: another row stays out.
    after["nodes"]["r2-figure"]["props"]["content"] = "12:00-15:00"
    assert collateral(asked, before, after) == ("r2-figure",)
