"""``builder/mcp`` under the Django adapter: the official MCP client over WSGI and ASGI servers.

The test project authenticates MCP clients by a bearer token its own
middleware reads (``host.BearerTokens``); the adapter's Django permissions
decide. A request with cookies is a browser's and must pass Django's CSRF check.
"""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import httpx
import httpx2
import pytest
from django.core.wsgi import get_wsgi_application
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult, Implementation
from tests.django_project.host import TOKENS
from tests.django_project.support import serve_asgi, signed_in, user_with

from charlotte.contrib.django.instance import get_charlotte

pytestmark = pytest.mark.timeout(120)

HERO = [{"t": "insert_node", "node": {"id": "hero", "type": "section", "parent": None}}]
#: A page of its own: the Django project's other tests publish "home" in the same tenant.
PAGE = f"mcp-{uuid.uuid4().hex[:8]}"


class _Quiet(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def serve_wsgi() -> Iterator[str]:
    """The test project under a WSGI server (wsgiref) on loopback: its base URL; always shut down."""
    server: WSGIServer = make_server("127.0.0.1", 0, get_wsgi_application(), handler_class=_Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(10)
        server.server_close()


def _token(*abilities: str) -> str:
    user = user_with(*abilities)
    token = uuid.uuid4().hex
    TOKENS[token] = user.username
    return token


def _run(url: str, token: str | None, script: Any) -> Any:
    async def main() -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=30) as http,
            streamable_http_client(f"{url}/builder/mcp", http_client=http) as (read, write),
            ClientSession(read, write, client_info=Implementation(name="Cursor", version="1")) as session,
        ):
            await session.discover()
            return await script(session)

    return asyncio.run(main())


def _data(result: CallToolResult) -> dict[str, Any]:
    assert isinstance(result.structured_content, dict)
    return result.structured_content


async def _build(session: ClientSession) -> tuple[str, CallToolResult]:
    opened = _data(await session.call_tool("charlotte_open_session", {"page": PAGE, "brief": "A bakery"}))
    sid = opened["session"]
    page = _data(await session.call_tool("cms_get", {"session": sid}))
    return sid, await session.call_tool("cms_apply", {"session": sid, "basedOn": page["revision"], "ops": HERO})


@pytest.mark.parametrize("serve", [serve_wsgi, serve_asgi], ids=["wsgi", "asgi"])
def test_an_outside_agent_writes_a_change_set_under_the_adapters_permissions(serve: Any) -> None:
    writer = _token("all")
    reader = _token("open", "view")
    with serve() as url:
        sid, written = _run(url, writer, _build)
        assert not written.is_error, written
        _, refused = _run(url, reader, _build)
        assert refused.is_error and _data(refused)["error"]["code"] == "forbidden"

        async def anonymous(session: ClientSession) -> CallToolResult:
            return await session.call_tool("cms_get", {"session": sid})

        nobody = _run(url, None, anonymous)
        assert nobody.is_error and _data(nobody)["error"]["code"] == "unauthorized"
    handle = get_charlotte().find(sid, "acme", user=user_with("all"))
    assert handle is not None
    events = handle.events(limit=100)
    assert {e["actor"] for e in events if e["type"] != "session.opened"} == {"agent:Cursor"}
    assert "proposal.opened" in {e["type"] for e in events}
    assert handle.draft()["page"]["nodes"] == {}


def test_a_browser_with_cookies_needs_djangos_csrf_token() -> None:
    client = signed_in(user_with("all"), enforce_csrf=True)
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    accept = "application/json, text/event-stream"
    refused = client.post("/builder/mcp", body, content_type="application/json", headers={"Accept": accept})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "cross_site"
    # A cross-site page is refused by charlotte's own rules whatever it carries.
    forged = client.post("/builder/mcp", body, content_type="application/json", headers={
        "Accept": accept, "Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site",
    })  # fmt: skip
    assert forged.status_code == 403
    # Without cookies (an MCP client) there is nothing to forge: no token needed.
    with serve_wsgi() as url:
        answer = httpx.post(f"{url}/builder/mcp", json=body, timeout=10, headers={
            "Accept": accept, "Authorization": f"Bearer {_token('all')}", "MCP-Protocol-Version": "2025-11-25",
        })  # fmt: skip
    assert answer.status_code == 200, answer.text
    assert "cms_apply" in {tool["name"] for tool in answer.json()["result"]["tools"]}
