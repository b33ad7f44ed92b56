"""The README's FastAPI site under uvicorn serves ``/`` from the published page, in Chromium.

The ``serving-fastapi`` snippet of the README runs in an empty folder; the
sample bakery page is published into its instance, and the site is served on
loopback. At 390, 768 and 1280 px its ``/`` (the host's Jinja2 layout with
charlotte's filters) has the standalone document's ``<html lang>``, title,
description and ``og:*`` tags, and every button the standalone document's
computed style and size (``tests/support/hosted_pages.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.e2e.test_readme_snippets import serving_site
from tests.support.asgi_server import serve_app
from tests.support.browser import chromium
from tests.support.hosted_pages import (
    assert_buttons_are_buttons,
    assert_sample_head,
    check_hosted,
    publish_sample,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    monkeypatch.chdir(tmp_path)
    namespace = serving_site()
    try:
        # Before Playwright starts: the thread queue's turn runs while this thread waits.
        publish_sample(namespace["charlotte"], "acme")
        yield namespace
    finally:
        namespace["charlotte"].close()


def test_the_fastapi_site_serves_the_published_page_styled_as_the_standalone_one(
    site: dict[str, Any],
) -> None:
    with serve_app(site["app"]) as url, chromium() as browser:
        seen = check_hosted(browser, f"{url}/", f"{url}/builder/pages/home/published.html", "fastapi")
    for width in seen:
        # The README's instance has no asset library: no social image.
        assert_sample_head(width["head"], image=False)
        assert_buttons_are_buttons(width["buttons"])
