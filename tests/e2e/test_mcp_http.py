"""The MCP endpoint ``/mcp`` of the ASGI app under uvicorn, driven by the official MCP client.

The host's resolvers decide who asks: here a bearer token names the user and
the tenant (a token is the host's business). A person approves through the
HTTP API, as the builder does; the agent's next call carries the notice.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult, Implementation
from tests.support.asgi_server import serve_app

from charlotte.app import Charlotte
from charlotte.settings import Settings

pytestmark = pytest.mark.timeout(120)

TOKENS = {"Bearer ann-token": ("ann", "acme"), "Bearer bob-token": ("bob", "globex")}
HERO = [
    {"t": "insert_node", "node": {"id": "hero", "type": "section", "parent": None}},
    {"t": "insert_node", "node": {"id": "hero-h", "type": "heading", "parent": "hero",
                                  "props": {"content": "Rosa's Bakery", "level": 1}}},
]  # fmt: skip


def _who(request: Any) -> tuple[str, str] | None:
    token = TOKENS.get(request.headers.get("authorization", ""))
    if token is not None:
        return token
    person = request.headers.get("x-user")  # the builder's person, as the other uvicorn tests
    return (person, "acme") if person else None


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Charlotte, str]]:
    charlotte = Charlotte(Settings(database_url=f"sqlite:///{tmp_path / 'c.db'}", model="offline"))
    charlotte.migrate()
    charlotte.resolve_user_using(lambda request: (who := _who(request)) and who[0])
    charlotte.resolve_tenant_using(lambda request: (who := _who(request)) and who[1])
    try:
        with serve_app(charlotte.asgi_app()) as url:
            yield charlotte, url
    finally:
        charlotte.close()


def _run(url: str, script: Any, *, token: str | None = "Bearer ann-token", modern: bool = True,
         name: str = "Claude Desktop") -> Any:  # fmt: skip
    """``script(client_session)`` with the official client over Streamable HTTP; its value."""

    async def main() -> Any:
        headers = {"Authorization": token} if token else {}
        info = Implementation(name=name, version="1.0")
        async with (
            httpx2.AsyncClient(headers=headers, timeout=30) as http,
            streamable_http_client(f"{url}/mcp", http_client=http) as (read, write),
            ClientSession(read, write, client_info=info) as session,
        ):
            # The 2026 protocol carries the client's name on every request; the handshake does not.
            await (session.discover() if modern else session.initialize())
            return await script(session)

    return asyncio.run(main())


def _data(result: CallToolResult) -> dict[str, Any]:
    assert isinstance(result.structured_content, dict)
    return result.structured_content


def test_an_outside_agent_builds_a_change_set_a_person_approves_and_is_told(
    served: tuple[Charlotte, str],
) -> None:
    charlotte, url = served

    async def build(session: ClientSession) -> tuple[Any, str, list[dict[str, Any]]]:
        tools = (await session.list_tools()).tools
        opened = _data(await session.call_tool("charlotte_open_session", {"page": "home", "brief": "A bakery"}))
        sid = opened["session"]
        page = _data(await session.call_tool("cms_get", {"session": sid}))
        written = await session.call_tool("cms_apply", {"session": sid, "basedOn": page["revision"], "ops": HERO})
        assert not written.is_error, written
        checked = _data(await session.call_tool("cms_check", {"session": sid}))
        return tools, sid, checked["findings"]

    tools, sid, findings = _run(url, build)
    hints = {t.name: t.annotations for t in tools}
    assert not [name for name in hints if "publish" in name]
    assert {"cms_get", "cms_apply", "cms_check", "charlotte_open_session"} <= set(hints)
    assert hints["cms_get"].read_only_hint is True and hints["cms_get"].destructive_hint is False
    assert hints["cms_apply"].read_only_hint is False and hints["cms_apply"].destructive_hint is True
    assert hints["charlotte_open_session"].idempotent_hint is False
    assert "session" in next(t for t in tools if t.name == "cms_apply").input_schema["required"]
    assert isinstance(findings, list)

    handle = charlotte.find(sid, "acme", user="ann")
    assert handle is not None
    writes = [(e["type"], e["actor"]) for e in handle.events(limit=100) if e["type"] != "session.opened"]
    assert set(actor for _, actor in writes) == {"agent:Claude-Desktop"}
    assert ("proposal.opened", "agent:Claude-Desktop") in writes and ("page.changed", "agent:Claude-Desktop") in writes
    assert handle.draft()["page"]["nodes"] == {}  # the change set awaits a person

    approved = httpx.post(f"{url}/sessions/{sid}/change-set/approve", headers={"X-User": "ann"}, json={}, timeout=10)
    assert approved.status_code == 200, approved.text
    assert sorted(handle.draft()["page"]["nodes"]) == ["hero", "hero-h"]

    async def read_twice(session: ClientSession) -> tuple[dict[str, Any], dict[str, Any]]:
        first = _data(await session.call_tool("cms_get", {"session": sid}))
        return first, _data(await session.call_tool("cms_get", {"session": sid}))

    first, second = _run(url, read_twice)
    assert [notice["status"] for notice in first["notices"]] == ["approved"]
    assert second["notices"] == []


def test_a_client_of_the_handshake_era_is_named_by_its_http_client(served: tuple[Charlotte, str]) -> None:
    charlotte, url = served

    async def open_and_read(session: ClientSession) -> str:
        sid = _data(await session.call_tool("charlotte_open_session", {"page": "home", "brief": "x"}))["session"]
        await session.call_tool("cms_get", {"session": sid})
        return str(sid)

    sid = _run(url, open_and_read, modern=False)
    handle = charlotte.find(sid, "acme", user="ann")
    assert handle is not None
    assert handle.events()[-1]["actor"] == "agent:python-httpx2"


def test_refusals_over_http(served: tuple[Charlotte, str]) -> None:
    charlotte, url = served
    sid = charlotte.for_user("ann").tenant("acme").page("home").brief("A bakery").open().id

    async def call(session: ClientSession) -> CallToolResult:
        return await session.call_tool("cms_get", {"session": sid})

    nobody = _run(url, call, token=None)
    assert nobody.is_error and _data(nobody)["error"]["code"] == "unauthorized"
    other_tenant = _run(url, call, token="Bearer bob-token")
    assert other_tenant.is_error and _data(other_tenant)["error"]["code"] == "not_found"
    assert "exception" not in str(_data(other_tenant)).lower()

    async def publish(session: ClientSession) -> CallToolResult:
        return await session.call_tool("cms_publish", {"session": sid})

    assert _data(_run(url, publish))["error"]["code"] == "unknown_tool"
    before = len(charlotte.find(sid, "acme", user="ann").events())  # type: ignore[union-attr]

    # A browser on another site cannot make a signed-in person's cookies call the endpoint.
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    forged = httpx.post(f"{url}/mcp", json=body, timeout=10, headers={
        "Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site", "X-User": "ann",
        "Accept": "application/json, text/event-stream",
    })  # fmt: skip
    assert forged.status_code == 403 and forged.json()["error"]["code"] == "cross_site"
    # A body over the endpoint's bound is refused before any tool runs.
    huge = httpx.post(f"{url}/mcp", content=b"{" + b" " * (5 * 1024 * 1024) + b"}", timeout=30, headers={
        "Authorization": "Bearer ann-token", "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
    })  # fmt: skip
    assert huge.status_code == 413
    assert len(charlotte.find(sid, "acme", user="ann").events()) == before  # type: ignore[union-attr]
