from __future__ import annotations

import re
from typing import Any

import pytest
import tinycss2
from hypothesis import given, settings
from hypothesis import strategies as st

from charlotte.policy.css_values import _cached_reason, css_value_reason

SAFE = [
    "#fff",
    "rgba(0,0,0,.5)",
    "linear-gradient(90deg, #fff, #000)",
    "Inter, sans-serif",
    '"Playfair Display", Georgia, serif',
    "1px solid #ddd",
    "0 1px 2px rgba(0,0,0,.2)",
    "rotate(3deg)",
    "translateX(-50%) translateY(-50%)",
    "blur(2px)",
    "drop-shadow(0 0 2px red)",
    "calc(100% - (2 * 8px))",
    "var(--brand, #000)",
    "repeating-linear-gradient(45deg, red 0 10px, blue 10px 20px)",
    "center",
    "px",
    "",
]


@pytest.mark.parametrize("value", SAFE)
def test_plain_values_are_safe(value: str) -> None:
    assert css_value_reason(value) is None


UNSAFE = [
    # fetches, however they are spelled
    ("url(x.png)", "css_fetch"),
    ("URL( x.png )", "css_fetch"),
    ('url("x.png")', "css_fetch"),
    ("url(x y)", "css_fetch"),
    ("url(x", "css_fetch"),
    ("url (x)", "css_fetch"),
    ("url/**/(x)", "css_fetch"),
    ("/**/url(x)", "css_fetch"),
    ("u\\72l(x)", "css_fetch"),
    ("u\\rl(x)", "css_fetch"),
    ("linear-gradient(red, url(x))", "css_fetch"),
    ("var(--a, image(x))", "css_fetch"),
    ("image(x.png)", "css_fetch"),
    ('image-set("a.png" 1x, "b.png" 2x)', "css_fetch"),
    ("-webkit-image-set(url(a.png) 1x)", "css_fetch"),
    ("cross-fade(a, b)", "css_fetch"),
    ("-webkit-cross-fade(a, b, 50%)", "css_fetch"),
    ("element(#x)", "css_fetch"),
    ("-moz-element(#x)", "css_fetch"),
    ('src("x.png")', "css_fetch"),
    ("expression(alert(1))", "css_fetch"),
    ('@import "x.css"', "css_fetch"),
    ("@IMPORT x", "css_fetch"),
    ("@\\69mport x", "css_fetch"),
    # escapes
    ("\\41", "css_escape"),
    ("red\\", "css_escape"),
    ("re\\64", "css_escape"),
    # comments
    ("red /* x */", "css_comment"),
    ("red */", "css_comment"),
    ("/* open", "css_comment"),
    ('"/*"', "css_comment"),
    # breaking out of the declaration, the rule or the style element
    ("red; color: blue", "css_invalid"),
    ("red;", "css_invalid"),
    ("a{b}", "css_invalid"),
    ("red }", "css_invalid"),
    ("a<b", "css_invalid"),
    ("x</style><script>", "css_invalid"),
    ("a > b", "css_invalid"),
    # blocks left open swallow the rules after them
    ("rgba(0,0,0", "css_invalid"),
    ("(a", "css_invalid"),
    ("[a", "css_invalid"),
    ("a)", "css_invalid"),
    ("a]", "css_invalid"),
    ('"unterminated', "css_invalid"),
    ("@media", "css_invalid"),
    ("a\x00b", "css_invalid"),
    ("red\x1b", "css_invalid"),
]


@pytest.mark.parametrize(("value", "reason"), UNSAFE)
def test_unsafe_values_are_refused_with_their_reason(value: str, reason: str) -> None:
    assert css_value_reason(value) == reason


def test_verdicts_are_cached() -> None:
    _cached_reason.cache_clear()
    for _ in range(3):
        css_value_reason("1px solid #abcdef")
    info = _cached_reason.cache_info()
    assert (info.misses, info.hits) == (1, 2)
    assert info.maxsize is not None  # bounded


def test_long_values_are_checked_without_caching() -> None:
    _cached_reason.cache_clear()
    long_value = "rgba(0,0,0,.5) " * 100 + "url(x)"
    assert css_value_reason(long_value) == "css_fetch"
    assert _cached_reason.cache_info().currsize == 0


# Plausible pieces (values built from them often pass) and hostile ones.
PLAUSIBLE = ["url(", "image-set(", "rgba(", "var(--x,", "(", ")", "[", "]", '"', ",", " "]
PLAUSIBLE += ["x.png", "red", "1px", "#fff", "@import", "!", ":", "-webkit-", "src("]
HOSTILE = ["{", "}", "'", "/*", "*/", "\\", ";", "<", ">", "\n", "\x00"]
CSS_VALUES = st.one_of(
    st.lists(st.sampled_from(PLAUSIBLE), max_size=10).map("".join),
    st.lists(st.sampled_from(PLAUSIBLE + HOSTILE), max_size=12).map("".join),
)


@settings(max_examples=1000)
@given(CSS_VALUES)
def test_safe_values_stay_inside_their_declaration(value: str) -> None:
    # The invariant the emitter relies on: a value judged safe, pasted into a
    # rule, leaves that rule and the next one intact and loads nothing.
    if css_value_reason(value) is not None:
        return
    sheet = f'[data-cms="a"] {{\n  color: {value};\n}}\n\n[data-cms="b"] {{\n  color: red;\n}}\n'
    rules = tinycss2.parse_stylesheet(sheet, skip_whitespace=True, skip_comments=False)
    assert [r.type for r in rules] == ["qualified-rule", "qualified-rule"]
    first = tinycss2.parse_blocks_contents(rules[0].content, skip_whitespace=True)
    assert [d.type for d in first] == ["declaration"]
    assert first[0].lower_name == "color"
    second = tinycss2.parse_blocks_contents(rules[1].content, skip_whitespace=True)
    assert [(d.type, d.lower_name) for d in second] == [("declaration", "color")]
    assert tinycss2.serialize(second[0].value).strip() == "red"
    assert not _loads_something(rules[0].content)


# CSS functions that fetch, optionally vendor-prefixed ("pngurl(" is no fetch:
# found by the generator as "x.pngurl()").
_FETCHING = re.compile(r"(-[a-z]+-)?(url|src|image|image-set|cross-fade|element)")


def _loads_something(tokens: list[Any]) -> bool:
    stack = list(tokens)
    while stack:
        token = stack.pop()
        if token.type == "url" or (
            token.type == "function" and _FETCHING.fullmatch(token.lower_name) is not None
        ):
            return True
        stack.extend(getattr(token, "arguments", None) or getattr(token, "content", None) or [])
    return False


@given(st.text(max_size=40))
def test_any_text_gets_a_verdict_without_crashing(value: str) -> None:
    reason = css_value_reason(value)
    assert reason in (None, "css_fetch", "css_escape", "css_comment", "css_invalid")
    assert css_value_reason(value) == reason
    if any(c in value for c in ";{}<>\\") or "/*" in value or "*/" in value:
        assert reason is not None
