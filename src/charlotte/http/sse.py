"""Server-Sent Events framing of the live event stream.

Framing: one event is ``id: <seq>``, ``event: <type>``, ``data: <json>`` and
a blank line; ``id`` is the event's seq, so a browser that reconnects sends
the last seq it saw as ``Last-Event-ID`` and the stream resumes right after
it. Framing a stored event never fails: text that is not Unicode is sent
with U+FFFD, and an event whose type is not one line (it would forge
fields) becomes a comment in its place, which clients skip. A heartbeat is
a comment line, which clients ignore but which keeps proxies from closing an
idle connection and reveals a client that went away.

The stream follows the log through the ``Notifier`` (``charlotte.runtime.notifier``),
which reads new events once for every client; each stream frames what it sends.

>>> format_event({"seq": 3, "type": "text.delta", "at": "t", "actor": "agent", "payload": {}})
b'id: 3\\nevent: text.delta\\ndata: {"seq":3,"type":"text.delta","at":"t","actor":"agent","payload":{}}\\n\\n'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from charlotte.events import Event
from charlotte.policy.text import storable_json

__all__ = [
    "MAX_LAST_EVENT_ID",
    "format_event",
    "heartbeat",
    "parse_last_event_id",
]

#: The largest seq a ``Last-Event-ID`` may name (the seq column is a 32-bit integer).
MAX_LAST_EVENT_ID: Final = 2**31 - 1

_ENVELOPE: Final = ("seq", "type", "at", "actor", "payload")


def format_event(event: Mapping[str, Any] | Event) -> bytes:
    """One SSE frame: ``id`` = seq, ``event`` = type, ``data`` = the event as compact JSON."""
    data = event.to_dict() if isinstance(event, Event) else event
    envelope = {key: data[key] for key in _ENVELOPE}
    seq, type_ = envelope["seq"], envelope["type"]
    if type(seq) is not int:
        raise ValueError("an event needs an integer seq")
    if not isinstance(type_, str) or "\n" in type_ or "\r" in type_:
        # A line break in the type would end the field early and forge
        # another one: never framed. A comment keeps the seq's place, so the
        # stream goes on past it.
        return f": event {seq} cannot be framed\n\n".encode()
    # JSON escapes every line break inside strings, so data stays on one line.
    body = json.dumps(envelope, separators=(",", ":"), ensure_ascii=False)
    try:
        return f"id: {seq}\nevent: {type_}\ndata: {body}\n\n".encode()
    except UnicodeEncodeError:
        # Text that is not Unicode (the log never returns any; a caller's dict
        # may hold it): sent with U+FFFD in its place.
        return format_event(storable_json(envelope))


def heartbeat() -> bytes:
    """A comment line: ignored by clients, keeps the connection visibly alive."""
    return b": heartbeat\n\n"


def parse_last_event_id(header: str | None) -> int:
    """The seq a ``Last-Event-ID`` header names; 0 when absent or blank.

    Raises ``ValueError`` for anything but a decimal integer 0 … ``MAX_LAST_EVENT_ID``.
    """
    if header is None or not header.strip():
        return 0
    text = header.strip()
    # str.isdigit accepts other scripts' digits and superscripts; seqs are ASCII.
    if not (text.isascii() and text.isdigit()) or len(text) > 10:
        raise ValueError("Last-Event-ID must be a non-negative integer")
    value = int(text)
    if value > MAX_LAST_EVENT_ID:
        raise ValueError("Last-Event-ID is out of range")
    return value
