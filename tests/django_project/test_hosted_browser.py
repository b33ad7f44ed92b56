"""The published page on the Django host's own ``/`` under a real server (uvicorn, ASGI), in Chromium.

The test project's ``/`` is ``views.published_page`` with the host's template
(``templates/site/page.html``: its own header and link colour, charlotte's
tags). At 390, 768 and 1280 px the page has the standalone document's
``<html lang>``, title, description and ``og:*`` tags, and every button the
standalone document's computed style and size (``tests/support/hosted_pages.py``).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from django.test import override_settings
from tests.django_project.support import serve_asgi, user_with
from tests.support.browser import chromium
from tests.support.hosted_pages import (
    assert_buttons_are_buttons,
    assert_sample_head,
    check_hosted,
    publish_sample,
)

from charlotte.contrib.django.instance import close_charlotte, get_charlotte

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]


@pytest.fixture
def tenant() -> Iterator[str]:
    """A tenant whose home page is published, by an instance whose asset library has the social image."""
    close_charlotte()
    with override_settings(CHARLOTTE_FACTORY="tests.django_project.host.bakery_charlotte"):
        tenant = f"hosted-{uuid.uuid4().hex[:10]}"
        # Before Playwright starts: its event loop in this thread forbids Django's ORM here.
        publish_sample(get_charlotte(), tenant, user=user_with("all"))
        yield tenant
    close_charlotte()


def test_the_django_site_serves_the_published_page_styled_as_the_standalone_one(tenant: str) -> None:
    with serve_asgi() as url, chromium() as browser:
        seen = check_hosted(
            browser, f"{url}/", f"{url}/builder/pages/home/published.html", "django",
            headers={"X-Tenant": tenant},
        )  # fmt: skip
    for width in seen:
        assert_sample_head(width["head"])
        assert_buttons_are_buttons(width["buttons"])
