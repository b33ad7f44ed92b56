"""A pydantic-ai ``Agent`` whose toolset is charlotte's MCP server (``MCPToolset`` over ``/mcp``).

A ``FunctionModel`` plays the agent's script: open a session, read the page,
write a hero and an about section, check, say ready. Each step reads what
the previous tool answered (the session id, the revision), so the script
works only if the tools really answered. A person approves the change set,
and the draft is the page the agent built.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp_types import Implementation
from pydantic_ai import Agent
from pydantic_ai.mcp import MCPToolset
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from tests.support.asgi_server import serve_app

from charlotte.app import Charlotte
from charlotte.settings import Settings

pytestmark = pytest.mark.timeout(120)

OPS = [
    {"t": "insert_node", "node": {"id": "hero", "type": "section", "parent": None}},
    {"t": "insert_node", "node": {"id": "hero-h", "type": "heading", "parent": "hero",
                                  "props": {"content": "Rosa's Bakery", "level": 1}}},
    {"t": "insert_node", "node": {"id": "about", "type": "section", "parent": None}},
    {"t": "insert_node", "node": {"id": "about-t", "type": "text", "parent": "about",
                                  "props": {"content": "Bread baked every morning."}}},
]  # fmt: skip


def _answers(messages: list[ModelMessage]) -> list[tuple[str, dict[str, Any]]]:
    """Every tool answer so far, oldest first: ``(tool name, its result)``."""
    found: list[tuple[str, dict[str, Any]]] = []
    for message in messages:
        for part in getattr(message, "parts", ()):
            if isinstance(part, ToolReturnPart):
                content = part.content
                found.append((part.tool_name, json.loads(content) if isinstance(content, str) else content))
    return found


def _script(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    offered = {tool.name for tool in info.function_tools}
    assert {"charlotte_open_session", "cms_apply"} <= offered and not [n for n in offered if "publish" in n]
    answers = _answers(messages)
    step = len(answers)
    if step == 0:
        return _call("charlotte_open_session", {"page": "home", "brief": "A landing page for Rosa's Bakery"})
    session = answers[0][1]["session"]
    last = answers[-1][1]
    assert "error" not in last, last
    if step == 1:
        return _call("cms_get", {"session": session})
    if step == 2:
        return _call("cms_apply", {"session": session, "basedOn": last["revision"], "ops": OPS})
    if step == 3:
        return _call("cms_check", {"session": session})
    if step == 4:
        return _call("cms_ready", {"session": session, "summary": "A hero and an about section."})
    return ModelResponse(parts=[TextPart(f"Built the page in session {session}; it awaits your approval.")])


def _call(name: str, args: dict[str, Any]) -> ModelResponse:
    return ModelResponse(parts=[ToolCallPart(name, args)])


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Charlotte, str]]:
    charlotte = Charlotte(Settings(database_url=f"sqlite:///{tmp_path / 'c.db'}", model="offline"))
    charlotte.migrate()
    tokens = {"Bearer ann-token": "ann"}
    charlotte.resolve_user_using(lambda request: tokens.get(request.headers.get("authorization", "")))
    charlotte.resolve_tenant_using(lambda request: "acme")
    try:
        with serve_app(charlotte.asgi_app()) as url:
            yield charlotte, url
    finally:
        charlotte.close()


def test_a_pydantic_ai_agent_builds_a_page_through_the_mcp_server(served: tuple[Charlotte, str]) -> None:
    charlotte, url = served
    toolset: MCPToolset[None] = MCPToolset(
        f"{url}/mcp",
        headers={"Authorization": "Bearer ann-token"},
        client_info=Implementation(name="pydantic-ai builder", version="1"),
    )
    agent = Agent(FunctionModel(_script), toolsets=[toolset])
    # asyncio.run closes its loop (run_sync leaves one open, whose socket pair a later test would see).
    result = asyncio.run(agent.run("Build the bakery's landing page"))
    assert "awaits your approval" in result.output
    session_id = result.output.split("session ", 1)[1].split(";", 1)[0]

    handle = charlotte.find(session_id, "acme", user="ann")
    assert handle is not None
    events = handle.events(limit=200)
    called = [e["payload"]["name"] for e in events if e["type"] == "tool.called"]
    assert called == ["cms_get", "cms_apply", "cms_check", "cms_ready"]
    assert {e["actor"] for e in events if e["type"] != "session.opened"} == {"agent:pydantic-ai-builder"}
    assert handle.draft()["page"]["nodes"] == {}
    assert handle.approve()["status"] == "approved"
    assert sorted(handle.draft()["page"]["nodes"]) == ["about", "about-t", "hero", "hero-h"]
