"""ScriptedModel drives a real pydantic-ai Agent whose real tools run."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from pydantic_ai import Agent, AgentRunResult, Tool
from pydantic_ai.exceptions import OutputTokenLimitExceeded
from pydantic_ai.messages import (
    FunctionToolCallEvent,
    FunctionToolResultEvent,
    ModelResponse,
    PartDeltaEvent,
    PartStartEvent,
    TextPart,
    TextPartDelta,
    ToolCallPart,
)

from charlotte.testing import Finish, ScriptedModel, Text, ToolCall, ToolCalls

NOTE_SCHEMA = {
    "type": "object",
    "properties": {"text": {"type": "string"}, "basedOn": {"type": "integer"}},
    "required": ["text", "basedOn"],
    "additionalProperties": False,
}
READ_SCHEMA = {"type": "object", "properties": {}, "additionalProperties": False}


class Notebook:
    """Two real tools over a tiny revisioned store; records every call."""

    def __init__(self) -> None:
        self.revision = 1
        self.notes: list[str] = []
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def read(self) -> dict[str, Any]:
        self.calls.append(("read", {}))
        return {"revision": self.revision, "notes": list(self.notes)}

    def add(self, text: str, basedOn: int) -> str:
        self.calls.append(("add", {"text": text, "basedOn": basedOn}))
        if basedOn != self.revision:
            return json.dumps({"ok": False, "error": "stale_revision"})
        self.notes.append(text)
        self.revision += 1
        return json.dumps({"ok": True, "revision": self.revision})

    def tools(self) -> list[Tool[None]]:
        return [
            Tool.from_schema(self.read, "read", "Read the notebook.", READ_SCHEMA),
            Tool.from_schema(self.add, "add", "Add a note.", NOTE_SCHEMA),
        ]


def _agent(book: Notebook, model: ScriptedModel) -> Agent[None, str]:
    return Agent(model, tools=book.tools())


def _run(agent: Agent[None, str], prompt: str) -> AgentRunResult[str]:
    # asyncio.run closes its loop; run_sync would leave one for the GC to find.
    return asyncio.run(agent.run(prompt))


def _script() -> list[Any]:
    return [
        ToolCall("read", {}),
        ToolCall("add", lambda results: {"text": "one", "basedOn": results[-1]["revision"]}),
        ToolCall("add", lambda results: {"text": "two", "basedOn": results[-1]["revision"]}),
        Finish("stop", "Two notes added."),
    ]


def test_tools_run_with_scripted_and_computed_args() -> None:
    book = Notebook()
    model = ScriptedModel(_script())

    result = _run(_agent(book, model), "add two notes")

    assert result.output == "Two notes added."
    assert book.calls == [
        ("read", {}),
        ("add", {"text": "one", "basedOn": 1}),
        ("add", {"text": "two", "basedOn": 2}),
    ]
    assert book.notes == ["one", "two"]
    assert model.requests == 4
    # A dict result arrives as a dict, a JSON string result is parsed.
    assert model.tool_results == [
        {"revision": 1, "notes": []},
        {"ok": True, "revision": 2},
        {"ok": True, "revision": 3},
    ]


def test_non_json_tool_result_is_passed_raw() -> None:
    seen: list[list[Any]] = []

    def shout() -> str:
        return "not json"

    def record(results: list[Any]) -> dict[str, Any]:
        seen.append(list(results))
        return {}

    tool = Tool.from_schema(shout, "shout", "Shout.", READ_SCHEMA)
    model = ScriptedModel([ToolCall("shout", {}), ToolCall("shout", record), Text("ok")])

    _run(Agent(model, tools=[tool]), "go")

    assert seen == [["not json"]]


def test_several_calls_in_one_response() -> None:
    book = Notebook()
    model = ScriptedModel(
        [
            ToolCalls([ToolCall("read", {}), ToolCall("add", {"text": "x", "basedOn": 1})]),
            Finish("stop", "done"),
        ]
    )

    result = _run(_agent(book, model), "go")

    responses = [m for m in result.all_messages() if isinstance(m, ModelResponse)]
    first_calls = [p.tool_name for p in responses[0].parts if isinstance(p, ToolCallPart)]
    assert first_calls == ["read", "add"]
    assert responses[0].finish_reason == "tool_call"
    assert sorted(name for name, _ in book.calls) == ["add", "read"]
    assert model.requests == 2


def test_length_finish_is_the_last_response_finish_reason() -> None:
    model = ScriptedModel([ToolCall("read", {}), Finish("length", "cut mid-sent")])

    result = _run(_agent(Notebook(), model), "go")

    last = result.all_messages()[-1]
    assert isinstance(last, ModelResponse)
    assert last.finish_reason == "length"
    assert result.output == "cut mid-sent"


def test_length_finish_without_text_is_an_output_limit() -> None:
    model = ScriptedModel([Finish("length")])

    with pytest.raises(OutputTokenLimitExceeded):
        _run(_agent(Notebook(), model), "go")


def test_exhausted_script_finishes_with_final_text() -> None:
    book = Notebook()
    model = ScriptedModel([ToolCall("read", {})], final_text="all done")

    result = _run(_agent(book, model), "go")

    assert result.output == "all done"
    last = result.all_messages()[-1]
    assert isinstance(last, ModelResponse) and last.finish_reason == "stop"
    assert model.requests == 2


async def _stream(agent: Agent[None, str]) -> tuple[list[Any], list[ModelResponse]]:
    collected: list[Any] = []
    async with agent.run_stream_events("go") as events:
        async for event in events:
            collected.append(event)
        messages = events.all_messages()
    return collected, [m for m in messages if isinstance(m, ModelResponse)]


def test_streamed_run_executes_tools_and_streams_text() -> None:
    book = Notebook()
    model = ScriptedModel(_script())

    events, responses = asyncio.run(_stream(_agent(book, model)))

    assert book.notes == ["one", "two"]
    calls = [e.part for e in events if isinstance(e, FunctionToolCallEvent)]
    assert [(c.tool_name, c.args_as_dict()) for c in calls] == [
        ("read", {}),
        ("add", {"text": "one", "basedOn": 1}),
        ("add", {"text": "two", "basedOn": 2}),
    ]
    results = [e.part.content for e in events if isinstance(e, FunctionToolResultEvent)]
    assert results[0] == {"revision": 1, "notes": []}
    assert json.loads(results[2]) == {"ok": True, "revision": 3}
    text = [
        e.part.content
        for e in events
        if isinstance(e, PartStartEvent) and isinstance(e.part, TextPart)
    ]
    text += [
        e.delta.content_delta
        for e in events
        if isinstance(e, PartDeltaEvent) and isinstance(e.delta, TextPartDelta)
    ]
    assert "".join(text) == "Two notes added."
    assert [r.finish_reason for r in responses] == ["tool_call"] * 3 + ["stop"]


def test_streamed_length_finish_is_visible() -> None:
    model = ScriptedModel([ToolCall("read", {}), Finish("length", "cut")])

    _, responses = asyncio.run(_stream(_agent(Notebook(), model)))

    assert responses[-1].finish_reason == "length"
