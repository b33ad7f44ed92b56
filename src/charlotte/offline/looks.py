"""How the offline builder changes a page's look: the words for it, and the style ops.

A page's look is in its nodes' styles (the bands' backgrounds and colours, the
buttons' accent, the font stacks), so a look change is one ``set_style`` per
node it touches, computed from the page as it is now (a person's own colours
are changed like the builder's). ``read_looks`` reads a clause ("use a warmer
palette", "change the accent colour to green", "use a serif font");
``look_ops`` turns it into ops. Colours by name come from a small table of
hex values and fonts from a table of plain font stacks, so every value passes
the asset policy's inert-CSS check.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from charlotte.offline.paint import (
    accent_ops,
    backgrounds,
    base_of,
    kept_legible,
    page_colour,
    recolour,
    style_of,
)
from charlotte.sections.colours import NAMED_COLOURS as COLOURS
from charlotte.sections.colours import colour_word, tone_of
from charlotte.sections.page_view import PageView
from charlotte.sections.style import CARD_WIDTH, SANS, SERIF, fits

__all__ = ["COLOURS", "FONTS", "HEADING_EM", "Restyle", "colour_of", "look_ops", "read_looks"]

#: Font words → the stack the page gets (longest words first: "sans-serif" before "serif").
FONTS: Final[tuple[tuple[str, str], ...]] = (
    ("sans-serif", SANS), ("sans serif", SANS), ("sans", SANS), ("monospace", "ui-monospace, Menlo, Consolas, monospace"),
    ("mono", "ui-monospace, Menlo, Consolas, monospace"), ("serif", SERIF),
    ("georgia", SERIF), ("times", "Times New Roman, Times, serif"),
    ("garamond", "Garamond, Georgia, serif"), ("palatino", "Palatino, Georgia, serif"),
    ("helvetica", "Helvetica, Arial, sans-serif"), ("arial", "Arial, Helvetica, sans-serif"),
    ("verdana", "Verdana, Geneva, sans-serif"), ("inter", "Inter, system-ui, sans-serif"),
    ("roboto", "Roboto, system-ui, sans-serif"), ("system", SANS),
)  # fmt: skip
_TONES: Final = (
    ("darker", "darker"), ("deeper", "darker"), ("lighter", "lighter"), ("brighter", "lighter"),
    ("warmer", "warmer"), ("warm", "warmer"), ("cosier", "warmer"), ("cosy", "warmer"),
    ("cozier", "warmer"), ("cozy", "warmer"), ("cooler", "cooler"), ("colder", "cooler"), ("cool", "cooler"),
)  # fmt: skip
_SHAPES: Final = (
    ("minimalist", "minimal"), ("minimal", "minimal"), ("simpler", "minimal"), ("plainer", "minimal"),
    ("cleaner", "minimal"), ("bolder", "bold"), ("bold", "bold"), ("punchier", "bold"),
    ("striking", "bold"), ("vibrant", "bold"),
)  # fmt: skip
_COLOUR_WORDS = frozenset(
    {"colour", "color", "colours", "colors", "accent", "button", "buttons", "link", "links", "brand",
     "highlight", "palette", "theme"}
)  # fmt: skip
#: Words that name the whole page ("make it darker", "the site darker").
_WHOLE = frozenset({"it", "page", "site", "website", "everything", "whole"})
#: The em size a browser gives ``<h1>`` … ``<h3>`` (a heading's style is its wrapper's).
HEADING_EM: Final[Mapping[int, float]] = {1: 2.0, 2: 1.5, 3: 1.17}


@dataclass(frozen=True, slots=True)
class Restyle:
    """Change the look: ``aspect`` accent/background/tone/shape/font/height, ``value`` what to."""

    aspect: str
    value: str
    scope: str = "page"


def _words(lower: str) -> list[str]:
    return "".join(c if c.isalnum() or c in "#-" else " " for c in lower).split()


def colour_of(words: Sequence[str]) -> str | None:
    """The first colour ``words`` name (``colours.colour_word``: "pink", "pinker", "#2a7"; no plural), long hex."""
    return next((found[1] for word in words if (found := colour_word(word, plurals=False))), None)


def read_looks(lower: str) -> list[Restyle]:
    """The look changes a lower-case clause asks for, in the order it names them (none: [])."""
    words = _words(lower)
    seen = set(words)
    padded = " " + " ".join(words) + " "
    found: list[tuple[int, Restyle]] = []

    def at(word: str) -> int:
        return padded.find(f" {word} ")

    typeface = {"font", "fonts", "typeface", "typefaces"} & seen
    for name, stack in FONTS:
        if at(name) >= 0 and (typeface or name in ("serif", "sans-serif", "monospace")):
            headings = {"heading", "headings", "headline", "headlines", "titles"} & seen
            found.append((at(name), Restyle("font", stack, "headings" if headings else "page")))
            break
    colour = colour_of(words)
    # "a dark colour scheme", "light theme", "dark mode": the backgrounds, like "a dark background".
    scheme = bool({"scheme", "theme", "mode"} & seen and {"dark", "light"} & seen)
    # "make it darker", "the page darker": the page, not its accent, is to be dark.
    whole = bool(
        {"darker", "dark"} & seen
        and _WHOLE & seen
        and not _COLOUR_WORDS & seen
        and colour is None
        and not {"look", "text", "heading", "headings", "headline", "font"} & seen
    )
    background = "background" in seen or "backgrounds" in seen or scheme or whole
    where = at("background") if at("background") >= 0 else max(at("dark"), at("light"))
    # "the hero background navy": the hero's ground alone, not every band's.
    band = "hero" if {"hero", "banner", "masthead"} & seen and "background" in seen else "page"
    if background and {"dark", "darker", "black", "night"} & seen:
        found.append((where, Restyle("background", "dark", band)))
    elif (
        background
        and {"light", "lighter", "white", "bright"} & seen
        and colour in (None, "#ffffff")
    ):
        found.append((where, Restyle("background", "light", band)))
    elif background and colour is not None:
        found.append((where, Restyle("background", colour, band)))
    elif colour is not None and _COLOUR_WORDS & seen:
        found.append((min(at(w) for w in _COLOUR_WORDS & seen), Restyle("accent", colour)))
    for word, tone in _TONES:
        if word in seen and not (background and tone in ("darker", "lighter")):
            found.append((at(word), Restyle("tone", tone)))
            break
    for word, shape in _SHAPES:
        if word in seen:
            found.append((at(word), Restyle("shape", shape)))
            break
    return [look for _at, look in sorted(found, key=lambda item: item[0])]


def _scaled(length: object, factor: float) -> dict[str, Any] | None:
    if (
        isinstance(length, dict)
        and length.get("unit") == "px"
        and isinstance(length.get("value"), int | float)
    ):
        return {"value": round(float(length["value"]) * factor), "unit": "px"}
    return None


def _sizes(node: Mapping[str, Any], factor: float) -> list[dict[str, Any]]:
    """``set_style`` ops scaling the node's font size at every breakpoint that sets one.

    On a phone (the base size) a heading grows only while its longest word still fits
    a card's width: a bolder look must not push the page sideways.
    """
    props = node.get("props")
    words = str(props.get("content", "")) if isinstance(props, dict) else ""
    level = props.get("level", 2) if isinstance(props, dict) else 2
    em = HEADING_EM.get(level, 1.0) if isinstance(level, int) else 1.0
    ops: list[dict[str, Any]] = []
    for bp, values in style_of(node).items():
        if not isinstance(values, dict) or not (size := _scaled(values.get("fontSize"), factor)):
            continue
        if bp == "base" and not fits(words, CARD_WIDTH, size["value"] * em):
            continue
        patch = {"fontSize": size}
        ops.append({"t": "set_style", "id": node["id"], "breakpoint": bp, "patch": patch})
    return ops


def _shape(nodes: Sequence[Mapping[str, Any]], shape: str) -> list[dict[str, Any]]:
    ops: list[dict[str, Any]] = []
    for node in nodes:
        kind, base = node.get("type"), base_of(node)
        patch: dict[str, Any] = {}
        if shape == "minimal":
            if "boxShadow" in base:
                patch["boxShadow"] = "none"
            if kind in ("card", "button") and "radius" in base:
                patch["radius"] = {"value": 4, "unit": "px"}
            if kind == "heading":
                patch["fontWeight"] = 500
                patch["letterSpacing"] = {"value": 0, "unit": "px"}
        else:
            if kind == "heading":
                patch["fontWeight"] = 800
                # Headings are sized per width (smaller on a phone): each size grows.
                ops += _sizes(node, 1.15)
            if kind == "card":
                patch["boxShadow"] = "0 8px 24px rgba(0, 0, 0, 0.18)"
            if kind == "button":
                patch["fontWeight"] = 700
        if patch:
            ops.append({"t": "set_style", "id": node["id"], "breakpoint": "base", "patch": patch})
    return ops


def _fonts(nodes: Sequence[Mapping[str, Any]], stack: str, scope: str) -> list[dict[str, Any]]:
    ops: list[dict[str, Any]] = []
    for node in nodes:
        if scope == "headings":
            wanted = node.get("type") == "heading"
        else:
            wanted = node.get("parent") is None or "fontFamily" in base_of(node)
        if wanted and base_of(node).get("fontFamily") != stack:
            ops.append(
                {
                    "t": "set_style",
                    "id": node["id"],
                    "breakpoint": "base",
                    "patch": {"fontFamily": stack},
                }
            )
    return ops


#: How much a shorter or a taller hero scales its padding, and the padding it keeps at least.
_HEIGHT: Final[Mapping[str, float]] = {"shorter": 0.55, "taller": 1.5}
_MIN_PAD, _MAX_PAD = 16, 240


def _height(nodes: Sequence[Mapping[str, Any]], value: str) -> list[dict[str, Any]]:
    """``set_style`` ops scaling the hero's padding at every breakpoint that sets one."""
    hero = next((n for n in nodes if n.get("id") == "hero"), None)
    ops: list[dict[str, Any]] = []
    for bp, values in style_of(hero or {}).items():
        size = _scaled(values.get("padding"), _HEIGHT[value]) if isinstance(values, dict) else None
        if size is not None:
            size["value"] = min(max(size["value"], _MIN_PAD), _MAX_PAD)
            if size["value"] != values["padding"]["value"]:
                ops.append({"t": "set_style", "id": "hero", "breakpoint": bp, "patch": {"padding": size}})
    return ops


def look_ops(look: Restyle, nodes: Sequence[Mapping[str, Any]]) -> tuple[list[dict[str, Any]], str]:
    """The ops for ``look`` on ``nodes`` and what they do ("" with no ops: why not); words a new
    ground or tone left under 4.5:1 take their legible shade (an accent the person gave stays)."""
    ops, said = _look_ops(look, nodes)
    grounds = ("background", "tone", "colour")
    return (ops + kept_legible(nodes, ops), said) if ops and look.aspect in grounds else (ops, said)


def _look_ops(look: Restyle, nodes: Sequence[Mapping[str, Any]]) -> tuple[list[dict[str, Any]], str]:
    if look.aspect == "height":
        ops = _height(nodes, look.value)
        if not ops:
            return [], f"the hero cannot get any {look.value}"
        room = "less" if look.value == "shorter" else "more"
        return ops, f"made the hero {look.value} ({room} space around its words)"
    if look.aspect == "accent":
        return accent_ops(nodes, look.value)
    if look.aspect == "colour":
        return page_colour(nodes, look.value)
    if look.aspect == "background":
        named = {"dark": "a dark background", "light": "a light background"}
        what = named.get(look.value, f"the background {look.value}")
        if look.scope == "hero":
            view = PageView(nodes)
            band = [view.by_id[h], *view.inside(h)] if (h := view.hero()) else []
            return backgrounds(band, look.value), f"gave the hero {what}"
        return backgrounds(nodes, look.value), f"gave the sections {what}"
    if look.aspect == "tone":
        return recolour(nodes, tone_of(look.value, richer=True)), f"made the palette {look.value}"
    if look.aspect == "shape":
        said = (
            "more minimal (no shadows, plainer headings, small corners)"
            if look.value == "minimal"
            else "bolder (heavier, larger headings)"
        )
        return _shape(nodes, look.value), f"made the look {said}"
    where = "the headings" if look.scope == "headings" else "the page"
    said = f"set the font of {where} to {look.value.split(',')[0]}"
    return _fonts(nodes, look.value, look.scope), said
