"""Tool calls the model library would refuse reach charlotte's tools: unknown names and repeated call ids.

pydantic-ai answers a call to a name it has no tool for with its own retry
prompt, counts it against a retry budget (one by default) and against no
``tool_calls_limit``, and a second such call in a row ended the turn
``run_failed``; a response whose calls share an id it refuses whole. Here,
before the library reads a response's calls (``after_model_request``):

- a call id already used by an earlier call of the response gets a fresh
  one (``<id>_2``, ``_3``…: characters every provider allows in an id), in
  the history too, so each call gets its own result and the provider can
  match every result to its call;
- a call to a name that is not one of the nine (``cms_publish``, a Cyrillic
  ``\\u0430`` in ``cms_apply``, a trailing space) goes to ``UNKNOWN_TOOL``, which
  the runner registers beside the nine and no request offers the model
  (``before_model_request``, once per request step: a ``prepare_model_request``
  hook would have the model library copy every tool's schema before each
  attempt, a fifth of a turn's time). Its first hook (``before_tool_validate``)
  puts the model's own name and arguments back on the call, so the history,
  the stream events and the log hold the call as the model made it, and the
  tool answers through ``PageTools.call`` with that name: charlotte's
  ``unknown_tool`` result, a tool call like any other (the stop flag, its
  ``tool.called`` and ``tool.result``, ``tool_calls_limit``);
- arguments that are not a JSON object reach the tool as the text they were
  (``tool_arguments.wrap_malformed``).

One capability, not one per concern: the model library combines several
into one that it copies for every run context it builds, about a tenth of
a turn's time.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any, Final

from pydantic_ai import RunContext
from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.messages import ModelResponse, ToolCallPart
from pydantic_ai.models import ModelRequestContext
from pydantic_ai.tools import ToolDefinition

from charlotte.runtime.tool_arguments import wrap_malformed

__all__ = ["UNKNOWN_TOOL", "ToolRouting", "called_name"]

#: The tool that answers a call to a name that is not one of the nine (never offered to the model).
UNKNOWN_TOOL: Final = "charlotte_unknown_tool"
# The keys UNKNOWN_TOOL's arguments carry the model's name and arguments under (no tool argument has a ``$``).
_NAME: Final = "$tool_name"
_ARGUMENTS: Final = "$tool_arguments"


def called_name(name: str, arguments: dict[str, Any]) -> tuple[str, object]:
    """The name and arguments the model called: ``UNKNOWN_TOOL``'s are the model's own, carried in its arguments."""
    if name != UNKNOWN_TOOL or not isinstance(arguments.get(_NAME), str):
        return name, arguments
    return arguments[_NAME], arguments.get(_ARGUMENTS)


class ToolRouting(AbstractCapability[Any]):
    """Hands charlotte's tools every call as the model made it: fresh ids, unknown names, malformed text."""

    def __init__(self, names: Iterable[str]) -> None:
        self._names = frozenset(names)

    async def before_model_request(
        self, ctx: RunContext[Any], request_context: ModelRequestContext
    ) -> ModelRequestContext:
        parameters = request_context.model_request_parameters
        offered = [tool for tool in parameters.function_tools if tool.name != UNKNOWN_TOOL]
        if len(offered) == len(parameters.function_tools):
            return request_context
        return dataclasses.replace(
            request_context,
            model_request_parameters=dataclasses.replace(parameters, function_tools=offered),
        )

    async def after_model_request(
        self, ctx: RunContext[Any], *, request_context: ModelRequestContext, response: ModelResponse
    ) -> ModelResponse:
        seen: set[str] = set()
        ids = {part.tool_call_id for part in response.parts if isinstance(part, ToolCallPart)}
        for part in response.parts:
            if not isinstance(part, ToolCallPart):
                continue
            if part.tool_call_id in seen:
                part.tool_call_id = _fresh(part.tool_call_id, ids)
                ids.add(part.tool_call_id)
                # The provider's own item id names the call as it first came: a replay by that id
                # would bring the old call id back (OpenAI Responses).
                part.id = None
            seen.add(part.tool_call_id)
            if part.tool_name not in self._names:
                part.args = {_NAME: part.tool_name, _ARGUMENTS: part.args}
                part.tool_name = UNKNOWN_TOOL
        return response

    async def before_tool_validate(
        self,
        ctx: RunContext[Any],
        *,
        call: ToolCallPart,
        tool_def: ToolDefinition,
        args: str | dict[str, Any],
    ) -> str | dict[str, Any]:
        if tool_def.name != UNKNOWN_TOOL or not isinstance(args, dict):
            return wrap_malformed(args)
        name, arguments = called_name(UNKNOWN_TOOL, args)
        if name != UNKNOWN_TOOL:
            # ``call`` is the history's part: what the model made, from here on.
            call.tool_name = name
            call.args = arguments if isinstance(arguments, str | dict) else None
        return args


def _fresh(call_id: str, taken: set[str]) -> str:
    number = 2
    while f"{call_id}_{number}" in taken:
        number += 1
    return f"{call_id}_{number}"
