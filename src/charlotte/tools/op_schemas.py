"""JSON schemas of the page's shapes and of the ops ``cms_apply`` takes.

One schema per op type the model may send (``t`` picks it; charlotte's own
``restore_*`` ops are never offered). They describe shapes and bounds: field
names, JSON types, enums, lengths. The deeper rules (which props a node type
needs, which breakpoints a page has, animation and action details) stay with
``PageSession``, whose coded errors name the field.

Objects with fixed fields set ``additionalProperties: false``; maps keyed by
the author (style per breakpoint, theme tokens, keyframe values) instead bound
their size with ``maxProperties`` and give a schema for their values. Shared
shapes live in ``$defs`` (``op_defs``) and are referred to as ``#/$defs/<name>``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from charlotte.page.integrity import MAX_SEO
from charlotte.page.node_types import (
    CONSTRAINT_KEYS,
    ID_PATTERN,
    LAYOUTS,
    LENGTH_UNITS,
    MAX_NODES,
    MAX_NUMBER,
    MAX_STYLE_STRING,
    SIZE_KEYWORDS,
    STYLE_KEYS,
    NodeTypes,
    PropSpec,
)
from charlotte.page.op_table import OP_TYPES
from charlotte.page.seo import (
    CANONICAL_PATTERN,
    LANG_PATTERN,
    MAX_CANONICAL,
    MAX_DESCRIPTION,
    MAX_IMAGE_ID,
    MAX_LANG,
    MAX_TITLE,
)

Schema = dict[str, Any]

_ORDER_MAX = 10_000
_BREAKPOINTS_MAX = 8
_ACTION_INDEX_MAX = 1_000


def ref(name: str) -> Schema:
    """A reference to ``$defs/<name>``."""
    return {"$ref": f"#/$defs/{name}"}


def closed_object(
    properties: Mapping[str, Schema], required: tuple[str, ...] = (), **extra: Any
) -> Schema:
    """An object with exactly these fields (``additionalProperties: false``)."""
    schema: Schema = {"type": "object", "properties": dict(properties)}
    if required:
        schema["required"] = list(required)
    schema["additionalProperties"] = False
    schema.update(extra)
    return schema


def bounded_map(values: Schema, max_properties: int, **extra: Any) -> Schema:
    """An object keyed by the author: at most ``max_properties`` entries of ``values``."""
    return {"type": "object", "additionalProperties": values, "maxProperties": max_properties, **extra}


NODE_ID: Schema = {"type": "string", "maxLength": 64, "pattern": ID_PATTERN, "title": "node id"}
_PARENT: Schema = {
    "type": ["string", "null"],
    "maxLength": 64,
    "pattern": ID_PATTERN,
    "title": "node id, or null for a root",
}
_ORDER: Schema = {
    "type": "string",
    "minLength": 1,
    "maxLength": _ORDER_MAX,
    "pattern": "^[0-9A-Za-z]+$",
    "title": "ordering key (0-9A-Za-z)",
}
_BREAKPOINT: Schema = {"type": "string", "minLength": 1, "maxLength": 32, "title": "breakpoint name"}
_NUMBER: Schema = {"type": "number", "minimum": -MAX_NUMBER, "maximum": MAX_NUMBER}
_LENGTH: Schema = closed_object(
    {"value": _NUMBER, "unit": {"enum": list(LENGTH_UNITS)}},
    ("value", "unit"),
    title="Length {value, unit}",
)


def _style_value(kind: str, enum: tuple[str, ...], lo: float, hi: float) -> Schema:
    if kind == "length":
        return ref("length")
    if kind == "string":
        return {"type": "string", "minLength": 1, "maxLength": MAX_STYLE_STRING}
    if kind == "enum":
        return {"enum": list(enum)}
    return {"type": kind, "minimum": lo, "maximum": hi}


_STYLE: Schema = closed_object(
    {k.name: _style_value(k.kind, k.enum, k.minimum, k.maximum) for k in STYLE_KEYS.values()},
    title="StyleProps",
)
_CONSTRAINT_VALUES: Mapping[str, Schema] = {
    "offset": {"anyOf": [ref("length"), {"type": "null"}]},
    "flag": {"type": "boolean"},
    "size": {"anyOf": [ref("length"), {"enum": list(SIZE_KEYWORDS)}]},
}
_CONSTRAINTS: Schema = closed_object(
    {key: _CONSTRAINT_VALUES[kind] for key, kind in CONSTRAINT_KEYS.items()}, title="Constraints"
)


def _per_breakpoint(values: str, base: Schema, title: str) -> Schema:
    return bounded_map(
        ref(values),
        _BREAKPOINTS_MAX,
        properties={"base": base},
        required=["base"],
        title=title,
    )


_NODE_STYLE = _per_breakpoint("style", ref("style"), "{base: StyleProps, <breakpoint>?: StyleProps}")
_NODE_CONSTRAINTS = _per_breakpoint(
    "constraints",
    {"$ref": "#/$defs/constraints", "required": ["width", "height"]},
    "{base: Constraints with width and height, <breakpoint>?: Constraints}",
)
_TIME: Schema = {"type": "number", "minimum": 0, "maximum": MAX_NUMBER}
_KEYFRAME: Schema = closed_object(
    {
        "at": {"type": "number", "minimum": 0, "maximum": 1},
        "props": bounded_map(
            {
                "type": ["number", "string"],
                "maxLength": MAX_STYLE_STRING,
                "minimum": -MAX_NUMBER,
                "maximum": MAX_NUMBER,
            },
            30,
        ),
    },
    ("at", "props"),
)
_ANIMATION: Schema = closed_object(
    {
        "id": ref("id"),
        "driver": {"type": "string", "maxLength": 20, "description": "enter|scroll|loop|hover|click|drag"},
        "keyframes": {"type": "array", "maxItems": 50, "items": _KEYFRAME},
        "range": closed_object({"start": _NUMBER, "end": _NUMBER}, ("start", "end")),
        "ease": {"type": "string", "minLength": 1, "maxLength": 100},
        "duration": _TIME,
        "delay": _TIME,
        "stagger": _TIME,
        "once": {"type": "boolean"},
        "emit": {"enum": ["css", "js"]},
    },
    ("id", "driver", "keyframes"),
    title="animation {id, driver, keyframes, ...}",
)
_ACTION: Schema = closed_object(
    {
        "on": {
            "type": "string",
            "maxLength": 20,
            "description": "click|submit|change|load|timer|scroll-into|hover",
        },
        "do": {
            "type": "object",
            "properties": {"kind": {"type": "string", "maxLength": 40}},
            "required": ["kind"],
            "maxProperties": 4,
            "title": "handler {kind, ...}",
            "description": "kind navigate {href}, submitForm {endpoint, method?}, mutate {target, value}, "
            "callEndpoint {endpoint, method?}, runFlow {flow}, openModal|openDrawer|toggleNode {node}, "
            "playTimeline {section}",
        },
    },
    ("on", "do"),
    title="action {on, do}",
)


def _props_schema(types: NodeTypes) -> Schema:
    """Every prop any node type has, typed loosely; each type's own rules stay with PageSession."""
    merged: dict[str, list[PropSpec]] = {}
    for name in types.names():
        node_type = types.get(name)
        assert node_type is not None
        for spec in node_type.props:
            merged.setdefault(spec.name, []).append(spec)
    properties: dict[str, Schema] = {}
    for name, specs in merged.items():
        if specs[0].type == "integer":
            lows = [s.minimum for s in specs]
            highs = [s.maximum for s in specs]
            properties[name] = {
                "type": "integer",
                "minimum": min(lo if lo is not None else -MAX_NUMBER for lo in lows),
                "maximum": max(hi if hi is not None else MAX_NUMBER for hi in highs),
            }
        elif all(s.enum is not None for s in specs):
            values = dict.fromkeys(v for s in specs for v in s.enum or ())
            properties[name] = {"enum": list(values)}
        else:
            properties[name] = {
                "type": "string",
                "maxLength": max(s.max_length or MAX_NUMBER for s in specs),
            }
    return closed_object(properties, title="props (see cms_types for each type's props)")


_SEO: Schema = bounded_map(
    {"type": "string", "maxLength": 1_000},
    MAX_SEO,
    properties={
        "description": {
            "type": "string",
            "maxLength": MAX_DESCRIPTION,
            "pattern": "^[^\\n\\r]*$",
            "description": f"one plain sentence for search results, one line of at most {MAX_DESCRIPTION} chars",
        },
        "lang": {
            "type": "string",
            "maxLength": MAX_LANG,
            "pattern": LANG_PATTERN,
            "description": "the page's language, a BCP 47 tag: en, en-GB, pt-BR, zh-Hant-TW",
        },
        "canonical": {
            "type": "string",
            "maxLength": MAX_CANONICAL,
            "pattern": CANONICAL_PATTERN,
            "description": "the page's path on this site, such as /about (no scheme, host or //)",
        },
        "image": {
            "type": "string",
            "maxLength": MAX_IMAGE_ID,
            "description": "the social image: an asset id from the host asset library (as an image "
            "node's asset, see cms_types), never a URL",
        },
    },
    title="seo {description, lang, canonical, image}",
    description="Replaced as a whole when set: send every entry to keep. An empty string means not set.",
)
_META: Schema = closed_object(
    {
        "title": {
            "type": "string",
            "maxLength": MAX_TITLE,
            "description": f"the page's title (browser tab, search results), at most {MAX_TITLE} chars",
        },
        "slug": {"type": "string", "minLength": 1, "maxLength": 500},
        "scrollMode": {"enum": ["snap", "smooth"]},
        "seo": _SEO,
    },
    title="meta {title, slug, scrollMode, seo}",
)
_THEME: Schema = bounded_map({}, 100, title="theme tokens")


def _node_schema(types: NodeTypes) -> Schema:
    return closed_object(
        {
            "id": ref("id"),
            "type": {"enum": types.names()},
            "parent": ref("parent"),
            "order": ref("order"),
            "props": ref("props"),
            "style": _NODE_STYLE,
            "layout": {"enum": list(LAYOUTS)},
            "constraints": _NODE_CONSTRAINTS,
            "animations": {"type": "array", "maxItems": 20, "items": ref("animation")},
            "actions": {"type": "array", "maxItems": 20, "items": ref("action")},
            "repeat": {"type": "object", "maxProperties": 2},
            "className": {"type": "string", "maxLength": 500},
            "island": {"type": "boolean"},
        },
        ("id", "type", "parent"),
        title="node",
    )


def _op(t: str, description: str, fields: Mapping[str, Schema], required: tuple[str, ...]) -> Schema:
    return closed_object({"t": {"const": t}, **fields}, ("t", *required), description=description)


_ID_FIELD = {"id": ref("id")}
_OPS: Mapping[str, Schema] = {
    "insert_node": _op(
        "insert_node",
        "Add a node. order omitted: appended after its siblings; props default {}, style {base: {}}.",
        {"node": ref("node")},
        ("node",),
    ),
    "remove_node": _op("remove_node", "Remove a node and all its descendants.", _ID_FIELD, ("id",)),
    "move_node": _op(
        "move_node",
        "Give a node a new parent (null: a root) and ordering key.",
        {**_ID_FIELD, "parent": ref("parent"), "order": ref("order")},
        ("id", "parent", "order"),
    ),
    "set_node_props": _op(
        "set_node_props",
        "Merge props into a node's props.",
        {**_ID_FIELD, "patch": ref("props")},
        ("id", "patch"),
    ),
    "set_layout": _op(
        "set_layout",
        "Set how a node lays out its children; null or omitted removes it.",
        {**_ID_FIELD, "layout": {"enum": [*LAYOUTS, None]}},
        ("id",),
    ),
    "set_style": _op(
        "set_style",
        "Merge style values into one breakpoint of a node's style.",
        {**_ID_FIELD, "breakpoint": _BREAKPOINT, "patch": ref("style")},
        ("id", "breakpoint", "patch"),
    ),
    "set_constraints": _op(
        "set_constraints",
        "Merge constraint values into one breakpoint of a node's constraints.",
        {**_ID_FIELD, "breakpoint": _BREAKPOINT, "patch": ref("constraints")},
        ("id", "breakpoint", "patch"),
    ),
    "set_animation": _op(
        "set_animation",
        "Add an animation to a node, or replace the one with the same id.",
        {**_ID_FIELD, "anim": ref("animation")},
        ("id", "anim"),
    ),
    "remove_animation": _op(
        "remove_animation",
        "Remove one animation from a node.",
        {**_ID_FIELD, "animId": ref("id")},
        ("id", "animId"),
    ),
    "set_action": _op(
        "set_action",
        "Set the node's action at index (past the end: append); null removes it.",
        {
            **_ID_FIELD,
            "index": {"type": "integer", "minimum": 0, "maximum": _ACTION_INDEX_MAX},
            "action": {"anyOf": [ref("action"), {"type": "null"}]},
        },
        ("id", "index", "action"),
    ),
    "set_meta": _op(
        "set_meta",
        "Merge fields into the page's meta: title (at most 120 chars) and seo (description: one "
        "sentence, at most 300 chars; lang: a BCP 47 tag; canonical: a path on this site; image: "
        "an asset id). seo is replaced as a whole.",
        {"patch": ref("meta")},
        ("patch",),
    ),
    "set_theme": _op("set_theme", "Merge tokens into the page's theme.", {"patch": _THEME}, ("patch",)),
    "reorder_roots": _op(
        "reorder_roots",
        "Put the root nodes in this order (every root exactly once).",
        {"order": {"type": "array", "maxItems": MAX_NODES, "items": ref("id")}},
        ("order",),
    ),
}
assert frozenset(_OPS) == OP_TYPES, "every op the model may send has a schema"

#: Op types in the order the schema lists them.
OP_NAMES: tuple[str, ...] = tuple(_OPS)


def op_defs(types: NodeTypes) -> Schema:
    """The ``$defs`` every op schema refers to, including one entry per op (``op_<t>``)."""
    return {
        "id": NODE_ID,
        "parent": _PARENT,
        "order": _ORDER,
        "length": _LENGTH,
        "style": _STYLE,
        "constraints": _CONSTRAINTS,
        "props": _props_schema(types),
        "node": _node_schema(types),
        "animation": _ANIMATION,
        "action": _ACTION,
        "meta": _META,
        **{f"op_{t}": schema for t, schema in _OPS.items()},
    }
