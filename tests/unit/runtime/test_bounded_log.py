"""What the log keeps of a provider's output is bounded: a call's arguments and a turn's text, each saying it was cut.

Through a real ``Charlotte`` with the scripted model, and on the providers'
wires (the loopback peers, through the real provider classes).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest
import sqlalchemy as sa
from tests.support.databases import new_session
from tests.support.loopback_http import Call, Reply
from tests.support.scripted_charlotte import Maker, answered_once, read_log, scripted_charlottes
from tests.support.scripted_charlotte import of_type as _of
from tests.support.scripted_charlotte import open_session as _open
from tests.support.wire_harness import WIRES, Wire, events, of_type, on_wire, open_session, run_turn

from charlotte.events import EventTypes, event_schema, schema_errors
from charlotte.runtime.recorder import MAX_CALL_ARGUMENTS, MAX_TURN_TEXT, StreamRecorder
from charlotte.storage import DatabaseEventLog, SessionRecord, Units
from charlotte.testing import ScriptedModel, Text, ToolCall

wires = pytest.mark.parametrize("wire", WIRES, ids=[w.name for w in WIRES])
#: An apply of 8 MB: one heading whose text is far past every bound.
HUGE_APPLY: Final = {
    "basedOn": 0,
    "ops": [{
        "t": "insert_node",
        "node": {"id": "h", "type": "heading", "parent": None, "props": {"content": "x" * 8_000_000}},
    }],
}  # fmt: skip
#: A reply of 3 MB.
LONG_REPLY: Final = "".join(f"{n:07d} " for n in range(375_000))


@pytest.fixture
def charlotte_for(tmp_path: Path) -> Iterator[Maker]:
    with scripted_charlottes(tmp_path) as make:
        yield make


@pytest.fixture
def session(sqlite_engine: sa.Engine) -> SessionRecord:
    return new_session(sqlite_engine, brief="A bakery.", facts={})


def _cut_arguments(called: dict[str, Any], sent: str) -> None:
    assert called["arguments"] == sent[:MAX_CALL_ARGUMENTS]
    assert called["arguments_chars"] == len(sent)
    assert len(json.dumps(called)) < MAX_CALL_ARGUMENTS + 200


def _cut_text(log: list[tuple[str, dict[str, Any]]], sent: str, flush_chars: int) -> None:
    deltas = _of(log, EventTypes.TEXT_DELTA)
    assert "".join(d["text"] for d in deltas) == sent[:MAX_TURN_TEXT]
    assert [d.get("cut", False) for d in deltas] == [False] * (len(deltas) - 1) + [True]
    assert len(deltas) <= MAX_TURN_TEXT // flush_chars + 2


def test_a_refused_apply_of_8_mb_is_logged_cut_saying_how_long_it_was(charlotte_for: Maker) -> None:
    charlotte = charlotte_for(ScriptedModel([ToolCall("cms_apply", HUGE_APPLY), Text("It was too long.")]))
    session = _open(charlotte)

    turn = session.send("Add a heading")

    assert turn["status"] == "finished"
    log = read_log(charlotte, session)
    [called] = _of(log, EventTypes.TOOL_CALLED)
    _cut_arguments(called, json.dumps(HUGE_APPLY))
    assert answered_once(log)[0][1] is not None  # refused
    assert session.draft()["page"]["nodes"] == {}


def test_a_reply_of_3_mb_is_logged_up_to_the_bound_saying_it_was_cut(charlotte_for: Maker) -> None:
    charlotte = charlotte_for(ScriptedModel([Text(LONG_REPLY)]))
    session = _open(charlotte)

    turn = session.send("Say a lot")

    assert turn["status"] == "finished"
    log = read_log(charlotte, session)
    _cut_text(log, LONG_REPLY, charlotte.settings.text_flush_chars)
    assert log[-1][0] == EventTypes.TURN_FINISHED


@wires
def test_on_the_wire_a_huge_call_and_a_huge_reply_are_logged_cut(tmp_path: Path, wire: Wire) -> None:
    sent = json.dumps(HUGE_APPLY)
    with on_wire(tmp_path, wire) as (peer, charlotte):
        peer.play(
            Reply.of_calls(Call("cms_apply", sent, chunks=40)),
            Reply.of_text(LONG_REPLY, text_chunks=3_000),
        )
        session = open_session(charlotte)

        status, code = run_turn(charlotte, session, "Add a heading")

        assert (status, code) == ("finished", None)
        log = events(charlotte, session)
        [called] = of_type(log, EventTypes.TOOL_CALLED)
        _cut_arguments(called, sent)
        _cut_text(log, LONG_REPLY, charlotte.settings.text_flush_chars)


# -- the recorder's bounds, one by one ---------------------------------------------


def _recorder(engine: sa.Engine, session: SessionRecord) -> StreamRecorder:
    return StreamRecorder(engine, session.id, session.tenant, flush_chars=1_000, flush_seconds=60)


def test_text_that_reaches_the_bound_exactly_is_cut_by_an_empty_delta_when_more_comes(
    sqlite_engine: sa.Engine, session: SessionRecord
) -> None:
    recorder = _recorder(sqlite_engine, session)
    recorder.run_started(1, "t1")
    recorder._text("a" * MAX_TURN_TEXT)
    recorder.flush()
    recorder._text("more")
    recorder._text("and more")
    recorder.settle()

    read = DatabaseEventLog().read(sqlite_engine, session.id, 0, 1000)
    deltas = [dict(e.payload) for e in read if e.type == EventTypes.TEXT_DELTA]
    assert "".join(d["text"] for d in deltas) == "a" * MAX_TURN_TEXT
    assert deltas[-1] == {"text": "", "cut": True}
    assert [schema_errors(e) for e in read] == [[] for _ in read]


def test_arguments_at_the_bound_are_kept_whole_and_one_past_it_are_cut(
    sqlite_engine: sa.Engine, session: SessionRecord
) -> None:
    recorder = _recorder(sqlite_engine, session)
    filler = MAX_CALL_ARGUMENTS - len(json.dumps({"summary": ""}))
    whole = {"summary": "s" * filler}
    longer = {"summary": "s" * (filler + 1)}
    with Units(sqlite_engine).recording(session.id, session.tenant) as unit:
        recorder.tool_called(unit, "c1", "cms_ready", whole)
        recorder.tool_called(unit, "c2", "cms_ready", longer)
        recorder.tool_called(unit, "c3", "cms_ready", "{" * (MAX_CALL_ARGUMENTS + 5))

    read = [e for e in DatabaseEventLog().read(sqlite_engine, session.id, 0, 1000) if e.type == EventTypes.TOOL_CALLED]
    payloads = [dict(e.payload) for e in read]
    assert payloads[0]["arguments"] == whole and "arguments_chars" not in payloads[0]
    assert payloads[1]["arguments_chars"] == MAX_CALL_ARGUMENTS + 1
    assert payloads[1]["arguments"] == json.dumps(longer)[:MAX_CALL_ARGUMENTS]
    assert payloads[2]["arguments"] == "{" * MAX_CALL_ARGUMENTS and payloads[2]["arguments_chars"] == MAX_CALL_ARGUMENTS + 5
    assert [schema_errors(e) for e in read] == [[], [], []]


def test_the_schema_says_the_recorder_s_bounds() -> None:
    definitions = event_schema()["$defs"]
    assert definitions["text.delta"]["properties"]["text"]["maxLength"] == MAX_TURN_TEXT
    called = definitions["tool.called"]
    assert called["then"]["properties"]["arguments"]["maxLength"] == MAX_CALL_ARGUMENTS
    assert called["properties"]["arguments_chars"]["minimum"] == MAX_CALL_ARGUMENTS + 1
