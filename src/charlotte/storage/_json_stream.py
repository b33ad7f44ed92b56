"""A stored JSON array a value at a time: decoded one by one, appended to as text.

The fast path of a change set's ops (``ChangeSet.each_op``,
``ChangeSetStore.extend``): a long stored array is never decoded whole nor
encoded again. The plain path it must equal is ``types.loads`` of the whole
text (values, and ``ValueError`` for what is not a JSON array) and
``types.dumps`` of the decoded list with the new values appended; the tests
compare them (``tests/unit/storage/test_types.py``). Why it pays, in figures:
``docs/performance.md``, "Figures by part", ``storage/_json_stream.py``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any, Final

from charlotte.storage.types import dumps, loads, may_hold_lone_surrogate, refuse_constant

__all__ = ["extend_array", "loads_each", "loads_each_text"]

# One value at an index (the C scanner json.loads itself uses) and the JSON whitespace
# between values (json.decoder's own WHITESPACE, which its type stubs do not declare).
_SCAN: Final[Callable[[str, int], tuple[Any, int]]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]
_SCAN_STRICT: Final[Callable[[str, int], tuple[Any, int]]] = json.JSONDecoder(
    parse_constant=refuse_constant
).scan_once  # type: ignore[attr-defined]
_SPACE: Final = re.compile(r"[ \t\n\r]*")


def _skip(text: str, at: int) -> int:
    """The index of the first non-whitespace character of ``text`` from ``at`` (or its length)."""
    space = _SPACE.match(text, at)
    return at if space is None else space.end()


def loads_each(text: str) -> Iterator[Any]:
    """Each value of the stored JSON array ``text``, decoded one at a time, as ``loads`` would.

    A caller that uses each value and drops it never holds them all: a long
    change set is decoded op by op while it replays, instead of as one list
    whose containers outlive the garbage collector's young generations (see
    ``docs/performance.md``, "Figures by part"). Raises ``ValueError`` (when
    the iteration reaches it) for text that is not a JSON array; a text that
    may spell a lone surrogate is decoded whole by ``loads`` first (the rare
    case, repaired the same way).
    """
    for value, _text in _each(text, with_text=False):
        yield value


def loads_each_text(text: str) -> Iterator[tuple[Any, str | None]]:
    """``loads_each``, each value with its own text in ``text`` (``None`` where there is none).

    The text is the element as stored (``dumps`` wrote it), so a caller
    storing the value again stores it instead of encoding the value anew.
    NaN and infinity are ``ValueError`` here (``dumps`` never writes them), and a
    text that may spell a lone surrogate is decoded whole: its values come
    with ``None`` (their repaired value is not what the text says).
    """
    return _each(text, with_text=True)


def _each(text: str, *, with_text: bool) -> Iterator[tuple[Any, str | None]]:
    """``loads_each`` (NaN allowed, as ``loads``) or ``loads_each_text`` (``with_text``: strict)."""
    scan = _SCAN_STRICT if with_text else _SCAN
    if may_hold_lone_surrogate(text):
        value = loads(text, allow_nan=not with_text)
        if type(value) is not list:
            raise ValueError("not a JSON array")
        for item in value:
            yield item, None
        return
    at = _skip(text, 0)
    if text[at : at + 1] != "[":
        raise ValueError("not a JSON array")
    at = _skip(text, at + 1)
    if text[at : at + 1] == "]":
        _at_end(text, at + 1)
        return
    while True:
        try:
            value, end = scan(text, at)
        except StopIteration:
            raise ValueError("not a JSON array") from None
        yield value, text[at:end] if with_text else None
        at = _skip(text, end)
        mark = text[at : at + 1]
        if mark == "]":
            _at_end(text, at + 1)
            return
        if mark != ",":
            raise ValueError("not a JSON array")
        at = _skip(text, at + 1)


def _at_end(text: str, at: int) -> None:
    if _skip(text, at) != len(text):
        raise ValueError("not a JSON array")


def extend_array(text: str, values: list[Any]) -> str:
    """The stored JSON array ``text`` with ``values`` appended, without decoding ``text``.

    ``dumps`` writes ``values`` and ``text`` is spliced: a long stored array
    is copied once, never decoded or encoded again. Raises ``ValueError`` when
    ``text`` does not start with ``[`` and end with ``]``, and what ``dumps`` raises.
    """
    head = text.strip(" \t\n\r")  # the same object when there is nothing to strip
    if not (head.startswith("[") and head.endswith("]")):
        raise ValueError("not a JSON array")
    if not values:
        return head
    tail = dumps(values)
    if _skip(head, 1) == len(head) - 1:  # an empty array
        return tail
    return head[:-1] + "," + tail[1:]
