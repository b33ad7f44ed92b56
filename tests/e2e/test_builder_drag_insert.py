"""Placing a palette item between sections: a real Chromium against a real server.

A person drags a palette item onto the preview: a line shows the gap between
top-level sections nearest the pointer, and the drop puts the new node there
(one edit), at 1280 px. The same by keyboard at 1280 and 390 px: press the
item, move the line with ↑ ↓ (each place said in the notice line, a live
region), Enter puts it there, Escape adds nothing. With ``CHARLOTTE_DOCS_SCREENSHOTS=1``
the 1280 px drag writes ``docs/screenshots/drag-insert-1280.png``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.support.browser import chromium
from tests.support.browser_server import BrowserServer, serve_builder
from tests.support.builder_page import FRAME, built_session, draft, opened

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

SCREENSHOTS: Final = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Browser, BrowserServer, str]]:
    with chromium() as browser, serve_builder(tmp_path_factory.mktemp("drag-insert")) as server:
        yield browser, server, built_session(server)


def _roots(server: BrowserServer, session: str) -> list[str]:
    nodes: dict[str, Any] = draft(server, session)["page"]["nodes"]
    top = [n for n in nodes.values() if n["parent"] is None]
    return [n["id"] for n in sorted(top, key=lambda n: (n.get("order") is None, n.get("order") or "", n["id"]))]


def _until(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + 20
    while not check():
        assert time.monotonic() < deadline, f"never saw {what}"
        time.sleep(0.1)


def _item(page: Page, item: str) -> Any:
    return page.locator(f'[data-testid="palette-items"] [data-item="{item}"]')


def _new_root(server: BrowserServer, session: str, before: list[str]) -> tuple[list[str], str]:
    _until(lambda: len(_roots(server, session)) == len(before) + 1, "the new top-level node")
    after = _roots(server, session)
    (added,) = set(after) - set(before)
    return after, added


def test_an_item_dragged_onto_the_preview_goes_where_the_line_shows(
    served: tuple[Browser, BrowserServer, str],
) -> None:
    # At 390 px the palette sits under the preview, out of sight of it: the keyboard test is that width's.
    width = 1280
    browser, server, session = served
    with opened(browser, server, session, width) as watched:
        page = watched.page
        before = _roots(server, session)
        source = _item(page, "type:heading")
        source.scroll_into_view_if_needed()
        start = source.bounding_box()
        assert start is not None
        # The top edge of the third section, in the page's coordinates (the preview may be scaled).
        page.frame_locator(FRAME).locator(f'[data-cms="{before[2]}"]').evaluate("e => e.scrollIntoView()")
        target = page.frame_locator(FRAME).locator(f'[data-cms="{before[2]}"]').bounding_box()
        frame = page.locator(FRAME).bounding_box()
        assert target is not None and frame is not None
        x = frame["x"] + frame["width"] / 2
        y = max(frame["y"] + 4, target["y"] + 3)
        page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
        page.mouse.down()
        page.mouse.move(x, y, steps=12)
        line = page.get_by_test_id("drop-line")
        expect(line).to_be_visible()
        expect(line).to_have_attribute("data-gap", "2")
        drawn = line.bounding_box()
        assert drawn is not None and abs(drawn["y"] + drawn["height"] / 2 - target["y"]) < 40
        if width == 1280 and os.environ.get("CHARLOTTE_DOCS_SCREENSHOTS") == "1":
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=SCREENSHOTS / "drag-insert-1280.png")
        page.mouse.up()
        expect(line).to_be_hidden()
        after, added = _new_root(server, session, before)
        assert after.index(added) == 2 and after[1] == before[1] and after[3] == before[2]
        assert draft(server, session)["page"]["nodes"][added]["type"] == "heading"
        expect(page.locator(f'[data-testid="outline-tree"] [data-node="{added}"]')).to_have_attribute("aria-selected", "true")
        expect(page.frame_locator(FRAME).locator(f'[data-cms="{added}"]')).to_be_visible()
        watched.assert_clean()


@pytest.mark.parametrize("width", [1280, 390])
def test_the_keyboard_places_an_item_and_says_each_place(
    served: tuple[Browser, BrowserServer, str], width: int
) -> None:
    browser, server, session = served
    with opened(browser, server, session, width) as watched:
        page = watched.page
        notice = page.get_by_test_id("editor-notice")
        line = page.get_by_test_id("drop-line")
        before = _roots(server, session)
        # The list is one tab stop; ← → move along it.
        listed = page.locator('[data-testid="palette-items"] .palette-item')
        expect(page.locator('[data-testid="palette-items"] .palette-item[tabindex="0"]')).to_have_count(1)
        listed.first.focus()
        page.keyboard.press("ArrowRight")
        expect(listed.nth(1)).to_be_focused()
        expect(listed.nth(1)).to_have_attribute("tabindex", "0")
        item = _item(page, "type:text")
        # Pressed, then Escape: the line goes and nothing is added.
        item.focus()
        page.keyboard.press("Enter")
        expect(item).to_have_attribute("aria-pressed", "true")
        expect(notice).to_contain_text(f"place {len(before) + 1} of {len(before) + 1}")
        expect(notice).to_contain_text("at the end, after")
        expect(line).to_be_visible()
        page.keyboard.press("Escape")
        expect(notice).to_have_text("Nothing added.")
        expect(line).to_be_hidden()
        assert _roots(server, session) == before
        # Home, then one down: between the first and the second section; Enter puts it there.
        page.keyboard.press("Enter")
        page.keyboard.press("Home")
        expect(notice).to_contain_text("at the top, before")
        expect(line).to_have_attribute("data-gap", "0")
        page.keyboard.press("ArrowDown")
        expect(notice).to_contain_text(f"(place 2 of {len(before) + 1})")
        expect(notice).to_contain_text("between")
        page.keyboard.press("Enter")
        after, added = _new_root(server, session, before)
        assert after.index(added) == 1
        expect(notice).to_contain_text("Added a text between")
        # A whole section, by keyboard, before the first one: a place no "after" can name.
        sections = page.locator('[data-testid="palette-items"] [data-item^="section:"]')
        expect(sections.first).to_be_visible()
        before = after
        sections.first.focus()
        page.keyboard.press("Enter")
        page.keyboard.press("Home")
        page.keyboard.press("Enter")
        after, added = _new_root(server, session, before)
        assert after.index(added) == 0 and after[1:] == before
        nodes = draft(server, session)["page"]["nodes"]
        assert any(n["parent"] == added for n in nodes.values())
        expect(notice).to_contain_text("section.")
        watched.assert_clean()
