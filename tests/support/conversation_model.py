"""Models that show what history a turn's run was given.

``RecallModel`` answers every request with one JSON text: what the person
asked and what the agent said in the history it was handed (a worker process
can say it through the reply, which the conversation row keeps).
``SeeingModel`` is a ``ScriptedModel`` that keeps the messages of every
request it was sent.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from typing import Any

from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart, UserPromptPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from charlotte.testing import ScriptedModel


def recall(messages: Sequence[ModelMessage]) -> dict[str, list[str]]:
    """The person's prompts and the agent's texts in ``messages``, oldest first."""
    asked = [
        part.content
        for message in messages
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, UserPromptPart) and isinstance(part.content, str)
    ]
    said = [
        part.content
        for message in messages
        if isinstance(message, ModelResponse)
        for part in message.parts
        if isinstance(part, TextPart)
    ]
    return {"asked": asked, "said": said}


def _answer(messages: list[ModelMessage]) -> str:
    return json.dumps(recall(messages), sort_keys=True)


class RecallModel(FunctionModel):
    """Replies with ``recall`` of the messages it was sent, as JSON text."""

    def __init__(self) -> None:
        async def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
            return ModelResponse(parts=[TextPart(_answer(messages))])

        async def stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str]:
            yield _answer(messages)

        super().__init__(respond, stream_function=stream, model_name="recall")


class SeeingModel(ScriptedModel):
    """A ``ScriptedModel`` that keeps the messages of every request (``seen``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seen: list[list[ModelMessage]] = []

    def _plan(self, messages: list[ModelMessage]) -> Any:
        self.seen.append(list(messages))
        return super()._plan(messages)
