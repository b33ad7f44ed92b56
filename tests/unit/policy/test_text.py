from __future__ import annotations

import time

import pytest

from charlotte.policy import text as policy_text
from charlotte.policy.text import is_unicode_text, lone_surrogate_path
from charlotte.storage import text as storage_text


@pytest.mark.parametrize(("text", "ok"), [("Rosa's Bakery", True), ("ü ✓ 😀", True), ("", True),
                                          ("a\ud800", False), ("\udfff", False)])
def test_is_unicode_text(text: str, ok: bool) -> None:
    assert is_unicode_text(text) is ok


@pytest.mark.parametrize(
    ("value", "path"),
    [
        ({"ops": [{"id": "a"}, {"id": "\ud800"}]}, ("ops", 1, "id")),
        ({"a": {"k\udfff": 1}}, ("a", "k\udfff")),
        ([[["x", "\udc00"]]], (0, 0, 1)),
        ({"first": "\ud800", "second": "\udfff"}, ("first",)),
        ({"ok": ["ü ✓ 😀", 1, None, True]}, None),
        ("plain", None),
    ],
)
def test_lone_surrogate_path_names_the_first_string_that_is_not_unicode(value: object, path: object) -> None:
    assert lone_surrogate_path(value) == path


def test_lone_surrogate_path_is_linear_at_any_depth() -> None:
    deep: object = "\ud800"
    for _ in range(20_000):
        deep = [deep]
    started = time.perf_counter()
    assert lone_surrogate_path({"deep": deep}) == ("deep", *([0] * 20_000))
    assert time.perf_counter() - started < 1.0


def test_the_storage_rule_is_the_one_the_boundaries_use() -> None:
    assert (policy_text.storable_text, policy_text.storable_json) == (storage_text.storable_text, storage_text.storable_json)
    assert policy_text.is_unicode_text is storage_text.is_unicode_text
