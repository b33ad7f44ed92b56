"""A shorter page that loses nothing: only what the page says twice is taken out, and said once."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from charlotte.offline.edits import Context, Edit, Refusal
from charlotte.offline.intents import edit_for
from charlotte.offline.repeats import _meaning, said_twice
from charlotte.offline.requests import PageLength
from charlotte.sections.page_view import PageView


def _n(node_id: str, kind: str, parent: str | None, words: str = "") -> dict[str, Any]:
    props = {"content": words} if words else {}
    return {"id": node_id, "type": kind, "parent": parent, "props": props}


def _faq(*answers: str) -> list[dict[str, Any]]:
    nodes = [_n("faq", "section", None), _n("faq-h", "heading", "faq", "Questions"), _n("faq-list", "box", "faq")]
    for k, answer in enumerate(answers, 1):
        nodes += [_n(f"faq-q{k}", "box", "faq-list"), _n(f"faq-q{k}-q", "heading", f"faq-q{k}", "What do you ask?"),
                  _n(f"faq-q{k}-a", "text", f"faq-q{k}", answer)]  # fmt: skip
    return nodes


HERO = [_n("hero", "section", None), _n("hero-h", "heading", "hero", "Crumb"),
        _n("hero-t", "text", "hero", "A bakery in Leeds. Call 0113 496 0321.")]  # fmt: skip
MENU = [_n("menu", "section", None), _n("menu-h", "heading", "menu", "Menu"),
        _n("menu-1", "text", "menu", "Sourdough £4.50"), _n("menu-2", "text", "menu", "Cinnamon bun £2.80")]  # fmt: skip
ABOUT = [_n("about", "section", None), _n("about-h", "heading", "about", "About us"),
         _n("about-t", "text", "about", "A family bakery in Leeds. Sourdough and cinnamon buns. We also cater weddings.")]  # fmt: skip
CONTACT = [_n("contact", "section", None), _n("contact-h", "heading", "contact", "Contact"),
           _n("contact-phone", "text", "contact", "0113 496 0321"), _n("contact-mail", "text", "contact", "hi@crumb.test")]  # fmt: skip
FAQ = _faq("Tue-Sat 8am-4pm.", "Call 0113 496 0321 or write to hi@crumb.test.", "Sourdough £4.50; Cinnamon bun £2.80.",
           "Call-out £48.")  # fmt: skip
PAGE = [*HERO, *MENU, *ABOUT, *FAQ, *CONTACT]


def _after(nodes: Sequence[dict[str, Any]], ops: Sequence[dict[str, Any]]) -> PageView:
    """The page with ``ops`` (removals and new words) applied."""
    gone = {op["id"] for op in ops if op["t"] == "remove_node"}
    words = {op["id"]: op["patch"]["content"] for op in ops if op["t"] == "set_node_props"}
    kept = [n for n in nodes if n["id"] not in gone and n["parent"] not in gone]
    return PageView([{**n, "props": {"content": words[n["id"]]}} if n["id"] in words else n for n in kept])


def _said(page: PageView) -> set[str]:
    return {w for n in page.nodes for w in _meaning(page.words(n))}


def test_what_the_page_says_twice_goes_and_every_fact_stays() -> None:
    page = PageView(PAGE)
    trim = said_twice(page, page.roots)
    after = _after(PAGE, trim.ops)

    # The phone/e-mail and the menu answers repeat the contact and the menu; the first question,
    # a new fact (£48) and a new sentence ("We also cater weddings") stay; the hero is never cut.
    assert {op["id"] for op in trim.ops if op["t"] == "remove_node"} == {"faq-q2", "faq-q3"}
    assert after.words(after.by_id["about-t"]) == "A family bakery in Leeds. We also cater weddings."
    assert after.words(after.by_id["hero-t"]) == "A bakery in Leeds. Call 0113 496 0321."
    assert {"faq-q1", "faq-q4"} <= set(after.by_id)
    assert _said(after) == _said(page)  # nothing the page said is lost
    assert len(" ".join(after.words(n) for n in after.nodes).split()) < len(
        " ".join(page.words(n) for n in page.nodes).split()
    )


def test_two_places_saying_the_same_keep_one_of_them() -> None:
    nodes = [*HERO, *_faq("Ask us.", "Gift vouchers from £20.", "Gift vouchers from £20."), *CONTACT]
    page = PageView(nodes)
    trim = said_twice(page, page.roots)
    assert [op["id"] for op in trim.ops] == ["faq-q2"]
    assert _said(_after(nodes, trim.ops)) == _said(page)


def test_a_shorter_faq_touches_the_faq_alone_and_nothing_said_twice_asks_which_section() -> None:
    page = PageView(PAGE)
    context = Context("Crumb is a bakery in Leeds.", {"name": "Crumb"})
    edit = edit_for(PageLength(False, "faq"), page, context)
    assert isinstance(edit, Edit) and "Questions section shorter" in edit.said
    assert {op["id"] for op in edit.ops} == {"faq-q2", "faq-q3"}

    story = [_n("story", "section", None), _n("story-h", "heading", "story", "Our story"),
             _n("story-t", "text", "story", "Started by two sisters. Still baking at dawn.")]  # fmt: skip
    plain = PageView([*HERO, *MENU, *story, *CONTACT])
    asked = edit_for(PageLength(False), plain, context)
    assert isinstance(asked, Refusal) and "says nothing twice" in asked.reason
    assert "Which section should go: the Menu or the Our story section?" in asked.reason
    refused = edit_for(PageLength(False, "menu"), plain, context)
    assert isinstance(refused, Refusal) and "cut nothing" in refused.reason
