"""Text that can be stored at all: valid Unicode, no lone surrogates.

JSON's ``\\uD800`` escapes and Python strings can hold lone surrogates, which no
database column, page or log can store. Every boundary that accepts text from
outside (HTTP bodies and paths, tool bindings) refuses it with this one rule.
"""

from __future__ import annotations

__all__ = ["is_unicode_text"]


def is_unicode_text(text: str) -> bool:
    """True when ``text`` is valid Unicode (no lone surrogates): it encodes as UTF-8."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
