"""The editor's Undo takes back a History restore, as any of the person's steps (real Chromium).

Before, the restore was no step of the page's undo stack: Undo after it tried
the edit before the restore, which the restore had touched, and answered
"Could not undo: later changes touched …" with a 409 in the console.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, expect
from tests.support.browser import chromium
from tests.support.browser_server import BrowserServer, serve_builder
from tests.support.builder_page import FRAME, built_session, draft, opened

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

HEADING = "hero-heading"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Browser, BrowserServer]]:
    with chromium() as browser, serve_builder(tmp_path_factory.mktemp("undo-restore")) as server:
        server.pacer.free()
        yield browser, server


def _edit(server: BrowserServer, session: str, words: str) -> int:
    handle = server.charlotte.find(session, "local", user="local")
    assert handle is not None
    answer: dict[str, Any] = handle.edit(
        [{"t": "set_node_props", "id": HEADING, "patch": {"content": words}}], draft(server, session)["revision"]
    )
    return int(answer["revision"])


@pytest.mark.parametrize("width", [1280, 390])
def test_undo_after_a_restore_takes_the_restore_back(served: tuple[Browser, BrowserServer], width: int) -> None:
    browser, server = served
    session = built_session(server, page=f"undo-{width}")
    first = _edit(server, session, "First words")
    _edit(server, session, "Second words")
    with opened(browser, server, session, width) as watched:
        page = watched.page
        headline = page.frame_locator(FRAME).locator(f'[data-cms="{HEADING}"] h1')
        expect(headline).to_have_text("Second words")
        page.get_by_role("button", name="History").click()
        page.get_by_role("button", name=f"Restore this version, revision {first}").first.click()
        page.get_by_test_id("history-confirm-ok").click()
        expect(headline).to_have_text("First words")
        page.locator("#history-close").click()
        page.get_by_test_id("editor-undo").click()
        expect(headline).to_have_text("Second words")
        expect(page.get_by_test_id("editor-notice")).to_have_text("Undone.")
        assert draft(server, session)["page"]["nodes"][HEADING]["props"]["content"] == "Second words"
        watched.assert_clean()
