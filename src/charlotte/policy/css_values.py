"""Is one authored CSS value safe to emit verbatim as ``prop: <value>;``?

The page CSS emitter copies style strings into the stylesheet unchanged (the
fancy-cms emitters do the same), so every string must be one inert value: it
may not load anything, hide text in escapes or comments, close the rule, open
a new declaration, or leave a block open that swallows the rules after it.

Tokenizing is tinycss2's job (it follows CSS Syntax 3, as browsers do); this
module only reads its tokens, plus a few plain character checks.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Any

import tinycss2
import tinycss2.ast

#: CSS functions that fetch a resource (or, for ``expression``, run script in
#: legacy engines). Vendor prefixes (``-webkit-image-set``) are stripped first.
FETCH_FUNCTIONS = frozenset(
    {"url", "image", "image-set", "cross-fade", "element", "src", "expression"}
)

_INVALID_CHARS = frozenset(";{}<>")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")
_VENDOR_PREFIX = re.compile(r"^-[a-z0-9]+-")
_SKIPPABLE = ("whitespace", "comment")

# Values repeat a lot across a page (colours, fonts, shadows); longer strings are
# checked but not cached so that the cache stays small.
_CACHE_SIZE = 4096
_CACHE_MAX_LEN = 1024


def css_value_reason(value: str) -> str | None:
    """The refusal reason for one CSS value, or None when it is safe to emit.

    Reasons, most serious first: ``css_fetch``, ``css_escape``, ``css_comment``,
    ``css_invalid``.

    >>> css_value_reason("0 1px 2px rgba(0,0,0,.2)") is None
    True
    >>> css_value_reason("URL(x.png)")
    'css_fetch'
    """
    if len(value) <= _CACHE_MAX_LEN:
        return _cached_reason(value)
    return _reason(value)


@lru_cache(maxsize=_CACHE_SIZE)
def _cached_reason(value: str) -> str | None:
    return _reason(value)


def _reason(value: str) -> str | None:
    tokens = tinycss2.parse_component_value_list(value, skip_comments=False)
    if _fetches(tokens):
        return "css_fetch"
    if "\\" in value:
        return "css_escape"
    if "/*" in value or "*/" in value or any(t.type == "comment" for t in _walk(tokens)):
        return "css_comment"
    if _is_invalid(value, tokens):
        return "css_invalid"
    return None


def _walk(tokens: Sequence[Any]) -> Iterator[Any]:
    """Every token, nested block contents and function arguments included (iterative)."""
    stack: list[Iterator[Any]] = [iter(tokens)]
    while stack:
        token = next(stack[-1], None)
        if token is None:
            stack.pop()
            continue
        yield token
        if isinstance(token, tinycss2.ast.FunctionBlock):
            stack.append(iter(token.arguments))
        elif isinstance(
            token,
            tinycss2.ast.ParenthesesBlock
            | tinycss2.ast.SquareBracketsBlock
            | tinycss2.ast.CurlyBracketsBlock,
        ):
            stack.append(iter(token.content))


def _is_fetch_name(lower_name: str) -> bool:
    if not lower_name.startswith("--"):
        lower_name = _VENDOR_PREFIX.sub("", lower_name)
    return lower_name in FETCH_FUNCTIONS


def _fetches(tokens: Sequence[Any]) -> bool:
    """True when any token, at any depth, loads a resource."""
    for sequence in _sequences(tokens):
        for i, token in enumerate(sequence):
            if token.type == "url":
                return True
            if token.type == "error" and token.kind in ("bad-url", "eof-in-url"):
                return True
            if token.type == "function" and _is_fetch_name(token.lower_name):
                return True
            if token.type == "at-keyword" and token.lower_value == "import":
                return True
            # ``url (x)`` or ``url/**/(x)`` fetches nothing in a browser, but it
            # is one normalisation away from doing so: refuse it as well.
            if token.type == "ident" and _is_fetch_name(token.lower_value):
                rest = (t for t in sequence[i + 1 :] if t.type not in _SKIPPABLE)
                following = next(rest, None)
                if following is not None and following.type == "() block":
                    return True
    return False


def _sequences(tokens: Sequence[Any]) -> Iterator[Sequence[Any]]:
    """The top-level token list and every nested one, so neighbours can be read."""
    yield tokens
    for token in _walk(tokens):
        if isinstance(token, tinycss2.ast.FunctionBlock):
            yield token.arguments
        elif isinstance(
            token,
            tinycss2.ast.ParenthesesBlock
            | tinycss2.ast.SquareBracketsBlock
            | tinycss2.ast.CurlyBracketsBlock,
        ):
            yield token.content


def _is_invalid(value: str, tokens: Sequence[Any]) -> bool:
    if any(c in _INVALID_CHARS for c in value) or _CONTROL.search(value):
        return True
    for token in _walk(tokens):
        # Parse errors (stray ``)``, unterminated strings) and at-keywords have no
        # place in a single declaration value.
        if token.type in ("error", "at-keyword", "{} block"):
            return True
    if not _blocks_closed(value, tokens):
        return True
    declarations = tinycss2.parse_blocks_contents("x: " + value)
    return sum(1 for d in declarations if d.type == "declaration") != 1


def _blocks_closed(value: str, tokens: Sequence[Any]) -> bool:
    """True when every ``(`` and ``[`` opened in ``value`` is closed inside it.

    tinycss2 closes blocks silently at the end of input, but once emitted an
    open block would swallow the ``;`` and ``}`` after it (and the rules that
    follow). A stray ``)`` appended to a balanced value stays a top-level token
    of its own; appended to an open one, it lands inside the open block.
    """
    with_closer = tinycss2.parse_component_value_list(value + ")", skip_comments=False)
    return len(with_closer) == len(tokens) + 1
