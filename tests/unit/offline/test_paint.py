"""The page's colours as its nodes wear them: the accent found, and only its wearers recoloured."""

from __future__ import annotations

from typing import Any

from charlotte.offline.looks import Restyle, look_ops
from charlotte.offline.paint import accent_of
from charlotte.sections.colours import NAMED_COLOURS, contrast

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
