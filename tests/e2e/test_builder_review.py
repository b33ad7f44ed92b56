"""Reviewing what the builder did, in a real Chromium against a real server on loopback.

The change set of an approve-on-save session, one entry per node: a text
change's words before and after (``<del>``/``<ins>``), a click that flashes
the node in the preview, single nodes rejected (alone and chosen together)
while the rest stays and is approved. The History sheet: turn and person
groups listed live, a restore that writes the old document again as a new
revision, and a reset to the published page (refused before any publish).
Both at 390, 768 and 1280 px without sideways scrolling, Send and Publish
uncovered. ``CHARLOTTE_DOCS_SCREENSHOTS=1`` writes the pictures of
docs/builder.md.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from tests.e2e.test_builder_browser import _start as start_session
from tests.support.browser import WAIT_MS, Watched, chromium, watched_page
from tests.support.browser_server import BrowserServer, serve_builder

from charlotte.demo import SAMPLE_FACTS

FRAME: Final = '[data-testid="preview-frame"]'
BUSINESS: Final = SAMPLE_FACTS["name"]
FIRST_MESSAGE: Final = "Build the first draft of the page from the brief."
HEADLINE: Final = f"{BUSINESS}, fresh every morning"
FOLLOW_UP: Final = (
    f'Change the hero headline to "{HEADLINE}". Rename the menu heading to "Our breads". '
    'Remove the about us section. Replace "A family bakery in Lisbon." with "Baking here since 1985."'
)
WIDTHS: Final = ((390, 844), (768, 1024), (1280, 800))
#: The groups one read of the history shows (js/history.js).
PAGE_SIZE: Final = 20
#: Follow-ups that each change the page (one turn group each), in turn.
LOOKS: Final = (
    "Make the hero warmer.",
    "Make the hero cooler.",
    "Use a serif font.",
    "Use a sans-serif font.",
)
DOCS: Final = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


@pytest.fixture
def browser() -> Iterator[Browser]:
    with chromium() as launched:
        yield launched


@pytest.fixture
def server(tmp_path: Path, browser: Browser) -> Iterator[BrowserServer]:
    with serve_builder(tmp_path) as served:
        served.pacer.free()
        yield served


@pytest.fixture
def open_page(browser: Browser) -> Iterator[Watched]:
    with watched_page(browser, 1280, 800) as watched:
        yield watched


def _start(page: Page, url: str, *, approve_on_save: bool) -> str:
    return start_session(page, url, approve_on_save=approve_on_save, facts={"name": BUSINESS})


def _turn(page: Page, message: str, done: int) -> None:
    """Send ``message`` and wait until the ``done``-th turn of the session has finished."""
    page.get_by_test_id("chat-input").fill(message)
    page.get_by_test_id("send-button").click()
    expect(page.get_by_test_id("chat-log").locator(".note", has_text="Done")).to_have_count(done)
    expect(page.get_by_test_id("status")).to_have_text("idle")


def _get(page: Page, url: str, session: str, path: str) -> dict[str, Any]:
    answer = page.request.get(f"{url}/sessions/{session}{path}")
    assert answer.ok, answer.text()
    body = answer.json()
    assert isinstance(body, dict)
    return body


def _post(page: Page, url: str, session: str, path: str, body: object) -> Any:
    return page.request.post(
        f"{url}/sessions/{session}{path}", data=body, headers={"Content-Type": "application/json"}
    )


def _send_when_idle(page: Page, url: str, session: str, message: str) -> None:
    """Send ``message`` as soon as the session takes a turn (no message: wait until it is idle)."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        if not message:
            if _get(page, url, session, "")["session"]["status"] == "idle":
                return
        else:
            sent = _post(page, url, session, "/turns", {"message": message})
            if sent.status == 202:
                return
            assert sent.json()["error"]["code"] == "busy", sent.text()
        time.sleep(0.05)
    raise AssertionError("the session stayed busy")


def _entry(page: Page, node: str) -> Locator:
    return page.get_by_test_id("change-set").locator(f'.change[data-node="{node}"]')


#: Whether the preview outlines a node now (``js/highlight.js`` flashes it with this class).
FLASHED: Final = (
    "id => { const frame = document.querySelector('[data-testid=\"preview-frame\"]');"
    " const doc = frame.contentDocument;"
    ' const el = doc && doc.querySelector(`[data-cms="${id}"]`);'
    " return Boolean(el) && el.classList.contains('charlotte-flash'); }"
)


def _flashed(page: Page, node: str) -> bool:
    return bool(page.evaluate(f"({FLASHED})({node!r})"))


def _fits(page: Page, width: int, height: int) -> None:
    """No sideways scroll; Send and Publish on screen and not covered by anything."""
    widths = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert widths[0] <= widths[1], (width, widths)
    for test_id in ("send-button", "publish-button"):
        target = page.get_by_test_id(test_id)
        expect(target).to_be_visible()
        box = target.bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (test_id, width, box)
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (test_id, height, box)
        on_top = page.evaluate(
            "([x, y, id]) => { const el = document.elementFromPoint(x, y);"
            ' return el !== null && el.closest(`[data-testid="${id}"]`) !== null; }',
            [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, test_id],
        )
        assert on_top, (test_id, width)


def _pictures(page: Page, tmp_path: Path, name: str, show: Locator, *, tab: bool = True) -> None:
    """At each width: nothing overflows, then a screenshot (also into docs/ when asked).

    With ``tab`` the Page tab is chosen at 768 px and below (the history sheet covers the tabs).
    """
    for width, height in WIDTHS:
        page.set_viewport_size({"width": width, "height": height})
        if tab and width <= 768:
            page.get_by_test_id("tab-page").click()
        expect(show).to_be_visible()
        _fits(page, width, height)
        page.screenshot(path=tmp_path / f"{name}-{width}.png")
        if os.environ.get("CHARLOTTE_DOCS_SCREENSHOTS") == "1" and width != 768:
            DOCS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=DOCS / f"{name}-{width}.png")
    page.set_viewport_size({"width": 1280, "height": 800})


def test_a_change_set_is_reviewed_node_by_node(
    server: BrowserServer, open_page: Watched, tmp_path: Path
) -> None:
    page = open_page.page
    panel = page.get_by_test_id("change-set")
    session = _start(page, server.url, approve_on_save=True)
    _turn(page, FIRST_MESSAGE, 1)
    # The first draft: every node added, named from the proposed page the preview shows.
    expect(page.locator(FRAME)).to_have_attribute("data-view", "proposed")
    expect(_entry(page, "hero-heading")).to_have_attribute("data-kind", "added")
    expect(_entry(page, "hero-heading").locator(".change-name")).to_have_text(
        f"Heading “{BUSINESS}”"
    )
    page.get_by_test_id("approve-button").click()
    expect(panel).to_be_hidden()

    _turn(page, FOLLOW_UP, 2)
    expect(panel).to_be_visible()
    heading = _entry(page, "hero-heading")
    expect(heading).to_have_attribute("data-kind", "changed")
    expect(heading.locator(".change-name")).to_have_text(f"Heading “{BUSINESS}”")
    # The words before and after: what went struck out, what came marked as inserted.
    # Only what came in is marked: "Bakery" stays, ", fresh every morning" is new.
    expect(heading.locator(".word-diff del")).to_have_count(0)
    expect(heading.locator(".word-diff ins")).to_have_text([", fresh every morning"])
    menu = _entry(page, "menu-heading")
    expect(menu.locator(".word-diff del")).to_have_text(["Menu"])
    expect(menu.locator(".word-diff ins")).to_have_text(["Our breads"])
    # A removed section is one entry, its nodes inside it.
    removed = _entry(page, "about-us")
    expect(removed).to_have_attribute("data-kind", "removed")
    expect(removed).to_contain_text("with 2 nodes inside")
    expect(panel.locator('.change[data-node="about-us-heading"]')).to_have_count(0)
    _pictures(page, tmp_path, "builder-review", panel)

    # A click on an entry shows its node in the preview for a moment.
    menu.get_by_role("button", name=re.compile("^Show in the preview")).click()
    # Outlined (for 1.5 s), scrolled into the frame's view, then no longer outlined.
    page.wait_for_function(f"() => ({FLASHED})('menu-heading')", timeout=WAIT_MS)
    page.wait_for_function(
        "() => { const f = document.querySelector('[data-testid=\"preview-frame\"]');"
        " const box = f.contentDocument.querySelector('[data-cms=\"menu-heading\"]')"
        ".getBoundingClientRect();"
        " return box.top >= 0 && box.bottom <= f.contentWindow.innerHeight; }",
        timeout=WAIT_MS,
    )
    page.wait_for_function(f"() => !({FLASHED})('menu-heading')", timeout=WAIT_MS)
    assert not _flashed(page, "menu-heading")
    # A removed node is on the draft only: the preview switches to it, then shows the node.
    removed.get_by_role("button", name=re.compile("^Show in the preview")).click()
    expect(page.locator(FRAME)).to_have_attribute("data-view", "draft")
    page.wait_for_function(f"() => ({FLASHED})('about-us')", timeout=WAIT_MS)

    # Reject one node's change: the set comes back without it, the others kept.
    first_set = panel.get_attribute("data-change-set-id")
    with page.expect_request(lambda r: r.url.endswith("/change-set/reject-nodes")) as sent:
        menu.get_by_role("button", name=re.compile("^Reject this change")).click()
    assert sent.value.post_data_json == {"nodes": ["menu-heading"]}
    expect(panel).not_to_have_attribute("data-change-set-id", str(first_set))
    expect(_entry(page, "menu-heading")).to_have_count(0)
    expect(_entry(page, "hero-heading")).to_be_visible()
    expect(page.get_by_test_id("change-set-note")).to_contain_text("Rejected 1 change")

    # Several chosen together: Reject chosen names them all.
    reject_chosen = page.get_by_test_id("reject-selected")
    expect(reject_chosen).to_be_disabled()
    _entry(page, "hero-text").get_by_role("checkbox").check()
    _entry(page, "about-us").get_by_role("checkbox").check()
    expect(reject_chosen).to_have_text("Reject 2 chosen")
    with page.expect_request(lambda r: r.url.endswith("/change-set/reject-nodes")) as sent:
        reject_chosen.click()
    assert sent.value.post_data_json == {"nodes": ["hero-text", "about-us"]}
    expect(_entry(page, "about-us")).to_have_count(0)
    expect(panel.locator(".change")).to_have_count(1)
    expect(page.get_by_test_id("change-set-note")).to_contain_text("Rejected 2 changes")

    page.get_by_test_id("approve-button").click()
    expect(panel).to_be_hidden()
    nodes = _get(page, server.url, session, "/draft")["page"]["nodes"]
    assert nodes["hero-heading"]["props"]["content"] == HEADLINE
    assert nodes["menu-heading"]["props"]["content"] == "Menu"
    assert nodes["hero-text"]["props"]["content"] == "A family bakery in Lisbon."
    assert "about-us" in nodes and "about-us-text" in nodes

    # A section moved among the top-level ones: its entry rejects the reorder ("#order") too.
    _turn(page, "Move the about us section to the top.", 3)
    moved = _entry(page, "about-us")
    expect(moved).to_contain_text("Moved")
    with page.expect_request(lambda r: r.url.endswith("/change-set/reject-nodes")) as sent:
        moved.get_by_role("button", name=re.compile("^Reject this change")).click()
    assert sent.value.post_data_json == {"nodes": ["about-us", "#order"]}
    expect(panel).to_be_hidden()
    assert _get(page, server.url, session, "/draft")["page"]["nodes"] == nodes
    open_page.assert_clean()


def _group(page: Page, who: str) -> Locator:
    return page.get_by_test_id("history-groups").locator(".history-group", has_text=who)


def test_history_lists_turns_and_people_restores_and_resets(
    server: BrowserServer, open_page: Watched, tmp_path: Path
) -> None:
    page = open_page.page
    sheet = page.get_by_test_id("history-sheet")
    session = _start(page, server.url, approve_on_save=False)
    page.get_by_role("button", name="History").click()
    expect(sheet).to_be_visible()
    expect(page.get_by_role("button", name="History")).to_have_attribute("aria-expanded", "true")
    expect(sheet).to_contain_text("No changes yet")
    # Nothing published: Reset is disabled and says why; the server refuses it too.
    reset = page.get_by_test_id("history-reset")
    expect(reset).to_be_disabled()
    expect(sheet).to_contain_text("Nothing is published yet.")
    refused = _post(page, server.url, session, "/reset", {"basedOn": 0})
    assert refused.status == 404 and refused.json()["error"]["field"] == "published"

    # The sheet follows the stream: the turn, then a person's edit, newest first.
    _turn(page, FIRST_MESSAGE, 1)
    built = _get(page, server.url, session, "/draft")
    turn = _group(page, "The builder · turn")
    expect(turn).to_contain_text(f"{built['revision']} edits")
    expect(turn).to_contain_text(f"“{BUSINESS}")
    edited = _post(page, server.url, session, "/edits", {
        "basedOn": built["revision"],
        "ops": [{"t": "set_node_props", "id": "hero-heading", "patch": {"content": "Hand-written headline"}}],
    })  # fmt: skip
    assert edited.ok, edited.text()
    person = _group(page, "local · 1 edit")
    expect(person).to_be_visible()
    # Named by its words in the draft, not by its id.
    expect(person).to_contain_text("“Hand-written headline”")
    expect(person).not_to_contain_text("hero-heading")
    expect(page.get_by_test_id("history-groups").locator(".history-group").first).to_have_attribute(
        "data-kind", "person"
    )
    _pictures(page, tmp_path, "builder-history", sheet, tab=False)

    # Restore the turn's version: asked first, then a new revision holding the old page.
    turn.get_by_role("button", name=f"Restore this version, revision {built['revision']}").click()
    confirm = page.get_by_test_id("history-confirm")
    expect(confirm).to_contain_text("new revision")
    expect(confirm).to_contain_text("nothing is lost")
    with page.expect_response(lambda r: r.url.endswith("/restore")) as answered:
        page.get_by_test_id("history-confirm-ok").click()
    restored = answered.value.json()
    assert answered.value.request.post_data_json == {
        "revision": built["revision"],
        "basedOn": built["revision"] + 1,
    }
    assert restored["revision"] == built["revision"] + 2
    draft = _get(page, server.url, session, "/draft")
    assert draft["revision"] == restored["revision"]
    assert draft["page"]["nodes"] == built["page"]["nodes"]
    expect(page.get_by_test_id("history-note")).to_contain_text(
        f"Restored revision {built['revision']}: the draft is now revision {restored['revision']}"
    )
    expect(page.get_by_test_id("revision")).to_have_text(str(restored["revision"]))
    expect(page.frame_locator(FRAME).locator("h1")).to_have_text(BUSINESS)

    # Published, then edited: Reset to published puts the published page back.
    page.get_by_test_id("publish-button").click()
    page.get_by_test_id("publish-confirm").click()
    expect(page.get_by_test_id("chat-log")).to_contain_text(
        f"Published revision {restored['revision']}"
    )
    expect(page.get_by_test_id("history-reset")).to_be_disabled()
    expect(sheet).to_contain_text(
        f"The draft is the published page (revision {restored['revision']})"
    )
    again = _post(page, server.url, session, "/edits", {
        "basedOn": restored["revision"],
        "ops": [{"t": "set_node_props", "id": "hero-heading", "patch": {"content": "Not for long"}}],
    })  # fmt: skip
    assert again.ok, again.text()
    expect(reset).to_be_enabled()
    # The publish dialog draws the same entries: the headline's words before and after.
    page.get_by_test_id("publish-button").click()
    published_change = page.get_by_test_id("publish-dialog").locator(
        '.change[data-node="hero-heading"]'
    )
    expect(published_change.locator(".change-name")).to_have_text("Heading “Not for long”")
    expect(published_change.locator("del")).to_have_text([BUSINESS])
    expect(published_change.locator("ins")).to_have_text(["Not for long"])
    page.get_by_test_id("publish-cancel").click()
    expect(sheet.locator(".history-tag.is-published")).to_have_count(1)
    reset.click()
    expect(confirm).to_contain_text(f"published page (revision {restored['revision']})")
    with page.expect_response(lambda r: r.url.endswith("/reset")) as answered:
        page.get_by_test_id("history-confirm-ok").click()
    assert answered.value.ok
    published = _get(page, server.url, session, "/published")
    draft = _get(page, server.url, session, "/draft")
    assert draft["revision"] == answered.value.json()["revision"]
    assert draft["page"]["nodes"] == published["page"]["nodes"]
    expect(page.get_by_test_id("history-note")).to_contain_text("Reset to the published page")

    # A long history comes in pages: Show older adds the groups before the oldest shown.
    for index in range(PAGE_SIZE):
        _send_when_idle(page, server.url, session, LOOKS[index % len(LOOKS)])
    _send_when_idle(page, server.url, session, "")
    groups = page.get_by_test_id("history-groups").locator(".history-group")
    # The sheet has caught up with the last turn (its refresh follows the stream) before paging back.
    newest = _get(page, server.url, session, "/history?limit=1")["groups"][0]["last_revision"]
    expect(groups.first).to_have_attribute("data-last", str(newest))
    expect(groups).to_have_count(PAGE_SIZE)
    older = page.get_by_test_id("history-older")
    with page.expect_response(lambda r: "/history?" in r.url and "before=" in r.url):
        older.click()
    expect(older).to_be_hidden()
    total = len(_get(page, server.url, session, "/history?limit=100")["groups"])
    assert total > PAGE_SIZE
    expect(groups).to_have_count(total)

    # Escape closes the sheet and gives focus back to History.
    page.get_by_test_id("history-close").focus()
    page.keyboard.press("Escape")
    expect(sheet).to_be_hidden()
    expect(page.get_by_role("button", name="History")).to_be_focused()
    open_page.assert_clean()
