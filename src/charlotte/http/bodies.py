"""Request bodies of the HTTP API: bytes in, one JSON value out.

``json_body`` refuses, with ``Refused("invalid_json")``, bytes that are not one
JSON value: not UTF-8, ``NaN``/``Infinity``, nesting deeper than ``MAX_DEPTH``,
an object naming a key twice, text that is not Unicode. The value's shape (which
keys, which types) is each route's ``Body`` (``charlotte.http.specs``); values
themselves (lengths, NUL characters, facts, ops) are checked by the layer that
owns them (``Charlotte``, ``Turns``, ``PageSession``).
"""

from __future__ import annotations

import json
from typing import Any, Final

from charlotte.errors import Refused
from charlotte.policy.text import has_lone_surrogate

__all__ = ["MAX_DEPTH", "json_body"]

#: The deepest nesting of arrays and objects a body may have.
MAX_DEPTH: Final = 64


def _refuse_constant(_name: str) -> Any:
    # NaN and Infinity are not JSON, whatever the json module accepts.
    raise ValueError("not JSON")


def json_body(body: bytes) -> Any:
    """The one JSON value in ``body`` (UTF-8); ``invalid_json`` otherwise."""
    try:
        text = body.decode("utf-8")
        value = json.loads(text, parse_constant=_refuse_constant, object_pairs_hook=_unique_keys)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Refused("invalid_json") from None
    if _depth_over(value, MAX_DEPTH):
        raise Refused("invalid_json")
    if has_lone_surrogate(value):
        # JSON's \\uD800 escapes can spell text that is not Unicode: no column,
        # page or log could store it, so it is refused at the door.
        raise Refused("invalid_json")
    return value


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # Last-one-wins would let a body say two things: what a proxy or log
    # checked and what charlotte acts on.
    value = dict(pairs)
    if len(value) != len(pairs):
        raise ValueError("a key named twice")
    return value


def _depth_over(value: Any, limit: int) -> bool:
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False
