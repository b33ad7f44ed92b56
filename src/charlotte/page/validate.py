"""Shape, type and bound checks behind PageSession: nodes, ops and whole documents.

Every check raises ``PageSessionError(code, detail="<field>: <reason>")``; the
detail is built only from our own names (a key the caller made up is echoed
only when it is a short plain word, else ``?``). Codes by field:

- node ``id``, ``parent``, animation ids, nodes named by actions → ``invalid_id``
- node ``type`` (not in the catalogue; ``richtext`` never is) → ``type_not_allowed``
- ``props``, ``order``, ``island``, ``repeat``, ``actions``, ``meta``, unknown
  node fields → ``invalid_props``
- ``style``, ``constraints``, ``layout``, ``className``, ``animations``,
  a breakpoint not in the page's list → ``invalid_style``

Choices beyond the spec: no JSON null anywhere except unpinned constraint
offsets; strings refuse control characters (text props allow tab and newlines);
``className`` ≤ 500 chars; at most 20 animations (≤ 50 keyframes each) and 20
actions per node; free-form JSON (an action's ``mutate`` value, theme tokens)
nested ≤ 4 deep with ≤ 500 values in all, no null; order keys are 1-10,000
base-62 characters (each append grows a key by one character, so the bound is
generous on purpose).
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Mapping
from typing import Any, NoReturn

from charlotte.page.errors import PageSessionError
from charlotte.page.node_types import (
    CONSTRAINT_KEYS,
    ID_PATTERN,
    LAYOUTS,
    LENGTH_UNITS,
    MAX_DECIMALS,
    MAX_NUMBER,
    MAX_STYLE_STRING,
    SIZE_KEYWORDS,
    STYLE_KEYS,
    NodeTypes,
    PropSpec,
)

_ID = re.compile(ID_PATTERN)
_ORDER = re.compile(r"[0-9A-Za-z]{1,10000}")
_WORD = re.compile(r"[A-Za-z0-9_$:.-]{1,40}")
_TOKEN_KEY = re.compile(r"[A-Za-z0-9_$:.-]{1,64}")
_BIND_PATH = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z0-9_$]+)*")
_CTRL = re.compile(r"[\x00-\x1f\x7f]")  # single-line strings
_TEXT_CTRL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # tab, LF, CR allowed

_UNITS = frozenset(LENGTH_UNITS)
_SIZES = frozenset(SIZE_KEYWORDS)
_LAYOUTS = frozenset(LAYOUTS)
_NODE_KEYS = frozenset(
    {"id", "type", "parent", "order", "props", "style", "layout", "constraints",
     "animations", "actions", "repeat", "className", "island"}
)
_DRIVERS = frozenset({"enter", "scroll", "loop", "hover", "click", "drag"})
_ANIM_KEYS = frozenset(
    {"id", "driver", "keyframes", "range", "ease", "duration", "delay", "stagger", "once", "emit"}
)
_EVENTS = frozenset({"click", "submit", "change", "load", "timer", "scroll-into", "hover"})
#: Action handler kind → its fields (name → shape; a trailing "?" marks optional).
_HANDLERS: Mapping[str, Mapping[str, str]] = {
    "navigate": {"href": "url"},
    "submitForm": {"endpoint": "url", "method?": "post|put"},
    "mutate": {"target": "name", "value": "json"},
    "callEndpoint": {"endpoint": "url", "method?": "verb"},
    "runFlow": {"flow": "name"},
    "openModal": {"node": "id"},
    "openDrawer": {"node": "id"},
    "playTimeline": {"section": "id"},
    "toggleNode": {"node": "id"},
}
MAX_ANIMATIONS = 20
MAX_KEYFRAMES = 50
MAX_ACTIONS = 20
MAX_CLASSNAME = 500
MAX_JSON_VALUES = 500
MAX_JSON_DEPTH = 4


def _fail(code: str, path: str, reason: str) -> NoReturn:
    raise PageSessionError(code, detail=f"{path}: {reason}")


def key_name(key: object) -> str:
    """``key`` when it is a short plain word, else ``?`` (details never echo raw input)."""
    return key if isinstance(key, str) and _WORD.fullmatch(key) else "?"


def is_id(value: object) -> bool:
    """True for a string matching the node id pattern."""
    return type(value) is str and _ID.fullmatch(value) is not None


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


def _string(value: object, lo: int, hi: int, *, text: bool = False) -> bool:
    return (
        type(value) is str
        and lo <= len(value) <= hi
        and (_TEXT_CTRL if text else _CTRL).search(value) is None
    )


def _object(value: object, code: str, path: str) -> dict[str, Any]:
    if type(value) is not dict:
        _fail(code, path, "must be an object")
    return value


def _keys(value: dict[Any, Any], allowed: Collection[str], code: str, path: str) -> None:
    for key in value:
        if type(key) is not str or key not in allowed:
            _fail(code, f"{path}.{key_name(key)}", "unknown field")


def check_id(value: object, path: str = "id") -> str:
    """``value`` when it is a valid node id, else ``invalid_id``."""
    if not is_id(value):
        _fail("invalid_id", path, "must match " + ID_PATTERN)
    assert isinstance(value, str)
    return value


def check_parent(value: object, path: str = "parent") -> None:
    """A parent is a node id or None (a root)."""
    if value is not None:
        check_id(value, path)


def check_order(value: object, path: str = "order") -> None:
    """An ordering key: 1-10,000 base-62 characters."""
    if type(value) is not str or _ORDER.fullmatch(value) is None:
        _fail("invalid_props", path, "must be an ordering key (0-9A-Za-z)")


def check_props(type_name: str, props: object, types: NodeTypes) -> None:
    """The props of a node of ``type_name``: known, typed, bounded, required ones present."""
    props = _object(props, "invalid_props", "props")
    node_type = types.get(type_name)
    if node_type is None:
        _fail("type_not_allowed", "type", "not in the catalogue")
    for key, value in props.items():
        spec = node_type.prop(key) if type(key) is str else None
        if spec is None:
            _fail("invalid_props", f"props.{key_name(key)}", "unknown prop for " + node_type.name)
        _check_prop(spec, value)
    for spec in node_type.props:
        if spec.required and spec.name not in props:
            _fail("invalid_props", f"props.{spec.name}", "required")


def _check_prop(spec: PropSpec, value: object) -> None:
    path = f"props.{spec.name}"
    if spec.type == "integer":
        lo = spec.minimum if spec.minimum is not None else -MAX_NUMBER
        hi = spec.maximum if spec.maximum is not None else MAX_NUMBER
        if type(value) is not int or not lo <= value <= hi:
            _fail("invalid_props", path, f"must be an integer {lo}..{hi}")
    elif spec.enum is not None:
        if type(value) is not str or value not in spec.enum:
            _fail("invalid_props", path, "must be one of " + "|".join(spec.enum))
    elif not _string(value, spec.min_length, spec.max_length or MAX_NUMBER, text=True):
        _fail("invalid_props", path, f"must be a string of {spec.min_length}..{spec.max_length} chars")


def _check_breakpoint_map(value: object, breakpoints: Collection[str], path: str) -> dict[str, Any]:
    value = _object(value, "invalid_style", path)
    if "base" not in value:
        _fail("invalid_style", f"{path}.base", "required")
    for bp, entry in value.items():
        if type(bp) is not str or bp not in breakpoints:
            _fail("invalid_style", f"{path}.{key_name(bp)}", "not one of the page's breakpoints")
        _object(entry, "invalid_style", f"{path}.{bp}")
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
        _fail("invalid_style", f"{path}.{key_name(key)}", "unknown style key")
    path = f"{path}.{spec.name}"
    if spec.kind == "length":
        ok, want = is_length(value), "a Length {value, unit}"
    elif spec.kind == "string":
        ok, want = _string(value, 1, MAX_STYLE_STRING), f"a string of 1..{MAX_STYLE_STRING} chars"
    elif spec.kind == "enum":
        ok, want = type(value) is str and value in spec.enum, "one of " + "|".join(spec.enum)
    else:
        ok = is_number(value, spec.minimum, spec.maximum) and (
            spec.kind == "number" or type(value) is int
        )
        want = f"a{'n integer' if spec.kind == 'integer' else ' number'} {spec.minimum:g}..{spec.maximum:g}"
    if not ok:
        _fail("invalid_style", path, "must be " + want)


def check_constraints(constraints: object, breakpoints: Collection[str]) -> None:
    """``{base: Constraints, <bp>?: partial}``; base needs width and height."""
    value = _check_breakpoint_map(constraints, breakpoints, "constraints")
    for bp, entry in value.items():
        path = f"constraints.{bp}"
        for key, item in entry.items():
            kind = CONSTRAINT_KEYS.get(key) if type(key) is str else None
            if kind is None:
                _fail("invalid_style", f"{path}.{key_name(key)}", "unknown constraint")
            if kind == "offset":
                ok, want = item is None or is_length(item), "a Length or null"
            elif kind == "flag":
                ok, want = type(item) is bool, "a boolean"
            else:
                ok, want = _is_size(item), "a Length, fill or hug"
            if not ok:
                _fail("invalid_style", f"{path}.{key}", "must be " + want)
    for key in ("width", "height"):
        if key not in value["base"]:
            _fail("invalid_style", f"constraints.base.{key}", "required")


def check_layout(value: object) -> None:
    """A layout present on a node is one of free|stack|grid."""
    if type(value) is not str or value not in _LAYOUTS:
        _fail("invalid_style", "layout", "must be one of " + "|".join(LAYOUTS))


def check_node(node: object, types: NodeTypes, breakpoints: Collection[str]) -> None:
    """A whole node: fields, id, type, props, style and the optional extras."""
    node = _object(node, "invalid_props", "node")
    _keys(node, _NODE_KEYS, "invalid_props", "node")
    check_id(node.get("id"), "id")
    if "parent" not in node:
        _fail("invalid_id", "parent", "required (null for a root)")
    check_parent(node["parent"])
    type_name = node.get("type")
    if not isinstance(type_name, str) or type_name not in types:
        _fail("type_not_allowed", "type", "not in the catalogue")
    check_order(node.get("order"))
    if "props" not in node:
        _fail("invalid_props", "props", "required")
    check_props(type_name, node["props"], types)
    if "style" not in node:
        _fail("invalid_style", "style", "required")
    check_style(node["style"], breakpoints)
    if "layout" in node:
        check_layout(node["layout"])
    if "constraints" in node:
        check_constraints(node["constraints"], breakpoints)
    if "animations" in node:
        check_animations(node["animations"])
    if "actions" in node:
        check_actions(node["actions"])
    if "repeat" in node:
        _check_repeat(node["repeat"])
    if "className" in node and not _string(node["className"], 0, MAX_CLASSNAME):
        _fail("invalid_style", "className", f"must be a string of at most {MAX_CLASSNAME} chars")
    if "island" in node and type(node["island"]) is not bool:
        _fail("invalid_props", "island", "must be a boolean")


def check_animations(value: object) -> None:
    """A node's animation list: at most 20, unique ids."""
    if type(value) is not list or len(value) > MAX_ANIMATIONS:
        _fail("invalid_style", "animations", f"must be a list of at most {MAX_ANIMATIONS}")
    seen: set[str] = set()
    for i, anim in enumerate(value):
        check_animation(anim, f"animations[{i}]")
        if anim["id"] in seen:
            _fail("invalid_style", f"animations[{i}].id", "duplicate")
        seen.add(anim["id"])


def check_animation(anim: object, path: str = "anim") -> None:
    """One animation: id, driver, keyframes and optional timing fields."""
    anim = _object(anim, "invalid_style", path)
    _keys(anim, _ANIM_KEYS, "invalid_style", path)
    check_id(anim.get("id"), f"{path}.id")
    if anim.get("driver") not in _DRIVERS or type(anim.get("driver")) is not str:
        _fail("invalid_style", f"{path}.driver", "must be one of " + "|".join(sorted(_DRIVERS)))
    frames = anim.get("keyframes")
    if type(frames) is not list or len(frames) > MAX_KEYFRAMES:
        _fail("invalid_style", f"{path}.keyframes", f"must be a list of at most {MAX_KEYFRAMES}")
    for i, frame in enumerate(frames):
        fpath = f"{path}.keyframes[{i}]"
        frame = _object(frame, "invalid_style", fpath)
        _keys(frame, ("at", "props"), "invalid_style", fpath)
        if not is_number(frame.get("at"), 0, 1):
            _fail("invalid_style", f"{fpath}.at", "must be a number 0..1")
        props = _object(frame.get("props"), "invalid_style", f"{fpath}.props")
        if len(props) > 30:
            _fail("invalid_style", f"{fpath}.props", "at most 30 entries")
        for key, item in props.items():
            if type(key) is not str or _TOKEN_KEY.fullmatch(key) is None or not (
                is_number(item) or _string(item, 0, MAX_STYLE_STRING)
            ):
                _fail("invalid_style", f"{fpath}.props.{key_name(key)}", "must be a number or short string")
    if "range" in anim:
        rng = _object(anim["range"], "invalid_style", f"{path}.range")
        if set(rng) != {"start", "end"} or not all(is_number(v) for v in rng.values()):
            _fail("invalid_style", f"{path}.range", "must be {start: number, end: number}")
    for key in ("duration", "delay", "stagger"):
        if key in anim and not is_number(anim[key], 0):
            _fail("invalid_style", f"{path}.{key}", f"must be a number 0..{MAX_NUMBER}")
    if "ease" in anim and not _string(anim["ease"], 1, 100):
        _fail("invalid_style", f"{path}.ease", "must be a string of 1..100 chars")
    if "once" in anim and type(anim["once"]) is not bool:
        _fail("invalid_style", f"{path}.once", "must be a boolean")
    if "emit" in anim and anim["emit"] not in ("css", "js"):
        _fail("invalid_style", f"{path}.emit", "must be css|js")


def check_actions(value: object) -> None:
    """A node's action list: at most 20."""
    if type(value) is not list or len(value) > MAX_ACTIONS:
        _fail("invalid_props", "actions", f"must be a list of at most {MAX_ACTIONS}")
    for i, action in enumerate(value):
        check_action(action, f"actions[{i}]")


def check_action(action: object, path: str = "action") -> None:
    """One action ``{on, do}`` with a known handler kind and its fields."""
    action = _object(action, "invalid_props", path)
    _keys(action, ("on", "do"), "invalid_props", path)
    on = action.get("on")
    if type(on) is not str or on not in _EVENTS:
        _fail("invalid_props", f"{path}.on", "must be one of " + "|".join(sorted(_EVENTS)))
    handler = _object(action.get("do"), "invalid_props", f"{path}.do")
    kind = handler.get("kind")
    fields = _HANDLERS.get(kind) if type(kind) is str else None
    if fields is None:
        _fail("invalid_props", f"{path}.do.kind", "must be one of " + "|".join(_HANDLERS))
    names = {f.rstrip("?") for f in fields}
    _keys(handler, names | {"kind"}, "invalid_props", f"{path}.do")
    for field, shape in fields.items():
        name = field.rstrip("?")
        fpath = f"{path}.do.{name}"
        if name not in handler:
            if not field.endswith("?"):
                _fail("invalid_props", fpath, "required")
            continue
        item = handler[name]
        if shape == "id":
            check_id(item, fpath)
        elif shape == "json":
            check_json(item, fpath, "invalid_props")
        elif shape == "post|put":
            if item not in ("post", "put"):
                _fail("invalid_props", fpath, "must be post|put")
        elif not _string(item, 1, {"url": 2_048, "name": 200, "verb": 10}[shape]):
            _fail("invalid_props", fpath, "must be a short string")


def _check_repeat(value: object) -> None:
    repeat = _object(value, "invalid_props", "repeat")
    _keys(repeat, ("each", "as"), "invalid_props", "repeat")
    each = _object(repeat.get("each"), "invalid_props", "repeat.each")
    _keys(each, ("$bind", "$source"), "invalid_props", "repeat.each")
    bind = each.get("$bind")
    if type(bind) is not str or len(bind) > 200 or _BIND_PATH.fullmatch(bind) is None:
        _fail("invalid_props", "repeat.each.$bind", "must be a dotted data path")
    if "$source" in each:
        source = each["$source"]
        if type(source) is not list or not 1 <= len(source) <= 8 or not all(
            _string(s, 1, 100) or (type(s) is int and abs(s) <= MAX_NUMBER) for s in source
        ):
            _fail("invalid_props", "repeat.each.$source", "must be a list of 1..8 keys")
    name = repeat.get("as")
    if type(name) is not str or len(name) > 64 or _BIND_PATH.fullmatch(name) is None or "." in name:
        _fail("invalid_props", "repeat.as", "must be a name")


def check_json(value: object, path: str, code: str, depth: int = 0, budget: list[int] | None = None) -> None:
    """Bounded JSON without null: nested ≤ 4 deep, ≤ 500 values, strings ≤ 1,000 chars."""
    budget = [MAX_JSON_VALUES] if budget is None else budget
    budget[0] -= 1
    if budget[0] < 0 or depth > MAX_JSON_DEPTH:
        _fail(code, path, "too large or too deeply nested")
    if type(value) is bool or is_number(value) or _string(value, 0, 1_000, text=True):
        return
    if type(value) is list:
        for i, item in enumerate(value):
            check_json(item, f"{path}[{i}]", code, depth + 1, budget)
    elif type(value) is dict:
        for key, item in value.items():
            if type(key) is not str or len(key) > 64:
                _fail(code, f"{path}.{key_name(key)}", "keys must be strings of at most 64 chars")
            check_json(item, f"{path}.{key_name(key)}", code, depth + 1, budget)
    else:
        _fail(code, path, "must be a string, bounded number, boolean, list or object")
