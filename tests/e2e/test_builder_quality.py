"""The quality gate in the builder page: a real Chromium against a real server.

The inspector says a low text contrast as the colour is chosen (the heading
on a section made #111827 by another writer: #7c2d12 → about 1.9:1, #ffffff →
nothing). The publish dialog lists the gate's findings: the server's
``publish-preview`` answer is given ``findings`` on its way to the page
(Playwright's route API), so the dialog is tested whether or not the server
sends them yet; over error findings Publish reads "Publish anyway…", asks once
more naming the codes, and the request carries ``override``; a
``quality_gate`` 409 reopens the dialog with its findings; an answer without
``findings`` leaves the dialog as it was. With ``CHARLOTTE_DOCS_SCREENSHOTS=1``
the dialog's pictures at 390 and 1280 px are written to ``docs/screenshots``.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import pytest
from playwright.sync_api import Browser, Page, Route, expect
from tests.support.browser import chromium
from tests.support.browser_server import BrowserServer, serve_builder
from tests.support.builder_page import built_session, opened

SCREENSHOTS: Final = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
HEADING: Final = "about-us-heading"

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]


@dataclass
class Builder:
    """The shared page, its server and session, and what went wrong in the console."""

    page: Page
    server: BrowserServer
    session: str
    problems: list[str] = field(default_factory=list)

    def draft(self) -> dict[str, Any]:
        answer = self.page.request.get(f"{self.server.url}/sessions/{self.session}/draft")
        assert answer.ok
        body: dict[str, Any] = answer.json()
        return body

    def edit(self, ops: list[dict[str, Any]]) -> None:
        """An edit through the API, as another tab of the same person would send it."""
        answer = self.page.request.post(
            f"{self.server.url}/sessions/{self.session}/edits",
            data={"ops": ops, "basedOn": self.draft()["revision"]},
            headers={"Origin": self.server.url},
        )
        assert answer.ok, answer.text()

    def select(self, node_id: str) -> None:
        row = self.page.locator(f'[data-testid="outline-tree"] [data-node="{node_id}"]')
        row.click()
        expect(row).to_have_attribute("aria-selected", "true")

    def style_input(self, key: str) -> Any:
        return self.page.locator(f'[data-testid="inspector"] .inspector-input[data-style="{key}"]')


@pytest.fixture(scope="module")
def builder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Builder]:
    with chromium() as browser, serve_builder(tmp_path_factory.mktemp("quality")) as server:
        yield from _open(browser, server)


def _open(browser: Browser, server: BrowserServer) -> Iterator[Builder]:
    session = built_session(server)
    # The 409 the gate test provokes on purpose is logged by the browser as a console error.
    with opened(browser, server, session, 1280, expected=("/publish",)) as watched:
        builder = Builder(watched.page, server, session, watched.problems)
        expect(watched.page.locator(f'[data-testid="outline-tree"] [data-node="{HEADING}"]')).to_be_visible()
        yield builder


# ------------------------------------------------------------------ the inspector


def test_a_low_contrast_text_colour_is_said_as_it_is_chosen(builder: Builder) -> None:
    page = builder.page
    section = builder.draft()["page"]["nodes"][HEADING]["parent"]
    builder.edit(
        [
            {
                "t": "set_style",
                "id": section,
                "breakpoint": "base",
                "patch": {"background": "#111827"},
            }
        ]
    )
    builder.select(HEADING)
    warning = page.locator('[data-testid="inspector"] .inspector-contrast')
    colour = builder.style_input("color")
    colour.fill("#7c2d12")  # typed, not yet sent: the warning is already there
    expect(warning).to_be_visible()
    expect(warning).to_have_text(
        re.compile(r"^Contrast 1\.9:1 — hard to read; aim for (3|4\.5):1$")
    )
    expect(warning).to_have_attribute("data-verdict", "very_low")
    # The line is part of the field's description (a screen reader says it with the field).
    described = colour.get_attribute("aria-describedby") or ""
    assert (warning.get_attribute("id") or "-") in described.split()
    colour.fill("#ffffff")
    expect(warning).to_be_hidden()
    # A colour the measure cannot read says nothing.
    colour.fill("var(--brand)")
    expect(warning).to_be_hidden()
    # Sent and read back: the low colour stays said from the draft, at the device's breakpoint.
    colour.fill("#7c2d12")
    colour.press("Enter")
    page.locator(".inspector-name").click()
    expect(warning).to_contain_text("1.9:1")
    assert builder.draft()["page"]["nodes"][HEADING]["style"]["lg"]["color"] == "#7c2d12"


# ------------------------------------------------------------------ the publish dialog

FINDINGS: Final = [
    {
        "code": "heading_skip",
        "node": HEADING,
        "severity": "warning",
        "message": "A heading level is skipped here.",
    },
    {
        "code": "low_contrast",
        "node": HEADING,
        "severity": "error",
        "message": "The text's contrast on its background is 1.9:1, under 3:1.",
    },
    {
        "code": "missing_lang",
        "node": None,
        "severity": "warning",
        "message": "The page does not say its language.",
    },
    {
        "code": "placeholder",
        "node": HEADING,
        "severity": "error",
        "message": "An image slot is still empty.",
    },
]


def _with_findings(findings: list[dict[str, Any]]) -> Any:
    def answer(route: Route) -> None:
        real = route.fetch()
        body = real.json()
        body["findings"] = findings
        route.fulfill(response=real, body=json.dumps(body))

    return answer


def _published(route: Route) -> None:
    # The findings here are the test's, not the page's: the server's gate (tested in
    # tests/unit/http/test_quality_gate.py) would judge the real page. The page's request
    # (recorded by `_publishes`) is answered as a publish of the revision it names.
    body = route.request.post_data_json
    route.fulfill(status=200, content_type="application/json", body=json.dumps({"revision": body["revision"]}))


def _publishes(page: Page) -> list[Any]:
    sent: list[Any] = []
    page.on(
        "request", lambda r: sent.append(r.post_data_json) if r.url.endswith("/publish") else None
    )
    return sent


def test_the_dialog_lists_the_findings_errors_first_and_publishing_over_them_asks_and_sends_override(
    builder: Builder,
) -> None:
    page = builder.page
    sent = _publishes(page)
    page.route("**/publish-preview", _with_findings(FINDINGS))
    page.route("**/publish", _published)
    try:
        page.get_by_test_id("publish-button").click()
        dialog = page.get_by_test_id("publish-dialog")
        expect(dialog).to_be_visible()
        items = page.get_by_test_id("publish-findings-list").locator("li")
        expect(items).to_have_count(4)
        assert [items.nth(i).get_attribute("data-code") for i in range(4)] == [
            "low_contrast",
            "placeholder",
            "heading_skip",
            "missing_lang",
        ]
        expect(items.nth(0)).to_contain_text("Must fix")
        expect(items.nth(0)).to_contain_text("Heading “About Rosa's Bakery”")
        expect(items.nth(0)).to_contain_text("aim for 4.5:1")  # what fixes it
        expect(items.nth(3)).to_contain_text("The page")
        expect(page.get_by_test_id("publish-findings")).to_contain_text("2 problems")
        confirm = page.get_by_test_id("publish-confirm")
        expect(confirm).to_have_text("Publish anyway…")
        for width in (1280, 390):
            _picture(page, width)
        # The first press asks, naming what would be published over; nothing is sent yet.
        confirm.click()
        question = page.get_by_test_id("publish-override")
        expect(question).to_be_visible()
        expect(question).to_contain_text("low contrast, placeholder")
        expect(confirm).to_have_text("Yes, publish anyway")
        assert sent == []
        with page.expect_response(lambda r: r.url.endswith("/publish")) as answered:
            confirm.click()
        assert answered.value.ok
        assert sent[-1]["override"] == ["low_contrast", "placeholder"]
        assert sent[-1]["revision"] == builder.draft()["revision"]
        expect(dialog).to_be_hidden()
    finally:
        page.unroute("**/publish-preview")
        page.unroute("**/publish")
        page.set_viewport_size({"width": 1280, "height": 900})


def _picture(page: Page, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 900 if width > 500 else 844})
    page.get_by_test_id("publish-findings").scroll_into_view_if_needed()
    box = page.get_by_test_id("publish-dialog").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5
    scrolls = page.evaluate(
        "document.documentElement.scrollWidth > document.documentElement.clientWidth"
    )
    assert not scrolls
    if os.environ.get("CHARLOTTE_DOCS_SCREENSHOTS") == "1":
        page.screenshot(path=str(SCREENSHOTS / f"publish-findings-{width}.png"))


def test_only_warnings_keep_the_plain_publish_button_and_send_no_override(builder: Builder) -> None:
    page = builder.page
    sent = _publishes(page)
    builder.edit([{"t": "set_node_props", "id": HEADING, "patch": {"content": "About us today"}}])
    page.route(
        "**/publish-preview", _with_findings([f for f in FINDINGS if f["severity"] == "warning"])
    )
    page.route("**/publish", _published)
    try:
        page.get_by_test_id("publish-button").click()
        expect(page.get_by_test_id("publish-findings-list").locator("li")).to_have_count(2)
        confirm = page.get_by_test_id("publish-confirm")
        expect(confirm).to_have_text("Publish")
        with page.expect_response(lambda r: r.url.endswith("/publish")):
            confirm.click()
        assert "override" not in sent[-1]
    finally:
        page.unroute("**/publish-preview")
        page.unroute("**/publish")


def test_a_quality_gate_refusal_reopens_the_dialog_with_its_findings(builder: Builder) -> None:
    page = builder.page
    sent = _publishes(page)
    builder.edit([{"t": "set_node_props", "id": HEADING, "patch": {"content": "About us"}}])
    refusal = {
        "error": {
            "code": "quality_gate",
            "message": "The page did not pass the publish check.",
            "findings": [FINDINGS[3]],
            "codes": ["placeholder"],
        }
    }

    def refuse_first(route: Route) -> None:
        if not any("override" in body for body in sent):
            route.fulfill(status=409, content_type="application/json", body=json.dumps(refusal))
        else:
            _published(route)

    page.route("**/publish", refuse_first)
    # A preview without findings (a server older than the gate, or a page that changed
    # between the preview and the publish): the dialog as before, until the refusal.
    page.route("**/publish-preview", _with_findings([]))
    try:
        page.get_by_test_id("publish-button").click()
        dialog = page.get_by_test_id("publish-dialog")
        expect(dialog).to_be_visible()
        expect(page.get_by_test_id("publish-findings")).to_be_hidden()
        confirm = page.get_by_test_id("publish-confirm")
        expect(confirm).to_have_text("Publish")
        confirm.click()
        expect(dialog).to_be_visible()
        expect(page.get_by_test_id("publish-findings-list").locator("li")).to_have_count(1)
        expect(page.get_by_test_id("publish-findings")).to_contain_text(
            "An image slot is still empty."
        )
        expect(confirm).to_have_text("Publish anyway…")
        assert "override" not in sent[0]
        confirm.click()
        expect(page.get_by_test_id("publish-override")).to_contain_text("placeholder")
        with page.expect_response(lambda r: r.url.endswith("/publish")) as answered:
            confirm.click()
        assert answered.value.ok
        assert sent[-1]["override"] == ["placeholder"]
        expect(dialog).to_be_hidden()
    finally:
        page.unroute("**/publish")
        page.unroute("**/publish-preview")


def test_nothing_went_wrong_in_the_console(builder: Builder) -> None:
    assert builder.problems == []
