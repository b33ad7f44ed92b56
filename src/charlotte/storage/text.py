"""Text storage can hold: valid Unicode, so no lone surrogates.

A Python string (and JSON's ``\\uD800`` escape) can hold a surrogate code
point on its own; it is no Unicode text, no UTF-8 column can hold it, and a
JSON answer or stream frame carrying it fails to encode. The rules live here,
at the lowest layer that needs them (the event log repairs its payloads, the
JSON columns refuse such values and repair what older versions stored);
``charlotte.policy.text`` re-exports them for every boundary above.

- ``is_unicode_text``: a yes/no check (boundaries refuse with it).
- ``storable_text``: lone surrogates become U+FFFD; a surrogate pair left in a
  Python string becomes the character it spells.
- ``storable_json``: ``storable_text`` over every string of a JSON-shaped
  value, dict keys included.

Each is linear in its input; the usual case (valid text) costs one UTF-8
encode in C.
"""

from __future__ import annotations

import json
from typing import Any, Final

__all__ = ["REPLACEMENT", "has_lone_surrogate", "is_unicode_text", "storable_json", "storable_text"]

#: What a lone surrogate becomes: U+FFFD REPLACEMENT CHARACTER.
REPLACEMENT: Final = "\ufffd"


def is_unicode_text(text: str) -> bool:
    """True when ``text`` is valid Unicode (no lone surrogates): it encodes as UTF-8."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def storable_text(text: str) -> str:
    """``text`` with each lone surrogate replaced by U+FFFD (``text`` itself when it is valid).

    >>> storable_text("a\\ud800b") == "a\\ufffdb"
    True
    """
    if is_unicode_text(text):
        return text
    # UTF-16 has a code unit for every surrogate: pairs decode to their
    # character, and the decoder replaces each unpaired unit with U+FFFD.
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def has_lone_surrogate(value: Any) -> bool:
    """True when a string anywhere in the JSON-shaped ``value`` (dict keys included) is not Unicode."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        # Not JSON (another type, a cycle, too deep for the encoder): look at every string.
        return _walk_finds(value)
    return not is_unicode_text(text)


def storable_json(value: Any) -> Any:
    """``value`` with ``storable_text`` applied to every string and dict key.

    ``value`` itself when nothing needs replacing; otherwise a copy (tuples
    become lists, as JSON has them). Values of other types are kept as they
    are. Iterative, so any depth; a container met twice is copied once.
    """
    if isinstance(value, str):
        return storable_text(value)
    if not isinstance(value, dict | list | tuple) or not has_lone_surrogate(value):
        return value
    copies: dict[int, Any] = {}
    stack: list[tuple[Any, Any]] = []
    root = _placed(value, stack, copies)
    while stack:
        source, target = stack.pop()
        if isinstance(source, dict):
            for key, item in source.items():
                name = storable_text(key) if isinstance(key, str) else key
                target[name] = _placed(item, stack, copies)
        else:
            target.extend(_placed(item, stack, copies) for item in source)
    return root


def _placed(item: Any, stack: list[tuple[Any, Any]], copies: dict[int, Any]) -> Any:
    """``item`` repaired; a container becomes its (still empty) copy, filled when ``stack`` reaches it."""
    if isinstance(item, str):
        return storable_text(item)
    if not isinstance(item, dict | list | tuple):
        return item
    copy = copies.get(id(item))
    if copy is None:
        copy = {} if isinstance(item, dict) else []
        copies[id(item)] = copy
        stack.append((item, copy))
    return copy


def _walk_finds(value: Any) -> bool:
    seen: set[int] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not is_unicode_text(item):
                return True
        elif isinstance(item, dict | list | tuple) and id(item) not in seen:
            seen.add(id(item))
            stack.extend(item.keys() if isinstance(item, dict) else ())
            stack.extend(item.values() if isinstance(item, dict) else item)
    return False
