"""The Page settings panel's bounds (``web/js/meta.js``) are the server's (``charlotte.page.seo``).

One Node process checks every value in every field with ``fieldProblem``;
each verdict must be the server's on a ``set_meta`` writing that value:
``integrity.check_meta`` on the merged meta (the format's own bounds) and
``meta_patch_problem`` (the stricter ones). So what the panel lets a person
save the server accepts, and what it refuses as they type the server would
refuse too. Values carry no spaces at either end: the panel trims those.
"""

from __future__ import annotations

from typing import Any, Final

from tests.support.hostile_text import SHAPES, hostile
from tests.support.node_js import first_difference, module_url, needs_node, run_node

from charlotte.errors import PageSessionError
from charlotte.page.integrity import check_meta
from charlotte.page.seo import (
    MAX_CANONICAL,
    MAX_DESCRIPTION,
    MAX_LANG,
    MAX_TITLE,
    is_lang,
    is_same_site_path,
    meta_patch_problem,
)

pytestmark = needs_node

RUNNER: Final = """
import { fieldProblem, isLang, isSameSitePath } from %s;
console.log(JSON.stringify(INPUT.map(([key, value]) => [fieldProblem(key, value) === "", isLang(value), isSameSitePath(value)])));
"""

FIELDS: Final = ("title", "description", "lang", "canonical", "image")

VALUES: Final = [
    "",
    "en",
    "en-GB",
    "pt-BR",
    "zh-Hant-TW",
    "x-private",
    "X-a-b",
    "zz",
    "ZZ-gb",
    "iw-IL",
    "eng",
    "english",
    "CY",
    "e",
    "en_GB",
    "en-G_B",
    "en-GB!",
    "\u00e9n",
    "en-",
    "-en",
    "en--GB",
    "abcdefgh",
    "abcdefghi",
    "en-abcdefgh",
    "en-abcdefghi",
    "en" + "-ab" * 11,
    "en" + "-ab" * 12,
    "a" * MAX_LANG,
    "/",
    "/about",
    "/en/menu/",
    "/a?b=1#c",
    "/café",
    "//evil.example",
    "/a//b",
    "https://evil.example/",
    "about",
    "/a b",
    "/a\\b",
    "/a\u00a0b",
    "/a\u2028b",
    "/a\u3000b",
    "/a\ufeffb",
    "/a\x7fb",
    "/a\u200ab",
    "/a\u200bb",
    "/" + "a" * (MAX_CANONICAL - 1),
    "/" + "a" * MAX_CANONICAL,
    "t" * MAX_TITLE,
    "t" * (MAX_TITLE + 1),
    "\U0001f600" * MAX_TITLE,
    "\U0001f600" * (MAX_TITLE + 1),
    "d" * MAX_DESCRIPTION,
    "d" * (MAX_DESCRIPTION + 1),
    "i" * 200,
    "i" * 201,
    "one\ntwo",
    "one\rtwo",
    "one\ttwo",
    "one\x85two",
    "one\u2028two",
    "one\u2029two",
    "one\x00two",
    "Rosa's Bakery — <b>fresh</b> & \"warm\"",
]


def _server_accepts(key: str, value: str) -> bool:
    patch: dict[str, Any] = {"title": value} if key == "title" else {"seo": {key: value}}
    merged = {"title": "Untitled", "slug": "/", "scrollMode": "smooth", **patch}
    try:
        check_meta(merged)
    except PageSessionError:
        return False
    return meta_patch_problem(patch) is None


def _cases() -> list[tuple[str, str]]:
    # Long hostile shapes too: a pattern that backtracks would time the run out.
    drawn = [hostile(shape, length) for shape in SHAPES for length in (40, 301, 2_000)]
    values = VALUES + drawn + ["/" + text for text in drawn]
    # The panel trims the ends (JavaScript's and Python's whitespace differ there): only trimmed values.
    values = [v for v in values if v == v.strip() and v.strip(" \t\n\r\x0b\x0c\u00a0\u2028\u2029\ufeff") == v]
    return [(key, value) for key in FIELDS for value in values]


def test_the_panel_refuses_exactly_what_the_server_refuses() -> None:
    cases = _cases()
    assert len(cases) >= 250
    got = run_node(RUNNER % f'"{module_url("meta")}"', cases)
    expected = [[_server_accepts(key, value), is_lang(value), is_same_site_path(value)] for key, value in cases]
    assert not first_difference(got, expected, cases)
