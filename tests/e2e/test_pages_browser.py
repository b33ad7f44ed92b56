"""Published pages of the offline builder in a real Chromium at 390, 768 and 1280 px.

Each brief goes through a real ``Charlotte`` (SQLite, the inline queue, the
offline model): one turn builds the page, a person publishes it, and the
published page, rendered as a standalone document, is opened at a phone, a
tablet and a desktop width. No width may scroll sideways, no element may reach
past the right edge, and the hero's headline must sit within the first screen.

Screenshots go to the test's tmp dir; with ``CHARLOTTE_SCREENSHOTS=<dir>`` the
phone and desktop shots of the whole page (the desktop at half resolution) are also written
there as ``offline-<case>-<width>.png`` (how ``docs/screenshots/`` is made).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest
from playwright.sync_api import Browser
from tests.support.browser import chromium
from tests.unit.sections.briefs import LONG, PAGES

from charlotte import Charlotte, Settings
from charlotte.page.assets import InMemoryAssetLibrary
from charlotte.page.document import render_page

WIDTHS: Final = ((390, 844), (768, 1024), (1280, 800))
#: The three briefs of ``docs/screenshots/`` and one whose words no phone fits.
CASES: Final = {**PAGES, "long": LONG}
#: What the page looks like in the browser: overflow, the elements past the edge, the headline.
MEASURE: Final = """() => {
  const width = document.documentElement.clientWidth;
  const past = [];
  for (const el of document.querySelectorAll('[data-cms]')) {
    if (el.getBoundingClientRect().right > width + 0.5) past.push(el.getAttribute('data-cms'));
  }
  const h1 = document.querySelector('[data-cms="hero-heading"] h1').getBoundingClientRect();
  return {
    overflow: document.documentElement.scrollWidth - width,
    past: past,
    headlineBottom: h1.bottom,
    headlineRight: h1.right,
    screen: innerHeight,
  };
}"""

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Every case's published page, built before the browser starts.

    (Playwright's sync API runs an event loop in this thread, and the inline
    queue runs a turn with ``asyncio.run``, which cannot start inside one.)
    """
    folder = tmp_path_factory.mktemp("pages")
    return {
        case: _published_page(folder / case, brief, facts)
        for case, (brief, facts, _roots, _shown) in CASES.items()
    }


@pytest.fixture(scope="module")
def browser(published: dict[str, str]) -> Iterator[Browser]:
    with chromium() as launched:
        yield launched


def _published_page(tmp_path: Path, brief: str, facts: dict[str, str]) -> str:
    """The page one offline turn builds for ``brief``, published, as a standalone document."""
    tmp_path.mkdir(parents=True)
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'pages.db'}", queue="inline")
    with Charlotte(settings) as charlotte:
        charlotte.migrate()
        handle = (
            charlotte.for_user("editor")
            .tenant("shop")
            .page("home")
            .brief(brief)
            .facts(facts)
            .open()
        )
        turn = handle.send("Build the first draft of the page from the brief.")
        # Ready, or only waiting for the gallery's photos (a photographer with none named):
        # a person may publish such a page anyway, and its marked slots must hold too.
        errors = {f["code"] for f in handle.publish_preview()["findings"] if f["severity"] == "error"}
        waiting = turn["ready"] is False and errors == {"placeholder"}
        assert turn["status"] == "finished" and (turn["ready"] is True or waiting), turn
        handle.publish(override=("placeholder",) if waiting else ())
        published = handle.published()
    assert published is not None
    page: Any = published["page"]
    return render_page(page, assets=InMemoryAssetLibrary())


def _small_shot(browser: Browser, document: Path, width: int, height: int, path: Path) -> None:
    """The whole page, a desktop at half resolution (the layout is the same in CSS pixels)."""
    context = browser.new_context(
        viewport={"width": width, "height": height},
        device_scale_factor=1 if width < 768 else 0.5,
    )
    try:
        view = context.new_page()
        view.goto(document.as_uri())
        view.screenshot(path=str(path), full_page=True)
    finally:
        context.close()


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_published_page_holds_at_every_width(
    tmp_path: Path, published: dict[str, str], browser: Browser, case: str
) -> None:
    _brief, _facts, roots, shown = CASES[case]
    html = published[case]
    document = tmp_path / f"{case}.html"
    document.write_text(html, encoding="utf-8")
    shots = os.environ.get("CHARLOTTE_SCREENSHOTS")
    for width, height in WIDTHS:
        view = browser.new_page(viewport={"width": width, "height": height})
        try:
            view.goto(document.as_uri())
            measured = view.evaluate(MEASURE)
            view.screenshot(path=str(tmp_path / f"{case}-{width}.png"), full_page=True)
            if shots and width in (390, 1280) and case in PAGES:
                _small_shot(
                    browser, document, width, height, Path(shots) / f"offline-{case}-{width}.png"
                )
            for root in roots:
                assert view.locator(f'[data-cms="{root}"]').count() == 1, (width, root)
            seen = view.inner_text("body")
            assert all(words in seen for words in shown), (width, shown)
        finally:
            view.close()
        assert measured["overflow"] == 0, (width, measured)
        assert measured["past"] == [], (width, measured)
        assert measured["headlineRight"] <= width, (width, measured)
        assert measured["headlineBottom"] <= measured["screen"], (width, measured)
