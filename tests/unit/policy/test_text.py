from __future__ import annotations

import pytest

from charlotte.policy.text import is_unicode_text


@pytest.mark.parametrize(("text", "ok"), [("Rosa's Bakery", True), ("ü ✓ 😀", True), ("", True),
                                          ("a\ud800", False), ("\udfff", False)])
def test_is_unicode_text(text: str, ok: bool) -> None:
    assert is_unicode_text(text) is ok
