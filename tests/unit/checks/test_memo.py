"""What the checks keep between runs: bounded memos, the brief and facts read once, texts once."""

from __future__ import annotations

import gc
import uuid
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from charlotte.checks import PageChecks, claims, facts
from charlotte.checks._memo import Memo
from charlotte.checks.claims import KINDS, Found, Reading, claims_in, read
from charlotte.checks.facts import Evidence, evidence_for


def test_a_memo_makes_a_value_once_and_keeps_at_most_its_entries() -> None:
    made: list[str] = []

    def make(key: str) -> int:
        made.append(key)
        return len(key)

    memo: Memo[str, int] = Memo(entries=2, budget=1_000)
    assert [memo.get_or_make(k, make, lambda _k, _v: 1) for k in ("a", "bb", "a", "ccc")] == [1, 2, 1, 3]
    assert made == ["a", "bb", "ccc"] and len(memo) == 2
    memo.get_or_make("bb", make, lambda _k, _v: 1)  # the least recently used ("bb") was dropped
    assert made == ["a", "bb", "ccc", "bb"]


def test_a_memo_keeps_to_its_budget_and_never_keeps_what_outweighs_it() -> None:
    memo: Memo[str, str] = Memo(entries=100, budget=10)

    def weigh(key: str, _value: str) -> int:
        return len(key)

    for key in ("aaaa", "bbbb", "cccc"):
        memo.get_or_make(key, str.upper, weigh)
    assert len(memo) == 2  # 12 characters do not fit in 10: the oldest went
    assert memo.get_or_make("x" * 11, str.upper, weigh) == "X" * 11
    assert len(memo) == 2


def test_a_memo_with_pack_and_unpack_keeps_the_packed_form_and_hands_out_equal_values() -> None:
    memo: Memo[str, frozenset[str]] = Memo(
        entries=4, budget=100, pack=lambda value: tuple(sorted(value)), unpack=frozenset
    )
    made = memo.get_or_make("abca", frozenset, lambda _k, _v: 1)
    assert made == frozenset("abc")
    assert memo.get_or_make("abca", lambda _k: frozenset(), lambda _k, _v: 1) == made
    assert [kept for kept, _weight in memo._entries.values()] == [("a", "b", "c")]
    with pytest.raises(TypeError, match="both pack and unpack"):
        Memo(entries=1, budget=1, pack=str)


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Every text the evidence reads, counted (the real reader still reads it)."""
    counted: Counter[str] = Counter()

    def counting(text: str, *, number_words: bool = False) -> Reading:
        counted[text] += 1
        return read(text, number_words=number_words)

    monkeypatch.setattr(facts, "read", counting)
    return counted


def test_the_brief_and_facts_are_read_once_however_many_checks_are_built(reads: Counter[str]) -> None:
    brief = f"Rose Bakery {uuid.uuid4().hex}: sourdough £4.50."
    doc = {"nodes": {"h": {"id": "h", "type": "heading", "parent": None, "order": "V",
                           "props": {"content": "Sourdough £4.50, call 020 7946 0958"}}}}  # fmt: skip
    for _ in range(3):
        findings = PageChecks(brief=brief, facts={"phone": "020 7946 0958"}).run(doc)
        assert findings == []
    assert reads[brief] == 1 and reads["phone: 020 7946 0958"] == 1


def test_other_words_are_read_afresh(reads: Counter[str]) -> None:
    brief = f"Rose Bakery {uuid.uuid4().hex}: sourdough £4.50."
    first = evidence_for(brief, {"phone": "020 7946 0958"})
    assert evidence_for(brief, {"phone": "020 7946 0958"}) is first
    assert evidence_for(brief + " Rolls £1.", {"phone": "020 7946 0958"}) is not first
    assert evidence_for(brief, {"phone": "020 7946 0959"}) is not first
    assert evidence_for(brief, {"phone": "020 7946 0958"}, "https://rose.test") is not first
    assert reads[brief] == 3  # the same brief with other facts or another site is other evidence


def test_a_page_text_is_judged_once_per_evidence(monkeypatch: pytest.MonkeyPatch) -> None:
    judged: Counter[str] = Counter()
    real_claims_in = claims_in

    def judging(text: str) -> tuple[Found, ...]:
        judged[text] += 1
        return real_claims_in(text)

    monkeypatch.setattr(facts, "claims_in", judging)
    evidence = evidence_for(f"Sourdough £4.50 {uuid.uuid4().hex}", None)
    text = f"{uuid.uuid4().hex}: Sourdough £4.50, rolls £1.20, rolls £1.20 again"
    unsupported = evidence.unsupported_in(text)
    assert [f.value for f in unsupported] == ["GBP 1.2"]  # each (kind, value) once
    assert evidence.unsupported_in(text) == unsupported
    assert judged[text] == 1


def test_a_page_text_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    reads: Counter[str] = Counter()

    def counting(text: str, *, number_words: bool = False) -> Reading:
        reads[text] += 1
        return read(text, number_words=number_words)

    monkeypatch.setattr(claims, "read", counting)
    text = f"{uuid.uuid4().hex}: rolls £1.20, call 020 7946 0958"
    assert claims_in(text) == claims_in(text) == tuple(read(text).found)
    assert reads[text] == 1


# --- what the memos keep: packed, exactly what was read ----------------------------

#: Every claim kind and key type, a phone of several readings, bare numbers.
EVERY_KIND = (
    "Sourdough £4.50, cakes $1,299.00-$1,500, 12.50; call +44 20 7946 0958, 020 7946 0958, "
    "1-555-010-2000 or +442079460958; hello@rose.co.uk, https://rose.test/Menu/, www.rose.com; "
    "15% off, 10-20 per cent; Mon-Fri 8am-6pm, Sat 9-1, open daily 7-15, from 9am; since 1985, "
    "12.05.2019; 4.9 out of 5, 300 reviews, 5 km, 12,000 freelancers, 3x; our 3 sisters"
)


def test_every_kind_of_claim_is_kept_exactly_as_read() -> None:
    reading = read(EVERY_KIND, number_words=True)
    assert {f.kind for f in reading.found} == set(KINDS) and reading.bare
    assert {type(f.key).__name__ for f in reading.found} == {"Amount", "Phone", "WebAddress", "Hours", "str"}
    for found in reading.found:
        unpacked = Found.unpacked(found.packed())
        assert unpacked == found and type(unpacked.key) is type(found.key)
    assert Reading.unpacked(reading.packed()) == reading
    text = f"{EVERY_KIND} {uuid.uuid4().hex}"
    assert claims_in(text) == claims_in(text) == tuple(read(text).found)


_PIECES = (
    "£4.50", "$1,299.00", "€12", "1 299,00 kr", "12.50", "version 2.10", "+44 20 7946 0958",
    "020 7946 0958", "1-555-010-2000", "+442079460958", "hello@Rose.co.uk", "a@b.c",
    "https://rose.test/menu/", "www.rose.com", "rose.bakery", "15%", "10-20 per cent",
    "Mon-Fri 8am-6pm", "Sat 9-1", "open daily 7-15", "9am", "noon", "1985", "© 2019-2024",
    "12.05.2019", "4.9 out of 5", "300 reviews", "5 km", "three locations", "1 111 111",
)
texts = st.lists(
    st.sampled_from(_PIECES) | st.text(alphabet=" .,:-\u2013/+$€£%()#@amptoSMF0123456789\n", max_size=8),
    max_size=12,
).map(" ".join)


@settings(max_examples=200, deadline=None)
@given(text=texts)
def test_what_the_memos_hand_out_equals_a_fresh_reading(text: str) -> None:
    text = f"{text} {uuid.uuid4().hex}"  # not read before, in this process
    fresh = tuple(read(text).found)
    assert claims_in(text) == fresh  # read now, then kept packed
    assert claims_in(text) == fresh  # rebuilt from the kept form
    evidence = evidence_for(f"brief {uuid.uuid4().hex}", None)
    assert evidence.unsupported_in(text) == evidence.unsupported_in(text)
    message = Evidence.of_messages([text])
    assert Evidence.of_messages([text]).unsupported_in(text) == message.unsupported_in(text)
    reading = read(text, number_words=True)
    assert Reading.unpacked(reading.packed()) == reading


def _kept(memo: Memo[Any, Any]) -> list[Any]:
    """What ``memo`` keeps: its values as packed."""
    return [kept for kept, _weight in memo._entries.values()]


def test_the_memos_keep_what_they_read_where_the_garbage_collector_does_not_look() -> None:
    salt = uuid.uuid4().hex
    page = [f"{salt} {i}: " + EVERY_KIND * 5 for i in range(20)]
    evidence = evidence_for(f"Rose Bakery {salt}", None)
    for text in page:
        assert len(claims_in(text)) > 100
        assert evidence.unsupported_in(text)
    Evidence.of_messages(page)
    memos = (claims._CLAIMS, facts._UNSUPPORTED, facts._MESSAGE_READINGS)
    gc.collect()
    # Every claim is kept as one flat tuple: untracked by the first collection.
    for memo in memos:
        kept = _kept(memo)
        assert len(kept) >= len(page)
        readings = memo is facts._MESSAGE_READINGS
        packed = [found for value in kept for found in (value[2:] if readings else value)]
        assert len(packed) > 10 * len(page)
        assert not any(gc.is_tracked(found) for found in packed)
    # The tuples holding them: one level of nesting per collection.
    gc.collect()
    gc.collect()
    for memo in memos:
        assert not any(gc.is_tracked(entry) for entry in memo._entries.values())


# --- the plain path: the same checks with no memo at all ----------------------------

_NODE_TYPES = ("heading", "text", "button", "code", "callout", "image")


@st.composite
def _checked_pages(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    """A page of texts the memos have often seen before, and the evidence it is checked with."""
    nodes: dict[str, Any] = {}
    for i, words in enumerate(draw(st.lists(texts, min_size=1, max_size=6))):
        kind = draw(st.sampled_from(_NODE_TYPES))
        prop = "label" if kind == "button" else "alt" if kind == "image" else "content"
        nodes[f"n{i}"] = {"id": f"n{i}", "type": kind, "parent": None, "order": f"a{i}",
                          "props": {prop: words}}  # fmt: skip
    said = draw(st.lists(texts, max_size=2))
    evidence = {
        "brief": draw(texts),
        "facts": draw(st.dictionaries(st.sampled_from(["phone", "hours", "price"]), texts, max_size=2)),
        "person_said": said,
        "vouched": draw(st.lists(texts, max_size=2)),
    }
    return {"nodes": nodes}, evidence


@settings(max_examples=150, deadline=None)
@given(page=_checked_pages())
def test_the_checks_find_with_their_memos_what_they_find_without_any(
    page: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    # The texts repeat across examples, so the memoised runs mostly hit entries
    # an earlier page left; the plain path makes every value afresh.
    doc, evidence = page
    memoised = [PageChecks(**evidence).run(doc) for _ in range(2)]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Memo, "get_or_make", lambda _memo, key, make, _weigh: make(key))
        plain = PageChecks(**evidence).run(doc)
    assert memoised == [plain, plain]
