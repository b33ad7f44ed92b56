"""Every breakpoint's style shows in its device's preview: a real Chromium against a real server.

The Desktop and Tablet previews lay the page out at their real widths (1280
and 768 px) and scale the picture to fit the panel, so a person who sets a
Desktop-only colour sees it in the Desktop preview of a 1280 px window (and
of a 390 px one), and a Tablet font size in the Tablet preview but not the
Phone one; a click on the scaled picture selects the node under it. With
``CHARLOTTE_DOCS_SCREENSHOTS=1`` the 1280 px run writes
``docs/screenshots/preview-desktop-lg-1280.png``.
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
#: Per window width: the heading styled, its Desktop-only colour, its Tablet font size.
CASES: Final = {1280: ("about-us-heading", "#b3261e", 41), 390: ("menu-heading", "#1d6b3a", 37)}
RGB: Final = {"#b3261e": "rgb(179, 38, 30)", "#1d6b3a": "rgb(29, 107, 58)"}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Browser, BrowserServer, str]]:
    with chromium() as browser, serve_builder(tmp_path_factory.mktemp("breakpoints")) as server:
        yield browser, server, built_session(server)


def _until(server: BrowserServer, session: str, check: Callable[[dict[str, Any]], bool], what: str) -> None:
    deadline = time.monotonic() + 20
    while not check(draft(server, session)["page"]["nodes"]):
        assert time.monotonic() < deadline, f"the draft never showed {what}"
        time.sleep(0.1)


def _computed(page: Page, selector: str, prop: str) -> str:
    value: str = page.frame_locator(FRAME).locator(selector).evaluate(f"e => getComputedStyle(e).{prop}")
    return value


def _device(page: Page, device: str, width: int) -> None:
    page.get_by_test_id(f"device-{device}").click()
    expect(page.get_by_test_id(f"device-{device}")).to_have_attribute("aria-pressed", "true")
    page.wait_for_function(
        "w => document.querySelector('[data-testid=\"preview-frame\"]').contentWindow.innerWidth === w", arg=width
    )


@pytest.mark.parametrize("width", [1280, 390])
def test_a_desktop_colour_and_a_tablet_size_show_in_their_own_previews(
    served: tuple[Browser, BrowserServer, str], width: int
) -> None:
    browser, server, session = served
    node, colour, size = CASES[width]
    # The style sits on the node's wrapper; its heading shows the colour (a heading's size is in em of it).
    wrapper, text = f'[data-cms="{node}"]', f'[data-cms="{node}"] :is(h1, h2, h3, h4)'
    with opened(browser, server, session, width) as watched:
        page = watched.page
        # Desktop lays out at 1280 px whatever the window; the picture is scaled to the panel.
        _device(page, "desktop", 1280)
        room = page.locator(".preview-body").evaluate("b => b.clientWidth")
        box = page.locator(FRAME).bounding_box()
        assert box is not None and box["width"] <= room + 1
        expect(page.get_by_test_id("preview-scale")).to_contain_text("1280 px shown at")
        # A click on the scaled picture selects the heading under the pointer.
        page.frame_locator(FRAME).locator(text).click()
        row = page.locator(f'[data-testid="outline-tree"] [data-node="{node}"]')
        expect(row).to_have_attribute("aria-selected", "true")
        expect(page.locator(".inspector-breakpoint")).to_have_text("Desktop (lg)")
        before = _computed(page, text, "color")
        field = page.locator('[data-testid="inspector"] .inspector-input[data-style="color"]')
        field.fill(colour)
        field.press("Enter")
        _until(server, session, lambda n: n[node]["style"].get("lg", {}).get("color") == colour, "the lg colour")
        expect(page.frame_locator(FRAME).locator(text)).to_have_css("color", RGB[colour])
        if width == 1280 and os.environ.get("CHARLOTTE_DOCS_SCREENSHOTS") == "1":
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=SCREENSHOTS / "preview-desktop-lg-1280.png")
        # Tablet: laid out at 768 px, the lg colour not there; a font size set here shows.
        _device(page, "tablet", 768)
        expect(page.locator(".inspector-breakpoint")).to_have_text("Tablet (md)")
        assert _computed(page, text, "color") == before
        number = page.locator('[data-testid="inspector"] .inspector-input[data-style="fontSize"]')
        number.fill(str(size))
        number.press("Enter")
        _until(
            server, session,
            lambda n: n[node]["style"].get("md", {}).get("fontSize") == {"value": size, "unit": "px"},
            "the md font size",
        )  # fmt: skip
        expect(page.frame_locator(FRAME).locator(wrapper)).to_have_css("font-size", f"{size}px")
        # Phone: neither; Desktop: both (md holds from 768 px up).
        _device(page, "phone", 390)
        assert _computed(page, wrapper, "fontSize") != f"{size}px"
        assert _computed(page, text, "color") == before
        _device(page, "desktop", 1280)
        # Desktop: the node's own lg size where the page has one, else the md one it inherits.
        own = draft(server, session)["page"]["nodes"][node]["style"].get("lg", {}).get("fontSize")
        shown = f"{own['value']:g}{own['unit']}" if own else f"{size}px"
        assert own is None or own["unit"] == "px"
        expect(page.frame_locator(FRAME).locator(wrapper)).to_have_css("font-size", shown)
        expect(page.frame_locator(FRAME).locator(text)).to_have_css("color", RGB[colour])
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 1
        watched.assert_clean()
