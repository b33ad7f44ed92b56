"""Shape, type and bound checks behind PageSession: nodes, ops and whole documents.

Every check raises ``PageSessionError(code, detail="<field>: <reason>")``; the
detail is built only from our own names (a key the caller made up is echoed
only when it is a short plain word, else ``?``). The style, constraint and
layout checks, and the value shapes all checks share, are in
``charlotte.page.validate_style`` and re-exported here. Codes by field:

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

import re
from collections.abc import Collection, Mapping
from typing import Any

from charlotte.page.node_types import (
    ID_PATTERN,
    MAX_NUMBER,
    MAX_STYLE_STRING,
    NodeTypes,
    PropSpec,
)
from charlotte.page.validate_style import (
    as_object,
    check_constraints,
    check_layout,
    check_style,
    check_style_value,
    fail,
    is_length,
    is_number,
    is_string,
    key_name,
)

__all__ = [
    "MAX_ACTIONS",
    "MAX_ANIMATIONS",
    "MAX_CLASSNAME",
    "MAX_JSON_DEPTH",
    "MAX_JSON_VALUES",
    "MAX_KEYFRAMES",
    "check_action",
    "check_actions",
    "check_animation",
    "check_animations",
    "check_constraints",
    "check_id",
    "check_json",
    "check_layout",
    "check_node",
    "check_order",
    "check_parent",
    "check_props",
    "check_style",
    "check_style_value",
    "is_id",
    "is_length",
    "is_number",
    "key_name",
]

_ID = re.compile(ID_PATTERN)
_ORDER = re.compile(r"[0-9A-Za-z]{1,10000}")
_TOKEN_KEY = re.compile(r"[A-Za-z0-9_$:.-]{1,64}")
_BIND_PATH = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z0-9_$]+)*")

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


def is_id(value: object) -> bool:
    """True for a string matching the node id pattern."""
    return type(value) is str and _ID.fullmatch(value) is not None


def _keys(value: dict[Any, Any], allowed: Collection[str], code: str, path: str) -> None:
    for key in value:
        if type(key) is not str or key not in allowed:
            fail(code, f"{path}.{key_name(key)}", "unknown field")


def check_id(value: object, path: str = "id") -> str:
    """``value`` when it is a valid node id, else ``invalid_id``."""
    if not is_id(value):
        fail("invalid_id", path, "must match " + ID_PATTERN)
    assert isinstance(value, str)
    return value


def check_parent(value: object, path: str = "parent") -> None:
    """A parent is a node id or None (a root)."""
    if value is not None:
        check_id(value, path)


def check_order(value: object, path: str = "order") -> None:
    """An ordering key: 1-10,000 base-62 characters."""
    if type(value) is not str or _ORDER.fullmatch(value) is None:
        fail("invalid_props", path, "must be an ordering key (0-9A-Za-z)")


def check_props(type_name: str, props: object, types: NodeTypes) -> None:
    """The props of a node of ``type_name``: known, typed, bounded, required ones present."""
    props = as_object(props, "invalid_props", "props")
    node_type = types.get(type_name)
    if node_type is None:
        fail("type_not_allowed", "type", "not in the catalogue")
    for key, value in props.items():
        spec = node_type.prop(key) if type(key) is str else None
        if spec is None:
            fail("invalid_props", f"props.{key_name(key)}", "unknown prop for " + node_type.name)
        _check_prop(spec, value)
    for spec in node_type.props:
        if spec.required and spec.name not in props:
            fail("invalid_props", f"props.{spec.name}", "required")


def _check_prop(spec: PropSpec, value: object) -> None:
    if spec.type == "integer":
        lo = spec.minimum if spec.minimum is not None else -MAX_NUMBER
        hi = spec.maximum if spec.maximum is not None else MAX_NUMBER
        if type(value) is not int or not lo <= value <= hi:
            fail("invalid_props", f"props.{spec.name}", f"must be an integer {lo}..{hi}")
    elif spec.enum is not None:
        if type(value) is not str or value not in spec.enum:
            fail("invalid_props", f"props.{spec.name}", "must be one of " + "|".join(spec.enum))
    elif not is_string(value, spec.min_length, spec.max_length or MAX_NUMBER, text=True):
        fail(
            "invalid_props",
            f"props.{spec.name}",
            f"must be a string of {spec.min_length}..{spec.max_length} chars",
        )


def check_node(node: object, types: NodeTypes, breakpoints: Collection[str]) -> None:
    """A whole node: fields, id, type, props, style and the optional extras."""
    node = as_object(node, "invalid_props", "node")
    _keys(node, _NODE_KEYS, "invalid_props", "node")
    check_id(node.get("id"), "id")
    if "parent" not in node:
        fail("invalid_id", "parent", "required (null for a root)")
    check_parent(node["parent"])
    type_name = node.get("type")
    if not isinstance(type_name, str) or type_name not in types:
        fail("type_not_allowed", "type", "not in the catalogue")
    check_order(node.get("order"))
    if "props" not in node:
        fail("invalid_props", "props", "required")
    check_props(type_name, node["props"], types)
    if "style" not in node:
        fail("invalid_style", "style", "required")
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
    if "className" in node and not is_string(node["className"], 0, MAX_CLASSNAME):
        fail("invalid_style", "className", f"must be a string of at most {MAX_CLASSNAME} chars")
    if "island" in node and type(node["island"]) is not bool:
        fail("invalid_props", "island", "must be a boolean")


def check_animations(value: object) -> None:
    """A node's animation list: at most 20, unique ids."""
    if type(value) is not list or len(value) > MAX_ANIMATIONS:
        fail("invalid_style", "animations", f"must be a list of at most {MAX_ANIMATIONS}")
    seen: set[str] = set()
    for i, anim in enumerate(value):
        check_animation(anim, f"animations[{i}]")
        if anim["id"] in seen:
            fail("invalid_style", f"animations[{i}].id", "duplicate")
        seen.add(anim["id"])


def check_animation(anim: object, path: str = "anim") -> None:
    """One animation: id, driver, keyframes and optional timing fields."""
    anim = as_object(anim, "invalid_style", path)
    _keys(anim, _ANIM_KEYS, "invalid_style", path)
    check_id(anim.get("id"), f"{path}.id")
    if anim.get("driver") not in _DRIVERS or type(anim.get("driver")) is not str:
        fail("invalid_style", f"{path}.driver", "must be one of " + "|".join(sorted(_DRIVERS)))
    frames = anim.get("keyframes")
    if type(frames) is not list or len(frames) > MAX_KEYFRAMES:
        fail("invalid_style", f"{path}.keyframes", f"must be a list of at most {MAX_KEYFRAMES}")
    for i, frame in enumerate(frames):
        fpath = f"{path}.keyframes[{i}]"
        frame = as_object(frame, "invalid_style", fpath)
        _keys(frame, ("at", "props"), "invalid_style", fpath)
        if not is_number(frame.get("at"), 0, 1):
            fail("invalid_style", f"{fpath}.at", "must be a number 0..1")
        props = as_object(frame.get("props"), "invalid_style", f"{fpath}.props")
        if len(props) > 30:
            fail("invalid_style", f"{fpath}.props", "at most 30 entries")
        for key, item in props.items():
            if type(key) is not str or _TOKEN_KEY.fullmatch(key) is None or not (
                is_number(item) or is_string(item, 0, MAX_STYLE_STRING)
            ):
                fail("invalid_style", f"{fpath}.props.{key_name(key)}", "must be a number or short string")
    if "range" in anim:
        rng = as_object(anim["range"], "invalid_style", f"{path}.range")
        if set(rng) != {"start", "end"} or not all(is_number(v) for v in rng.values()):
            fail("invalid_style", f"{path}.range", "must be {start: number, end: number}")
    for key in ("duration", "delay", "stagger"):
        if key in anim and not is_number(anim[key], 0):
            fail("invalid_style", f"{path}.{key}", f"must be a number 0..{MAX_NUMBER}")
    if "ease" in anim and not is_string(anim["ease"], 1, 100):
        fail("invalid_style", f"{path}.ease", "must be a string of 1..100 chars")
    if "once" in anim and type(anim["once"]) is not bool:
        fail("invalid_style", f"{path}.once", "must be a boolean")
    if "emit" in anim and anim["emit"] not in ("css", "js"):
        fail("invalid_style", f"{path}.emit", "must be css|js")


def check_actions(value: object) -> None:
    """A node's action list: at most 20."""
    if type(value) is not list or len(value) > MAX_ACTIONS:
        fail("invalid_props", "actions", f"must be a list of at most {MAX_ACTIONS}")
    for i, action in enumerate(value):
        check_action(action, f"actions[{i}]")


def check_action(action: object, path: str = "action") -> None:
    """One action ``{on, do}`` with a known handler kind and its fields."""
    action = as_object(action, "invalid_props", path)
    _keys(action, ("on", "do"), "invalid_props", path)
    on = action.get("on")
    if type(on) is not str or on not in _EVENTS:
        fail("invalid_props", f"{path}.on", "must be one of " + "|".join(sorted(_EVENTS)))
    handler = as_object(action.get("do"), "invalid_props", f"{path}.do")
    kind = handler.get("kind")
    fields = _HANDLERS.get(kind) if type(kind) is str else None
    if fields is None:
        fail("invalid_props", f"{path}.do.kind", "must be one of " + "|".join(_HANDLERS))
    names = {f.rstrip("?") for f in fields}
    _keys(handler, names | {"kind"}, "invalid_props", f"{path}.do")
    for field, shape in fields.items():
        name = field.rstrip("?")
        fpath = f"{path}.do.{name}"
        if name not in handler:
            if not field.endswith("?"):
                fail("invalid_props", fpath, "required")
            continue
        item = handler[name]
        if shape == "id":
            check_id(item, fpath)
        elif shape == "json":
            check_json(item, fpath, "invalid_props")
        elif shape == "post|put":
            if item not in ("post", "put"):
                fail("invalid_props", fpath, "must be post|put")
        elif not is_string(item, 1, {"url": 2_048, "name": 200, "verb": 10}[shape]):
            fail("invalid_props", fpath, "must be a short string")


def _check_repeat(value: object) -> None:
    repeat = as_object(value, "invalid_props", "repeat")
    _keys(repeat, ("each", "as"), "invalid_props", "repeat")
    each = as_object(repeat.get("each"), "invalid_props", "repeat.each")
    _keys(each, ("$bind", "$source"), "invalid_props", "repeat.each")
    bind = each.get("$bind")
    if type(bind) is not str or len(bind) > 200 or _BIND_PATH.fullmatch(bind) is None:
        fail("invalid_props", "repeat.each.$bind", "must be a dotted data path")
    if "$source" in each:
        source = each["$source"]
        if type(source) is not list or not 1 <= len(source) <= 8 or not all(
            is_string(s, 1, 100) or (type(s) is int and abs(s) <= MAX_NUMBER) for s in source
        ):
            fail("invalid_props", "repeat.each.$source", "must be a list of 1..8 keys")
    name = repeat.get("as")
    if type(name) is not str or len(name) > 64 or _BIND_PATH.fullmatch(name) is None or "." in name:
        fail("invalid_props", "repeat.as", "must be a name")


def check_json(value: object, path: str, code: str, depth: int = 0, budget: list[int] | None = None) -> None:
    """Bounded JSON without null: nested ≤ 4 deep, ≤ 500 values, strings ≤ 1,000 chars."""
    budget = [MAX_JSON_VALUES] if budget is None else budget
    budget[0] -= 1
    if budget[0] < 0 or depth > MAX_JSON_DEPTH:
        fail(code, path, "too large or too deeply nested")
    if type(value) is bool or is_number(value) or is_string(value, 0, 1_000, text=True):
        return
    if type(value) is list:
        for i, item in enumerate(value):
            check_json(item, f"{path}[{i}]", code, depth + 1, budget)
    elif type(value) is dict:
        for key, item in value.items():
            if type(key) is not str or len(key) > 64:
                fail(code, f"{path}.{key_name(key)}", "keys must be strings of at most 64 chars")
            check_json(item, f"{path}.{key_name(key)}", code, depth + 1, budget)
    else:
        fail(code, path, "must be a string, bounded number, boolean, list or object")
