"""Page keys have one shape (``charlotte.access.PAGE_KEY``), enforced from Python and over HTTP."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest
from tests.support.app_harness import AppHarness

from charlotte.access import MAX_PAGE, PAGE_KEY
from charlotte.errors import MESSAGES, Refused

GOOD = ["home", "about-us", "blog.post-1", "Shop_2024", "7", "a" * MAX_PAGE]
BAD = [
    "", " ", "about us", "blog/post-1", "/home", "home/", "..", ".hidden", "-home", "_home",
    "home\n", "ho\x00me", "café", "a" * (MAX_PAGE + 1), "home?x=1", "home#top", "home\\x",
]  # fmt: skip


@pytest.fixture
def app(tmp_path: Path) -> Iterator[AppHarness]:
    harness = AppHarness(tmp_path / "keys.db")
    yield harness
    harness.close()


def _open(app: AppHarness, page: str) -> object:
    return app.charlotte.for_user("ann").tenant("acme").page(page).brief("A bakery").open()


@pytest.mark.parametrize("page", GOOD)
def test_a_cms_page_key_opens_a_session(app: AppHarness, page: str) -> None:
    assert _open(app, page) is not None
    response = app.call("POST", "/sessions", {"page": page, "brief": "A bakery"})
    assert response.status == 201, response.json
    assert response.json["session"]["page"] == page


@pytest.mark.parametrize("page", BAD)
def test_any_other_page_key_is_refused_naming_the_field(app: AppHarness, page: str) -> None:
    with pytest.raises(Refused) as raised:
        _open(app, page)
    assert raised.value.code == "invalid_page_key" and raised.value.detail == {"field": "page"}
    response = app.call("POST", "/sessions", {"page": page, "brief": "A bakery"})
    assert response.status == 400
    assert response.json == {
        "error": {
            "code": "invalid_page_key",
            "message": MESSAGES["invalid_page_key"],
            "field": "page",
        }
    }


def test_the_openapi_pattern_is_the_same_shape() -> None:
    text = resources.files("charlotte").joinpath("schema/openapi.v1.json").read_text("utf-8")
    schema = json.loads(text)["components"]["schemas"]["OpenSessionRequest"]["properties"]["page"]
    # ECMA-262 ``$`` ends the text; Python's also matches before a final newline.
    pattern = re.compile(schema["pattern"].replace("$", r"\Z"))
    for page in GOOD + BAD:
        fits = pattern.search(page) is not None and len(page) <= schema["maxLength"]
        assert fits == (PAGE_KEY.fullmatch(page) is not None), page
