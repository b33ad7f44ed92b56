"""History reaches every earlier state of a person's own work, in a real Chromium against a real server.

A person edits the hero's headline twelve times (a publish after the tenth),
restores an earlier version and resets to the published page. The sheet
lists that work as one group of steps, the restore and the reset steps of
their own, and every step's version and the version before it are one
click away: the one before the reset is restored and the draft holds what it
held then. Groups and steps name the headline as it was at their revision,
never with today's words. At 390 and 1280 px; ``CHARLOTTE_DOCS_SCREENSHOTS=1``
writes ``docs/screenshots/history-steps-{390,1280}.png``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from tests.e2e.test_builder_browser import _start
from tests.e2e.test_builder_review import _fits, _get, _post, _turn
from tests.support.browser import Watched, chromium, watched_page
from tests.support.browser_server import BrowserServer, serve_builder

from charlotte.demo import SAMPLE_FACTS

BUSINESS: Final = SAMPLE_FACTS["name"]
FIRST_MESSAGE: Final = "Build the first draft of the page from the brief."
HEADING: Final = "hero-heading"
DOCS: Final = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]


@pytest.fixture
def browser() -> Iterator[Browser]:
    with chromium() as launched:
        yield launched


@pytest.fixture
def server(tmp_path: Path, browser: Browser) -> Iterator[BrowserServer]:
    with serve_builder(tmp_path) as served:
        served.pacer.free()
        yield served


def _headline(page: Page, url: str, session: str) -> str:
    words = _get(page, url, session, "/draft")["page"]["nodes"][HEADING]["props"]["content"]
    assert isinstance(words, str)
    return words


def _edit(page: Page, url: str, session: str, words: str) -> int:
    revision = _get(page, url, session, "/draft")["revision"]
    ops = [{"t": "set_node_props", "id": HEADING, "patch": {"content": words}}]
    answer = _post(page, url, session, "/edits", {"basedOn": revision, "ops": ops})
    assert answer.ok, answer.text()
    written = answer.json()["revision"]
    assert isinstance(written, int)
    return written


def _confirm(page: Page, path: str) -> dict[str, Any]:
    with page.expect_response(lambda r: r.url.endswith(path)) as answered:
        page.get_by_test_id("history-confirm-ok").click()
    assert answered.value.ok, answered.value.text()
    body = answered.value.json()
    assert isinstance(body, dict)
    return body


def _offered(steps: Locator) -> set[int]:
    revisions = steps.locator("button[data-revision]").evaluate_all(
        "buttons => buttons.map(b => Number(b.dataset.revision))"
    )
    return set(revisions)


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_every_step_of_a_persons_work_and_the_state_before_it_is_one_click_away(
    server: BrowserServer, browser: Browser, tmp_path: Path, width: int, height: int
) -> None:
    with watched_page(browser, width, height) as watched:
        _every_step(watched, server, tmp_path, width, height)


def _every_step(watched: Watched, server: BrowserServer, tmp_path: Path, width: int, height: int) -> None:
    page, url = watched.page, server.url
    session = _start(page, url, approve_on_save=False, facts={"name": BUSINESS})
    _turn(page, FIRST_MESSAGE, 1)
    built = _get(page, url, session, "/draft")["revision"]
    wrote = {built: BUSINESS}
    for index in range(1, 11):
        wrote[_edit(page, url, session, f"Headline {index}")] = f"Headline {index}"
    published = built + 10
    assert _post(page, url, session, "/publish", {"revision": published}).ok
    wrote[_edit(page, url, session, "Temporary headline")] = "Temporary headline"
    last = _edit(page, url, session, "Caring for Norwich pets since 1998")
    wrote[last] = "Caring for Norwich pets since 1998"
    # The page has seen every edit (its stream is caught up) before History opens.
    expect(page.get_by_test_id("revision")).to_have_text(str(last))

    if width <= 768:
        page.get_by_test_id("tab-page").click()
    page.get_by_role("button", name="History").click()
    sheet = page.get_by_test_id("history-sheet")
    groups = page.get_by_test_id("history-groups").locator(".history-group")
    person = groups.first
    expect(person).to_contain_text("12 edits in 12 steps")
    steps = person.locator(".history-step")
    expect(steps).to_have_count(12)
    # Restore the fifth headline, from its own step.
    fifth = built + 5
    person.locator(f'.history-step[data-last="{fifth}"]').get_by_role(
        "button", name=f"Restore this version, revision {fifth}"
    ).click()
    restored = _confirm(page, "/restore")
    assert _headline(page, url, session) == "Headline 5"
    before_reset = restored["revision"]
    expect(page.get_by_test_id("revision")).to_have_text(str(before_reset))
    expect(steps).to_have_count(13)
    # Then reset to the published page (the tenth headline).
    page.get_by_test_id("history-reset").click()
    reset = _confirm(page, "/reset")
    assert _headline(page, url, session) == "Headline 10"
    expect(steps).to_have_count(14)

    # The reset and the restore are steps of their own, said as such.
    newest = steps.nth(0)
    expect(newest.locator(".history-step-what")).to_have_text(
        f"Back to the published page (revision {published})"
    )
    expect(newest).to_have_attribute("data-last", str(reset["revision"]))
    expect(steps.nth(1).locator(".history-step-what")).to_have_text(f"Back to revision {fifth}")
    # Each step named as it was then: the edit of the temporary headline is not today's words.
    expect(person.locator(f'.history-step[data-last="{built + 11}"] .history-step-what')).to_have_text(
        "Edited “Temporary headline”"
    )
    turn = groups.filter(has_text="The builder · turn")
    expect(turn).to_contain_text(f"“{BUSINESS[:20]}")
    expect(turn).not_to_contain_text("Headline")
    # Every revision the person's work went through is one click away.
    offered = _offered(person)
    for revision in range(built, reset["revision"]):
        if revision in wrote or revision == before_reset:
            assert revision in offered, (revision, sorted(offered))
    _fits(page, width, height)
    page.screenshot(path=tmp_path / f"history-steps-{width}.png")
    if os.environ.get("CHARLOTTE_DOCS_SCREENSHOTS") == "1":
        DOCS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=DOCS / f"history-steps-{width}.png")

    # The version just before the reset is one click (and a confirmation) away.
    newest.get_by_role("button", name=f"Restore to before this, revision {before_reset}").click()
    expect(sheet.get_by_test_id("history-confirm")).to_contain_text(f"revision {before_reset}")
    _confirm(page, "/restore")
    assert _headline(page, url, session) == "Headline 5"
    watched.assert_clean()
