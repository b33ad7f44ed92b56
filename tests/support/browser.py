"""The one way the browser tests start Chromium (Debian's, through Playwright): skipped, with a printed reason, when it is missing."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Final

import pytest
from playwright.sync_api import Browser, sync_playwright

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
