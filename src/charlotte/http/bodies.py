"""Request bodies and query strings of the HTTP API: bytes in, checked values out.

Every failure is a ``Refused`` with a stable code: ``invalid_json`` for bytes
that are not one JSON value (also: not UTF-8, ``NaN``/``Infinity``, nesting
deeper than ``MAX_DEPTH``, an object naming a key twice, text that is not
Unicode), ``invalid_request`` for JSON of the wrong shape, with ``field``
naming the key (an unknown key too: no route ignores one). Values themselves
(lengths, NUL characters, facts, ops) are checked by the layer that owns them
(``Charlotte``, ``Turns``, ``PageSession``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, Final

from charlotte.errors import Refused
from charlotte.policy.text import has_lone_surrogate
from charlotte.session import MAX_SEQ

__all__ = [
    "MAX_DEPTH",
    "events_query",
    "json_body",
    "messages_query",
    "no_body",
    "object_with",
    "optional_body",
    "palette_query",
    "sessions_query",
]

#: The deepest nesting of arrays and objects a body may have.
MAX_DEPTH: Final = 64

# A count or cursor: up to the digits of the largest seq a session's reads take.
_COUNT: Final = re.compile(rf"[0-9]{{1,{len(str(MAX_SEQ))}}}")


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


def no_body(body: bytes) -> None:
    """A route that takes no body accepts an empty one or ``{}``: any key is unknown."""
    if body.strip():
        object_with(json_body(body), {}, {})


def optional_body(body: bytes) -> Any:
    """The JSON value of a body that may be left out (empty: ``{}``)."""
    return json_body(body) if body.strip() else {}


def object_with(
    value: Any,
    required: Mapping[str, type | tuple[type, ...]],
    optional: Mapping[str, type | tuple[type, ...]],
) -> dict[str, Any]:
    """``value`` as an object holding exactly these keys with these JSON types (``invalid_request``)."""
    if not isinstance(value, dict):
        raise Refused("invalid_request", detail={"field": "body"})
    for key in value:
        if key not in required and key not in optional:
            raise Refused("invalid_request", detail={"field": str(key)[:64]})
    for key in required:
        if key not in value:
            raise Refused("invalid_request", detail={"field": key})
    for key, kind in {**required, **optional}.items():
        if key in value and not _is(value[key], kind):
            raise Refused("invalid_request", detail={"field": key})
    return value


def events_query(query: Mapping[str, str]) -> tuple[int, int]:
    """``after`` (default 0) and ``limit`` (default 100) as non-negative integers."""
    return _count(query, "after", 0), _count(query, "limit", 100)


def messages_query(query: Mapping[str, str]) -> tuple[int, int | None]:
    """``limit`` (default 50) and ``before`` (default none) as non-negative integers."""
    before = _count(query, "before", -1)
    return _count(query, "limit", 50), None if before == -1 else before


def sessions_query(query: Mapping[str, str]) -> tuple[str, int, str | None]:
    """``page`` (required), ``limit`` (default 20) and ``before`` (a session id, default none)."""
    page = query.get("page")
    if not isinstance(page, str):
        raise Refused("invalid_request", detail={"field": "page"})
    before = query.get("before")
    if before is not None and not isinstance(before, str):
        raise Refused("invalid_request", detail={"field": "before"})
    return page, _count(query, "limit", 20), before


def palette_query(query: Mapping[str, str]) -> tuple[str, str | None]:
    """``kind`` (required) and ``after`` (a node id, default none), each at most 64 characters."""
    kind = query.get("kind")
    if not isinstance(kind, str) or not 0 < len(kind) <= 64:
        raise Refused("invalid_request", detail={"field": "kind"})
    after = query.get("after")
    if after is not None and not (isinstance(after, str) and 0 < len(after) <= 64):
        raise Refused("invalid_request", detail={"field": "after"})
    return kind, after


def _count(query: Mapping[str, str], name: str, default: int) -> int:
    raw = query.get(name)
    if raw is None:
        return default
    if not isinstance(raw, str) or _COUNT.fullmatch(raw) is None:
        raise Refused("invalid_request", detail={"field": name})
    return int(raw)


def _is(value: Any, kind: type | tuple[type, ...]) -> bool:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    # JSON true is not a number: bool is an int subclass in Python.
    if isinstance(value, bool) and bool not in kinds:
        return False
    return isinstance(value, kinds)


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
