"""A route's body and query specs: the checks they run, in order, and the refusal each names."""

from __future__ import annotations

from typing import Any

import pytest

from charlotte.errors import Refused
from charlotte.http.specs import (
    EDIT,
    EMPTY,
    EVENTS,
    MESSAGES,
    OPEN_SESSION,
    PALETTE_SECTION,
    PUBLISH,
    SESSIONS,
    Body,
    Field,
)


def _field(call: Any) -> tuple[str, object]:
    with pytest.raises(Refused) as refused:
        call()
    return refused.value.code, (refused.value.detail or {}).get("field")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (b"[]", "body"),
        (b'{"page": "p", "brief": "b", "extra": 1}', "extra"),
        (b'{"brief": "b"}', "page"),
        (b'{"page": 1, "brief": 2}', "page"),
        (b'{"page": "p", "brief": "b", "facts": []}', "facts"),
        (b'{"page": "p", "brief": "b", "approve_on_save": 1}', "approve_on_save"),
        # An unknown key is named before a missing one, a missing one before a wrong type.
        (b'{"nope": 1, "page": 1}', "nope"),
        (b'{"page": 1}', "brief"),
    ],
)
def test_the_open_session_body_names_the_first_bad_key(body: bytes, field: str) -> None:
    assert _field(lambda: OPEN_SESSION.parse(body)) == ("invalid_request", field)


def test_bodies_that_are_not_json_are_invalid_json() -> None:
    for body in (b"", b"{", b'{"a": 1, "a": 2}', b"NaN"):
        assert _field(lambda body=body: OPEN_SESSION.parse(body)) == ("invalid_json", None)


def test_a_required_key_is_checked_for_its_type_before_an_optional_one() -> None:
    # Whatever order the spec lists them in.
    body = Body("Either", (Field("optional", int), Field("needed", int, required=True)))
    assert _field(lambda: body.parse(b'{"optional": "x", "needed": "y"}')) == ("invalid_request", "needed")


def test_a_boolean_is_not_an_integer() -> None:
    assert _field(lambda: EDIT.parse(b'{"basedOn": true, "ops": []}')) == ("invalid_request", "basedOn")


def test_bounds_are_enforced_only_where_the_spec_says() -> None:
    # ``basedOn`` of an edit is this layer's to refuse; ``publish``'s ``revision`` is the session's.
    assert _field(lambda: EDIT.parse(b'{"basedOn": -1, "ops": []}')) == ("invalid_request", "basedOn")
    assert PUBLISH.parse(b'{"revision": -1}') == {"revision": -1}


def test_an_optional_body_may_be_left_out_and_an_empty_one_takes_no_key() -> None:
    assert PUBLISH.parse(b"") == {} and PUBLISH.parse(b"  ") == {}
    assert EMPTY.parse(b"") == {} and EMPTY.parse(b"{}") == {}
    assert _field(lambda: EMPTY.parse(b'{"revision": 1}')) == ("invalid_request", "revision")
    assert _field(lambda: EMPTY.parse(b"[]")) == ("invalid_request", "body")


def test_queries_give_their_defaults() -> None:
    assert EVENTS.parse({}) == {"after": 0, "limit": 100}
    assert MESSAGES.parse({}) == {"before": None, "limit": 50}
    assert SESSIONS.parse({"page": "home"}) == {"page": "home", "before": None, "limit": 20}
    assert PALETTE_SECTION.parse({"kind": "hero", "other": "x"}) == {"kind": "hero", "after": None}


@pytest.mark.parametrize(
    ("spec", "query", "field"),
    [
        (EVENTS, {"after": "-1"}, "after"),
        (EVENTS, {"limit": "1" * 10}, "limit"),
        (EVENTS, {"limit": "1.5"}, "limit"),
        # Read in order: ``before`` is named before ``limit``.
        (MESSAGES, {"limit": "x", "before": "y"}, "before"),
        (SESSIONS, {}, "page"),
        (SESSIONS, {"page": "p", "limit": "x"}, "limit"),
        (PALETTE_SECTION, {}, "kind"),
        (PALETTE_SECTION, {"kind": ""}, "kind"),
        (PALETTE_SECTION, {"kind": "k" * 65}, "kind"),
        (PALETTE_SECTION, {"kind": "k", "after": ""}, "after"),
    ],
)
def test_a_bad_query_parameter_is_named(spec: Any, query: dict[str, str], field: str) -> None:
    assert _field(lambda: spec.parse(query)) == ("invalid_request", field)


def test_counts_up_to_nine_digits_are_read_and_their_bounds_left_to_the_session() -> None:
    assert EVENTS.parse({"after": "999999999", "limit": "0"}) == {"after": 999_999_999, "limit": 0}
    assert MESSAGES.parse({"before": "0"}) == {"before": 0, "limit": 50}
