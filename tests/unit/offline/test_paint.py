"""The page's colours as its nodes wear them: the accent found, and only its wearers recoloured."""

from __future__ import annotations

from typing import Any

from charlotte.offline.looks import Restyle, look_ops
from charlotte.offline.paint import accent_of, applied
from charlotte.sections.colours import NAMED_COLOURS, NEUTRALS, contrast, hsv, pale, word_grounds

INK, GREEN = "#2b1d14", "#15803d"


def _node(node_id: str, kind: str, parent: str | None, **base: Any) -> dict[str, Any]:
    return {"id": node_id, "type": kind, "parent": parent, "props": {}, "style": {"base": base}}


# A minimal page in greens: the hero's ground and the prices are green, the button wears the ink.
MINIMAL = [
    _node("hero", "section", None, background=GREEN, color="#ffffff"),
    _node("hero-button", "button", "hero", background=INK, color="#ffffff"),
    _node("menu", "section", None, background="#ffffff", color=INK),
    _node("menu-name", "text", "menu", color=INK),
    _node("menu-figure", "text", "menu", color=GREEN),
    _node("contact-email", "button", "menu", color=GREEN),
]


def test_the_accent_is_never_the_ink_of_the_bands() -> None:
    assert accent_of(MINIMAL) == GREEN
    assert accent_of(MINIMAL[:4]) is None  # only ink and white labels: no accent


def test_an_accent_change_touches_only_the_nodes_wearing_the_accent() -> None:
    ops, said = look_ops(Restyle("accent", "#2563eb"), MINIMAL)

    assert {op["id"] for op in ops} == {"hero", "menu-figure", "contact-email"}
    assert all(INK not in str(op["patch"]) for op in ops)
    assert GREEN in said


def test_a_banner_in_a_colour_by_name_is_a_ground_its_words_read_on() -> None:
    # Red and pink sit in the middle of the scale: neither of the page's inks read on them at
    # 4.5:1 (#f3f4f6 on #dc2626 is 4.38:1, under axe's color-contrast), so the ground darkens.
    for name in ("red", "pink", "blue", "orange", "green", "purple", "teal", "yellow"):
        ops, _said = look_ops(Restyle("background", NAMED_COLOURS[name], "hero"), MINIMAL)
        hero = next(op["patch"] for op in ops if op["id"] == "hero")
        assert contrast(hero["color"], hero["background"]) >= 4.5, (name, hero)


# A bold page: a dark hero, an orange accent, a pale orange tinted band and a white one.
ORANGE, TINT = "#c2410c", "#fdf3e7"
BOLD = [
    _node("hero", "section", None, background="#4a2c1d", color="#fff8f0"),
    _node("hero-title", "heading", "hero"),
    _node("hero-button", "button", "hero", background=ORANGE, color="#ffffff"),
    _node("prices", "section", None, background="#ffffff", color=INK),
    _node("prices-figure", "text", "prices", color=ORANGE),
    _node("story", "section", None, background=TINT, color=INK),
    _node("story-text", "text", "story", color=INK),
    _node("contact-email", "button", "story", color=ORANGE),
]


def _hue_gap(a: str, b: str) -> float:
    return abs((hsv(a)[0] - hsv(b)[0] + 0.5) % 1.0 - 0.5)


def _after(nodes: list[dict[str, Any]], ops: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**n, "style": s["style"]} for n, s in zip(nodes, applied(nodes, ops), strict=True)]


def test_the_pages_colour_is_the_hero_the_accent_and_the_tints_every_word_legible() -> None:
    for name in sorted(set(NAMED_COLOURS) - NEUTRALS):
        colour = NAMED_COLOURS[name]
        ops, said = look_ops(Restyle("colour", colour), BOLD)
        after = _after(BOLD, ops)
        by_id = {n["id"]: n["style"]["base"] for n in after}
        assert "page's colour" in said, name
        # Only colours change, and never the white band or the ink of the words.
        assert {k for op in ops for k in op["patch"]} <= {"background", "color", "border"}, name
        assert by_id["prices"] == BOLD[3]["style"]["base"] and by_id["story-text"]["color"] == INK
        assert _hue_gap(by_id["hero"]["background"], colour) < 0.03, name
        # The tinted band a pale shade of it (an orange tint already is a brown's or a gold's).
        assert by_id["story"]["background"] in (pale(colour), TINT), name
        assert _hue_gap(by_id["story"]["background"], colour) < 15 / 360, name
        # The accent's wearers together (an orange accent already is a gold's or a coral's).
        accent = by_id["hero-button"]["background"]
        assert by_id["prices-figure"]["color"] == accent, name
        assert accent != ORANGE or _hue_gap(ORANGE, colour) < 15 / 360, name
        assert contrast(by_id["hero-button"]["background"], "#ffffff") >= 4.5, name
        assert contrast(by_id["hero"]["color"], by_id["hero"]["background"]) >= 4.5, name
        for words, ground in word_grounds(after).values():
            assert contrast(words, ground) >= 4.5, (name, words, ground)


def test_more_of_the_colour_the_page_wears_deepens_its_tints_once() -> None:
    ops, _said = look_ops(Restyle("colour", NAMED_COLOURS["purple"]), BOLD)
    purple = _after(BOLD, ops)

    again, said = look_ops(Restyle("colour", NAMED_COLOURS["purple"]), purple)

    # The tinted band, and the accent's words on it kept at 4.5:1.
    assert "story" in {op["id"] for op in again} <= {"story", "contact-email"}
    assert "deeper shade" in said
    assert look_ops(Restyle("colour", NAMED_COLOURS["purple"]), _after(purple, again))[0] == []
