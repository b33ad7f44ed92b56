"""The builder's Page settings panel: a real Chromium against a real server.

One server, one browser page and one session (the offline builder's first
draft of the sample bakery) are shared by the module, so the tests run in
file order. A person sets the page's title, description and language in the
panel; the draft's meta has them (``GET /draft``), the publish dialog and the
published document show them, Undo takes them back; the bounds are said as
they type and a refusal the server still makes is said beside its field;
another person's ``set_meta`` shows in the open panel without a reload; the
panel fits and works by keyboard at 390, 768 and 1280 px.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect
from tests.support.browser import chromium
from tests.support.browser_server import BrowserServer, serve_builder
from tests.support.builder_page import built_session, opened

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]


@dataclass
class Panel:
    """The shared page, its server and session, and what went wrong in the console."""

    page: Page
    server: BrowserServer
    session: str
    problems: list[str] = field(default_factory=list)
    draft_reads: list[str] = field(default_factory=list)

    def draft(self) -> dict[str, Any]:
        answer = self.page.request.get(f"{self.server.url}/sessions/{self.session}/draft")
        assert answer.ok
        body: dict[str, Any] = answer.json()
        return body

    def meta(self) -> dict[str, Any]:
        meta: dict[str, Any] = self.draft()["page"]["meta"]
        return meta

    def field(self, name: str) -> Any:
        return self.page.get_by_test_id(f"settings-{name}")

    def open(self) -> None:
        if self.page.get_by_test_id("settings-sheet").is_visible():
            return
        self.page.get_by_test_id("settings-button").click()
        expect(self.page.get_by_test_id("settings-sheet")).to_be_visible()
        expect(self.field("title")).to_be_focused()


@pytest.fixture(scope="module")
def panel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Panel]:
    with chromium() as browser, serve_builder(tmp_path_factory.mktemp("settings")) as server:
        yield from _open(browser, server)


def _open(browser: Browser, server: BrowserServer) -> Iterator[Panel]:
    session = built_session(server)
    # An edit the server refuses on purpose is logged by the browser as a console error.
    with opened(browser, server, session, 1280, expected=("/edits",)) as watched:
        page = watched.page
        panel = Panel(page, server, session, watched.problems)
        page.on("request", lambda r: panel.draft_reads.append(r.url) if r.url.endswith("/draft") else None)
        # The first draft is live already: the publish dialog then lists what changed since.
        published = page.request.post(
            f"{server.url}/sessions/{session}/publish", data={}, headers={"Origin": server.url}
        )
        assert published.ok, published.text()
        expect(page.get_by_test_id("revision")).to_have_text(str(panel.draft()["revision"]))
        yield panel


def test_the_panel_shows_the_drafts_metadata(panel: Panel) -> None:
    meta = panel.meta()
    panel.open()
    expect(panel.field("title")).to_have_value(meta["title"])
    expect(panel.field("description")).to_have_value(meta.get("seo", {}).get("description", ""))
    expect(panel.field("title-count")).to_have_text(f"{len(meta['title'])}/120")


def test_the_bounds_are_said_as_the_person_types_and_nothing_is_sent(panel: Panel) -> None:
    panel.open()
    revision = panel.draft()["revision"]
    panel.field("title").fill("T" * 121)
    expect(panel.field("title-count")).to_have_text("121/120")
    expect(panel.field("title-error")).to_contain_text("at most 120 characters")
    expect(panel.field("title")).to_have_attribute("aria-invalid", "true")
    panel.field("title").fill("T" * 120)
    expect(panel.field("title-error")).to_be_hidden()
    panel.field("lang").fill("en_GB")
    expect(panel.field("lang-error")).to_contain_text("Not a language tag")
    panel.field("canonical").fill("https://elsewhere.example/page")
    expect(panel.field("canonical-error")).to_contain_text("no other site")
    panel.field("description").fill("x" * 301)
    expect(panel.field("description-count")).to_have_text("301/300")
    panel.field("save").click()
    # The first field it refuses gets the focus; the draft is untouched.
    expect(panel.field("description")).to_be_focused()
    expect(panel.field("note")).to_contain_text("Not saved")
    assert panel.draft()["revision"] == revision
    # Put back: the draft's values, nothing left to save.
    meta = panel.meta()
    panel.field("title").fill(meta["title"])
    panel.field("description").fill(meta.get("seo", {}).get("description", ""))
    panel.field("lang").fill("")
    panel.field("canonical").fill("")
    expect(panel.page.locator('[data-testid="settings-sheet"] [aria-invalid="true"]')).to_have_count(0)


def test_a_person_sets_title_description_and_lang_then_publishes_and_undoes(panel: Panel) -> None:
    page = panel.page
    panel.open()
    before = panel.draft()
    old_meta = before["page"]["meta"]
    panel.field("title").fill("Rosa's Bakery · Lisbon")
    panel.field("description").fill("Sourdough, pastéis de nata and birthday cakes, baked every morning in Lisbon.")
    panel.field("lang").fill("pt-PT")
    panel.field("lang").press("Enter")
    expect(panel.field("note")).to_have_text("Saved to the draft.")
    after = panel.draft()
    # One set_meta, one revision; the other seo entries the draft had are kept.
    assert after["revision"] == before["revision"] + 1
    meta = after["page"]["meta"]
    assert meta["title"] == "Rosa's Bakery · Lisbon"
    assert meta["seo"]["description"].startswith("Sourdough, pastéis de nata")
    assert meta["seo"]["lang"] == "pt-PT"
    for key, value in old_meta.get("seo", {}).items():
        if key not in ("description", "lang"):
            assert meta["seo"][key] == value
    expect(page.get_by_test_id("revision")).to_have_text(str(after["revision"]))
    # The publish dialog lists the settings among what changed; the published head carries them.
    panel.field("close").click()
    expect(page.get_by_test_id("settings-button")).to_be_focused()
    page.get_by_test_id("publish-button").click()
    dialog = page.get_by_test_id("publish-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("the page settings changed")
    page.get_by_test_id("publish-confirm").click()
    expect(dialog).to_be_hidden()
    expect(page.get_by_test_id("chat-log")).to_contain_text(f"Published revision {after['revision']}")
    published = page.request.get(f"{panel.server.url}/pages/home/published.html")
    assert published.ok
    document = published.text()
    assert '<html lang="pt-PT"' in document
    title = re.search(r"<title>(.*?)</title>", document)
    assert title is not None and unescape(title.group(1)) == "Rosa's Bakery · Lisbon"
    description = re.search(r'<meta name="description" content="([^"]*)"', document)
    assert description is not None and unescape(description.group(1)).startswith("Sourdough, pastéis de nata")
    # Undo takes them back, and the open panel shows the draft as it is again.
    panel.open()
    panel.field("undo").click()
    expect(panel.field("title")).to_have_value(old_meta["title"])
    expect(panel.field("lang")).to_have_value(old_meta.get("seo", {}).get("lang", ""))
    undone = panel.meta()
    assert undone.get("title") == old_meta["title"]
    assert undone.get("seo", {}).get("lang", "") == old_meta.get("seo", {}).get("lang", "")
    assert undone.get("seo", {}).get("description", "") == old_meta.get("seo", {}).get("description", "")


def test_a_refusal_the_server_still_makes_is_said_beside_its_field(panel: Panel) -> None:
    page = panel.page
    panel.open()

    def refuse(route: Route) -> None:
        route.fulfill(
            status=422,
            content_type="application/json",
            body='{"error": {"code": "invalid_props", "message": "The node properties are not valid for its type.", "at": 0}}',
        )

    page.route(re.compile(r"/edits$"), refuse)
    try:
        panel.field("canonical").fill("/menu")
        panel.field("save").click()
        error = panel.field("canonical-error")
        expect(error).to_be_visible()
        expect(error).to_have_attribute("data-code", "invalid_props")
        expect(error).to_contain_text("The server refused this value")
        expect(panel.field("canonical")).to_have_attribute("aria-invalid", "true")
    finally:
        page.unroute(re.compile(r"/edits$"))
    # Typing again clears it; saving for real works.
    panel.field("canonical").fill("/")
    expect(panel.field("canonical-error")).to_be_hidden()
    panel.field("save").click()
    expect(panel.field("note")).to_have_text("Saved to the draft.")
    assert panel.meta()["seo"]["canonical"] == "/"


def test_another_writers_set_meta_shows_in_the_open_panel_without_a_reload(panel: Panel) -> None:
    page = panel.page
    panel.open()
    reads_before = len(panel.draft_reads)
    # The person is typing a title meanwhile: that field keeps what they typed.
    panel.field("title").fill("My own title, not saved yet")
    other = panel.server.charlotte.find(panel.session, "local", user="ana")
    assert other is not None
    meta = panel.meta()
    seo = {**meta.get("seo", {}), "description": "Written by Ana through the API.", "lang": "en-GB"}
    other.edit([{"t": "set_meta", "patch": {"title": "Ana's title", "seo": seo}}], panel.draft()["revision"])
    expect(panel.field("description")).to_have_value("Written by Ana through the API.")
    expect(panel.field("lang")).to_have_value("en-GB")
    expect(panel.field("title")).to_have_value("My own title, not saved yet")
    # It came by the stream: no reload of the page, no read of the draft.
    assert page.url.endswith(panel.session)
    assert len(panel.draft_reads) == reads_before
    # Saving now writes the title and keeps Ana's other settings.
    panel.field("save").click()
    expect(panel.field("note")).to_have_text("Saved to the draft.")
    saved = panel.meta()
    assert saved["title"] == "My own title, not saved yet"
    assert saved["seo"]["description"] == "Written by Ana through the API."
    assert saved["seo"]["lang"] == "en-GB"


@pytest.mark.parametrize("width", [1280, 768, 390])
def test_the_panel_fits_and_works_by_keyboard(panel: Panel, width: int, tmp_path: Path) -> None:
    page = panel.page
    page.set_viewport_size({"width": width, "height": 900 if width > 390 else 844})
    if page.get_by_test_id("settings-sheet").is_visible():
        panel.field("close").click()
    if width <= 768:
        page.get_by_test_id("tab-page").click()
    button = page.get_by_test_id("settings-button")
    expect(button).to_be_in_viewport()
    button.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("settings-sheet")).to_be_visible()
    expect(button).to_have_attribute("aria-expanded", "true")
    expect(panel.field("title")).to_be_focused()
    # Tab walks the fields in order, to Save.
    for name in ("description", "lang", "canonical", "image", "undo", "save"):
        page.keyboard.press("Tab")
        if name == "undo" and panel.field("undo").is_disabled():
            continue
        expect(panel.field(name)).to_be_focused()
    for name in ("title", "description", "lang", "canonical", "image", "save"):
        panel.field(name).scroll_into_view_if_needed()
        expect(panel.field(name)).to_be_in_viewport()
        box = panel.field(name).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    # Every field has a label.
    for name in ("title", "description", "lang", "canonical", "image"):
        assert panel.field(name).evaluate("e => e.labels.length") == 1
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    page.screenshot(path=str(tmp_path / f"builder-settings-{width}.png"))
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("settings-sheet")).to_be_hidden()
    expect(button).to_be_focused()
    expect(button).to_have_attribute("aria-expanded", "false")
    page.set_viewport_size({"width": 1280, "height": 900})


def test_history_and_settings_are_one_sheet_at_a_time(panel: Panel) -> None:
    page = panel.page
    panel.open()
    page.get_by_test_id("history-button").click()
    expect(page.get_by_test_id("history-sheet")).to_be_visible()
    expect(page.get_by_test_id("settings-sheet")).to_be_hidden()
    page.get_by_test_id("settings-button").click()
    expect(page.get_by_test_id("settings-sheet")).to_be_visible()
    expect(page.get_by_test_id("history-sheet")).to_be_hidden()
    panel.field("close").click()


def test_nothing_went_wrong_in_the_console(panel: Panel) -> None:
    assert panel.problems == []
