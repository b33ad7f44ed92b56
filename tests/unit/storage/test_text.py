"""The storable-text rule: lone surrogates found, and repaired to U+FFFD, in text and JSON values."""

from __future__ import annotations

import time
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from charlotte.storage.text import has_lone_surrogate, is_unicode_text, storable_json, storable_text

# Any code point, surrogates included (st.text() would leave them out).
ANY_TEXT = st.lists(st.characters() | st.characters(categories=["Cs"]), max_size=50).map("".join)


@pytest.mark.parametrize(
    ("text", "stored"),
    [
        ("Rosa's Bakery", "Rosa's Bakery"),
        ("", ""),
        ("a\ud800b", "a\ufffdb"),
        ("\udfff", "\ufffd"),
        ("\udc00\ud800", "\ufffd\ufffd"),
        # A pair left as two code points (a UTF-16 source) is the character it spells.
        ("\ud83d\ude00 ok", "\U0001f600 ok"),
        ("x\ud800\ud800\udc00y", "x\ufffd\U00010000y"),
    ],
)
def test_storable_text_replaces_each_lone_surrogate(text: str, stored: str) -> None:
    assert storable_text(text) == stored
    assert is_unicode_text(storable_text(text))


@given(ANY_TEXT)
def test_storable_text_is_unicode_keeps_valid_text_and_is_idempotent(text: str) -> None:
    stored = storable_text(text)
    assert is_unicode_text(stored)
    assert storable_text(stored) == stored
    if is_unicode_text(text):
        assert stored is text


def test_storable_json_repairs_keys_and_values_at_any_depth() -> None:
    deep: Any = "\ud800"
    for _ in range(5_000):
        deep = [deep]
    value = {"k\udfff": ["a\ud800", ("b",), {"n": 1, "ok": True, "none": None}], "deep": deep}

    stored = storable_json(value)

    assert stored["k\ufffd"] == ["a\ufffd", ["b"], {"n": 1, "ok": True, "none": None}]
    inner = stored["deep"]
    for _ in range(5_000):
        inner = inner[0]
    assert inner == "\ufffd"
    assert not has_lone_surrogate(stored)
    assert value["k\udfff"][0] == "a\ud800"  # the input is left alone


def test_storable_json_returns_a_valid_value_itself() -> None:
    value = {"text": "ü ✓ 😀", "list": [1, 2.5, None]}
    assert storable_json(value) is value
    assert storable_json("plain") == "plain"
    assert storable_json(7) == 7


def test_storable_json_copies_a_shared_or_cyclic_container_once() -> None:
    shared = ["\ud800"]
    cyclic: dict[str, Any] = {"text": "\udfff", "shared": [shared, shared]}
    cyclic["self"] = cyclic

    stored = storable_json(cyclic)

    assert stored["self"] is stored
    assert stored["shared"][0] is stored["shared"][1] == ["\ufffd"]
    assert stored["text"] == "\ufffd"
    assert has_lone_surrogate(cyclic) and not has_lone_surrogate(stored)


@given(st.recursive(ANY_TEXT | st.integers() | st.none(), lambda inner: st.lists(inner) | st.dictionaries(ANY_TEXT, inner)))
def test_storable_json_of_any_value_holds_only_unicode(value: Any) -> None:
    stored = storable_json(value)
    assert not has_lone_surrogate(stored)
    assert has_lone_surrogate(value) is (stored != value)


def test_the_checks_are_linear() -> None:
    # A megabyte of text and 200,000 strings: well under a second each.
    big = "a" * 1_000_000 + "\ud800"
    many = [f"s{index}" for index in range(200_000)] + ["\udfff"]
    for value in (big, many):
        started = time.perf_counter()
        repaired = storable_json(value)
        assert not has_lone_surrogate(repaired)
        assert time.perf_counter() - started < 1.0
