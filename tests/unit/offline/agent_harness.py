"""The offline model driving a real Agent over the nine real page tools: one session's harness.

Shared by ``test_model.py`` and ``test_follow_up_writes.py``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic_ai import Agent, AgentRunResult, RunContext, Tool
from pydantic_ai.messages import ModelMessage, ToolCallPart, ToolReturnPart
from tests.support.units import call_tool, in_unit

from charlotte.drafts.workspace import Workspace
from charlotte.offline.model import offline_model
from charlotte.storage import SessionRecord, SessionStore, transaction
from charlotte.tools import PageTools, ToolBinding

ApplyHook = Callable[[int], None]


@dataclass
class Harness:
    """A workspace, its tools, one session and an agent whose tools call them."""

    ws: Workspace
    tools: PageTools
    session: SessionRecord
    binding: ToolBinding
    calls: list[str]
    before_apply: ApplyHook | None = None

    def agent(self) -> Agent[ToolBinding, str]:
        return Agent(
            offline_model(),
            deps_type=ToolBinding,
            tools=[self._tool(d.name) for d in self.tools.definitions()],
        )

    def _tool(self, name: str) -> Tool[ToolBinding]:
        definition = next(d for d in self.tools.definitions() if d.name == name)

        def run(ctx: RunContext[ToolBinding], **kwargs: Any) -> dict[str, Any]:
            self.calls.append(name)
            if name == "cms_apply" and self.before_apply is not None:
                self.before_apply(self.calls.count("cms_apply"))
            tools = self.tools
            if isinstance(tools, PageTools):
                return call_tool(tools, name, kwargs, ctx.deps)
            return tools.call(name, kwargs, ctx.deps)  # a test's stand-in over a PageTools

        return Tool.from_schema(
            run, name, definition.description, definition.parameters_json_schema, takes_ctx=True
        )

    def run(
        self, prompt: str = "Build the page.", history: list[ModelMessage] | None = None
    ) -> AgentRunResult[str]:
        return asyncio.run(self.agent().run(prompt, deps=self.binding, message_history=history))

    def doc(self) -> dict[str, Any]:
        return in_unit(self.ws, self.session.id, self.session.tenant).draft()[0]

    def human_edit(self, ops: list[dict[str, Any]]) -> None:
        _doc, revision = in_unit(self.ws, self.session.id, self.session.tenant).draft()
        in_unit(self.ws, self.session.id, self.session.tenant).human_edit(ops, based_on=revision, user="user-1"
        )


def harness_on(
    ws: Workspace, tools: PageTools, brief: str, facts: dict[str, Any], *, page: str
) -> Harness:
    """A new session of ``page`` (tenant-a, by user-1) and its harness."""
    with transaction(ws.engine) as conn:
        session = SessionStore().create(
            conn, tenant="tenant-a", page=page, created_by="user-1", brief=brief, facts=facts
        )
    binding = ToolBinding.for_session(session.id, session.tenant, session.page)
    return Harness(ws, tools, session, binding, [])


def tool_exchanges(messages: list[ModelMessage]) -> list[tuple[str, dict[str, Any], Any]]:
    """(tool name, args, result) in call order, from the message history."""
    calls: dict[str, ToolCallPart] = {}
    out = []
    for message in messages:
        for part in message.parts:
            if isinstance(part, ToolCallPart):
                calls[part.tool_call_id] = part
            elif isinstance(part, ToolReturnPart):
                call = calls[part.tool_call_id]
                out.append((call.tool_name, call.args_as_dict(), part.content))
    return out
