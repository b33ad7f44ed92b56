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
