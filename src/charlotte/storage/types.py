"""Column types that behave the same on SQLite and PostgreSQL.

``JsonText`` stores JSON as compact text that charlotte serialises itself.
Measured for a 1,000-node page document (~300 kB), median of 300 writes:
SQLite, ``sa.JSON`` 2.5-3.0 ms vs text 2.8 ms per update (a tie: json.dumps
dominates); PostgreSQL, ``json`` 4.3-4.9 ms, text 4.0-4.2 ms, ``jsonb`` 8.7-9.0
ms. Text wins or ties everywhere, stores the same bytes on both databases,
refuses NaN/Infinity (not JSON) and never depends on a driver's JSON adapter.
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
from datetime import UTC, datetime
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import Dialect

from charlotte.storage.text import has_lone_surrogate, storable_json

__all__ = ["JsonText", "UtcDateTime", "dumps", "loads"]

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


def _may_hold_lone_surrogate(text: str) -> bool:
    """False when the JSON ``text`` surely spells no lone surrogate (the usual case: no escape of one)."""
    # One character is found with memchr (about 1 us per 100 kB); most texts have no escape at all.
    if "\\" not in text:
        return False
    return _LONE_ESCAPE.search(text) is not None


def dumps(value: Any) -> str:
    """``value`` as the compact JSON text charlotte stores.

    Raises ``ValueError`` for NaN or infinity and for text that is not
    Unicode (a lone surrogate), ``TypeError`` for other non-JSON values.
    """
    text = json.dumps(value, separators=(",", ":"), allow_nan=False)
    # Confirmed on the text read back: a surrogate pair left as two code
    # points is written as its pair escape, which reads as the character.
    if _may_hold_lone_surrogate(text) and has_lone_surrogate(json.loads(text)):
        raise ValueError("text that is not Unicode")
    return text


def loads(text: str, *, allow_nan: bool = True) -> Any:
    """The value of stored JSON ``text``, lone surrogates replaced by U+FFFD.

    Raises ``ValueError`` for text that is not JSON, and with
    ``allow_nan=False`` for NaN and infinity (which JSON lacks).
    """
    value = json.loads(text) if allow_nan else json.loads(text, parse_constant=_not_json)
    return storable_json(value) if _may_hold_lone_surrogate(text) else value


def _not_json(_name: str) -> Any:
    raise ValueError("NaN and infinity are not JSON")


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
