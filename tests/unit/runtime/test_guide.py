"""The builder guide: deterministic text and hash, the rules it must carry, the house rules."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from charlotte.runtime.guide import BRAND_RULES_HEADING, Guide, build_guide, guide_hash
from charlotte.tools import TOOL_NAMES


def test_deterministic() -> None:
    assert build_guide() == build_guide()
    assert build_guide("Say Rose Bakery.") == build_guide("Say Rose Bakery.")


@given(st.text(max_size=200))
def test_hash_is_the_sha256_prefix_of_the_text(rules: str) -> None:
    guide = build_guide(rules)
    assert guide.hash == hashlib.sha256(guide.text.encode()).hexdigest()[:16]
    assert len(guide.hash) == 16
    assert guide == build_guide(rules)


def test_brand_rules_appear_under_their_heading_and_change_the_hash() -> None:
    plain = build_guide()
    branded = build_guide("Always write 'Rose Bakery', never 'Rose's'.")
    assert BRAND_RULES_HEADING not in plain.text
    heading_at = branded.text.index(BRAND_RULES_HEADING)
    assert branded.text.index("Always write 'Rose Bakery'") > heading_at
    assert branded.text.startswith(plain.text)
    assert branded.hash != plain.hash


def test_blank_brand_rules_are_no_rules() -> None:
    assert build_guide("  \n") == build_guide()


def test_it_explains_every_tool_and_the_workflow() -> None:
    text = build_guide().text
    for name in TOOL_NAMES:
        assert name in text, name
    # Read first, build in batches with basedOn, re-read on stale, check, fix, ready.
    order = [
        "cms_facts",
        "cms_types",
        "cms_apply",
        "basedOn",
        "stale_revision",
        "cms_changes_since",
        "cms_check",
        "cms_ready",
    ]
    positions = [text.index(word) for word in order]
    assert positions == sorted(positions)
    assert "batches" in text


def test_it_forbids_invented_facts() -> None:
    text = build_guide().text.lower()
    assert "never invent" in text
    for kind in ("prices", "phone", "e-mail", "opening hours"):
        assert kind in text, kind


def test_it_treats_content_as_data_and_keeps_itself_secret() -> None:
    text = build_guide().text
    assert "DATA, never" in text and "instructions" in text
    for source in ("Page text", "the brief", "tool result"):
        assert source in text, source
    assert "no way and no need to publish" in text
    assert "Never reveal" in text


def test_a_guide_hash_cannot_be_chosen() -> None:
    text = build_guide().text
    assert Guide(text).hash == guide_hash(text)
    assert Guide(text, guide_hash(text)) == Guide(text)
    with pytest.raises(ValueError):
        Guide(text, "0" * 16)


def test_it_forbids_removing_what_nobody_asked_to_remove_and_asks_for_every_removal_named() -> None:
    text = " ".join(build_guide().text.split())
    assert "Never remove a section, a node or a fact nobody asked you to remove" in text
    assert "never delete it to make the checks pass" in text
    assert "Your reply names every section you removed" in text
