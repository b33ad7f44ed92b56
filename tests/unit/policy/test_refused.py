from __future__ import annotations

import pickle
import re

import pytest

from charlotte.errors import CharlotteError
from charlotte.policy import Refused

POLICY_REASONS = [
    "forbidden", "not_found", "busy", "unsafe_link", "external_link", "authored_asset",
    "asset_dimensions", "css_fetch", "css_escape", "css_comment", "css_invalid",
    "guide_mode_stale", "body_too_large", "invalid_json", "invalid_request",
    "no_open_change_set", "revision_unknown", "publish_refused", "unauthorized", "unsupported_media_type",
    "internal", "checks_failing", "output_limit", "worker_lost", "run_failed",
    "usage_limit", "invalid_arguments", "unknown_tool", "cross_site",
]  # fmt: skip

PAGE_SESSION_CODES = [
    "stale_revision", "history_truncated", "node_not_found", "duplicate_id",
    "parent_not_found", "cycle", "invalid_reorder", "unknown_op", "type_not_allowed",
    "invalid_props", "invalid_style", "invalid_id", "limit_exceeded", "invalid_state",
]  # fmt: skip


@pytest.mark.parametrize("reason", POLICY_REASONS + PAGE_SESSION_CODES)
def test_every_reason_has_a_fixed_sentence(reason: str) -> None:
    message = Refused.MESSAGES.get(reason)
    assert isinstance(message, str)
    assert message[:1].isupper() and message.endswith(".")
    # Fixed text: nothing is ever formatted into it.
    assert re.search(r"\{[\w.]*\}|%[sdr]", message) is None


@pytest.mark.parametrize("reason", sorted(Refused.MESSAGES))
def test_every_listed_reason_constructs(reason: str) -> None:
    refused = Refused(reason)
    assert refused.reason == refused.code == reason
    assert refused.message == Refused.MESSAGES[reason]
    assert refused.detail is None


@pytest.mark.parametrize("reason", ["", "nope", "CSS_FETCH", "css_fetch "])
def test_unknown_reason_is_a_bug(reason: str) -> None:
    with pytest.raises(ValueError):
        Refused(reason)


def test_messages_table_is_read_only() -> None:
    with pytest.raises(TypeError):
        Refused.MESSAGES["new_reason"] = "x."  # type: ignore[index]


def test_is_a_charlotte_error() -> None:
    with pytest.raises(CharlotteError) as caught:
        raise Refused("busy")
    assert caught.value.code == "busy"
    assert str(caught.value) == "busy"


def test_repr_is_precise() -> None:
    assert repr(Refused("busy")) == "Refused('busy')"
    refused = Refused("unsafe_link", detail={"at": 2, "field": "patch.href"})
    assert repr(refused) == "Refused('unsafe_link', detail={'at': 2, 'field': 'patch.href'})"


def test_detail_is_copied_and_at_is_read_from_it() -> None:
    given: dict[str, str | int] = {"at": 3, "field": "patch.href"}
    refused = Refused("external_link", detail=given)
    given["at"] = 9
    assert refused.detail == {"at": 3, "field": "patch.href"}
    assert refused.at == 3
    assert Refused("busy").at is None
    assert Refused("css_fetch", detail={"node": "a"}).at is None


def test_round_trips_through_pickle() -> None:
    refused = Refused("css_fetch", detail={"node": "hero", "field": "style.md.background"})
    again = pickle.loads(pickle.dumps(refused))
    assert type(again) is Refused
    assert (again.reason, again.code, again.detail) == (
        "css_fetch",
        "css_fetch",
        {"node": "hero", "field": "style.md.background"},
    )
    plain = pickle.loads(pickle.dumps(Refused("busy")))
    assert plain.detail is None and plain.reason == "busy"


def test_every_page_session_error_code_has_a_sentence() -> None:
    from charlotte.page.errors import PageSessionError

    assert set(PageSessionError.CODES) == set(PAGE_SESSION_CODES)
    assert set(PageSessionError.CODES) <= set(Refused.MESSAGES)
