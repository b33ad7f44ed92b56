"""The builder's reply is one chat bubble, however late its stream arrives (real Chromium, real server).

The page reads the session's status (a short poll after each turn event)
and follows its stream. When the stream is slow, the poll can say the turn
is over while pieces of the reply are still on their way: the reply must
stay one bubble all the same. The test holds the stream's events in the page
(an ``EventSource`` whose listeners queue while held), lets the turn finish
on the server, hands the page the events up to the first piece of the reply,
waits for the poll to say *idle*, then hands over the rest.
"""

from __future__ import annotations

import asyncio
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
from tests.e2e.test_builder_browser import _send, _start
from tests.support.browser import WAIT_MS, chromium, watched_page
from tests.support.browser_server import BrowserServer, serve_builder

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

#: The reply, streamed in pieces that split it mid-sentence.
PIECES: Final = ("I can warm the headline up, or make", " it shorter", " if you like.")

#: Every listener of the page's streams queues its events while ``__stream.hold()`` is on.
HELD_STREAM: Final = """
(() => {
  const Native = window.EventSource;
  const held = [];
  let holding = false;
  window.__stream = {
    hold() { holding = true; },
    held() { return held.map(([type]) => type); },
    releaseThrough(type) {
      while (held.length) {
        const [kind, deliver] = held.shift();
        deliver();
        if (kind === type) return true;
      }
      return false;
    },
    releaseAll() { holding = false; while (held.length) held.shift()[1](); },
  };
  window.EventSource = class extends Native {
    addEventListener(type, listener, options) {
      if (type === "open" || type === "error") return super.addEventListener(type, listener, options);
      return super.addEventListener(type, (message) => {
        if (holding) held.push([type, () => listener.call(this, message)]);
        else listener.call(this, message);
      }, options);
    }
  };
})();
"""


def _talking_model() -> FunctionModel:
    async def respond(messages: list[ModelMessage], info: AgentInfo) -> object:
        raise AssertionError("the builder streams")

    async def stream(
        messages: list[ModelMessage], info: AgentInfo
    ) -> AsyncIterator[str | DeltaToolCalls | DeltaThinkingCalls | BuiltinToolCallsReturns]:
        for piece in PIECES:
            yield piece
            await asyncio.sleep(0.4)  # past the recorder's 0.25 s: one text.delta each

    return FunctionModel(respond, stream_function=stream, model_name="talking")  # type: ignore[arg-type]


@pytest.fixture
def browser() -> Iterator[Browser]:
    with chromium() as launched:
        yield launched


@pytest.fixture
def server(tmp_path: Path, browser: Browser) -> Iterator[BrowserServer]:
    with serve_builder(tmp_path, model=_talking_model()) as served:
        yield served


def _wait_idle(page: Page, url: str, session: str) -> None:
    deadline = time.monotonic() + WAIT_MS / 1000
    while page.request.get(f"{url}/sessions/{session}").json()["session"]["status"] != "idle":
        assert time.monotonic() < deadline, "the turn did not finish"
        time.sleep(0.05)


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_a_reply_whose_stream_lags_behind_the_status_poll_is_one_bubble(
    server: BrowserServer, browser: Browser, width: int, height: int
) -> None:
    with watched_page(browser, width, height) as watched:
        page = watched.page
        page.add_init_script(HELD_STREAM)
        session = _start(page, server.url, approve_on_save=False, facts={})
        log = page.get_by_test_id("chat-log")
        page.evaluate("() => window.__stream.hold()")
        _send(page, "Make the headline warmer.")
        _wait_idle(page, server.url, session)
        # The turn is over on the server; the page has seen none of it yet.
        page.wait_for_function("() => window.__stream.held().includes('turn.finished')")
        # The first piece arrives; the poll the turn's start asks for says the turn is over.
        assert page.evaluate("() => window.__stream.releaseThrough('text.delta')")
        expect(log.locator(".message-agent")).to_contain_text(PIECES[0])
        # More of the reply is still on its way (the recorder wrote it in more than one event).
        assert page.evaluate("() => window.__stream.held().includes('text.delta')")
        expect(page.get_by_test_id("status")).to_have_text("idle")
        # Then the rest of the stream: the reply's later pieces join the same bubble.
        page.evaluate("() => window.__stream.releaseAll()")
        expect(log.locator(".note", has_text="Done")).to_have_count(1)
        expect(log.locator(".message-agent")).to_have_count(1)
        expect(log.locator(".message-agent")).to_have_text("".join(PIECES))
        expect(log.locator(".message-agent.is-streaming")).to_have_count(0)
        # As a reload shows it: one reply.
        page.reload()
        expect(log.locator(".message-agent")).to_have_text("".join(PIECES))
        watched.assert_clean()
