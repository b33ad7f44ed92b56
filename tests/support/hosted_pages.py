"""A published page served by a host's own template, checked in Chromium against the standalone document.

``publish_sample`` builds the sample bakery page with the offline builder
(one turn), gives it a language and a social image (a person's ``set_meta``)
and publishes it. ``check_hosted`` opens the host's URL and the standalone
document (``…/published.html``) at 390, 768 and 1280 px: the host's page must
carry the page's ``<html lang>``, title, description and ``og:*`` tags, and
every ``.cms-button`` must have the computed style and the size it has in the
standalone document (buttons, not blue underlined links). With
``CHARLOTTE_SCREENSHOTS=<dir>`` it writes ``hosted-<name>-<width>.png`` there
(how ``docs/screenshots/hosted-*.png`` are made).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Final

from playwright.sync_api import Browser
from tests.support.browser import watched_page

from charlotte import Charlotte
from charlotte.demo import SAMPLE_BRIEF, SAMPLE_FACTS

WIDTHS: Final = ((390, 844), (768, 1024), (1280, 800))
#: The social image of the sample page: an asset of the host's library.
ASSETS: Final = {"storefront": "https://cdn.example/storefront.jpg"}
DESCRIPTION: Final = "Sourdough, pastel de nata and seasonal cakes, baked every morning in Lisbon."
META: Final = {"title": "Rosa's Bakery", "seo": {"description": DESCRIPTION, "lang": "pt-PT"}}

#: The head as a browser reads it.
READ_HEAD: Final = """() => {
  const meta = (selector) => { const el = document.querySelector(selector); return el && el.content; };
  const og = {};
  for (const el of document.querySelectorAll('meta[property^="og:"]')) og[el.getAttribute('property')] = el.content;
  return {lang: document.documentElement.lang, title: document.title,
          description: meta('meta[name="description"]'), og: og};
}"""
#: What a button looks like: the computed styles that make it one, and its size.
READ_BUTTONS: Final = """() => [...document.querySelectorAll('.cms-button')].map((el) => {
  const s = getComputedStyle(el);
  const box = el.getBoundingClientRect();
  return {text: el.textContent, display: s.display, color: s.color, background: s.backgroundColor,
          decoration: s.textDecorationLine, radius: s.borderRadius, padding: s.padding,
          border: s.border, font: s.font, boxSizing: s.boxSizing, cursor: s.cursor,
          width: Math.round(box.width * 10) / 10, height: Math.round(box.height * 10) / 10};
})"""


def publish_sample(charlotte: Charlotte, tenant: str, page: str = "home", *, user: object = "editor") -> int:
    """The sample bakery page built by one offline turn, its meta set by ``user``, published: its revision.

    Its social image is the ``storefront`` asset when the instance's library has it.
    """
    handle = (
        charlotte.for_user(user)
        .tenant(tenant)
        .page(page)
        .brief(SAMPLE_BRIEF)
        .facts(SAMPLE_FACTS)
        .open()
    )
    handle.send("Build the first draft of the page from the brief.")
    assert handle.wait(timeout=120) is True  # any queue: the inline one has already run it
    draft = handle.draft()
    assert "cms-button" in draft["html"], "the offline turn built no page"
    meta: dict[str, Any] = {**META, "seo": dict(META["seo"])}
    if charlotte.assets.exists("storefront"):
        meta["seo"]["image"] = "storefront"
    edited = handle.edit([{"t": "set_meta", "patch": meta}], based_on=draft["revision"])
    revision: int = handle.publish(revision=edited["revision"])["revision"]
    return revision


def check_hosted(
    browser: Browser,
    hosted_url: str,
    standalone_url: str,
    name: str,
    *,
    headers: dict[str, str] | None = None,
) -> list[dict[str, Any]]:
    """Compare the host's page with the standalone document at each width (see module docstring)."""
    shots = os.environ.get("CHARLOTTE_SCREENSHOTS")
    seen = []
    for width, height in WIDTHS:
        # A browser asks every site for its favicon; neither serves one.
        icon = ("/favicon.ico",)
        with (
            watched_page(browser, width, height, expected=icon) as hosted,
            watched_page(browser, width, height, expected=icon) as alone,
        ):
            if headers:
                hosted.page.set_extra_http_headers(headers)
                alone.page.set_extra_http_headers(headers)
            assert hosted.page.goto(hosted_url).status == 200  # type: ignore[union-attr]
            assert alone.page.goto(standalone_url).status == 200  # type: ignore[union-attr]
            head = hosted.page.evaluate(READ_HEAD)
            assert head == alone.page.evaluate(READ_HEAD), width
            buttons = hosted.page.evaluate(READ_BUTTONS)
            assert buttons and buttons == alone.page.evaluate(READ_BUTTONS), width
            if shots:
                hosted.page.screenshot(path=str(Path(shots) / f"hosted-{name}-{width}.png"), full_page=True)
            hosted.assert_clean()
            alone.assert_clean()
            seen.append({"head": head, "buttons": buttons})
    return seen


def assert_sample_head(head: dict[str, Any], *, image: bool = True) -> None:
    """The head of the sample page as the browser read it (``image``: with its social image)."""
    expected = {
        "lang": "pt-PT",
        "title": "Rosa's Bakery",
        "description": DESCRIPTION,
        "og": {
            "og:type": "website",
            "og:title": "Rosa's Bakery",
            "og:description": DESCRIPTION,
            "og:image": ASSETS["storefront"],
        },
    }
    if not image:
        del expected["og"]["og:image"]  # type: ignore[attr-defined]
    assert head == expected


def assert_buttons_are_buttons(buttons: list[dict[str, Any]]) -> None:
    """Not the browser's link style: no underline, not the link blue, the page's own font weight."""
    for button in buttons:
        assert button["decoration"] == "none", button
        assert button["color"] != "rgb(0, 0, 238)", button
        assert button["display"] == "inline-block" and button["cursor"] == "pointer", button
