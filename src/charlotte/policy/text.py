"""Text that can be stored at all: valid Unicode, no lone surrogates.

JSON's ``\\uD800`` escapes and Python strings can hold lone surrogates, which no
database column, page or log can store. The one rule for every boundary:

- input a person or the model sends (HTTP bodies and paths, tool bindings and
  tool arguments) is refused: ``is_unicode_text``, ``lone_surrogate_path``;
- what charlotte records of it (the event log: model text, tool calls) is
  repaired: ``storable_text``, ``storable_json`` put U+FFFD in place of each
  lone surrogate.

The checks live in ``charlotte.storage.text`` (storage, below this layer,
guards its own writes and reads with them) and are re-exported here.
"""

from __future__ import annotations

from typing import Any

from charlotte.storage.text import (
    REPLACEMENT,
    has_lone_surrogate,
    is_unicode_text,
    storable_json,
    storable_text,
)

__all__ = [
    "REPLACEMENT",
    "has_lone_surrogate",
    "is_person_text",
    "is_unicode_text",
    "lone_surrogate_path",
    "storable_json",
    "storable_text",
]


def is_person_text(text: str) -> bool:
    """True when a column can hold ``text`` as given: valid Unicode and no NUL.

    NUL is no character a person writes, and PostgreSQL text cannot hold it;
    a lone surrogate is no character at all. Pages, briefs, facts, turn
    messages, tenants and session ids are refused (a coded ``invalid_request``
    naming the field) rather than repaired.

    >>> is_person_text("Rosa's Bakery"), is_person_text("a\x00b"), is_person_text("\ud800")
    (True, False, False)
    """
    return "\x00" not in text and is_unicode_text(text)


def lone_surrogate_path(value: Any) -> tuple[str | int, ...] | None:
    """The path (keys and indexes) to the first string in ``value`` that is not Unicode, or None.

    A dict key that is not Unicode is named by its own path. Linear and
    iterative (any depth); the usual answer, None, costs one JSON encode.

    >>> lone_surrogate_path({"ops": [{"id": "a"}, {"id": "\\ud800"}]})
    ('ops', 1, 'id')
    """
    if not has_lone_surrogate(value):
        return None
    # Each entry: (index of its parent entry, its key or index, the value).
    # Parent links instead of a path per entry keep the walk linear.
    entries: list[tuple[int, str | int, Any]] = [(-1, "", value)]
    seen: set[int] = set()
    stack = [0]
    while stack:
        at = stack.pop()
        item = entries[at][2]
        if isinstance(item, str):
            if not is_unicode_text(item):
                return _path(entries, at)
            continue
        if not isinstance(item, dict | list | tuple) or id(item) in seen:
            continue
        seen.add(id(item))
        children = item.items() if isinstance(item, dict) else enumerate(item)
        first = len(entries)
        for key, child in children:
            if isinstance(key, str) and not is_unicode_text(key):
                child = key  # the key itself is what is not Unicode
            entries.append((at, key if isinstance(key, str | int) else str(key), child))
        # Reversed: the first child is looked at first.
        stack.extend(range(len(entries) - 1, first - 1, -1))
    return None


def _path(entries: list[tuple[int, str | int, Any]], at: int) -> tuple[str | int, ...]:
    parts: list[str | int] = []
    while at > 0:
        parent, key, _ = entries[at]
        parts.append(key)
        at = parent
    return tuple(reversed(parts))
