"""StreamRecorder on a real SQLite log, driven by a real Agent running the real page tools."""

from __future__ import annotations

import asyncio
import json
import warnings
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa
from pydantic_ai import Agent, ModelRetry, RunContext, Tool
from pydantic_ai.messages import (
    FinalResultEvent,
    FunctionToolCallEvent,
    FunctionToolResultEvent,
    PartDeltaEvent,
    PartStartEvent,
    RetryPromptPart,
    TextPart,
    TextPartDelta,
    ToolCallPart,
    ToolReturnPart,
)
from tests.support.databases import new_session
from tests.support.handed_log import HandedLog
from tests.support.units import call_tool

from charlotte.drafts.workspace import SiteLinks, Workspace
from charlotte.errors import StorageError
from charlotte.events import AGENT_ACTOR, Event, EventTypes, schema_errors
from charlotte.runtime.recorder import StreamRecorder
from charlotte.storage import DatabaseEventLog, SessionRecord, UnitOfWork, Units
from charlotte.testing import Finish, ScriptedModel, ToolCall, ToolCalls
from charlotte.tools import PageTools, ToolBinding

BRIEF = "Rose Bakery in Zurich: sourdough bread, warm and friendly tone."
SUMMARY = "A hero with the bakery's name and a short welcome."


class FakeClock:
    """A clock the test moves by hand (no sleeping)."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def events_of(engine: sa.Engine, session_id: str) -> list[Event]:
    return DatabaseEventLog().read(engine, session_id, 0, 1000)


def assert_valid(events: list[Event]) -> None:
    for event in events:
        assert schema_errors(event) == [], (event, schema_errors(event))
    assert [e.seq for e in events] == list(range(1, len(events) + 1))


def recorder_for(engine: sa.Engine, session: SessionRecord, **options: Any) -> StreamRecorder:
    return StreamRecorder(engine, session.id, session.tenant, **options)


def ops() -> list[dict[str, Any]]:
    return [
        {"t": "insert_node", "node": {"id": "hero", "type": "section", "parent": None}},
        {
            "t": "insert_node",
            "node": {
                "id": "title",
                "type": "heading",
                "parent": "hero",
                "props": {"content": "Rose Bakery", "level": 1},
            },
        },
    ]


def page_tool_set(
    tools: PageTools, binding: ToolBinding, recorder: StreamRecorder, *, answered: bool = False
) -> list[Tool[None]]:
    """The nine tools as the runner binds them: each call writes its ``tool.called`` in its own transaction.

    ``answered``: each call also writes its ``tool.result`` there, as the runner does.
    """

    def bound(name: str) -> Callable[..., dict[str, Any]]:
        def call(ctx: RunContext[None], **arguments: Any) -> dict[str, Any]:
            log = recorder if answered else _CalledOnly(recorder)
            return call_tool(tools, name, arguments, binding, log=log, call_id=ctx.tool_call_id)

        return call

    return [
        Tool.from_schema(bound(d.name), d.name, d.description, d.parameters_json_schema, takes_ctx=True)
        for d in tools.definitions()
    ]


class _CalledOnly:
    """The recorder writing a call's tool.called only: its tool.result comes from the stream."""

    def __init__(self, recorder: StreamRecorder) -> None:
        self.recorder = recorder

    def tool_called(self, unit: UnitOfWork, call_id: object, name: object, arguments: object) -> None:
        self.recorder.tool_called(unit, call_id, name, arguments)

    def tool_answered(self, unit: UnitOfWork, call_id: object, name: object, result: Any) -> None:
        pass


def _in_call(
    engine: sa.Engine, recorder: StreamRecorder, session_id: str, tenant: str, call_id: str, name: str,
    arguments: object, result: dict[str, Any] | None = None,
) -> None:  # fmt: skip
    """What a tool call does in its unit: its tool.called, and (``result``) its tool.result."""
    with Units(engine).recording(session_id, tenant) as unit:
        recorder.tool_called(unit, call_id, name, arguments)
        if result is not None:
            recorder.tool_answered(unit, call_id, name, result)


def drive(agent: Agent[None, str], recorder: StreamRecorder, prompt: str = "build") -> None:
    async def run() -> None:
        async with agent.run_stream_events(prompt) as stream:
            async for event in stream:
                recorder.record(event)

    # asyncio.run closes its loop; nothing is left for the GC to find.
    asyncio.run(run())


@pytest.fixture
def session(sqlite_engine: sa.Engine) -> SessionRecord:
    return new_session(sqlite_engine, brief=BRIEF, facts={})


@pytest.fixture
def page_tools(sqlite_engine: sa.Engine) -> PageTools:
    return PageTools(Workspace(sqlite_engine, links=SiteLinks("https://rose.test", ())))


def test_an_agent_run_becomes_the_expected_event_sequence(
    sqlite_engine: sa.Engine, session: SessionRecord, page_tools: PageTools
) -> None:
    binding = ToolBinding.for_session(session.id, session.tenant, session.page)
    closing = "The page is ready for your review. " * 3
    model = ScriptedModel(
        [
            ToolCalls([ToolCall("cms_facts", {}), ToolCall("cms_types", {})]),
            ToolCall("cms_apply", lambda r: {"basedOn": r[-1]["revision"], "ops": ops()}),
            # A stale write: the draft is at 2 by now.
            ToolCall("cms_apply", {"basedOn": 0, "ops": [{"t": "remove_node", "id": "title"}]}),
            ToolCall("cms_ready", {"summary": SUMMARY}),
            Finish("stop", closing),
        ]
    )
    recorder = recorder_for(sqlite_engine, session, flush_chars=10_000, flush_seconds=60)
    agent = Agent(model, tools=page_tool_set(page_tools, binding, recorder))

    recorder.run_started(1, "turn-1")
    drive(agent, recorder)
    recorder.run_finished(1, "stop")

    events = events_of(sqlite_engine, session.id)
    assert_valid(events)
    ours = [e for e in events if e.type != EventTypes.PAGE_CHANGED]
    pairs = [(e.type, e.payload.get("name")) for e in ours]
    # The two calls of one response run in parallel: each writes its
    # tool.called when it runs, and each result follows its own call.
    parallel = pairs[1:5]
    assert sorted(parallel) == [
        ("tool.called", "cms_facts"),
        ("tool.called", "cms_types"),
        ("tool.result", "cms_facts"),
        ("tool.result", "cms_types"),
    ]
    for name in ("cms_facts", "cms_types"):
        assert parallel.index(("tool.called", name)) < parallel.index(("tool.result", name))
    pairs[1:5] = sorted(parallel)
    assert pairs == [
        ("run.started", None),
        ("tool.called", "cms_facts"),
        ("tool.called", "cms_types"),
        ("tool.result", "cms_facts"),
        ("tool.result", "cms_types"),
        ("tool.called", "cms_apply"),
        ("tool.result", "cms_apply"),
        ("tool.called", "cms_apply"),
        ("tool.result", "cms_apply"),
        ("tool.called", "cms_ready"),
        ("tool.result", "cms_ready"),
        ("text.delta", None),
        ("run.finished", None),
    ]
    assert all(e.actor == AGENT_ACTOR for e in events)
    payloads = [e.payload for e in ours]
    assert payloads[0] == {"turn_id": "turn-1", "run": 1}
    apply_call = payloads[5]
    assert apply_call["arguments"] == {"basedOn": 0, "ops": ops()}
    assert payloads[6] == {
        "name": "cms_apply",
        "call_id": apply_call["call_id"],
        "is_error": False,
        "revision": 2,
    }
    stale = payloads[8]
    assert stale["is_error"] is True and stale["code"] == "stale_revision"
    assert stale["revision"] == 2
    assert payloads[10] == {
        "name": "cms_ready",
        "call_id": payloads[9]["call_id"],
        "is_error": False,
        "revision": 2,
    }
    # Two streamed chunks of the closing text, one event.
    assert payloads[11] == {"text": closing}
    assert payloads[12] == {"turn_id": "turn-1", "run": 1, "reason": "stop"}
    # The one page write sits between its call and its result.
    changed = next(i for i, e in enumerate(events) if e.type == EventTypes.PAGE_CHANGED)
    assert events[changed - 1].type == EventTypes.TOOL_CALLED
    assert events[changed + 1].payload["name"] == "cms_apply"
    assert recorder.ready is True
    assert sum(e.type == EventTypes.TOOL_CALLED for e in events) == 5


def test_ready_stays_false_when_cms_ready_is_refused(
    sqlite_engine: sa.Engine, session: SessionRecord, page_tools: PageTools
) -> None:
    binding = ToolBinding.for_session(session.id, session.tenant, session.page)
    lorem = [
        {
            "t": "insert_node",
            "node": {
                "id": "t",
                "type": "text",
                "parent": None,
                "props": {"content": "Lorem ipsum dolor sit amet. Call 555 0100 today."},
            },
        }
    ]
    model = ScriptedModel(
        [
            ToolCall("cms_apply", {"basedOn": 0, "ops": lorem}),
            ToolCall("cms_ready", {"summary": SUMMARY}),
            Finish("stop", "Not ready yet."),
        ]
    )
    recorder = recorder_for(sqlite_engine, session)
    recorder.run_started(1, "turn-1")
    drive(Agent(model, tools=page_tool_set(page_tools, binding, recorder)), recorder)
    recorder.run_finished(1, "stop")

    events = events_of(sqlite_engine, session.id)
    assert_valid(events)
    ready = [e.payload for e in events if e.payload.get("name") == "cms_ready"]
    assert ready[-1]["is_error"] is True and ready[-1]["code"] == "checks_failing"
    assert recorder.ready is False


def test_a_retry_of_the_model_library_is_an_invalid_arguments_result(
    sqlite_engine: sa.Engine,
) -> None:
    session = new_session(sqlite_engine)
    attempts: list[int] = []

    def picky(n: int) -> dict[str, Any]:
        attempts.append(n)
        if n < 0:
            raise ModelRetry("SECRET-detail n must not be negative")
        return {"revision": 7, "n": n}

    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    model = ScriptedModel(
        [ToolCall("picky", {"n": -1}), ToolCall("picky", {"n": 1}), Finish("stop", "ok")]
    )
    recorder = recorder_for(sqlite_engine, session)
    recorder.run_started(1, "turn-1")
    drive(Agent(model, tools=[Tool.from_schema(picky, "picky", "Picky.", schema)]), recorder)

    events = events_of(sqlite_engine, session.id)
    assert_valid(events)
    results = [e.payload for e in events if e.type == EventTypes.TOOL_RESULT]
    assert attempts == [-1, 1]
    assert results[0]["is_error"] is True and results[0]["code"] == "invalid_arguments"
    assert results[0]["revision"] == 0  # no revision known yet
    assert results[1] == {
        "name": "picky",
        "call_id": results[1]["call_id"],
        "is_error": False,
        "revision": 7,
    }
    assert "SECRET" not in json.dumps([e.to_dict() for e in events])


# -- text coalescing, driven with the library's own event objects --------------------


def text_events(chunks: list[str]) -> list[Any]:
    first, *rest = chunks
    return [PartStartEvent(index=0, part=TextPart(first))] + [
        PartDeltaEvent(index=0, delta=TextPartDelta(chunk)) for chunk in rest
    ]


def test_many_small_deltas_become_few_events(sqlite_engine: sa.Engine) -> None:
    session = new_session(sqlite_engine)
    recorder = recorder_for(sqlite_engine, session, flush_chars=50, clock=FakeClock())
    chunks = [f"w{i:02d} " for i in range(100)]  # 400 characters in 100 deltas

    for event in text_events(chunks):
        recorder.record(event)
    recorder.flush()

    texts = [e.payload["text"] for e in events_of(sqlite_engine, session.id)]
    assert "".join(texts) == "".join(chunks)
    # 13 deltas reach 50 characters: seven flushes of 52, the rest on flush().
    assert [len(t) for t in texts] == [52] * 7 + [36]


def test_text_flushes_after_flush_seconds(sqlite_engine: sa.Engine) -> None:
    session = new_session(sqlite_engine)
    clock = FakeClock()
    recorder = recorder_for(sqlite_engine, session, flush_seconds=0.25, clock=clock)

    recorder.record(PartStartEvent(index=0, part=TextPart("Hel")))
    clock.now += 0.1
    recorder.record(PartDeltaEvent(index=0, delta=TextPartDelta("lo")))
    assert events_of(sqlite_engine, session.id) == []
    clock.now += 0.2  # 0.3 s since the first buffered character
    recorder.record(PartDeltaEvent(index=0, delta=TextPartDelta(", world")))

    assert [e.payload for e in events_of(sqlite_engine, session.id)] == [{"text": "Hello, world"}]


def test_pending_text_is_written_before_any_other_event(sqlite_engine: sa.Engine) -> None:
    session = new_session(sqlite_engine)
    recorder = recorder_for(sqlite_engine, session, clock=FakeClock())
    call = ToolCallPart("cms_get", '{"depth": 2}', "call-1")

    recorder.run_started(1, "turn-1")
    for event in text_events(["Let me ", "look."]):
        recorder.record(event)
    recorder.record(FinalResultEvent(tool_name=None, tool_call_id=None))  # ignored, no flush
    recorder.record(FunctionToolCallEvent(call))
    recorder.record(PartStartEvent(index=1, part=TextPart("Done.")))
    recorder.run_finished(1, "length")

    events = events_of(sqlite_engine, session.id)
    assert_valid(events)
    assert [(e.type, dict(e.payload)) for e in events] == [
        ("run.started", {"turn_id": "turn-1", "run": 1}),
        ("text.delta", {"text": "Let me look."}),
        ("tool.called", {"name": "cms_get", "call_id": "call-1", "arguments": {"depth": 2}}),
        ("text.delta", {"text": "Done."}),
        ("run.finished", {"turn_id": "turn-1", "run": 1, "reason": "length"}),
    ]


# -- tool events ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "recorded"),
    [
        ('{"basedOn": 3}', {"basedOn": 3}),
        ({"basedOn": 3}, {"basedOn": 3}),
        (None, {}),
        ("", {}),
        ("[1, 2]", "[1, 2]"),
        ("{not json", "{not json"),
    ],
)
def test_tool_arguments_are_decoded_or_kept_raw(
    sqlite_engine: sa.Engine, args: Any, recorded: Any
) -> None:
    session = new_session(sqlite_engine)
    recorder = recorder_for(sqlite_engine, session)
    recorder.record(FunctionToolCallEvent(ToolCallPart("cms_apply", args, "c1")))
    recorder.settle()  # the call never ran: its tool.called is written when the run settles
    (event,) = events_of(sqlite_engine, session.id)
    assert schema_errors(event) == []
    assert event.payload["arguments"] == recorded


def result_event(content: Any, name: str = "cms_apply", **options: Any) -> FunctionToolResultEvent:
    return FunctionToolResultEvent(ToolReturnPart(name, content, "c1", **options))


@pytest.mark.parametrize(
    ("content", "options", "expected"),
    [
        ({"revision": 4, "applied": 1}, {}, {"is_error": False, "revision": 4}),
        (json.dumps({"revision": 5}), {}, {"is_error": False, "revision": 5}),
        (
            {"isError": True, "revision": 6, "error": {"code": "stale_revision", "message": "x"}},
            {},
            {"is_error": True, "revision": 6, "code": "stale_revision"},
        ),
        (
            {"isError": True, "revision": None, "error": {"code": "forbidden"}},
            {},
            {"is_error": True, "revision": 3, "code": "forbidden"},
        ),
        (
            {"isError": True, "revision": 2, "error": {"code": "Not A Code: boom"}},
            {},
            {"is_error": True, "revision": 2, "code": "tool_failed"},
        ),
        ("plain text", {}, {"is_error": False, "revision": 3}),
        (
            "boom: secret",
            {"outcome": "failed"},
            {"is_error": True, "revision": 3, "code": "tool_failed"},
        ),
        (
            "fix n",
            {"outcome": "retried"},
            {"is_error": True, "revision": 3, "code": "invalid_arguments"},
        ),
    ],
)
def test_tool_results_carry_revision_and_code(
    sqlite_engine: sa.Engine, content: Any, options: dict[str, Any], expected: dict[str, Any]
) -> None:
    session = new_session(sqlite_engine)
    recorder = recorder_for(sqlite_engine, session)
    recorder.record(result_event({"revision": 3}, name="cms_get"))  # the last revision seen

    recorder.record(result_event(content, **options))

    events = events_of(sqlite_engine, session.id)
    assert_valid(events)
    assert dict(events[-1].payload) == {"name": "cms_apply", "call_id": "c1", **expected}
    assert "secret" not in json.dumps(events[-1].payload)


def test_a_legacy_retry_prompt_part_is_invalid_arguments(sqlite_engine: sa.Engine) -> None:
    session = new_session(sqlite_engine)
    recorder = recorder_for(sqlite_engine, session)
    # Deprecated in pydantic-ai 2.x (a retried ToolReturnPart replaced it); still understood.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        part = RetryPromptPart("bad n", tool_name="picky", tool_call_id="c9")
    recorder.record(FunctionToolResultEvent(part))  # type: ignore[arg-type]
    (event,) = events_of(sqlite_engine, session.id)
    assert dict(event.payload) == {
        "name": "picky",
        "call_id": "c9",
        "is_error": True,
        "revision": 0,
        "code": "invalid_arguments",
    }


def test_ready_only_after_a_successful_cms_ready(sqlite_engine: sa.Engine) -> None:
    session = new_session(sqlite_engine)
    recorder = recorder_for(sqlite_engine, session)
    failing = {"isError": True, "revision": 2, "error": {"code": "checks_failing"}}
    recorder.record(result_event(failing, name="cms_ready"))
    assert recorder.ready is False
    recorder.record(result_event({"revision": 2}, name="cms_check"))
    assert recorder.ready is False
    recorder.record(result_event({"revision": 2, "ready": True}, name="cms_ready"))
    assert recorder.ready is True


def test_model_chosen_labels_are_bounded(sqlite_engine: sa.Engine) -> None:
    session = new_session(sqlite_engine)
    recorder = recorder_for(sqlite_engine, session)
    recorder.record(FunctionToolCallEvent(ToolCallPart("x" * 500, {}, "i" * 500)))
    recorder.record(FunctionToolCallEvent(ToolCallPart("", {}, "")))
    recorder.settle()
    events = events_of(sqlite_engine, session.id)
    assert_valid(events)
    assert len(events[0].payload["name"]) == 128
    assert events[1].payload["name"] == "unknown"


# -- run boundaries ------------------------------------------------------------------


def test_run_finished_flushes_and_bounds_its_reason(sqlite_engine: sa.Engine) -> None:
    session = new_session(sqlite_engine)
    recorder = recorder_for(sqlite_engine, session, clock=FakeClock())
    with pytest.raises(RuntimeError):
        recorder.run_finished(1, "stop")
    recorder.run_started(2, "turn-9")
    recorder.record(PartStartEvent(index=0, part=TextPart("tail")))
    recorder.run_finished(2, "length" * 10)
    recorder.run_started(3, "turn-9")
    recorder.run_finished(3, "")

    events = events_of(sqlite_engine, session.id)
    assert_valid(events)
    assert [e.type for e in events] == [
        "run.started",
        "text.delta",
        "run.finished",
        "run.started",
        "run.finished",
    ]
    assert events[2].payload["reason"] == ("length" * 10)[:32]
    assert events[4].payload["reason"] == "unknown"


def test_each_append_commits_at_once(sqlite_engine: sa.Engine) -> None:
    # A reader on its own connection sees every event as soon as it is recorded.
    session = new_session(sqlite_engine)
    recorder = recorder_for(sqlite_engine, session)
    recorder.run_started(1, "turn-1")
    assert len(events_of(sqlite_engine, session.id)) == 1
    recorder.record(FunctionToolCallEvent(ToolCallPart("cms_get", {}, "c1")))
    assert len(events_of(sqlite_engine, session.id)) == 1  # held for the call to write
    recorder.record(result_event({"revision": 0}, name="cms_get"))
    assert [e.type for e in events_of(sqlite_engine, session.id)] == [
        "run.started", "tool.called", "tool.result",
    ]  # fmt: skip


def _write_called(engine: sa.Engine, recorder: StreamRecorder, call_id: str, *, roll_back: bool = False) -> None:
    """What the runner's tool wrapper does: the call's tool.called inside the call's own transaction."""

    class Stopped(Exception):
        pass

    try:
        with Units(engine).recording(recorder._session_id, recorder._tenant) as unit:
            recorder.tool_called(unit, call_id, "cms_get", {"depth": 1})
            if roll_back:
                raise Stopped
    except Stopped:
        pass


def test_a_call_that_runs_writes_its_tool_called_once_whatever_comes_first(sqlite_engine: sa.Engine) -> None:
    session = new_session(sqlite_engine)
    recorder = recorder_for(sqlite_engine, session)
    # The stream event first (the usual order), then the call itself.
    recorder.record(FunctionToolCallEvent(ToolCallPart("cms_get", '{"depth": 2}', "c1")))
    _write_called(sqlite_engine, recorder, "c1")
    recorder.record(result_event({"revision": 0}, name="cms_get"))
    # The call first, then its stream event: not written twice.
    _write_called(sqlite_engine, recorder, "c2")
    recorder.record(FunctionToolCallEvent(ToolCallPart("cms_get", {"depth": 1}, "c2")))
    recorder.record(FunctionToolResultEvent(ToolReturnPart("cms_get", {"revision": 0}, "c2")))
    recorder.settle()
    events = events_of(sqlite_engine, session.id)
    assert_valid(events)
    assert [(e.type, e.payload["call_id"]) for e in events] == [
        ("tool.called", "c1"), ("tool.result", "c1"), ("tool.called", "c2"), ("tool.result", "c2"),
    ]  # fmt: skip
    # The stream's payload wins when it came first (the model's own arguments).
    assert events[0].payload["arguments"] == {"depth": 2}


def test_a_call_stopped_before_it_ran_leaves_no_tool_called(sqlite_engine: sa.Engine) -> None:
    session = new_session(sqlite_engine)
    recorder = recorder_for(sqlite_engine, session, clock=FakeClock())
    recorder.record(FunctionToolCallEvent(ToolCallPart("cms_get", {}, "c1")))
    _write_called(sqlite_engine, recorder, "c1", roll_back=True)  # the stop flag was up
    recorder.record(PartStartEvent(index=1, part=TextPart("Stopping.")))
    recorder.settle()
    assert [e.type for e in events_of(sqlite_engine, session.id)] == ["text.delta"]


def test_settle_writes_held_calls_then_text_in_one_go(sqlite_engine: sa.Engine) -> None:
    session = new_session(sqlite_engine)
    recorder = recorder_for(sqlite_engine, session, clock=FakeClock())
    recorder.record(FunctionToolCallEvent(ToolCallPart("cms_get", {}, "c1")))
    recorder.record(FunctionToolCallEvent(ToolCallPart("cms_find", {"text": "x"}, "c2")))
    recorder.record(PartStartEvent(index=2, part=TextPart("After the calls.")))
    recorder.settle()
    recorder.settle()  # nothing left: nothing written twice
    events = events_of(sqlite_engine, session.id)
    assert_valid(events)
    assert [(e.type, e.payload.get("call_id")) for e in events] == [
        ("tool.called", "c1"), ("tool.called", "c2"), ("text.delta", None),
    ]  # fmt: skip


def test_another_tenant_cannot_be_written(sqlite_engine: sa.Engine) -> None:
    session = new_session(sqlite_engine, tenant="tenant-a")
    recorder = StreamRecorder(sqlite_engine, session.id, "tenant-b")
    with pytest.raises(StorageError) as caught:
        recorder.run_started(1, "turn-1")
    assert caught.value.code == "not_found"
    assert events_of(sqlite_engine, session.id) == []


def test_runs_are_numbered_from_one(sqlite_engine: sa.Engine) -> None:
    session = new_session(sqlite_engine)
    recorder = recorder_for(sqlite_engine, session)
    with pytest.raises(ValueError):
        recorder.run_started(0, "turn-1")
    recorder.run_started(1, "turn-1")
    with pytest.raises(ValueError):
        recorder.run_finished(0, "stop")
    assert len(events_of(sqlite_engine, session.id)) == 1


def test_flush_settings_are_checked(sqlite_engine: sa.Engine) -> None:
    with pytest.raises(ValueError):
        StreamRecorder(sqlite_engine, "s", "t", flush_chars=0)
    with pytest.raises(ValueError):
        StreamRecorder(sqlite_engine, "s", "t", flush_seconds=-1)


def test_everything_the_model_chose_is_handed_to_the_log_as_unicode(sqlite_engine: sa.Engine) -> None:
    session = new_session(sqlite_engine)
    log = HandedLog()
    recorder = recorder_for(sqlite_engine, session, events=log, clock=FakeClock())
    recorder.run_started(1, "turn-1")
    # A pair split across two chunks (a UTF-16 source) and a lone surrogate.
    recorder.record(PartStartEvent(index=0, part=TextPart("Rosa \ud83d")))
    recorder.record(PartDeltaEvent(index=0, delta=TextPartDelta("\ude00 bakes \ud800")))
    recorder.record(FunctionToolCallEvent(ToolCallPart("cms_find\udfff", '{"te\\udfffxt": ["a\\ud800"]}', "c\ud800")))
    recorder.record(FunctionToolCallEvent(ToolCallPart("cms_get", "not JSON \ud800", "c2")))
    _write_called_with(sqlite_engine, recorder, "c3", {"node\udc00": "x\ud800"})
    recorder.settle()
    recorder.run_finished(1, "stop\ud800")

    assert log.payloads, "nothing was recorded"
    for payload in log.payloads:
        json.dumps(payload, ensure_ascii=False).encode("utf-8")  # every string is Unicode
    events = events_of(sqlite_engine, session.id)
    assert_valid(events)
    text = "".join(e.payload["text"] for e in events if e.type == "text.delta")
    assert text == "Rosa \U0001f600 bakes \ufffd"
    called = [e.payload for e in events if e.type == "tool.called"]
    assert {"name": "cms_find\ufffd", "call_id": "c\ufffd", "arguments": {"te\ufffdxt": ["a\ufffd"]}} in called
    assert {"call_id": "c3", "name": "cms_get", "arguments": {"node\ufffd": "x\ufffd"}} in called
    assert {"call_id": "c2", "name": "cms_get", "arguments": "not JSON \ufffd"} in called  # kept raw
    assert events[-1].payload["reason"] == "stop\ufffd"


def _write_called_with(engine: sa.Engine, recorder: StreamRecorder, call_id: str, arguments: dict[str, Any]) -> None:
    _in_call(engine, recorder, recorder._session_id, recorder._tenant, call_id, "cms_get", arguments)


def test_a_call_that_writes_its_own_result_logs_what_the_stream_event_would_have(
    sqlite_engine: sa.Engine, page_tools: PageTools
) -> None:
    def script() -> ScriptedModel:
        return ScriptedModel(
            [
                ToolCall("cms_facts", {}),
                ToolCall("cms_apply", lambda r: {"basedOn": r[-1]["revision"], "ops": ops()}),
                ToolCall("cms_apply", {"basedOn": 0, "ops": [{"t": "remove_node", "id": "title"}]}),
                ToolCall("cms_check", {}),
                ToolCall("cms_ready", {"summary": SUMMARY}),
                Finish("stop", "Ready."),
            ]
        )

    logs: list[list[tuple[str, dict[str, Any]]]] = []
    commits: list[int] = []
    counted: list[int] = []

    def listener(_conn: sa.Connection) -> None:
        counted.append(1)

    for answered in (False, True):
        session = new_session(sqlite_engine, page=f"home-{answered}", brief=BRIEF, facts={})
        binding = ToolBinding.for_session(session.id, session.tenant, session.page)
        recorder = recorder_for(sqlite_engine, session)
        agent = Agent(script(), tools=page_tool_set(page_tools, binding, recorder, answered=answered))
        counted.clear()
        sa.event.listen(sqlite_engine, "commit", listener)
        try:
            recorder.run_started(1, "turn-1")
            drive(agent, recorder)
            recorder.run_finished(1, "stop")
        finally:
            sa.event.remove(sqlite_engine, "commit", listener)
        commits.append(len(counted))
        events = events_of(sqlite_engine, session.id)
        assert_valid(events)
        # Call ids are the model library's own: the same script gives the same ones.
        logs.append([(e.type, e.payload) for e in events])
        assert recorder.ready is True
    assert logs[0] == logs[1]
    assert sum(t == EventTypes.TOOL_RESULT for t, _ in logs[1]) == 5
    # Each call wrote its result with its own events: a commit fewer per call (the checks'
    # results too, in the unit the stream's would otherwise have taken).
    assert commits[1] == commits[0] - 5


def test_a_call_id_used_again_after_a_call_that_wrote_its_own_result_is_logged_again(
    sqlite_engine: sa.Engine,
) -> None:
    session = new_session(sqlite_engine)
    recorder = recorder_for(sqlite_engine, session)
    for revision in (1, 2):
        # What the runner does for each call: tool.called and tool.result in the call's transaction.
        recorder.record(FunctionToolCallEvent(ToolCallPart("cms_get", {}, "c1")))
        _in_call(sqlite_engine, recorder, session.id, session.tenant, "c1", "cms_get", {}, {"revision": revision})
        recorder.record(result_event({"revision": revision}, name="cms_get"))
    events = events_of(sqlite_engine, session.id)
    assert_valid(events)
    assert [(e.type, e.payload.get("revision")) for e in events] == [
        (EventTypes.TOOL_CALLED, None), (EventTypes.TOOL_RESULT, 1),
        (EventTypes.TOOL_CALLED, None), (EventTypes.TOOL_RESULT, 2),
    ]  # fmt: skip
