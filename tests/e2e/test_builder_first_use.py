"""What a new person meets in the builder, in a real Chromium against a real server, at 390 and 1280 px.

- Publishing an empty draft while the builder's changes wait for approval
  says so (approve them first), in a banner that covers no toolbar; the chat
  column keeps its width between the change set and the draft.
- The top bar keeps *New session* and the page key on a phone.
- A heading's level is chosen from 1 to 6; a section added from the palette
  is named as a person writes it ("Added the FAQ section.").
- A restore, a reset and *Undo this turn* made on this page add no
  "edited the draft" note to the chat (another tab's edit does).
- *Published* before a first publish and a page key the server refuses ask
  nothing that can only fail: no console error anywhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest
from playwright.sync_api import Browser, Locator, Page, Route, expect
from tests.e2e.test_builder_browser import FIRST_MESSAGE, _send, _start
from tests.e2e.test_builder_review import _get, _post
from tests.support.browser import Watched, chromium, watched_page
from tests.support.browser_server import BrowserServer, serve_builder

from charlotte.demo import SAMPLE_FACTS

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

WIDTHS: Final = [(390, 844), (1280, 800)]
BUSINESS: Final = SAMPLE_FACTS["name"]


@pytest.fixture
def browser() -> Iterator[Browser]:
    with chromium() as launched:
        yield launched


@pytest.fixture
def server(tmp_path: Path, browser: Browser) -> Iterator[BrowserServer]:
    with serve_builder(tmp_path) as served:
        served.pacer.free()
        yield served


@pytest.fixture(params=WIDTHS, ids=lambda size: f"{size[0]}px")
def watched(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Watched]:
    width, height = request.param
    with watched_page(browser, width, height) as page:
        yield page


def _width(page: Page) -> int:
    size = page.viewport_size
    assert size is not None
    return int(size["width"])


def _box(target: Locator) -> dict[str, float]:
    box = target.bounding_box()
    assert box is not None
    return dict(box)


def _apart(one: dict[str, float], other: dict[str, float]) -> bool:
    return (one["y"] + one["height"] <= other["y"] or other["y"] + other["height"] <= one["y"]
            or one["x"] + one["width"] <= other["x"] or other["x"] + other["width"] <= one["x"])  # fmt: skip


def _on_top(page: Page, target: Locator) -> bool:
    box = _box(target)
    return bool(page.evaluate(
        "([x, y]) => { const el = document.elementFromPoint(x, y); return el ? el.id : ''; }",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    ) == target.get_attribute("id"))  # fmt: skip


def _built(page: Page, url: str) -> str:
    session = _start(page, url, approve_on_save=False, facts=dict(SAMPLE_FACTS))
    _send(page, FIRST_MESSAGE)
    expect(page.get_by_test_id("chat-log").locator(".note", has_text="Done")).to_have_count(1)
    expect(page.get_by_test_id("status")).to_have_text("idle")
    return session


def test_publish_while_changes_wait_says_approve_first_in_a_banner_that_covers_no_toolbar(
    server: BrowserServer, watched: Watched
) -> None:
    page = watched.page
    _start(page, server.url, approve_on_save=True, facts={"name": BUSINESS})
    _send(page, FIRST_MESSAGE)
    panel = page.get_by_test_id("change-set")
    if _width(page) <= 768:
        page.get_by_test_id("tab-page").click()
    expect(panel).to_be_visible()
    waiting = int(_get(page, server.url, page.url.split("#session=")[1], "/change-set")["change_set"]["ops"])
    chat_width = _box(page.locator("#panel-chat"))["width"] if _width(page) > 768 else None
    page.get_by_test_id("publish-button").click()
    banner = page.get_by_test_id("error-banner")
    expect(banner).to_contain_text(f"{waiting} changes wait for your review")
    expect(banner).to_contain_text("approve them first")
    expect(banner).not_to_contain_text("The page is empty")
    # The banner lies under the top bar and above the page's toolbar, covering neither.
    for covered in (page.locator("header.topbar"), page.locator(".toolbar")):
        assert _apart(_box(banner), _box(covered)), (_box(banner), _box(covered))
    assert _on_top(page, page.get_by_test_id("history-button"))
    assert _on_top(page, page.get_by_test_id("publish-button"))
    # Approved: the draft view; the chat column has kept its width.
    page.get_by_test_id("approve-button").click()
    expect(panel).to_be_hidden()
    if chat_width is not None:
        assert _box(page.locator("#panel-chat"))["width"] == chat_width
    watched.assert_clean()


def test_the_top_bar_keeps_new_session_and_the_page_key(server: BrowserServer, watched: Watched) -> None:
    page = watched.page
    _start(page, server.url, approve_on_save=False, facts={})
    width = _width(page)
    for test_id in ("new-session", "session-page", "publish-button"):
        target = page.locator(f'[data-role="{test_id}"]') if test_id != "publish-button" else page.get_by_test_id(test_id)
        expect(target).to_be_visible()
        box = _box(target)
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (test_id, box)
    expect(page.locator('[data-role="session-page"]')).to_have_text("home")
    assert _apart(_box(page.locator('[data-role="new-session"]')), _box(page.get_by_test_id("publish-button")))
    assert page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    page.locator('[data-role="new-session"]').click()
    expect(page.get_by_test_id("start-button")).to_be_visible()
    # Leaving the session closes its stream (the browser calls that aborted).
    watched.problems[:] = [p for p in watched.problems if not ("/stream" in p and "ERR_ABORTED" in p)]
    watched.assert_clean()


def test_a_headings_level_is_chosen_and_an_added_faq_is_named_as_people_write_it(
    server: BrowserServer, watched: Watched
) -> None:
    page = watched.page
    session = _built(page, server.url)
    if _width(page) <= 768:
        page.get_by_test_id("tab-page").click()
    page.locator('[data-testid="outline-tree"] [data-node="hero-heading"]').click()
    level = page.locator('[data-testid="inspector"] [data-prop="level"] select')
    expect(level.locator("option:not([value=''])")).to_have_text(["1", "2", "3", "4", "5", "6"])
    expect(page.locator('[data-testid="inspector"] [data-prop="level"] input')).to_have_count(0)
    level.select_option("2")
    expect(page.frame_locator('[data-testid="preview-frame"]').locator('[data-cms="hero-heading"] h2')).to_be_visible()
    assert _get(page, server.url, session, "/draft")["page"]["nodes"]["hero-heading"]["props"]["level"] == 2
    page.get_by_test_id("palette-section").select_option("faq")
    page.get_by_test_id("palette-add-section").click()
    expect(page.get_by_test_id("editor-notice")).to_have_text("Added the FAQ section.")
    watched.assert_clean()


def test_this_pages_restore_reset_and_undo_add_no_edited_the_draft_note(
    server: BrowserServer, watched: Watched
) -> None:
    page = watched.page
    url = server.url
    session = _built(page, url)
    log = page.get_by_test_id("chat-log")
    built = _get(page, url, session, "/draft")["revision"]
    assert _post(page, url, session, "/publish", {"revision": built}).ok
    # Undo this turn, here.
    log.get_by_role("button", name="Undo this turn").click()
    expect(log.locator(".turn-undo")).to_contain_text("Undone")
    undone = _get(page, url, session, "/draft")["revision"]
    expect(page.get_by_test_id("revision")).to_have_text(str(undone))
    if _width(page) <= 768:
        page.get_by_test_id("tab-page").click()
    page.get_by_role("button", name="History").click()
    # Restore the built page, then reset to the published one.
    page.get_by_role("button", name=f"Restore this version, revision {built}").first.click()
    page.get_by_test_id("history-confirm-ok").click()
    expect(page.get_by_test_id("history-note")).to_contain_text(f"Restored revision {built}")
    page.get_by_test_id("history-reset").click()
    page.get_by_test_id("history-confirm-ok").click()
    expect(page.get_by_test_id("history-note")).to_contain_text("Reset to the published page")
    # Another tab's edit (the API) does add its note, after theirs would have come.
    current = _get(page, url, session, "/draft")["revision"]
    ops = [{"t": "set_node_props", "id": "hero-heading", "patch": {"content": "From another tab"}}]
    other = _post(page, url, session, "/edits", {"basedOn": current, "ops": ops}).json()["revision"]
    notes = log.locator(".note", has_text="edited the draft")
    expect(notes.last).to_have_text(f"local edited the draft · revision {other}")
    expect(notes).to_have_count(1)
    watched.assert_clean()


def test_a_reset_chosen_before_the_list_is_read_again_is_based_on_the_restores_revision(
    server: BrowserServer, watched: Watched
) -> None:
    """The list's refresh after a restore is held back: a reset asked and confirmed meanwhile
    is based on the revision the restore answered (not refused as stale), and a question
    open when the held list arrives stays open, saying the draft's revision now."""
    page = watched.page
    url = server.url
    session = _built(page, url)
    built = _get(page, url, session, "/draft")["revision"]
    assert _post(page, url, session, "/publish", {"revision": built}).ok
    ops = [{"t": "set_node_props", "id": "hero-heading", "patch": {"content": "A later heading"}}]
    later = _post(page, url, session, "/edits", {"basedOn": built, "ops": ops}).json()["revision"]
    expect(page.get_by_test_id("revision")).to_have_text(str(later))
    if _width(page) <= 768:
        page.get_by_test_id("tab-page").click()
    page.get_by_role("button", name="History").click()
    restore = page.get_by_role("button", name=f"Restore this version, revision {built}").first
    expect(restore).to_be_visible()
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route(re.compile(r"/history\?"), hold)
    restore.click()
    page.get_by_test_id("history-confirm-ok").click()
    expect(page.get_by_test_id("history-note")).to_contain_text(f"Restored revision {built}")
    restored = _get(page, url, session, "/draft")["revision"]
    # The list is not read again yet: reset now, and ask a restore while the list arrives.
    page.get_by_test_id("history-reset").click()
    page.get_by_test_id("history-confirm-ok").click()
    expect(page.get_by_test_id("history-note")).to_contain_text("Reset to the published page")
    reset = _get(page, url, session, "/draft")["revision"]
    assert reset > restored
    expect(page.get_by_test_id("history-note")).to_contain_text(f"the draft is now revision {reset}")
    page.get_by_role("button", name=f"Restore this version, revision {built}").first.click()
    confirm = page.get_by_test_id("history-confirm")
    expect(confirm).to_contain_text(f"on top of revision {reset}")
    assert held, "the refreshes after the restore and the reset were held"
    for route in held:
        route.continue_()
    page.unroute(re.compile(r"/history\?"), hold)
    expect(page.get_by_test_id("history-groups")).to_contain_text(f"{reset}")
    expect(confirm).to_be_visible()
    expect(confirm).to_contain_text(f"revision {built}?")
    expect(page.get_by_test_id("history-confirm-ok")).to_be_focused()
    watched.assert_clean()


def test_published_before_a_first_publish_and_a_refused_page_key_log_no_console_error(
    server: BrowserServer, watched: Watched
) -> None:
    page = watched.page
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(server.url)
    page.get_by_test_id("start-page").fill("my home page")
    page.get_by_test_id("start-brief").fill("A page.")
    page.wait_for_timeout(600)  # past the key's settling pause: no session list is asked for
    page.get_by_test_id("start-button").click()
    expect(page.get_by_test_id("error-banner")).to_contain_text("A page key is 1 to 200 letters")
    assert not [url for url in requested if "sessions?page=my" in url or url.endswith("/sessions")], requested
    page.get_by_test_id("start-page").fill("home")
    page.get_by_test_id("start-button").click()
    expect(page).to_have_url(re.compile(r"#session="))
    if _width(page) <= 768:
        page.get_by_test_id("tab-page").click()
    page.get_by_test_id("published-toggle").click()
    expect(page.get_by_text("Not published yet")).to_be_visible()
    assert not [url for url in requested if url.endswith("/published")], requested
    watched.assert_clean()
