"""The one way the browser tests start Chromium (Debian's, through Playwright): skipped, with a printed reason, when it is missing."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, Request, expect, sync_playwright

CHROMIUM: Final = Path("/usr/bin/chromium")
#: Headless and quiet: no background connections, which this machine's closed network refuses.
CHROMIUM_ARGS: Final = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: Milliseconds the launch (and a test's expectations) may wait.
WAIT_MS: Final = 60_000


@contextmanager
def chromium() -> Iterator[Browser]:
    """A launched Chromium, closed on leaving; the test is skipped when the browser is not installed."""
    if not CHROMIUM.exists():
        reason = f"{CHROMIUM} does not exist (the browser tests drive Debian's chromium)"
        print(f"skipped: {reason}")
        pytest.skip(reason)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True, timeout=WAIT_MS
        )
        try:
            yield launched
        finally:
            launched.close()


@dataclass
class Watched:
    """A page and what went wrong in it: console errors, uncaught errors, failed requests."""

    page: Page
    problems: list[str] = field(default_factory=list)

    def assert_clean(self) -> None:
        assert self.problems == []


@contextmanager
def watched_page(
    browser: Browser, width: int, height: int, *, expected: tuple[str, ...] = ()
) -> Iterator[Watched]:
    """A new page ``width`` by ``height`` px whose problems are noted; closed on leaving.

    ``expected``: URL endings whose error answers are documented ones (a 404
    before the first publish, a refused undo): the browser logs each such
    answer as a console error, which is then not a problem.
    """
    context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1)
    context.set_default_timeout(WAIT_MS)
    expect.set_options(timeout=WAIT_MS)
    page = context.new_page()
    watched = Watched(page)

    def on_console(message: ConsoleMessage) -> None:
        url = str(message.location.get("url", ""))
        if message.type == "error" and not (expected and url.endswith(expected)):
            watched.problems.append(f"console: {message.text} {url}")

    def on_failed(request: Request) -> None:
        watched.problems.append(f"request failed: {request.method} {request.url} {request.failure}")

    page.on("console", on_console)
    page.on("pageerror", lambda error: watched.problems.append(f"page error: {error}"))
    page.on("requestfailed", on_failed)
    try:
        yield watched
    finally:
        context.close()
