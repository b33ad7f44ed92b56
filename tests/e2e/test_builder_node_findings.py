"""The quality gate's findings of the selected node in the inspector: a real Chromium against a real server.

A person selects a heading and gives it a pale text colour: the inspector
says, under the node's name, what the quality gate would say of it before
publishing (its severity, the server's sentence and what fixes it, as the
publish dialog lists it), and the publish dialog lists it too; a readable
colour takes it away again. At 1280 and 390 px.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.support.browser import chromium
from tests.support.browser_server import BrowserServer, serve_builder
from tests.support.builder_page import built_session, opened

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

#: Per window width: the heading the person styles.
NODES: Final = {1280: "about-us-heading", 390: "menu-heading"}
FIX: Final = "Choose a text colour that stands out more from its background"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Browser, BrowserServer, str]]:
    with chromium() as browser, serve_builder(tmp_path_factory.mktemp("node-findings")) as server:
        yield browser, server, built_session(server)


def _findings_of(server: BrowserServer, session: str, node: str) -> list[dict[str, Any]]:
    handle = server.charlotte.find(session, "local", user="local")
    assert handle is not None
    return [f for f in handle.publish_preview()["findings"] if f.get("node") == node]


def _colour(page: Page, value: str) -> None:
    field = page.locator('[data-testid="inspector"] .inspector-input[data-style="color"]')
    field.fill(value)
    field.press("Enter")


@pytest.mark.parametrize("width", [1280, 390])
def test_the_inspector_says_the_selected_nodes_findings_and_the_dialog_lists_them(
    served: tuple[Browser, BrowserServer, str], width: int
) -> None:
    browser, server, session = served
    node = NODES[width]
    assert _findings_of(server, session, node) == []
    with opened(browser, server, session, width) as watched:
        page = watched.page
        page.get_by_test_id("device-phone").click()
        row = page.locator(f'[data-testid="outline-tree"] [data-node="{node}"]')
        row.click()
        expect(row).to_have_attribute("aria-selected", "true")
        block = page.locator('[data-testid="inspector"] .inspector-findings')
        expect(block).to_be_hidden()
        _colour(page, "#e8e8e8")
        expect(block).to_be_visible()
        finding = block.locator('.finding[data-code="low_contrast"]')
        expect(finding).to_contain_text(FIX)
        expect(finding.locator(".finding-severity")).to_have_text(
            "Must fix" if _findings_of(server, session, node)[0]["severity"] == "error" else "Warning"
        )
        # Above the node's fields, inside the window's width.
        block.scroll_into_view_if_needed()
        box = block.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        # The publish dialog lists the same finding on the same node.
        page.get_by_test_id("publish-button").click()
        dialog = page.get_by_test_id("publish-dialog")
        expect(dialog.locator(f'.finding[data-code="low_contrast"][data-node="{node}"]')).to_be_visible()
        page.get_by_test_id("publish-cancel").click()
        expect(dialog).to_be_hidden()
        # A readable colour: nothing left to say.
        _colour(page, "#222222")
        expect(block).to_be_hidden()
        assert _findings_of(server, session, node) == []
        watched.assert_clean()


@pytest.mark.parametrize("width", [1280, 390])
def test_the_page_settings_say_the_pages_own_findings(
    served: tuple[Browser, BrowserServer, str], width: int
) -> None:
    browser, server, session = served
    assert _findings_of(server, session, "#meta") == []
    with opened(browser, server, session, width) as watched:
        page = watched.page
        page.get_by_test_id("settings-button").click()
        sheet = page.get_by_test_id("settings-sheet")
        expect(sheet).to_be_visible()
        block = sheet.locator('.inspector-findings[data-place="page"]')
        expect(block).to_be_hidden()
        # No description: the gate's warning shows in the sheet, on the page's settings, with its fix.
        page.get_by_test_id("settings-description").fill("")
        page.get_by_test_id("settings-save").click()
        expect(page.get_by_test_id("settings-note")).to_have_text("Saved to the draft.")
        finding = block.locator('.finding[data-code="missing_description"]')
        expect(finding).to_be_visible()
        expect(finding).to_contain_text("The page settings")
        expect(finding).to_contain_text("Give the page a description in Page settings.")
        box = block.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        # Undo puts the description back: nothing left to say.
        page.get_by_test_id("settings-undo").click()
        expect(block).to_be_hidden()
        assert _findings_of(server, session, "#meta") == []
        watched.assert_clean()
