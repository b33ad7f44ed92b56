"""Column types that behave the same on SQLite and PostgreSQL.

``JsonText`` stores JSON as compact text that charlotte serialises itself:
it was as fast as ``sa.JSON``/``json`` or faster on both databases, and
``jsonb`` much slower (the figures: ``docs/performance.md``, "Figures by part",
``storage/types.py``); it stores the same bytes on both databases, refuses
NaN/Infinity (not JSON) and never depends on a driver's JSON adapter.
Nothing queries inside the documents, so the server need not parse them.

Only Unicode text is stored: ``dumps`` refuses a value holding a lone
surrogate (``ValueError``, as for NaN), like a driver refuses it in a text
column; ``loads`` repairs one that older versions stored as a ``\\uD800``
escape (U+FFFD, ``charlotte.storage.text``), so such a row reads, and saves
again, as Unicode. Both look for an escape of a lone surrogate in the text
first (a backslash, then one regular expression): the usual value has none.

``UtcDateTime`` stores aware UTC datetimes and always reads them back aware
(SQLite has no time zones; its values are stored as naive UTC).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from json.encoder import encode_basestring_ascii
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import Dialect

from charlotte.storage.text import has_lone_surrogate, storable_json

__all__ = [
    "JsonText",
    "UtcDateTime",
    "dumps",
    "dumps_each",
    "dumps_reusing",
    "loads",
    "may_hold_lone_surrogate",
    "refuse_constant",
]

# A \u escape of a high surrogate not followed by a low one, or of a low one
# not preceded by a high one. One branch starting with the literal "\u": the
# engine then skips to each escape instead of trying every position. Fixed-width
# lookarounds: linear in the text. It may also match after an escaped
# backslash ("\\ud800" spells six plain characters), so a match is confirmed
# on the decoded value.
_LONE_ESCAPE: Final = re.compile(
    r"\\u[dD](?:[89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])"
    r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD])[c-fC-F][0-9a-fA-F]{2})"
)


def may_hold_lone_surrogate(text: str) -> bool:
    """False when the JSON ``text`` surely spells no lone surrogate (the usual case: no escape of one)."""
    # One character is found with memchr, far cheaper than the expression (see
    # docs/performance.md, "Figures by part"); most texts have no escape at all.
    if "\\" not in text:
        return False
    return _LONE_ESCAPE.search(text) is not None


# ``json.dumps(value, separators=(",", ":"), allow_nan=False)`` without building an
# encoder per call: the C encoder json.dumps itself would use, made with fresh
# circular-reference markers each time (its markers are left dirty by a failure).
_ENCODER: Final = json.JSONEncoder(separators=(",", ":"), allow_nan=False)
_C_MAKE_ENCODER: Final[Callable[..., Any] | None] = getattr(json.encoder, "c_make_encoder", None)


def _compact(value: Any) -> str:
    """``value`` as compact JSON text, exactly as ``json.dumps`` with charlotte's options writes it."""
    if _C_MAKE_ENCODER is None:
        return _ENCODER.encode(value)
    encode = _C_MAKE_ENCODER(
        {}, _ENCODER.default, encode_basestring_ascii, None, ":", ",", False, False, False
    )
    return "".join(encode(value, 0))


def _checked(text: str) -> str:
    # Confirmed on the text read back: a surrogate pair left as two code
    # points is written as its pair escape, which reads as the character.
    if may_hold_lone_surrogate(text) and has_lone_surrogate(json.loads(text)):
        raise ValueError("text that is not Unicode")
    return text


def dumps(value: Any) -> str:
    """``value`` as the compact JSON text charlotte stores.

    Raises ``ValueError`` for NaN or infinity and for text that is not
    Unicode (a lone surrogate), ``TypeError`` for other non-JSON values.
    """
    return _checked(_compact(value))


def dumps_each(values: Iterable[Any]) -> list[str | None]:
    """``dumps`` of each value (None stays None: a NULL column), one encoder set up for all.

    Raises what ``dumps`` raises, at the first value that fails.
    """
    if _C_MAKE_ENCODER is None:
        return [None if value is None else dumps(value) for value in values]
    # One encoder for the batch: its markers are clean after every value that
    # encodes, and the batch ends with the first that fails.
    encode = _C_MAKE_ENCODER(
        {}, _ENCODER.default, encode_basestring_ascii, None, ":", ",", False, False, False
    )
    join = "".join
    return [None if value is None else _checked(join(encode(value, 0))) for value in values]


#: Each member of a mapping with its stored text (``"name":value``) and the object it was made from.
Members = Mapping[str, tuple[Any, str]]


def dumps_reusing(value: Any, key: str, held: Members | None) -> tuple[str, dict[str, tuple[Any, str]]]:
    """``dumps(value)``, reusing the text of each member of ``value[key]`` held from an earlier call.

    ``value[key]`` is a mapping of names to objects (a page's node map). A
    member whose object *is* the one ``held`` names (identity, not equality)
    keeps its text; the others are encoded. Returns the text, the same as
    ``dumps(value)`` writes with the same errors, and the members' texts to
    hand to the next call. Only for objects nobody mutates once encoded (a
    copy-on-write document: a change makes a new object).
    """
    members = value.get(key) if type(value) is dict else None
    if type(members) is not dict:
        return dumps(value), {}
    texts: dict[str, tuple[Any, str]] = {}
    parts: list[str] = []
    find = held.get if held else None
    for name, item in members.items():
        if type(name) is not str:
            return dumps(value), {}  # json.dumps converts such names: let it
        entry = find(name) if find is not None else None
        if entry is None or entry[0] is not item:
            entry = (item, encode_basestring_ascii(name) + ":" + _compact(item))
        texts[name] = entry
        parts.append(entry[1])
    inner = "{" + ",".join(parts) + "}"
    top: list[str] = []
    for name, item in value.items():
        if type(name) is not str:
            return dumps(value), {}
        top.append(encode_basestring_ascii(name) + ":" + (inner if name == key else _compact(item)))
    return _checked("{" + ",".join(top) + "}"), texts


def refuse_constant(_name: str) -> Any:
    """A JSON decoder's ``parse_constant`` that refuses NaN and infinity (``ValueError``)."""
    raise ValueError("NaN and infinity are not JSON")


def loads(text: str, *, allow_nan: bool = True) -> Any:
    """The value of stored JSON ``text``, lone surrogates replaced by U+FFFD.

    Raises ``ValueError`` for text that is not JSON, and with
    ``allow_nan=False`` for NaN and infinity (which JSON lacks).
    """
    value = json.loads(text) if allow_nan else json.loads(text, parse_constant=refuse_constant)
    return storable_json(value) if may_hold_lone_surrogate(text) else value


class JsonText(sa.types.TypeDecorator[Any]):
    """A JSON value stored as TEXT, serialised by charlotte (see module docstring)."""

    impl = sa.Text
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> str | None:
        return None if value is None else dumps(value)

    def process_result_value(self, value: Any, dialect: Dialect) -> Any:
        return None if value is None else loads(value)


class UtcDateTime(sa.types.TypeDecorator[datetime]):
    """An aware UTC datetime; naive datetimes are refused on write."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
