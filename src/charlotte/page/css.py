"""The stylesheet of a page: byte-identical to the fancy-cms CSS emitters.

``emit_css(doc)`` turns each node's layout, constraints and style into one rule
keyed by ``[data-cms="<id>"]`` plus one ``@media (min-width: …)`` block per
known breakpoint. The output is deterministic (ids sorted, declarations sorted)
so it can be compared byte for byte with the TypeScript and PHP emitters.

Upstream quirks kept on purpose, because stored pages rely on the same bytes:

- Lengths in ``padding``, ``margin``, ``radius``, ``fontSize``,
  ``letterSpacing``, ``gap`` and the ``left/right/top/bottom`` pins, and the
  ``width``/``height`` size modes, are emitted only when truthy (a ``null``
  pin means "unpinned"); every other style key is emitted when present.
- A breakpoint's constraints entry, even ``{}``, re-emits ``position:
  absolute`` inside a free parent; a style ``transform`` overwrites the
  centring transform of the constraints.

Malformed input never raises. Decisions where the upstream emitters crash or
disagree with each other:

- A document without a ``nodes`` object emits ``""``; a node that is not an
  object is skipped; a missing or non-object ``style``/``style.base`` is empty;
  a non-object ``constraints.base`` emits no constraint declarations; a
  non-list ``breakpoints`` emits no media blocks.
- A value of the wrong JSON type is treated as absent: a Length must be an
  object with a finite number ``value`` and a string ``unit``; numbers must be
  finite ints or floats (not booleans); string and enum values must be
  strings. So a non-string ``direction`` falls back to ``column`` and a
  non-number ``columns`` to ``1``.
- A node without a ``parent`` key is a root, like ``parent: null`` (the PHP
  emitter and ``page.tree`` agree; the TypeScript one calls it free). A parent
  whose ``layout`` is ``null`` counts as free, as an absent layout does (PHP).
- Ids sort by UTF-16 code units, as JavaScript's ``sort()`` does (identical to
  code-point order for the ASCII ids charlotte writes).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from charlotte.page.model import BREAKPOINT_PX, node_map

_ALIGN: Mapping[str, str] = {"start": "flex-start", "end": "flex-end"}
_JUSTIFY: Mapping[str, str] = {
    "start": "flex-start",
    "end": "flex-end",
    "between": "space-between",
    "around": "space-around",
}

# Style keys emitted verbatim when they hold a string: key → CSS property.
_STRING_PROPS: tuple[tuple[str, str], ...] = (
    ("background", "background"),
    ("color", "color"),
    ("fontFamily", "font-family"),
    ("textAlign", "text-align"),
    ("border", "border"),
    ("boxShadow", "box-shadow"),
    ("transform", "transform"),
    ("filter", "filter"),
)
_NUMBER_PROPS: tuple[tuple[str, str], ...] = (
    ("opacity", "opacity"),
    ("fontWeight", "font-weight"),
    ("lineHeight", "line-height"),
)
_LENGTH_PROPS: tuple[tuple[str, str], ...] = (
    ("padding", "padding"),
    ("margin", "margin"),
    ("radius", "border-radius"),
    ("fontSize", "font-size"),
    ("letterSpacing", "letter-spacing"),
    ("gap", "gap"),
)
_PINS = ("left", "right", "top", "bottom")


def format_number(value: float) -> str:
    """``value`` printed as JavaScript's ``String(n)`` prints a finite number.

    >>> [format_number(v) for v in (1.0, 0.5, -0.0, 1e21, 1e-7, 123456.789)]
    ['1', '0.5', '0', '1e+21', '1e-7', '123456.789']
    """
    x = float(value)
    if not math.isfinite(x):
        raise ValueError("only finite numbers have a CSS form")
    if x == 0:
        return "0"
    if x < 0:
        return "-" + format_number(-x)
    # Python's repr and JavaScript both print the shortest digit string that
    # reads back as the same double; only the layout around the digits differs.
    mantissa, _, exponent = repr(x).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = whole + fraction
    point = len(whole) + (int(exponent) if exponent else 0)
    significant = digits.lstrip("0")
    point -= len(digits) - len(significant)
    s = significant.rstrip("0")
    k, n = len(s), point  # the value is 0.s * 10**n, in ECMAScript's terms
    if k <= n <= 21:
        return s + "0" * (n - k)
    if 0 < n <= 21:
        return s[:n] + "." + s[n:]
    if -6 < n <= 0:
        return "0." + "0" * -n + s
    e = n - 1
    sign = "+" if e > 0 else "-"
    body = s if k == 1 else s[0] + "." + s[1:]
    return f"{body}e{sign}{abs(e)}"


def _number(value: object) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        return format_number(value)
    except (ValueError, OverflowError):
        return None


def _length(value: object) -> str | None:
    if not isinstance(value, dict):
        return None
    number, unit = _number(value.get("value")), value.get("unit")
    if number is None or not isinstance(unit, str):
        return None
    return number + unit


def _size(value: object) -> str | None:
    if value == "fill":
        return "100%"
    if value == "hug":
        return "auto"
    return _length(value)


def _truthy(value: object) -> bool:
    """JavaScript truthiness of a JSON value (``[]`` and ``{}`` are truthy)."""
    if isinstance(value, dict | list):
        return True
    if isinstance(value, float) and math.isnan(value):
        return False
    return bool(value)


def _as_dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def style_declarations(style: Mapping[str, Any]) -> dict[str, str]:
    """CSS declarations (property → value) of one breakpoint's style props."""
    decls: dict[str, str] = {}
    for key, prop in _LENGTH_PROPS:
        css = _length(style.get(key))
        if css is not None:
            decls[prop] = css
    for key, prop in _STRING_PROPS:
        value = style.get(key)
        if isinstance(value, str):
            decls[prop] = value
    for key, prop in _NUMBER_PROPS:
        css = _number(style.get(key))
        if css is not None:
            decls[prop] = css
    align, justify = style.get("align"), style.get("justify")
    if isinstance(align, str):
        decls["align-items"] = _ALIGN.get(align, align)
    if isinstance(justify, str):
        decls["justify-content"] = _JUSTIFY.get(justify, justify)
    return decls


def layout_declarations(node: Mapping[str, Any]) -> dict[str, str]:
    """CSS declarations of how ``node`` arranges its children (its ``layout``)."""
    layout = node.get("layout")
    base = _as_dict(_as_dict(node.get("style")).get("base"))
    if layout == "stack":
        direction = base.get("direction")
        return {
            "display": "flex",
            "flex-direction": direction if isinstance(direction, str) else "column",
        }
    if layout == "grid":
        columns = _number(base.get("columns"))
        return {"display": "grid", "grid-template-columns": f"repeat({columns or '1'}, 1fr)"}
    if layout == "free":
        return {"position": "relative"}
    return {}


def constraint_declarations(constraints: Mapping[str, Any], parent_free: bool) -> dict[str, str]:
    """CSS declarations of how a node places itself (pins only inside a free parent)."""
    decls: dict[str, str] = {}
    if parent_free:
        decls["position"] = "absolute"
        for pin in _PINS:
            css = _length(constraints.get(pin))
            if css is not None:
                decls[pin] = css
        transforms = []
        if _truthy(constraints.get("centerX")):
            decls["left"] = "50%"
            transforms.append("translateX(-50%)")
        if _truthy(constraints.get("centerY")):
            decls["top"] = "50%"
            transforms.append("translateY(-50%)")
        if transforms:
            decls["transform"] = " ".join(transforms)
    for axis in ("width", "height"):
        css = _size(constraints.get(axis))
        if css is not None:
            decls[axis] = css
    return decls


def _parent_is_free(nodes: Mapping[str, Any], node: Mapping[str, Any]) -> bool:
    parent_id = node.get("parent")
    if parent_id is None:
        return False  # roots flow in the page, one after the other
    parent = nodes.get(parent_id) if isinstance(parent_id, str) else None
    if not isinstance(parent, dict):
        return True
    return parent.get("layout") in (None, "free")


def _rule(selector: str, decls: Mapping[str, str], indent: str) -> str:
    if not decls:
        return ""
    body = "\n".join(f"{indent}  {prop}: {decls[prop]};" for prop in sorted(decls))
    return f"{indent}{selector} {{\n{body}\n{indent}}}"


def _utf16_key(text: str) -> bytes:
    return text.encode("utf-16-be", "surrogatepass")


def _node_blocks(
    nodes: Mapping[str, Any], node_id: str, node: Mapping[str, Any], breakpoints: list[str]
) -> list[str]:
    selector = f'[data-cms="{node_id}"]'
    parent_free = _parent_is_free(nodes, node)
    style = _as_dict(node.get("style"))
    constraints = _as_dict(node.get("constraints"))

    base = layout_declarations(node)
    if isinstance(constraints.get("base"), dict):
        base.update(constraint_declarations(constraints["base"], parent_free))
    base.update(style_declarations(_as_dict(style.get("base"))))
    blocks = [_rule(selector, base, "")]

    for bp in breakpoints:
        px = BREAKPOINT_PX.get(bp)
        if px is None:
            continue
        decls: dict[str, str] = {}
        if isinstance(constraints.get(bp), dict):
            decls.update(constraint_declarations(constraints[bp], parent_free))
        if isinstance(style.get(bp), dict):
            decls.update(style_declarations(style[bp]))
        inner = _rule(selector, decls, "  ")
        if inner:
            blocks.append(f"@media (min-width: {px}px) {{\n{inner}\n}}")
    return [block for block in blocks if block]


def emit_css(doc: object) -> str:
    """The page's stylesheet, byte-identical to the fancy-cms emitters.

    >>> emit_css({"nodes": {"a": {"id": "a", "parent": None, "layout": "free",
    ...                            "style": {"base": {"opacity": 0.5}}}},
    ...           "breakpoints": ["base"]})
    '[data-cms="a"] {\\n  opacity: 0.5;\\n  position: relative;\\n}\\n'
    """
    nodes = node_map(doc)
    raw_breakpoints = doc.get("breakpoints") if isinstance(doc, dict) else None
    breakpoints = (
        [bp for bp in raw_breakpoints if isinstance(bp, str) and bp != "base"]
        if isinstance(raw_breakpoints, list)
        else []
    )
    blocks: list[str] = []
    for node_id in sorted((k for k in nodes if isinstance(k, str)), key=_utf16_key):
        node = nodes[node_id]
        if isinstance(node, dict):
            blocks.extend(_node_blocks(nodes, node_id, node, breakpoints))
    return "\n\n".join(blocks) + ("\n" if blocks else "")
