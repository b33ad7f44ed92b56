"""The quality checks: what accessibility and completeness tools flag on a published page, read from the document.

``quality_findings(doc, assets=)`` walks the rendered nodes once in reading
order (no browser, linear in the page) and reports:

- ``low_contrast`` / ``contrast_unknown``: each text's colour on its
  effective background at each breakpoint, resolved as the stylesheet
  ``page.css`` writes resolves in a browser: a breakpoint's ``min-width``
  block overrides ``base`` (and earlier blocks), ``color`` and font size
  inherit from the ancestors, a background paints over the ones below it,
  the page itself is black on white; a link with an ``href`` is the
  browser's link blue, a callout's words sit on its variant's box;
- ``image_no_alt``, ``placeholder`` (empty image slots and placeholder copy);
- ``no_h1`` (a page that shows words), ``many_h1``, ``heading_skip``;
- ``link_no_name``, ``button_no_name``;
- ``missing_lang`` (a language that is no tag: an unset one is ``DEFAULT_LANG``),
  ``missing_title``, ``missing_description`` (on ``#meta``).

Page-level findings (the headings, the language, the meta) are made only for
a page document (one with a ``meta``), as the copy check's meta findings are.
In-page links to nowhere are the links check's ``dead_link`` already.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from charlotte.checks.contrast import (
    BLACK,
    LARGE_BOUND,
    NORMAL_BOUND,
    RGBA,
    WHITE,
    hex_of,
    is_large,
    over,
    parse_colour,
    ratio,
)
from charlotte.checks.copytext import (
    COPY_PROPS,
    META_NODE,
    is_binding,
    meta_findings,
    node_type,
    placeholder_problems,
    props_of,
    reading_order,
)
from charlotte.checks.findings import Finding
from charlotte.page.assets import AssetLibrary
from charlotte.page.hrefs import is_safe_href
from charlotte.page.model import BREAKPOINT_PX
from charlotte.page.render import heading_level
from charlotte.page.seo import is_lang, page_meta

#: Every code ``quality_findings`` reports (what a publish ``override`` may name).
QUALITY_CODES: Final = (
    "low_contrast",
    "contrast_unknown",
    "image_no_alt",
    "no_h1",
    "many_h1",
    "heading_skip",
    "link_no_name",
    "button_no_name",
    "placeholder",
    "missing_lang",
    "missing_title",
    "missing_description",
)

#: The browser's colour of a link (``a:link``): the renderer leaves it to the browser.
LINK_BLUE: Final[RGBA] = (0.0, 0.0, 238.0, 1.0)
#: The box a callout's words sit on (``render.BASE_CSS``), by variant.
CALLOUT_GROUND: Final[Mapping[str, RGBA]] = {
    "info": (239.0, 246.0, 255.0, 1.0),
    "success": (240.0, 253.0, 244.0, 1.0),
    "warning": (255.0, 251.0, 235.0, 1.0),
    "danger": (254.0, 242.0, 242.0, 1.0),
}
#: The browser's ``<hN>`` font size, in ``em`` of the node's own.
_HEADING_EM: Final = {1: 2.0, 2: 1.5, 3: 1.17, 4: 1.0, 5: 0.83, 6: 0.67}
_ROOT_PX: Final = 16.0
_BOLD: Final = 700.0
_BUTTON_WEIGHT: Final = 600.0
# The builder's own marks for what a person still fills in (``sections.bands``' gallery slots).
_SLOT = re.compile(r"(?i)\bimage\s+slot\b|\bchoose\s+an?\s+(?:photo|image|picture)\b")

#: What a node passes to its children at one width: text colour, opaque background
#: (None: not resolvable), font size in px (None: not resolvable), font weight, and the
#: opacity it and its ancestors give what they paint (1: opaque).
_State = tuple[RGBA | None, RGBA | None, float | None, float, float]
_PAGE: Final[_State] = (BLACK, WHITE, _ROOT_PX, 400.0, 1.0)


def quality_findings(doc: object, *, assets: AssetLibrary) -> list[Finding]:
    """The page's accessibility and completeness findings: nodes in reading order, then the page's."""
    widths = _widths(doc)
    out: list[Finding] = []
    states: dict[str, list[_State]] = {}
    levels: list[tuple[str, int]] = []
    worded = False  # the page shows words: it needs a main heading
    for node in reading_order(doc):
        node_id: str = node["id"]
        parent = node.get("parent")
        above = states.get(parent) if isinstance(parent, str) else None
        mine = [_state(node, w, above[i] if above else _PAGE) for i, w in enumerate(widths)]
        states[node_id] = mine
        if node.get("island"):
            continue
        kind = node_type(node)
        props = props_of(node)
        if kind == "heading":
            levels.append((node_id, heading_level(props.get("level", 2))))
        if kind == "image":
            out.extend(_image(node_id, props, assets))
            continue
        prop = COPY_PROPS.get(kind)
        words = props.get(prop) if prop else None
        if is_binding(words):
            continue
        if kind in ("link", "button") and (not isinstance(words, str) or not words.strip()):
            out.append(_nameless(node_id, kind))
            continue
        if not isinstance(words, str) or not words.strip():
            continue
        worded = True
        out.extend(_placeholder(node_id, words, kind))
        out.extend(_contrast(node_id, node, kind, props, mine, widths))
    if isinstance(doc, dict) and isinstance(doc.get("meta"), dict):
        out.extend(_headings(levels, worded))
        lang = page_meta(doc).lang
        if lang and not is_lang(lang):
            # No language at all is no finding: the published page then says ``DEFAULT_LANG``.
            out.append(
                Finding(
                    "quality", META_NODE, "warning", "missing_lang",
                    "The page's language is not a language tag, so the published page says "
                    "the default one: set it to a tag such as en or en-GB.",
                )
            )  # fmt: skip
        out.extend(
            Finding("quality", f.node, f.severity, f.code, f.message)
            for f in meta_findings(doc)
            if f.code in ("missing_title", "missing_description")
        )
    return out


def _widths(doc: object) -> list[tuple[str, int, tuple[str, ...]]]:
    """(breakpoint, min-width, the style blocks in effect in stylesheet order) per width checked."""
    raw = doc.get("breakpoints") if isinstance(doc, dict) else None
    blocks = [bp for bp in raw if isinstance(bp, str) and bp in BREAKPOINT_PX] if isinstance(raw, list) else []
    out: list[tuple[str, int, tuple[str, ...]]] = [("base", 0, ("base",))]
    for bp in sorted(dict.fromkeys(blocks), key=BREAKPOINT_PX.__getitem__):
        px = BREAKPOINT_PX[bp]
        out.append((bp, px, ("base", *(b for b in blocks if BREAKPOINT_PX[b] <= px))))
    return out


def _value(node: Mapping[str, Any], blocks: tuple[str, ...], key: str) -> object:
    style = node.get("style")
    if not isinstance(style, dict):
        return None
    found: object = None
    for block in blocks:
        values = style.get(block)
        if isinstance(values, dict) and values.get(key) is not None:
            found = values[key]
    return found


def _state(node: Mapping[str, Any], width: tuple[str, int, tuple[str, ...]], above: _State) -> _State:
    blocks = width[2]
    fg, bg, size, weight, alpha = above
    colour = _value(node, blocks, "color")
    if isinstance(colour, str):
        fg = parse_colour(colour)
    opacity = _value(node, blocks, "opacity")
    if isinstance(opacity, int | float) and not isinstance(opacity, bool) and 0 <= opacity < 1:
        alpha *= float(opacity)  # what the node paints, its words too, shows through (axe's way)
    background = _value(node, blocks, "background")
    if isinstance(background, str):
        painted = parse_colour(background)
        if painted is not None and alpha < 1:
            painted = (*painted[:3], painted[3] * alpha)
        if painted is None or (painted[3] < 1 and bg is None):
            bg = None
        elif painted[3] >= 1:
            bg = painted
        elif painted[3] > 0 and bg is not None:
            bg = over(painted, bg)
    size = _font_px(_value(node, blocks, "fontSize"), size)
    number = _value(node, blocks, "fontWeight")
    if isinstance(number, int | float) and not isinstance(number, bool):
        weight = float(number)
    return fg, bg, size, weight, alpha


def _font_px(length: object, inherited: float | None) -> float | None:
    if not isinstance(length, dict):
        return inherited
    value, unit = length.get("value"), length.get("unit")
    if isinstance(value, bool) or not isinstance(value, int | float) or not value:
        return inherited  # the stylesheet leaves a zero font size out
    if unit == "px":
        return float(value)
    if unit == "rem":
        return float(value) * _ROOT_PX
    if unit == "%":
        return None if inherited is None else inherited * float(value) / 100
    return None


def _contrast(
    node_id: str,
    node: Mapping[str, Any],
    kind: str,
    props: Mapping[str, Any],
    states: list[_State],
    widths: list[tuple[str, int, tuple[str, ...]]],
) -> list[Finding]:
    worst: tuple[float, float, str, RGBA, RGBA] | None = None
    for (fg, bg, size, weight, alpha), (bp, _px, _blocks) in zip(states, widths, strict=True):
        if kind == "link" and isinstance(props.get("href"), str) and is_safe_href(props["href"]):
            fg = LINK_BLUE
        if fg is not None and alpha < 1:
            fg = (*fg[:3], fg[3] * alpha)
        if kind == "callout":
            variant = props.get("variant")
            bg = CALLOUT_GROUND.get(variant if isinstance(variant, str) else "", CALLOUT_GROUND["info"])
        if fg is None or bg is None:
            return [
                Finding(
                    "quality", node_id, "warning", "contrast_unknown",
                    "The contrast of this text cannot be checked: its colour or background is "
                    "not a plain colour (such as a var(), a gradient or an image). Use plain "
                    "colours, or check the contrast by eye.",
                )
            ]  # fmt: skip
        if kind == "heading":
            level = heading_level(props.get("level", 2))
            size = None if size is None else size * _HEADING_EM[level]
            weight = _BOLD
        elif kind == "button":
            weight = _BUTTON_WEIGHT
        bound = LARGE_BOUND if is_large(size, weight >= _BOLD) else NORMAL_BOUND
        value = ratio(fg, bg)
        if value < bound and (worst is None or value < worst[0]):
            worst = (value, bound, bp, fg, bg)
    if worst is None:
        return []
    value, bound, bp, fg, bg = worst
    where = "on small screens" if bp == "base" else f"from {BREAKPOINT_PX[bp]} px wide"
    return [
        Finding(
            "quality", node_id, "error" if value < LARGE_BOUND else "warning", "low_contrast",
            f"The text's colour {hex_of(over(fg, bg))} on {hex_of(bg)} has a contrast of "
            f"{int(value * 100) / 100:g}:1 {where}; it needs {bound:g}:1. Darken the text or "
            "lighten the background (or the other way round).",
        )
    ]  # fmt: skip


def _image(node_id: str, props: Mapping[str, Any], assets: AssetLibrary) -> list[Finding]:
    out: list[Finding] = []
    asset = props.get("asset")
    if not is_binding(asset) and not (isinstance(asset, str) and asset and assets.exists(asset)):
        out.append(
            Finding(
                "quality", node_id, "error", "placeholder",
                "The image slot is empty: choose an image from the asset library, or remove it.",
            )
        )  # fmt: skip
    alt = props.get("alt")
    if not isinstance(alt, str) and not is_binding(alt):
        out.append(
            Finding(
                "quality", node_id, "error", "image_no_alt",
                'The image has no text alternative: describe it in its alt text, or set alt to "" '
                "if it is only decoration.",
            )
        )  # fmt: skip
    return out


def _nameless(node_id: str, kind: str) -> Finding:
    code, noun = ("link_no_name", "link") if kind == "link" else ("button_no_name", "button")
    return Finding(
        "quality", node_id, "error", code,
        f"The {noun} has no words, so a screen reader cannot name it: give it a {noun} text "
        "that says where it leads.",
    )  # fmt: skip


def _placeholder(node_id: str, words: str, kind: str) -> list[Finding]:
    problems = placeholder_problems(words, kind)
    if problems:
        return [Finding("quality", node_id, "error", "placeholder", problems[0][1])]
    if kind != "code" and _SLOT.search(words[:300]):
        return [
            Finding(
                "quality", node_id, "error", "placeholder",
                "The page still holds a slot to fill: choose a photo from the asset library "
                "for it, or remove the slot.",
            )
        ]  # fmt: skip
    return []


def _headings(levels: list[tuple[str, int]], worded: bool) -> list[Finding]:
    out: list[Finding] = []
    ones = [node_id for node_id, level in levels if level == 1]
    if not ones and worded:
        out.append(
            Finding(
                "quality", None, "error", "no_h1",
                "The page has no main heading: make its first heading level 1 (one per page).",
            )
        )  # fmt: skip
    out.extend(
        Finding(
            "quality", node_id, "warning", "many_h1",
            "The page has more than one level-1 heading: keep one and make the others level 2.",
        )
        for node_id in ones[1:]
    )  # fmt: skip
    previous: int | None = None
    for node_id, level in levels:
        if previous is not None and level > previous + 1:
            out.append(
                Finding(
                    "quality", node_id, "warning", "heading_skip",
                    f"The heading is level {level} right after a level {previous} heading: "
                    f"make it level {previous + 1}, so no level is skipped.",
                )
            )  # fmt: skip
        previous = level
    return out
