"""Style checks behind PageSession: StyleProps, constraints, layout and the shapes under them.

The shapes every check shares live here too, because they are the style
values' own: a bounded number (at most 4 decimals), a Length, a bounded
string without control characters, a JSON object. ``charlotte.page.validate``
builds the node, op and document checks on top of this module and re-exports
its public names. Every failure raises ``PageSessionError(code,
detail="<field>: <reason>")``, ``invalid_style`` for the checks of this module.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection
from typing import Any, NoReturn

from charlotte.errors import PageSessionError
from charlotte.page.node_types import (
    CONSTRAINT_KEYS,
    LAYOUTS,
    LENGTH_UNITS,
    MAX_DECIMALS,
    MAX_NUMBER,
    MAX_STYLE_STRING,
    SIZE_KEYWORDS,
    STYLE_KEYS,
)

__all__ = [
    "as_object",
    "check_constraints",
    "check_layout",
    "check_style",
    "check_style_value",
    "fail",
    "is_length",
    "is_number",
    "is_string",
    "key_name",
]

_WORD = re.compile(r"[A-Za-z0-9_$:.-]{1,40}")
_CTRL = re.compile(r"[\x00-\x1f\x7f]")  # single-line strings
_TEXT_CTRL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # tab, LF, CR allowed

_UNITS = frozenset(LENGTH_UNITS)
_SIZES = frozenset(SIZE_KEYWORDS)
_LAYOUTS = frozenset(LAYOUTS)


def fail(code: str, path: str, reason: str) -> NoReturn:
    """Raise ``PageSessionError(code)`` with the detail ``"<path>: <reason>"``."""
    raise PageSessionError(code, detail=f"{path}: {reason}")


def key_name(key: object) -> str:
    """``key`` when it is a short plain word, else ``?`` (details never echo raw input)."""
    return key if isinstance(key, str) and _WORD.fullmatch(key) else "?"


def is_number(value: object, lo: float = -MAX_NUMBER, hi: float = MAX_NUMBER) -> bool:
    """A finite int/float (never a bool) in [lo, hi] with at most 4 decimals."""
    if type(value) is int:
        return lo <= value <= hi
    if type(value) is float:
        # round() == value keeps 0.5 and 12.3456 but refuses 1e-7 and 0.1+0.2,
        # the values on which the PHP and TypeScript emitters print differently.
        return math.isfinite(value) and lo <= value <= hi and round(value, MAX_DECIMALS) == value
    return False


def is_length(value: object) -> bool:
    """A ``{"value": number, "unit": unit}`` object, nothing more."""
    if type(value) is not dict or len(value) != 2:
        return False
    unit = value.get("unit")
    return type(unit) is str and unit in _UNITS and is_number(value.get("value"))


def _is_size(value: object) -> bool:
    return (type(value) is str and value in _SIZES) or is_length(value)


def is_string(value: object, lo: int, hi: int, *, text: bool = False) -> bool:
    """A string of ``lo``..``hi`` chars, no control characters (``text`` allows tab, LF, CR)."""
    return (
        type(value) is str
        and lo <= len(value) <= hi
        and (_TEXT_CTRL if text else _CTRL).search(value) is None
    )


def as_object(value: object, code: str, path: str) -> dict[str, Any]:
    """``value`` when it is a JSON object, else ``code`` at ``path``."""
    if type(value) is not dict:
        fail(code, path, "must be an object")
    return value


def _check_breakpoint_map(value: object, breakpoints: Collection[str], path: str) -> dict[str, Any]:
    value = as_object(value, "invalid_style", path)
    if "base" not in value:
        fail("invalid_style", f"{path}.base", "required")
    for bp, entry in value.items():
        if type(bp) is not str or bp not in breakpoints:
            fail("invalid_style", f"{path}.{key_name(bp)}", "not one of the page's breakpoints")
        as_object(entry, "invalid_style", f"{path}.{bp}")
    return value


def check_style(style: object, breakpoints: Collection[str]) -> None:
    """``{base: StyleProps, <bp>?: partial}`` with known keys and value shapes."""
    for bp, entry in _check_breakpoint_map(style, breakpoints, "style").items():
        for key, value in entry.items():
            check_style_value(key, value, f"style.{bp}")


def check_style_value(key: object, value: object, path: str) -> None:
    """One StyleProps entry."""
    spec = STYLE_KEYS.get(key) if type(key) is str else None
    if spec is None:
        fail("invalid_style", f"{path}.{key_name(key)}", "unknown style key")
    kind = spec.kind
    if kind == "length":
        ok = is_length(value)
    elif kind == "string":
        ok = is_string(value, 1, MAX_STYLE_STRING)
    elif kind == "enum":
        ok = type(value) is str and value in spec.enum
    else:
        ok = is_number(value, spec.minimum, spec.maximum) and (
            kind == "number" or type(value) is int
        )
    if not ok:
        # Spelled out only for a value that fails (every write checks every value it touches).
        if kind == "length":
            want = "a Length {value, unit}"
        elif kind == "string":
            want = f"a string of 1..{MAX_STYLE_STRING} chars"
        elif kind == "enum":
            want = "one of " + "|".join(spec.enum)
        else:
            want = f"a{'n integer' if kind == 'integer' else ' number'} {spec.minimum:g}..{spec.maximum:g}"
        fail("invalid_style", f"{path}.{spec.name}", "must be " + want)


def check_constraints(constraints: object, breakpoints: Collection[str]) -> None:
    """``{base: Constraints, <bp>?: partial}``; base needs width and height."""
    value = _check_breakpoint_map(constraints, breakpoints, "constraints")
    for bp, entry in value.items():
        path = f"constraints.{bp}"
        for key, item in entry.items():
            kind = CONSTRAINT_KEYS.get(key) if type(key) is str else None
            if kind is None:
                fail("invalid_style", f"{path}.{key_name(key)}", "unknown constraint")
            if kind == "offset":
                ok, want = item is None or is_length(item), "a Length or null"
            elif kind == "flag":
                ok, want = type(item) is bool, "a boolean"
            else:
                ok, want = _is_size(item), "a Length, fill or hug"
            if not ok:
                fail("invalid_style", f"{path}.{key}", "must be " + want)
    for key in ("width", "height"):
        if key not in value["base"]:
            fail("invalid_style", f"constraints.base.{key}", "required")


def check_layout(value: object) -> None:
    """A layout present on a node is one of free|stack|grid."""
    if type(value) is not str or value not in _LAYOUTS:
        fail("invalid_style", "layout", "must be one of " + "|".join(LAYOUTS))
