"""``escaped_traceback``: what the runtime logs of an error it did not expect, with no text the model chose.

An exception from inside the model library may quote what the model sent
(a tool name, a call id) in its message, and a logged traceback prints
messages as they are: a name holding a newline and a made-up log line would
forge one. So the runner logs the traceback's frames (charlotte's and the
libraries' own code) as Python prints them, and each exception's message
escaped by ``ascii`` on one line: a newline is ``\\n``, any other
character outside ASCII its escape.
"""

from __future__ import annotations

import traceback
from typing import Final

__all__ = ["escaped_traceback"]

_CAUSE: Final = "\nThe above exception was the direct cause of the following exception:\n\n"
_CONTEXT: Final = "\nDuring handling of the above exception, another exception occurred:\n\n"
#: How many chained exceptions are shown (a cycle in a chain ends there too).
_CHAIN: Final = 16


def _message(error: BaseException) -> str:
    try:
        text = str(error)
    except Exception:
        text = "<the message could not be read>"
    return ascii(text)


def _one(error: BaseException) -> str:
    frames = "".join(traceback.format_tb(error.__traceback__))
    head = "Traceback (most recent call last):\n" if frames else ""
    return f"{head}{frames}{type(error).__module__}.{type(error).__qualname__}: {_message(error)}\n"


def escaped_traceback(error: BaseException) -> str:
    """``error``'s traceback, its causes first, each exception's message escaped on one line."""
    parts: list[str] = []
    seen: set[int] = set()
    current: BaseException | None = error
    link = ""
    while current is not None and id(current) not in seen and len(seen) < _CHAIN:
        seen.add(id(current))
        parts.append(_one(current) + link)
        if current.__cause__ is not None:
            current, link = current.__cause__, _CAUSE
        elif current.__context__ is not None and not current.__suppress_context__:
            current, link = current.__context__, _CONTEXT
        else:
            current = None
    return "".join(reversed(parts)).rstrip("\n")
