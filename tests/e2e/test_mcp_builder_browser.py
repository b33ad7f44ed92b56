"""An outside agent writes through ``/mcp`` while a person watches the builder page in Chromium.

The session is opened in the page without approve-on-save: the outside
agent's writes still wait in a change set. The page names the writer live
(its tool rows and the change set's note), the person approves in the page,
the draft changes, and the agent's next call carries the notice.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp_types import Implementation
from playwright.sync_api import Browser, expect
from tests.support.browser import Watched, chromium, watched_page
from tests.support.browser_server import BrowserServer, serve_builder

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

HERO = [
    {"t": "insert_node", "node": {"id": "hero", "type": "section", "parent": None}},
    {"t": "insert_node", "node": {"id": "hero-h", "type": "heading", "parent": "hero",
                                  "props": {"content": "Written from outside", "level": 1}}},
]  # fmt: skip


@pytest.fixture
def browser() -> Iterator[Browser]:
    with chromium() as launched:
        yield launched


@pytest.fixture
def server(tmp_path: Path, browser: Browser) -> Iterator[BrowserServer]:
    with serve_builder(tmp_path) as served:
        yield served


@pytest.fixture
def open_page(browser: Browser) -> Iterator[Watched]:
    with watched_page(browser, 1440, 900, expected=("/published",)) as watched:
        yield watched


def _agent(url: str, script: Any) -> Any:
    """``script(session)`` with the official MCP client as "Claude Desktop" (the server resolves every request)."""

    async def main() -> Any:
        async with (
            streamable_http_client(f"{url}/mcp") as (read, write),
            ClientSession(read, write, client_info=Implementation(name="Claude Desktop", version="1")) as session,
        ):
            await session.discover()
            return await script(session)

    # Playwright's sync API holds this thread's event loop: the client runs in a thread of its own.
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, main()).result(timeout=60)


def test_the_builder_shows_the_outside_writer_live_and_a_person_approves(
    server: BrowserServer, open_page: Watched, tmp_path: Path
) -> None:
    page = open_page.page
    page.goto(server.url)
    page.get_by_test_id("start-page").fill("home")
    page.get_by_test_id("start-brief").fill("A landing page for Rosa's Bakery")
    expect(page.get_by_test_id("start-approve")).not_to_be_checked()
    page.get_by_test_id("start-button").click()
    expect(page).to_have_url(re.compile(r"#session="))
    session_id = page.url.split("#session=", 1)[1]
    revision = page.get_by_test_id("revision")
    expect(revision).to_have_text("0")

    async def write(session: ClientSession) -> dict[str, Any]:
        read = (await session.call_tool("cms_get", {"session": session_id})).structured_content
        assert isinstance(read, dict)
        result = await session.call_tool("cms_apply", {"session": session_id, "basedOn": read["revision"], "ops": HERO})
        assert isinstance(result.structured_content, dict)
        return result.structured_content

    assert _agent(server.url, write)["applied"] == 2
    log = page.get_by_test_id("chat-log")
    expect(log.locator('.tool[data-actor="Claude-Desktop"][data-tool="cms_apply"]')).to_contain_text("Claude-Desktop")
    expect(log).to_contain_text("Claude-Desktop (an outside agent) is writing")
    panel = page.get_by_test_id("change-set")
    expect(panel).to_be_visible()
    expect(revision).to_have_text("0")  # the draft waits for the person
    page.screenshot(path=tmp_path / "outside-change-set.png")

    page.get_by_test_id("approve-button").click()
    expect(panel).to_be_hidden()
    expect(revision).not_to_have_text("0")
    expect(page.frame_locator('[data-testid="preview-frame"]').locator("h1")).to_contain_text("Written from outside")

    async def read_notices(session: ClientSession) -> list[dict[str, Any]]:
        result = (await session.call_tool("cms_get", {"session": session_id})).structured_content
        assert isinstance(result, dict)
        notices: list[dict[str, Any]] = result["notices"]
        return notices

    assert [notice["status"] for notice in _agent(server.url, read_notices)] == ["approved"]
    open_page.assert_clean()
