"""SSE framing: id = seq, event = type, one-line JSON data, comment heartbeats, Last-Event-ID."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from charlotte.events import Event
from charlotte.http.sse import MAX_LAST_EVENT_ID, format_event, heartbeat, parse_last_event_id

ENVELOPE = {"seq": 7, "type": "text.delta", "at": "2025-01-01T00:00:00.000000Z", "actor": "agent"}


def _parse(frame: bytes) -> dict[str, str]:
    """A minimal SSE parser, as a browser's EventSource reads one frame."""
    text = frame.decode()
    assert text.endswith("\n\n")
    fields: dict[str, str] = {}
    # SSE ends lines at CR, LF or CRLF only (not at U+0085 or U+2028 as str.splitlines does).
    for line in re.split(r"\r\n|\r|\n", text[:-2]):
        name, _, value = line.partition(": ")
        assert name not in fields, f"field {name} repeated"
        fields[name] = value
    return fields


def test_frame_carries_seq_as_id_type_as_event_and_the_envelope_as_data() -> None:
    frame = format_event({**ENVELOPE, "payload": {"text": "Hello"}})
    fields = _parse(frame)
    assert fields["id"] == "7"
    assert fields["event"] == "text.delta"
    assert json.loads(fields["data"]) == {**ENVELOPE, "payload": {"text": "Hello"}}


def test_frame_of_a_stored_event_leaves_out_the_session_id() -> None:
    event = Event("s1", 7, "text.delta", ENVELOPE["at"], "agent", {"text": "Hi"})
    assert json.loads(_parse(format_event(event))["data"]) == {**ENVELOPE, "payload": {"text": "Hi"}}


@given(st.text())
def test_frame_data_stays_on_one_line_whatever_the_payload_text(text: str) -> None:
    frame = format_event({**ENVELOPE, "payload": {"text": text}})
    fields = _parse(frame)
    assert set(fields) == {"id", "event", "data"}
    assert json.loads(fields["data"])["payload"]["text"] == text


@pytest.mark.parametrize("bad_type", ["text.delta\ndata: forged", "a\rb", "a\r\nid: 99"])
def test_a_type_that_would_forge_a_field_is_never_framed_and_leaves_a_comment(bad_type: str) -> None:
    frame = format_event({**ENVELOPE, "type": bad_type, "payload": {}})

    # A comment dispatches nothing: no id, event or data field reaches the client.
    assert frame == b": event 7 cannot be framed\n\n"


def test_a_seq_that_is_no_integer_is_refused() -> None:
    with pytest.raises(ValueError):
        format_event({**ENVELOPE, "seq": "7\nid: 8", "payload": {}})


def test_text_that_is_not_unicode_is_framed_with_replacement_characters() -> None:
    frame = format_event({**ENVELOPE, "actor": "a\udfff", "payload": {"text\ud800": "x\ud800y"}})

    assert json.loads(_parse(frame)["data"]) == {**ENVELOPE, "actor": "a\ufffd", "payload": {"text\ufffd": "x\ufffdy"}}


def test_heartbeat_is_a_comment_that_dispatches_nothing() -> None:
    beat = heartbeat()
    assert beat.startswith(b":")
    assert beat.endswith(b"\n\n")
    assert b"data" not in beat


@pytest.mark.parametrize(("header", "seq"), [(None, 0), ("", 0), ("  ", 0), ("0", 0), ("42", 42), (" 42 ", 42), (str(MAX_LAST_EVENT_ID), MAX_LAST_EVENT_ID)])
def test_last_event_id_parses_to_the_seq(header: str | None, seq: int) -> None:
    assert parse_last_event_id(header) == seq


@pytest.mark.parametrize("header", ["-1", "1.5", "abc", "٣", "²", "1e3", str(MAX_LAST_EVENT_ID + 1), "9" * 40])
def test_last_event_id_refuses_anything_but_a_seq(header: str) -> None:
    with pytest.raises(ValueError):
        parse_last_event_id(header)
