"""The page's colours as its nodes wear them: the accent found, and only its wearers recoloured."""

from __future__ import annotations

from typing import Any

from charlotte.offline.looks import Restyle, look_ops
from charlotte.offline.paint import accent_of

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
