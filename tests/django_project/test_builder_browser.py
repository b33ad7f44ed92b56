"""The builder page served by Django (ASGI, uvicorn on loopback) in a real Chromium.

A signed-in person opens ``/builder/``: the page's files load under the
prefix, every write carries Django's CSRF token from the page (the test
project runs Django's CSRF middleware, enforced as in production), the live
stream moves the preview, and the page publishes.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect
from tests.django_project.support import serve_asgi, session_cookie, user_with
from tests.support.browser import WAIT_MS, chromium

from charlotte.demo import SAMPLE_BRIEF

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]


@pytest.fixture
def browser() -> Iterator[Browser]:
    with chromium() as launched:
        yield launched


@pytest.fixture
def cookie() -> tuple[str, str]:
    # Before Playwright starts: its event loop in this thread forbids Django's ORM here.
    return session_cookie(user_with("all"))


def test_the_page_under_django_starts_builds_and_publishes_with_the_csrf_token(
    cookie: tuple[str, str], browser: Browser
) -> None:
    name, value = cookie
    problems: list[str] = []
    with serve_asgi() as url:
        context = browser.new_context()
        context.set_default_timeout(WAIT_MS)
        expect.set_options(timeout=WAIT_MS)
        context.add_cookies([{"name": name, "value": value, "url": url}])
        page = context.new_page()
        # GET published answers 404 before the first publish (the publish dialog asks).
        page.on(
            "console",
            lambda m: (
                problems.append(m.text)
                if m.type == "error" and not str(m.location.get("url", "")).endswith("/published")
                else None
            ),
        )
        page.on("pageerror", lambda error: problems.append(str(error)))
        try:
            page.goto(f"{url}/builder/")
            expect(page.get_by_test_id("start-button")).to_be_visible()  # builder.js ran
            page.get_by_test_id("start-brief").fill(SAMPLE_BRIEF)
            with page.expect_response(lambda r: r.url.endswith("/builder/sessions")) as opened:
                page.get_by_test_id("start-button").click()
            assert opened.value.status == 201
            assert opened.value.request.headers.get("x-csrftoken")
            expect(page.get_by_test_id("chat-input")).to_be_visible()

            page.get_by_test_id("chat-input").fill("Build the first draft of the page.")
            page.get_by_test_id("send-button").click()
            log = page.get_by_test_id("chat-log")
            expect(log).to_contain_text("Done · the page is ready for review")
            expect(page.get_by_test_id("status")).to_have_text("idle")
            revision = int(page.get_by_test_id("revision").inner_text())
            assert revision > 0
            expect(page.locator('[data-testid="preview-frame"]')).to_have_attribute(
                "data-revision", str(revision)
            )

            page.get_by_test_id("publish-button").click()
            with page.expect_response(lambda r: r.url.endswith("/publish")) as published:
                page.get_by_test_id("publish-confirm").click()
            assert published.value.status == 200
        finally:
            context.close()
    assert problems == []
