"""The builder as a shell a person works in, in a real Chromium against a real server.

At phone, tablet and desktop widths Send and Publish are on screen and the
page does not scroll sideways; the device toggle sets the preview's width;
Publish asks first (Cancel publishes nothing, Confirm the revision shown, a
draft that moved on meanwhile is refused), and an empty page is refused before
any request; a stopped turn's tool row stops spinning and the reply streams in
as it is written; a dropped stream shows a banner and comes back; every
control has an accessible name, and the keyboard reaches what matters.

With ``CHARLOTTE_DOCS_SCREENSHOTS=1`` the width test writes
``docs/screenshots/builder-{390,768,1280}.png`` (the README's pictures).
"""

from __future__ import annotations

import asyncio
import os
import re
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Final

import pytest
from playwright.sync_api import Browser, Page, expect
from pydantic_ai.messages import ModelMessage
from pydantic_ai.models.function import (
    AgentInfo,
    BuiltinToolCallsReturns,
    DeltaThinkingCalls,
    DeltaToolCalls,
    FunctionModel,
)
from tests.e2e import test_builder_browser as shared
from tests.e2e.test_builder_browser import FIRST_MESSAGE, FRAME, Watched, _send, _start
from tests.support.browser import watched_page
from tests.support.browser_server import BrowserServer, serve_builder

from charlotte.demo import SAMPLE_FACTS
from charlotte.events import EventTypes
from charlotte.storage.eventlog import DatabaseEventLog

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

# The browser, the paced server and the watched page of the whole-session tests.
browser = shared.browser
server = shared.server
open_page = shared.open_page

DOCS: Final = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
WIDTHS: Final = ((390, 844), (768, 1024), (1280, 800))
#: The words of the hanging model's reply, streamed one piece at a time.
REPLY_PIECES: Final = ("Looking at ", "the page ", "before I change it.")
PIECE_SECONDS: Final = 0.6


def _built(page: Page, url: str) -> int:
    """Start a session, build the first draft, wait for the turn's end; the revision."""
    _start(page, url, approve_on_save=False, facts=dict(SAMPLE_FACTS))
    _send(page, FIRST_MESSAGE)
    expect(page.get_by_test_id("status")).to_have_text("idle")
    expect(page.get_by_test_id("chat-log")).to_contain_text("Done")
    revision = int(page.get_by_test_id("revision").inner_text())
    expect(page.locator(FRAME)).to_have_attribute("data-revision", str(revision))
    return revision


def _inside(page: Page, test_id: str, width: int, height: int) -> None:
    target = page.get_by_test_id(test_id)
    expect(target).to_be_visible()
    box = target.bounding_box()
    assert box is not None, test_id
    assert box["x"] >= 0 and box["y"] >= 0, (test_id, box)
    assert box["x"] + box["width"] <= width and box["y"] + box["height"] <= height, (
        test_id,
        box,
        width,
    )


def _no_sideways_scroll(page: Page) -> None:
    widths = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert widths[0] <= widths[1], widths


def test_send_and_publish_stay_on_screen_at_phone_tablet_and_desktop_widths(
    server: BrowserServer, open_page: Watched, tmp_path: Path
) -> None:
    page = open_page.page
    _built(page, server.url)
    for width, height in WIDTHS:
        page.set_viewport_size({"width": width, "height": height})
        panels = ("chat", "page") if width <= 768 else ("both",)
        for panel in panels:
            if panel != "both":
                page.get_by_test_id(f"tab-{panel}").click()
                expect(page.get_by_test_id(f"tab-{panel}")).to_have_attribute(
                    "aria-selected", "true"
                )
            for test_id in ("send-button", "publish-button", "chat-input"):
                _inside(page, test_id, width, height)
            _no_sideways_scroll(page)
            if panel in ("page", "both"):
                _inside(page, "preview-frame", width, height)
        if width <= 768:
            page.get_by_test_id("tab-chat").click()
            expect(page.get_by_test_id("preview-frame")).to_be_hidden()
        shot = tmp_path / f"builder-{width}.png"
        page.screenshot(path=shot)
        if os.environ.get("CHARLOTTE_DOCS_SCREENSHOTS") == "1":
            DOCS.mkdir(parents=True, exist_ok=True)
            if width <= 768:
                page.get_by_test_id("tab-page").click()
                page.screenshot(path=DOCS / f"builder-{width}-page.png")
                page.get_by_test_id("tab-chat").click()
            page.screenshot(path=DOCS / f"builder-{width}.png")
    open_page.assert_clean()


def _frame_width(page: Page) -> float:
    box = page.locator(FRAME).bounding_box()
    assert box is not None
    return float(box["width"])


def test_the_device_toggle_sets_the_preview_width(
    server: BrowserServer, open_page: Watched
) -> None:
    page = open_page.page
    _built(page, server.url)
    desktop = _frame_width(page)
    assert desktop > 768
    page.get_by_test_id("device-phone").click()
    expect(page.get_by_test_id("device-phone")).to_have_attribute("aria-pressed", "true")
    assert _frame_width(page) == 390
    page.get_by_test_id("device-tablet").click()
    assert _frame_width(page) == 768
    page.get_by_test_id("device-desktop").click()
    assert _frame_width(page) == desktop
    # Desktop lays out at 1280 px, drawn smaller in a panel narrower than that.
    assert page.locator(FRAME).evaluate("f => f.contentWindow.innerWidth") == 1280
    expect(page.get_by_test_id("preview-scale")).to_contain_text("1280 px shown at")
    # A tablet the panel cannot show whole is drawn smaller, still laid out at 768 px inside.
    page.set_viewport_size({"width": 1100, "height": 800})
    page.get_by_test_id("device-tablet").click()
    room = page.locator(".preview-body").evaluate("b => b.clientWidth")
    assert room < 768 and _frame_width(page) <= room
    assert page.locator(FRAME).evaluate("f => f.contentWindow.innerWidth") == 768
    expect(page.get_by_test_id("preview-scale")).to_contain_text("768 px shown at")
    overflow = page.locator(".preview-body").evaluate("b => b.scrollWidth - b.clientWidth")
    assert overflow <= 1
    page.set_viewport_size({"width": 1280, "height": 800})
    open_page.assert_clean()


def test_on_a_phone_the_preview_opens_as_a_phone_and_edits_land_in_the_phones_breakpoint(
    server: BrowserServer, browser: Browser
) -> None:
    with watched_page(browser, 390, 844) as watched:
        page = watched.page
        _built(page, server.url)
        page.get_by_test_id("tab-page").click()
        expect(page.get_by_test_id("device-phone")).to_have_attribute("aria-pressed", "true")
        expect(page.get_by_test_id("device-desktop")).to_have_attribute("aria-pressed", "false")
        assert page.locator(FRAME).evaluate("f => f.contentWindow.innerWidth") == 390
        # The picture is the page at its own size, or very nearly: not a desktop at a quarter of it.
        assert _frame_width(page) >= 0.9 * page.locator(".preview-body").evaluate("b => b.clientWidth")
        page.frame_locator(FRAME).locator('[data-cms="hero-heading"]').click()
        expect(page.locator(".inspector-breakpoint")).to_have_text("Phone (base)")
        # A new session keeps the device shown, and the breakpoint its edits land in with it.
        page.locator('[data-role="new-session"]').click()
        page.get_by_test_id("start-page").fill("second")
        page.get_by_test_id("start-brief").fill("A second page.")
        page.get_by_test_id("start-button").click()
        expect(page.get_by_test_id("chat-input")).to_be_visible()
        page.get_by_test_id("tab-page").click()
        expect(page.get_by_test_id("device-phone")).to_have_attribute("aria-pressed", "true")
        _send(page, FIRST_MESSAGE)
        expect(page.get_by_test_id("status")).to_have_text("idle")
        page.frame_locator(FRAME).locator('[data-cms="hero-heading"]').click()
        expect(page.locator(".inspector-breakpoint")).to_have_text("Phone (base)")
        # The first session's stream is closed when the second opens: an aborted request, no problem.
        assert [p for p in watched.problems if not p.endswith("/stream net::ERR_ABORTED")] == []


def _publishes(page: Page) -> list[object]:
    sent: list[object] = []
    page.on(
        "request", lambda r: sent.append(r.post_data_json) if r.url.endswith("/publish") else None
    )
    return sent


def test_publish_asks_first_cancel_publishes_nothing_confirm_the_reviewed_revision(
    server: BrowserServer, open_page: Watched
) -> None:
    page = open_page.page
    revision = _built(page, server.url)
    sent = _publishes(page)
    dialog = page.get_by_test_id("publish-dialog")

    # The dialog shows the server's publish preview: its revision, its diff.
    with page.expect_response(lambda r: r.url.endswith("/publish-preview")) as previewed:
        page.get_by_test_id("publish-button").click()
    assert previewed.value.json()["preview"]["revision"] == revision
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text(f"Publish revision {revision}?")
    expect(dialog).to_contain_text("Nothing is published yet")
    page.get_by_test_id("publish-cancel").click()
    expect(dialog).to_be_hidden()
    # Escape is a Cancel too.
    page.get_by_test_id("publish-button").click()
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    time.sleep(0.3)
    assert sent == []

    page.get_by_test_id("publish-button").click()
    with page.expect_response(lambda r: r.url.endswith("/publish")) as answered:
        page.get_by_test_id("publish-confirm").click()
    assert answered.value.status == 200
    assert sent == [{"revision": revision}]
    expect(page.get_by_test_id("chat-log")).to_contain_text(f"Published revision {revision}")

    # The next publish lists what changed since this one.
    _send(page, "Make the hero warmer.")
    expect(page.get_by_test_id("chat-log").locator(".note", has_text="Done")).to_have_count(2)
    expect(page.get_by_test_id("revision")).not_to_have_text(str(revision))
    with page.expect_response(lambda r: r.url.endswith("/publish-preview")) as previewed:
        page.get_by_test_id("publish-button").click()
    diff = previewed.value.json()["preview"]["diff"]
    expect(dialog).to_contain_text(f"Since revision {revision} was published")
    expect(dialog.locator(".diff-row").first).to_be_visible()
    for change in diff["changed"]:
        expect(dialog.locator(f'.diff-node[data-node="{change["id"]}"]')).to_be_visible()
    page.get_by_test_id("publish-cancel").click()
    open_page.assert_clean()


def test_a_draft_that_moved_on_while_the_dialog_was_open_is_not_published(
    server: BrowserServer, open_page: Watched
) -> None:
    page = open_page.page
    revision = _built(page, server.url)
    session_id = page.url.split("#session=", 1)[1]
    page.get_by_test_id("publish-button").click()
    expect(page.get_by_test_id("publish-dialog")).to_be_visible()
    # Someone else moves the draft on meanwhile (a follow-up turn through the API).
    answer = page.request.post(
        f"{server.url}/sessions/{session_id}/turns",
        data={"message": "Make the hero warmer."},
        headers={"Content-Type": "application/json"},
    )
    assert answer.status == 202, answer.text()
    deadline = time.monotonic() + 60
    while True:
        session = page.request.get(f"{server.url}/sessions/{session_id}").json()["session"]
        if session["status"] == "idle" and session["revision"] > revision:
            break
        assert time.monotonic() < deadline, session
        time.sleep(0.2)
    with page.expect_response(lambda r: r.url.endswith("/publish")) as answered:
        page.get_by_test_id("publish-confirm").click()
    assert answered.value.status == 409
    assert answered.value.request.post_data_json == {"revision": revision}
    expect(page.get_by_test_id("error-banner")).to_contain_text(
        "The draft changed while you reviewed it"
    )
    open_page.problems[:] = [p for p in open_page.problems if "409" not in p]
    open_page.assert_clean()


def test_an_empty_page_is_refused_before_any_request(
    server: BrowserServer, open_page: Watched
) -> None:
    page = open_page.page
    _start(page, server.url, approve_on_save=False, facts={})
    sent = _publishes(page)
    page.get_by_test_id("publish-button").click()
    expect(page.get_by_test_id("error-banner")).to_contain_text(
        "The page is empty, so there is nothing to publish"
    )
    expect(page.get_by_test_id("publish-dialog")).to_be_hidden()
    time.sleep(0.3)
    assert sent == []
    open_page.assert_clean()


def _hanging_model() -> FunctionModel:
    """A reply streamed in pieces, then nothing until the turn is stopped."""

    async def respond(messages: list[ModelMessage], info: AgentInfo) -> object:
        raise AssertionError("the builder streams")

    async def stream(
        messages: list[ModelMessage], info: AgentInfo
    ) -> AsyncIterator[str | DeltaToolCalls | DeltaThinkingCalls | BuiltinToolCallsReturns]:
        for piece in REPLY_PIECES:
            yield piece
            await asyncio.sleep(PIECE_SECONDS)
        await asyncio.sleep(120)  # until the stop cancels it

    return FunctionModel(respond, stream_function=stream, model_name="hanging")  # type: ignore[arg-type]


@pytest.fixture
def hanging_server(tmp_path: Path, browser: Browser) -> Iterator[BrowserServer]:
    with serve_builder(tmp_path, model=_hanging_model()) as served:
        yield served


def test_the_reply_streams_and_a_stopped_turn_stops_its_tool_row(
    hanging_server: BrowserServer, open_page: Watched
) -> None:
    page = open_page.page
    log = page.get_by_test_id("chat-log")
    _start(page, hanging_server.url, approve_on_save=False, facts={})
    _send(page, "Look at the page.")
    reply = log.locator(".message-agent")
    # The reply shows while it is written: its first words while the turn runs
    # and the model is still on the rest.
    expect(reply).to_contain_text(REPLY_PIECES[0].strip())
    expect(reply).to_have_class(re.compile(r"\bis-streaming\b"))
    expect(page.get_by_test_id("status")).to_have_text("running")
    assert REPLY_PIECES[-1] not in reply.inner_text()
    # A call the model made that never got a result: the log holds its
    # tool.called only (what the recorder's settle writes for a halted call).
    session_id = page.url.split("#session=", 1)[1]
    with hanging_server.charlotte.engine.begin() as conn:
        DatabaseEventLog().append(
            conn,
            session_id,
            EventTypes.TOOL_CALLED,
            {"name": "cms_outline", "call_id": "call-held", "arguments": {}},
            actor="agent",
        )
    row = log.locator('.tool[data-tool="cms_outline"]')
    expect(row).to_have_attribute("data-state", "running")
    page.get_by_test_id("stop-button").click()
    expect(page.get_by_test_id("status")).to_have_text("idle")
    expect(log).to_contain_text("Stopped")
    expect(row).to_have_attribute("data-state", "stopped")
    assert row.locator(".tool-mark").evaluate("m => getComputedStyle(m).animationName") == "none"
    expect(log.locator('.tool[data-state="running"]')).to_have_count(0)
    # The reply is no longer shown as being written.
    expect(log.locator(".message-agent.is-streaming")).to_have_count(0)
    open_page.assert_clean()


def test_a_dropped_stream_shows_the_banner_and_comes_back(
    server: BrowserServer, open_page: Watched
) -> None:
    page = open_page.page
    banner = page.get_by_test_id("stream-banner")
    _start(page, server.url, approve_on_save=False, facts=dict(SAMPLE_FACTS))
    expect(banner).to_be_hidden()
    page.context.set_offline(True)
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Disconnected from the server. Reconnecting")
    page.context.set_offline(False)
    expect(banner).to_be_hidden(timeout=30_000)
    # Back live: a turn's events arrive through the stream again.
    _send(page, FIRST_MESSAGE)
    expect(page.get_by_test_id("chat-log")).to_contain_text("Done · the page is ready for review")
    # Offline, the page closes its stream itself (aborted) and its retries fail: both expected.
    open_page.problems[:] = [
        p for p in open_page.problems
        if "ERR_INTERNET_DISCONNECTED" not in p and not ("/stream" in p and "ERR_ABORTED" in p)
    ]
    open_page.assert_clean()


_UNNAMED = re.compile(r"^\s*- (button|textbox|checkbox|tab|link|combobox)\s*(?::|$)")


def test_every_control_has_an_accessible_name_and_the_keyboard_reaches_send_and_publish(
    server: BrowserServer, open_page: Watched
) -> None:
    page = open_page.page
    page.goto(server.url)
    start = page.locator("body").aria_snapshot()
    assert [line for line in start.splitlines() if _UNNAMED.match(line)] == [], start
    _built(page, server.url)
    page.get_by_test_id("publish-button").click()
    expect(page.get_by_test_id("publish-dialog")).to_be_visible()
    for snapshot in (page.locator("body").aria_snapshot(),):
        assert [line for line in snapshot.splitlines() if _UNNAMED.match(line)] == [], snapshot
    # The dialog keeps focus inside it; Escape closes it and focus goes back to Publish.
    for _ in range(5):
        page.keyboard.press("Tab")
        assert page.evaluate("() => Boolean(document.activeElement.closest('dialog'))")
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("publish-button")).to_be_focused()
    builder = page.locator("body").aria_snapshot()
    assert [line for line in builder.splitlines() if _UNNAMED.match(line)] == [], builder

    page.evaluate("() => document.activeElement.blur()")
    reached: list[str] = []
    for _ in range(40):
        page.keyboard.press("Tab")
        test_id = page.evaluate("() => document.activeElement.dataset.testid || ''")
        reached.append(test_id)
        # Past the last control focus leaves for the browser's own (the body is active).
        outline = page.evaluate(
            "() => document.activeElement === document.body ? 'body' : getComputedStyle(document.activeElement).outlineStyle"
        )
        assert outline != "none", (
            test_id,
            reached,
            page.evaluate("() => document.activeElement.outerHTML.slice(0, 200)"),
        )
    for test_id in ("publish-button", "chat-input", "send-button", "device-phone"):
        assert test_id in reached, reached
    open_page.assert_clean()
