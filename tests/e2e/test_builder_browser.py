"""The builder page in a real Chromium, against a real server on loopback.

The server (``tests.support.browser_server``) runs the offline builder with
its writes paced: the test lets them land one at a time and watches the
revision badge and the preview follow while the turn is still running. Then
it publishes and opens the published view, and in a second session in
approve-on-save mode approves a change set. Screenshots of every step go to
the test's tmp dir; ``builder.png`` there is the picture in the README.

Every wait is one of Playwright's auto-waiting expectations with a timeout,
so a busy machine makes the test slower, not flaky.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.support.browser import WAIT_MS, Watched, chromium, watched_page
from tests.support.browser_server import BrowserServer, serve_builder

from charlotte.demo import SAMPLE_BRIEF, SAMPLE_FACTS

#: Milliseconds an expectation may wait: a whole offline turn fits many times over.
FRAME: Final = '[data-testid="preview-frame"]'
BUSINESS: Final = SAMPLE_FACTS["name"]
FIRST_MESSAGE: Final = "Build the first draft of the page from the brief."
#: The node the offline builder's FAQ section is written under.
FAQ_NODE: Final = "questions"

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]


@pytest.fixture
def browser() -> Iterator[Browser]:
    with chromium() as launched:
        yield launched


@pytest.fixture
def server(tmp_path: Path, browser: Browser) -> Iterator[BrowserServer]:
    # Requests the browser first, so the browser (and its open streams) goes before the server.
    with serve_builder(tmp_path) as served:
        yield served


@pytest.fixture
def open_page(browser: Browser) -> Iterator[Watched]:
    # GET published answers 404 before the first publish, and a refused
    # undo 409, as documented; the browser logs every such answer it fetches.
    with watched_page(browser, 1440, 900, expected=("/published", "/undo")) as watched:
        yield watched


def _frame_text_length(page: Page) -> int:
    length = page.locator(FRAME).evaluate(
        "f => f.contentDocument ? f.contentDocument.body.innerText.length : 0"
    )
    assert isinstance(length, int)
    return length


def _wait_for_preview(page: Page, revision_above: int, text_above: int) -> tuple[int, int]:
    """Wait until the badge and the loaded preview show a revision past ``revision_above``
    with more text than ``text_above``; return ``(revision, text length)``."""
    page.wait_for_function(
        """([revision, text]) => {
            const badge = Number(document.querySelector('[data-testid="revision"]').textContent);
            const frame = document.querySelector('[data-testid="preview-frame"]');
            const body = frame.contentDocument && frame.contentDocument.body;
            return badge > revision && Number(frame.dataset.revision) === badge
                && body !== null && body.innerText.length > text;
        }""",
        arg=[revision_above, text_above],
        timeout=WAIT_MS,
    )
    return int(page.get_by_test_id("revision").inner_text()), _frame_text_length(page)


def _start(page: Page, url: str, *, approve_on_save: bool, facts: dict[str, str]) -> str:
    """Open a session from the start form with the sample brief and ``facts``; its id."""
    page.goto(url)
    expect(page.get_by_test_id("start-button")).to_be_visible()
    page.get_by_test_id("start-page").fill("home")
    page.get_by_test_id("start-brief").fill(SAMPLE_BRIEF)
    for index, (key, value) in enumerate(facts.items()):
        page.get_by_role("button", name="+ Add a fact").click()
        page.locator('[data-role="fact-key"]').nth(index).fill(key)
        page.locator('[data-role="fact-value"]').nth(index).fill(value)
    if approve_on_save:
        page.get_by_test_id("start-approve").check(force=True)
        expect(page.get_by_test_id("start-approve")).to_be_checked()
    page.get_by_test_id("start-button").click()
    expect(page.get_by_test_id("chat-input")).to_be_visible()
    expect(page).to_have_url(re.compile(r"#session="))
    return page.url.split("#session=", 1)[1]


def _send(page: Page, message: str) -> None:
    page.get_by_test_id("chat-input").fill(message)
    page.get_by_test_id("send-button").click()


def test_the_preview_fills_in_while_the_turn_runs_then_the_page_is_published(
    server: BrowserServer, open_page: Watched, tmp_path: Path
) -> None:
    page = open_page.page
    status = page.get_by_test_id("status")
    log = page.get_by_test_id("chat-log")
    _start(page, server.url, approve_on_save=False, facts=dict(SAMPLE_FACTS))
    expect(page.get_by_test_id("revision")).to_have_text("0")
    page.screenshot(path=tmp_path / "1-started.png")

    server.pacer.hold()
    _send(page, FIRST_MESSAGE)
    expect(status).to_have_text("running")
    expect(page.get_by_test_id("stop-button")).to_be_visible()

    # One write at a time: the badge and the preview follow each, mid-turn.
    server.pacer.release()
    first, first_text = _wait_for_preview(page, 0, 0)
    expect(status).to_have_text("running")
    page.screenshot(path=tmp_path / "2-first-write.png")
    server.pacer.release()
    second, second_text = _wait_for_preview(page, first, first_text)
    expect(status).to_have_text("running")
    page.screenshot(path=tmp_path / "3-second-write.png")
    assert 0 < first < second
    assert 0 < first_text < second_text
    expect(log.locator('.tool[data-tool="cms_apply"][data-state="done"]')).to_have_count(2)

    server.pacer.free()
    expect(status).to_have_text("idle")
    expect(log).to_contain_text("Done · the page is ready for review")
    final = int(page.get_by_test_id("revision").inner_text())
    assert final > second
    expect(page.locator(FRAME)).to_have_attribute("data-revision", str(final))
    expect(page.frame_locator(FRAME).locator("h1")).to_contain_text(BUSINESS)
    # The preview looks like the published page: a button's link takes its
    # wrapper's colour, not the browser's blue underline.
    button = page.frame_locator(FRAME).locator('[data-cms="hero-button"] a')
    wrapper_color = (
        page.frame_locator(FRAME)
        .locator('[data-cms="hero-button"]')
        .evaluate("node => getComputedStyle(node).color")
    )
    expect(button).to_have_css("color", str(wrapper_color))
    expect(button).to_have_css("text-decoration-line", "none")
    # The README picture: the page built, the chat showing the builder's steps.
    page.screenshot(path=tmp_path / "builder.png")

    # The page publishes exactly the revision it shows, as JSON (the cross-site rule).
    page.get_by_test_id("publish-button").click()
    with page.expect_request(lambda request: request.url.endswith("/publish")) as sent:
        page.get_by_test_id("publish-confirm").click()
    assert sent.value.post_data_json == {"revision": final}
    assert sent.value.headers["content-type"] == "application/json"
    expect(log).to_contain_text(f"Published revision {final}")
    page.get_by_test_id("published-toggle").click()
    expect(page.get_by_test_id("published-toggle")).to_have_attribute("aria-pressed", "true")
    expect(page.locator('[data-role="preview-caption"]')).to_have_text(
        f"Published · revision {final}"
    )
    expect(page.locator(FRAME)).to_have_attribute("data-view", "published")
    expect(page.frame_locator(FRAME).locator("body")).to_contain_text(BUSINESS)
    page.screenshot(path=tmp_path / "4-published.png")
    open_page.assert_clean()


def test_an_approve_on_save_change_set_is_reviewed_and_approved(
    server: BrowserServer, open_page: Watched, tmp_path: Path
) -> None:
    page = open_page.page
    panel = page.get_by_test_id("change-set")
    revision = page.get_by_test_id("revision")
    _start(page, server.url, approve_on_save=True, facts={"name": BUSINESS})
    expect(page.get_by_text("The builder's changes wait for your approval")).to_be_visible()

    _send(page, FIRST_MESSAGE)
    expect(page.get_by_test_id("status")).to_have_text("idle")
    expect(page.get_by_test_id("chat-log")).to_contain_text("Done")
    expect(panel).to_be_visible()
    expect(panel.locator('.diff-row[data-kind="added"]').first).to_be_visible()
    expect(panel.locator('[data-role="change-set-summary"]')).to_contain_text("based on revision 0")
    # Its turns write only the change set: nothing to undo in the draft.
    expect(page.get_by_test_id("chat-log").locator(".undo-button")).to_have_count(0)
    # The draft has not moved; the preview shows the proposed page.
    expect(revision).to_have_text("0")
    expect(page.locator(FRAME)).to_have_attribute("data-view", "proposed")
    expect(page.frame_locator(FRAME).locator("h1")).to_contain_text(BUSINESS)
    page.screenshot(path=tmp_path / "5-change-set.png")

    page.get_by_test_id("approve-button").click()
    expect(panel).to_be_hidden()
    expect(revision).not_to_have_text("0")
    approved = int(revision.inner_text())
    assert approved > 0
    expect(page.get_by_test_id("chat-log")).to_contain_text(f"revision {approved}")
    expect(page.locator(FRAME)).to_have_attribute("data-view", "draft")
    expect(page.locator(FRAME)).to_have_attribute("data-revision", str(approved))
    expect(page.frame_locator(FRAME).locator("h1")).to_contain_text(BUSINESS)
    page.screenshot(path=tmp_path / "6-approved.png")
    open_page.assert_clean()


def test_the_conversation_is_there_after_a_reload(
    server: BrowserServer, open_page: Watched, tmp_path: Path
) -> None:
    page = open_page.page
    log = page.get_by_test_id("chat-log")
    _start(page, server.url, approve_on_save=False, facts=dict(SAMPLE_FACTS))
    _send(page, FIRST_MESSAGE)
    expect(page.get_by_test_id("status")).to_have_text("idle")
    expect(log).to_contain_text("Done · the page is ready for review")
    reply = log.locator(".message-agent").last.inner_text().strip()
    assert reply

    with page.expect_response(lambda response: "/messages" in response.url) as answered:
        page.reload()
    assert answered.value.status == 200
    expect(log.locator(".message-user")).to_have_count(1)
    expect(log.locator(".message-user")).to_have_text(FIRST_MESSAGE)
    expect(log.locator(".message-agent").last).to_contain_text(reply[:60])
    expect(log).to_contain_text("Done · the page is ready for review")
    # Read from the conversation, not replayed from the log: no tool rows, one reply.
    expect(log.locator(".tool")).to_have_count(0)
    page.screenshot(path=tmp_path / "7-reloaded.png")

    # The stream follows on from there: the next turn shows live, once.
    _send(page, "Make the hero warmer.")
    expect(log.locator(".message-user")).to_have_count(2)
    expect(page.get_by_test_id("status")).to_have_text("idle")
    expect(log.locator(".note", has_text="Done")).to_have_count(2)
    page.reload()
    expect(log.locator(".message-user")).to_have_text([FIRST_MESSAGE, "Make the hero warmer."])
    open_page.assert_clean()


def _draft(page: Page, url: str) -> dict[str, object]:
    session = page.url.split("#session=", 1)[1]
    answer = page.request.get(f"{url}/sessions/{session}/draft")
    assert answer.ok
    body = answer.json()
    assert isinstance(body, dict)
    return body


def test_a_turn_is_undone_from_the_chat(server: BrowserServer, open_page: Watched) -> None:
    page = open_page.page
    log = page.get_by_test_id("chat-log")
    undo = log.get_by_role("button", name="Undo this turn")
    _start(page, server.url, approve_on_save=False, facts=dict(SAMPLE_FACTS))
    _send(page, FIRST_MESSAGE)
    expect(page.get_by_test_id("status")).to_have_text("idle")
    expect(undo).to_have_count(1)
    built = int(page.get_by_test_id("revision").inner_text())
    assert FAQ_NODE not in str(_draft(page, server.url))

    # While a turn runs, nothing can be undone.
    server.pacer.hold()
    _send(page, "Add an FAQ section.")
    expect(page.get_by_test_id("status")).to_have_text("running")
    expect(log.locator(".undo-button")).to_have_count(1)
    expect(log.locator(".undo-button")).to_be_hidden()
    server.pacer.free()
    expect(page.get_by_test_id("status")).to_have_text("idle")
    expect(undo).to_have_count(2)
    with_faq = int(page.get_by_test_id("revision").inner_text())
    assert with_faq > built
    assert FAQ_NODE in str(_draft(page, server.url))

    with page.expect_response(lambda response: response.url.endswith("/undo")) as answered:
        undo.last.click()
    assert answered.value.status == 200
    undone = answered.value.json()
    # Each op written is one revision: the undo writes the turn's inverses on top.
    assert undone["applied"] > 0
    assert undone["revision"] == with_faq + undone["applied"]
    turn = log.locator(".turn-undo").last
    expect(turn).to_have_attribute("data-state", "undone")
    expect(turn.get_by_role("button")).to_have_text("Turn undone")
    expect(turn.get_by_role("button")).to_be_disabled()
    expect(turn).to_contain_text(f"Undone · revision {undone['revision']}")
    expect(page.get_by_test_id("revision")).to_have_text(str(undone["revision"]))
    draft = _draft(page, server.url)
    assert draft["revision"] == undone["revision"]
    assert FAQ_NODE not in str(draft)
    expect(page.locator(FRAME)).to_have_attribute("data-revision", str(undone["revision"]))

    # The first turn's nodes were touched by the undo: a clear refusal, nothing written.
    undo.first.click()
    first = log.locator(".turn-undo").first
    expect(first).to_have_attribute("data-code", "conflicted")
    expect(first).to_contain_text("later edits touched the nodes")
    # Named as a person calls it, not by its id.
    expect(first).to_contain_text("Section “")
    assert _draft(page, server.url)["revision"] == undone["revision"]

    # After a reload an undone turn says so when asked again.
    page.reload()
    expect(undo).to_have_count(2)
    undo.last.click()
    expect(log.locator(".turn-undo").last).to_have_attribute("data-code", "already_undone")
    expect(log.locator(".turn-undo").last).to_contain_text("undone before")

    # A turn that changed nothing has nothing to undo: no button, live or after a reload.
    _send(page, "Translate the page into French.")
    expect(page.get_by_test_id("status")).to_have_text("idle")
    buttons = log.locator(".undo-button")
    expect(log.get_by_text("can't do \"Translate the page into French\" offline")).to_have_count(1)
    expect(buttons).to_have_count(2)
    page.reload()
    expect(log.get_by_text("can't do \"Translate the page into French\" offline")).to_have_count(1)
    expect(buttons).to_have_count(2)
    open_page.assert_clean()


def test_an_earlier_session_of_the_page_is_listed_and_resumed(
    server: BrowserServer, open_page: Watched
) -> None:
    page = open_page.page
    log = page.get_by_test_id("chat-log")
    listed = page.get_by_test_id("session-list")
    page.goto(server.url)
    expect(page.get_by_test_id("start-button")).to_be_visible()
    expect(listed).to_be_hidden()
    _start(page, server.url, approve_on_save=False, facts=dict(SAMPLE_FACTS))
    session = page.url.split("#session=", 1)[1]
    _send(page, FIRST_MESSAGE)
    expect(page.get_by_test_id("status")).to_have_text("idle")
    expect(log).to_contain_text("Done · the page is ready for review")
    reply = log.locator(".message-agent").last.inner_text().strip()

    page.get_by_role("button", name="New session").click()
    expect(page.get_by_test_id("start-button")).to_be_visible()
    expect(listed).to_be_visible()
    row = listed.locator(f'[data-session="{session}"]')
    expect(row).to_contain_text(SAMPLE_BRIEF[:40])
    expect(row).to_contain_text("idle")
    expect(row).to_contain_text("1 turn")
    # Another page key has no sessions: the list goes.
    page.get_by_test_id("start-page").fill("about")
    expect(listed).to_be_hidden()
    page.get_by_test_id("start-page").fill("home")
    expect(row).to_be_visible()

    with page.expect_response(lambda response: "/messages" in response.url) as answered:
        row.get_by_role("button", name="Resume").click()
    assert answered.value.status == 200
    expect(page).to_have_url(re.compile(f"#session={session}$"))
    expect(log.locator(".message-user")).to_have_text([FIRST_MESSAGE])
    expect(log.locator(".message-agent").last).to_contain_text(reply[:60])
    expect(page.get_by_test_id("revision")).not_to_have_text("0")
    # And the stream follows it: the next turn shows live.
    _send(page, "Make the hero warmer.")
    expect(log.locator(".message-user")).to_have_count(2)
    expect(page.get_by_test_id("status")).to_have_text("idle")
    expect(log.locator(".note", has_text="Done")).to_have_count(2)
    # Leaving a session closes its stream: the browser counts that request as aborted.
    left = f"request failed: GET {server.url}/sessions/{session}/stream net::ERR_ABORTED"
    assert [problem for problem in open_page.problems if problem != left] == []
