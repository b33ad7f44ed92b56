"""The builder page opened on a built session: the offline builder's first draft of the sample bakery.

The session is opened and built through the Python API of the served
charlotte (the local person of the local tenant, as the page's requests are),
so a browser test starts from a page with content without driving the chat;
``opened`` then shows it in a fresh Chromium page of the given width, the
Page tab chosen where the builder has tabs (768 px and narrower).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Final

from playwright.sync_api import Browser, expect
from tests.support.browser import Watched, watched_page
from tests.support.browser_server import BrowserServer

from charlotte.demo import SAMPLE_BRIEF, SAMPLE_FACTS

__all__ = ["FRAME", "built_session", "draft", "opened"]

FRAME: Final = '[data-testid="preview-frame"]'
#: Longest the offline builder's first turn may take, in seconds.
BUILD_SECONDS: Final = 120.0


def built_session(server: BrowserServer, page: str = "home") -> str:
    """A new session of ``page`` whose first turn has built the draft; its id."""
    handle = (
        server.charlotte.for_user("local").tenant("local").page(page)
        .brief(SAMPLE_BRIEF).facts(dict(SAMPLE_FACTS)).open()
    )  # fmt: skip
    handle.send("Build the first draft of the page from the brief.")
    assert handle.wait(BUILD_SECONDS), "the first turn did not finish"
    assert handle.draft()["page"]["nodes"], "the first turn built nothing"
    return str(handle.id)


def draft(server: BrowserServer, session: str) -> dict[str, Any]:
    """The session's draft as the Python API reads it: ``{"page", "revision", …}``."""
    handle = server.charlotte.find(session, "local", user="local")
    assert handle is not None
    found: dict[str, Any] = handle.draft()
    return found


@contextmanager
def opened(
    browser: Browser, server: BrowserServer, session: str, width: int, *, expected: tuple[str, ...] = ()
) -> Iterator[Watched]:
    """The builder page ``width`` px wide on ``session``, its preview showing the draft."""
    height = 844 if width <= 480 else 900
    with watched_page(browser, width, height, expected=expected) as watched:
        page = watched.page
        page.goto(f"{server.url}/#session={session}")
        if width <= 768:
            page.get_by_test_id("tab-page").click()
        revision = draft(server, session)["revision"]
        expect(page.locator(FRAME)).to_have_attribute("data-revision", str(revision))
        expect(page.get_by_test_id("outline-tree")).to_have_attribute("data-revision", str(revision))
        yield watched
