"""Words a restyle leaves hard to read take their legible shade; nothing else moves."""

from __future__ import annotations

from typing import Any

from charlotte.offline.looks import Restyle, look_ops
from charlotte.sections.colours import contrast, legible, legible_words, word_grounds


def node(id: str, parent: str | None, **base: str) -> dict[str, Any]:
    return {"id": id, "type": "text", "parent": parent, "props": {}, "style": {"base": dict(base)}}


def test_words_on_a_dark_band_are_lightened_to_four_and_a_half() -> None:
    nodes = [
        node("contact", None, background="#1f2937"),
        node("label", "contact", color="#0e7490"),
        node("button", "contact", color="#ffffff", background="#0e7490"),  # its own ground
    ]
    changed = legible_words(nodes)

    assert set(changed) == {"label"}
    assert contrast(changed["label"], "#1f2937") >= 4.5
    assert word_grounds(nodes) == {"label": ("#0e7490", "#1f2937")}


def test_a_dark_restyle_moves_the_words_it_leaves_on_a_new_ground() -> None:
    nodes = [
        node("hero", None, background="#ffffff", color="#111827"),
        node("label", "hero", color="#0e7490"),
    ]
    ops, _said = look_ops(Restyle("background", "#1f2937"), nodes)
    label = [op for op in ops if op["id"] == "label" and "color" in op["patch"]]

    assert label and contrast(label[-1]["patch"]["color"], "#1f2937") >= 4.5
    assert [op["id"] for op in ops if "color" in op["patch"]] == ["hero", "label"]


def test_an_accent_the_person_gave_stays_as_given() -> None:
    nodes = [
        node("hero", None, background="#ffffff"),
        {"id": "cta", "type": "button", "parent": "hero", "props": {}, "style": {"base": {"background": "#0e7490"}}},
        node("link", "hero", color="#0e7490"),
    ]
    ops, _said = look_ops(Restyle("accent", "#22aa77"), nodes)
    assert {op["patch"].get("color") for op in ops if op["id"] == "link"} <= {"#22aa77", None}


def test_a_saturated_accent_on_navy_pales_until_it_reads() -> None:
    # The law firm's orange labels on its navy contact band stopped at 4.2:1: value alone
    # cannot lift a saturated orange that far, so its saturation has to give too.
    shade = legible("#a3452a", "#1e3a8a")

    assert contrast(shade, "#1e3a8a") >= 4.5
    assert shade not in {"#ffffff", "#000000"}  # still an orange, not the end of the scale


def test_every_colour_reaches_the_ratio_on_every_ground() -> None:
    grounds = [f"#{g:02x}{g:02x}{g:02x}" for g in range(0, 256, 15)] + ["#1e3a8a", "#7c2d12", "#0e7490"]
    words = ["#ff0000", "#ff815d", "#a3452a", "#ffff00", "#00ff00", "#0000ff", "#7f7f7f", "#123456"]
    for ground in grounds:
        for colour in words:
            assert contrast(legible(colour, ground), ground) >= 4.5, (colour, ground)
