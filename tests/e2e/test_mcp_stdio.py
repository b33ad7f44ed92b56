"""``charlotte mcp --tenant T --user U`` in a subprocess, driven over stdio by the official MCP client.

The command serves one user of one tenant (a local client starts it); the
test reads the log and approves as a person through a ``Charlotte`` of its
own on the same SQLite file, and the agent's next call carries the notice.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp_types import CallToolResult, Implementation

from charlotte.app import Charlotte
from charlotte.settings import Settings

pytestmark = pytest.mark.timeout(120)

HERO = [{"t": "insert_node", "node": {"id": "hero", "type": "section", "parent": None}}]


def _run(database: Path, script: Any, *, tenant: str = "acme") -> Any:
    """``script(client_session)`` against a fresh ``charlotte mcp`` process; its value."""
    env = {**os.environ, "CHARLOTTE_MODEL": "offline"}
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "charlotte.cli", "mcp", "--tenant", tenant, "--user", "ann",
              "--database-url", f"sqlite:///{database}"],
        env=env,
    )  # fmt: skip

    async def main() -> Any:
        async with stdio_client(server) as (read, write):
            info = Implementation(name="Claude Code", version="2.0")
            async with ClientSession(read, write, client_info=info) as session:
                await session.initialize()
                return await script(session)

    return asyncio.run(main())


def _data(result: CallToolResult) -> dict[str, Any]:
    assert isinstance(result.structured_content, dict)
    return result.structured_content


def test_a_local_agent_over_stdio_writes_a_change_set_a_person_approves(tmp_path: Path) -> None:
    database = tmp_path / "c.db"

    async def build(session: ClientSession) -> tuple[list[Any], str, dict[str, Any], dict[str, Any]]:
        tools = (await session.list_tools()).tools
        sid = _data(await session.call_tool("charlotte_open_session", {"page": "home", "brief": "A bakery"}))["session"]
        page = _data(await session.call_tool("cms_get", {"session": sid}))
        written = _data(await session.call_tool("cms_apply", {"session": sid, "basedOn": page["revision"], "ops": HERO}))
        checked = _data(await session.call_tool("cms_check", {"session": sid}))
        return tools, sid, written, checked

    tools, sid, written, checked = _run(database, build)
    annotations = {t.name: t.annotations for t in tools}
    assert annotations["cms_outline"].read_only_hint is True
    assert annotations["cms_apply"].destructive_hint is True
    assert not [name for name in annotations if "publish" in name]
    assert written["applied"] == 1 and "findings" in checked

    charlotte = Charlotte(Settings(database_url=f"sqlite:///{database}", model="offline"))
    try:
        handle = charlotte.find(sid, "acme", user="ann")
        assert handle is not None
        actors = {e["actor"] for e in handle.events(limit=100) if e["type"] != "session.opened"}
        assert actors == {"agent:Claude-Code"}
        assert handle.draft()["page"]["nodes"] == {}
        assert handle.approve()["status"] == "approved"
        assert list(handle.draft()["page"]["nodes"]) == ["hero"]
    finally:
        charlotte.close()

    async def read(session: ClientSession) -> dict[str, Any]:
        return _data(await session.call_tool("cms_get", {"session": sid}))

    assert [n["status"] for n in _run(database, read)["notices"]] == ["approved"]

    async def elsewhere(session: ClientSession) -> CallToolResult:
        return await session.call_tool("cms_get", {"session": sid})

    refused = _run(database, elsewhere, tenant="globex")
    assert refused.is_error and _data(refused)["error"]["code"] == "not_found"
