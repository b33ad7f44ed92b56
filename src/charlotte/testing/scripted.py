"""``ScriptedModel``: a model that plays a fixed script, for tests without a network.

``ScriptedModel`` is a pydantic-ai ``FunctionModel`` that plays a fixed list of
steps, one step per model request. It only *emits* tool calls: pydantic-ai runs
the real tools the agent offers, so nothing in a scripted test bypasses them.
The example in ``charlotte.testing`` plays a turn through a real ``Charlotte``.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, Literal

from pydantic_ai import RunContext
from pydantic_ai.messages import (
    FinishReason,
    ModelMessage,
    ModelRequest,
    ModelResponse,
    ModelResponsePart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models import ModelRequestParameters, StreamedResponse
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, DeltaToolCalls, FunctionModel
from pydantic_ai.settings import ModelSettings

__all__ = ["Finish", "ScriptedModel", "Step", "Text", "ToolCall", "ToolCalls"]

#: Arguments of a scripted tool call: fixed, or computed from the results of
#: the tool calls made so far (oldest first).
Args = Mapping[str, Any] | Callable[[list[Any]], Mapping[str, Any]]


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One scripted tool call; ``args`` may be a function of the earlier tool results.

    ``call_id``: the id the call is sent with (by default one unique in the script).
    """

    name: str
    args: Args
    call_id: str | None = None


@dataclass(frozen=True, slots=True, init=False)
class ToolCalls:
    """Several tool calls in one model response."""

    calls: tuple[ToolCall, ...]

    def __init__(self, calls: Iterable[ToolCall]) -> None:
        object.__setattr__(self, "calls", tuple(calls))


@dataclass(frozen=True, slots=True)
class Text:
    """A plain text response (for a text-output agent this ends the run)."""

    text: str


@dataclass(frozen=True, slots=True)
class Finish:
    """A final response with an explicit finish reason (``length`` = the output was cut)."""

    reason: Literal["stop", "length"] = "stop"
    text: str = ""


Step = ToolCall | ToolCalls | Text | Finish


@dataclass(frozen=True, slots=True)
class _Planned:
    """What one model request answers: text, or tool calls (name, args, call id)."""

    text: str | None
    calls: tuple[tuple[str, dict[str, Any], str], ...]
    finish_reason: FinishReason


def _result_value(part: ToolReturnPart) -> Any:
    """A tool's result as a script sees it: parsed JSON when it is JSON, else the raw content."""
    content = part.content
    if isinstance(content, str):
        try:
            return json.loads(content)
        except ValueError:
            return content
    return content


def _tool_results(messages: Sequence[ModelMessage]) -> list[Any]:
    return [
        _result_value(part)
        for message in messages
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, ToolReturnPart)
    ]


class ScriptedModel(FunctionModel):
    """A ``FunctionModel`` playing ``steps`` one per request, for runs and streamed runs.

    When the script is exhausted it answers ``final_text`` with finish reason
    ``stop``. ``requests`` counts the model requests it answered and
    ``tool_results`` holds the tool results it had seen at the last request.
    """

    requests: int
    tool_results: list[Any]

    def __init__(
        self,
        steps: Iterable[Step],
        *,
        final_text: str = "Done.",
        model_name: str = "scripted",
    ) -> None:
        self.steps: tuple[Step, ...] = tuple(steps)
        self.final_text = final_text
        self.requests = 0
        self.tool_results = []
        self._finish_reason: FinishReason | None = None
        super().__init__(self._respond, stream_function=self._stream, model_name=model_name)

    def _plan(self, messages: list[ModelMessage]) -> _Planned:
        index = self.requests
        self.requests += 1
        self.tool_results = _tool_results(messages)
        step: Step = self.steps[index] if index < len(self.steps) else Finish("stop", self.final_text)
        planned = self._planned(step, index)
        self._finish_reason = planned.finish_reason
        return planned

    def _planned(self, step: Step, index: int) -> _Planned:
        if isinstance(step, Text):
            return _Planned(step.text, (), "stop")
        if isinstance(step, Finish):
            return _Planned(step.text, (), step.reason)
        calls = step.calls if isinstance(step, ToolCalls) else (step,)
        planned_calls = tuple(
            (call.name, self._args(call), call.call_id or f"scripted-{index}-{n}")
            for n, call in enumerate(calls)
        )
        return _Planned(None, planned_calls, "tool_call")

    def _args(self, call: ToolCall) -> dict[str, Any]:
        args = call.args(list(self.tool_results)) if callable(call.args) else call.args
        return dict(args)

    async def _respond(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        planned = self._plan(messages)
        parts: list[ModelResponsePart]
        if planned.text is not None:
            parts = [TextPart(planned.text)] if planned.text else []
        else:
            parts = [ToolCallPart(name, args, call_id) for name, args, call_id in planned.calls]
        return ModelResponse(parts=parts, finish_reason=planned.finish_reason)

    async def _stream(
        self, messages: list[ModelMessage], info: AgentInfo
    ) -> AsyncIterator[str | DeltaToolCalls]:
        planned = self._plan(messages)
        if planned.text is not None:
            # Two chunks so streaming consumers see real deltas.
            half = len(planned.text) // 2
            yield planned.text[:half]
            if planned.text[half:]:
                yield planned.text[half:]
            return
        for n, (name, args, call_id) in enumerate(planned.calls):
            yield {n: DeltaToolCall(name, json.dumps(args), tool_call_id=call_id)}

    @asynccontextmanager
    async def request_stream(
        self,
        messages: list[ModelMessage],
        model_settings: ModelSettings | None,
        model_request_parameters: ModelRequestParameters,
        run_context: RunContext[Any] | None = None,
    ) -> AsyncGenerator[StreamedResponse]:
        """Stream the next step, carrying its finish reason like a real provider would."""
        async with super().request_stream(
            messages, model_settings, model_request_parameters, run_context
        ) as streamed:
            # The stream function has planned the step by now (the base class
            # peeks its first item), so the reason is this request's.
            streamed.finish_reason = self._finish_reason
            yield streamed
