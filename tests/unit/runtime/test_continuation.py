"""Continuation of a run cut off by the output limit: what the continued run is sent, and when.

A ``length`` finish before a successful ``cms_ready`` is continued with the
fixed ``CONTINUATION`` prompt on the run's own history; after a successful
``cms_ready`` the page is ready and the turn finishes instead. The model here
records every request it is sent, so these tests pin the prompt, the history
and the condition (turns run through ``Turns.send`` → ``InlineQueue`` →
``TurnRunner``, with the real tools and SQLite).
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager
from typing import Any

import pytest
import sqlalchemy as sa
from pydantic_ai import RunContext
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models import Model, ModelRequestParameters, StreamedResponse
from pydantic_ai.settings import ModelSettings
from tests.support.runner_harness import HERO, Harness, apply_step

from charlotte.events import EventTypes
from charlotte.runtime.runner import CONTINUATION
from charlotte.storage import SessionRecord
from charlotte.testing import Finish, ScriptedModel, Step, Text, ToolCall


class RecordingModel(ScriptedModel):
    """A ``ScriptedModel`` that keeps a copy of the messages of every request it is sent."""

    def __init__(self, steps: list[Step]) -> None:
        super().__init__(steps)
        self.sent: list[list[ModelMessage]] = []

    @asynccontextmanager
    async def request_stream(
        self,
        messages: list[ModelMessage],
        model_settings: ModelSettings | None,
        model_request_parameters: ModelRequestParameters,
        run_context: RunContext[Any] | None = None,
    ) -> AsyncGenerator[StreamedResponse]:
        self.sent.append(list(messages))
        async with super().request_stream(
            messages, model_settings, model_request_parameters, run_context
        ) as streamed:
            yield streamed


class RecordingHarness(Harness):
    """The runner harness, its turns played by ``RecordingModel``s."""

    def _model(self) -> Model:
        model = RecordingModel(list(self.script))
        self.models.append(model)
        return model

    def recorded(self) -> RecordingModel:
        """The model of the last turn."""
        model = self.models[-1]
        assert isinstance(model, RecordingModel)
        return model


@pytest.fixture
def harness(sqlite_engine: sa.Engine) -> RecordingHarness:
    return RecordingHarness(sqlite_engine)


def shape(messages: list[ModelMessage]) -> list[tuple[str, list[tuple[str, Any]]]]:
    """What a request carries, part by part, without ids and timestamps."""
    out: list[tuple[str, list[tuple[str, Any]]]] = []
    for message in messages:
        parts: list[tuple[str, Any]] = []
        for part in message.parts:
            if isinstance(part, UserPromptPart):
                parts.append(("user", part.content))
            elif isinstance(part, ToolReturnPart):
                parts.append(("tool_return", (part.tool_name, part.model_response_str())))
            elif isinstance(part, ToolCallPart):
                parts.append(("tool_call", (part.tool_name, part.args_as_dict())))
            elif isinstance(part, TextPart):
                parts.append(("text", part.content))
            else:
                parts.append((part.part_kind, None))
        kind = "request" if isinstance(message, ModelRequest) else "response"
        out.append((kind, parts))
    return out


def run_reasons(h: Harness, s: SessionRecord) -> list[str]:
    return [e.payload["reason"] for e in h.events(s) if e.type == EventTypes.RUN_FINISHED]


def finished(h: Harness, s: SessionRecord) -> list[dict[str, Any]]:
    return [dict(e.payload) for e in h.events(s) if e.type == EventTypes.TURN_FINISHED]


def test_the_continuation_prompt_asks_to_continue_and_finish_with_cms_ready() -> None:
    # Emptying or rewording the prompt into something else fails here.
    assert "cut off by the output limit" in CONTINUATION
    assert "Continue exactly where you stopped" in CONTINUATION
    assert "cms_ready" in CONTINUATION


# A reply cut off with text ends the run with finish reason ``length``; one
# cut off before any text makes pydantic-ai raise ``OutputTokenLimitExceeded``.
@pytest.mark.parametrize("cut_text", ["I was cut off while", ""], ids=["with_text", "empty"])
def test_a_continued_run_is_sent_the_first_runs_messages_then_the_continuation(
    harness: RecordingHarness, cut_text: str
) -> None:
    s = harness.open()
    harness.send(
        s,
        [
            ToolCall("cms_apply", apply_step(HERO)),
            Finish("length", cut_text),
            ToolCall("cms_ready", {"summary": "Done after a continuation."}),
            Text("Ready."),
        ],
        message="Build the bakery page",
    )
    assert run_reasons(harness, s) == ["length", "stop"]
    assert finished(harness, s)[0]["ready"] is True
    sent = harness.recorded().sent
    # run 1: the apply, the cut-off reply; run 2: cms_ready, the final text.
    assert len(sent) == 4
    first_run_last_request, continued = shape(sent[1]), shape(sent[2])
    # The first run's messages, as they were, then the cut-off reply itself ...
    assert continued[: len(first_run_last_request)] == first_run_last_request
    assert continued[len(first_run_last_request)] == ("response", [("text", cut_text)])
    # ... then one new request: exactly the fixed continuation text.
    assert len(continued) == len(first_run_last_request) + 2
    assert continued[-1] == ("request", [("user", CONTINUATION)])
    assert "cut off by the output limit" in CONTINUATION
    # The first run's messages are the person's message, the model's call and its result.
    assert continued[0] == ("request", [("user", "Build the bakery page")])
    assert continued[1] == ("response", [("tool_call", ("cms_apply", {"basedOn": 0, "ops": HERO}))])
    [(kind, (tool, result))] = continued[2][1]
    assert (continued[2][0], kind, tool) == ("request", "tool_return", "cms_apply")
    assert json.loads(result)["revision"] == 2


def test_a_length_finish_after_a_successful_cms_ready_is_not_continued(
    harness: RecordingHarness,
) -> None:
    s = harness.open()
    harness.send(
        s,
        [
            ToolCall("cms_apply", apply_step(HERO)),
            ToolCall("cms_ready", {"summary": "A hero with the bakery's name."}),
            Finish("length", "The page is ready; I was cut off while"),
        ],
    )
    # One run of three requests: the cut-off reply after cms_ready ends the turn.
    assert harness.recorded().requests == 3
    assert harness.types(s).count(EventTypes.RUN_STARTED) == 1
    assert run_reasons(harness, s) == ["length"]
    assert [p["ready"] for p in finished(harness, s)] == [True]
    assert EventTypes.RUN_FAILED not in harness.types(s)
    sent = harness.recorded().sent
    assert all(("user", CONTINUATION) not in parts for m in sent for _, parts in shape(m))


def test_a_length_finish_after_a_refused_cms_ready_is_continued(
    harness: RecordingHarness,
) -> None:
    filler = [
        {"t": "insert_node", "node": {"id": "hero", "type": "section", "parent": None}},
        {
            "t": "insert_node",
            "node": {"id": "title", "type": "heading", "parent": "hero",
                     "props": {"content": "Lorem ipsum dolor sit amet", "level": 1}},
        },
    ]  # fmt: skip
    s = harness.open()
    harness.send(
        s,
        [
            ToolCall("cms_apply", apply_step(filler)),
            ToolCall("cms_ready", {"summary": "Not ready: the copy is filler."}),
            Finish("length", "cut"),
            Text("I could not finish."),
        ],
    )
    ready_results = [
        e.payload for e in harness.events(s)
        if e.type == EventTypes.TOOL_RESULT and e.payload["name"] == "cms_ready"
    ]  # fmt: skip
    assert [r["is_error"] for r in ready_results] == [True]
    # The page is not ready, so the cut-off run is continued.
    assert harness.types(s).count(EventTypes.RUN_STARTED) == 2
    assert run_reasons(harness, s) == ["length", "stop"]
    assert finished(harness, s)[0]["ready"] is False
    assert shape(harness.recorded().sent[3])[-1] == ("request", [("user", CONTINUATION)])
