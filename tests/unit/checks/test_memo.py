"""What the checks keep between runs: bounded memos, the brief and facts read once, texts once."""

from __future__ import annotations

import uuid
from collections import Counter

import pytest

from charlotte.checks import PageChecks, facts
from charlotte.checks.claims import Reading, claims_in, read
from charlotte.checks.facts import evidence_for
from charlotte.checks.memo import Memo


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


def test_a_page_text_is_judged_once_per_evidence() -> None:
    evidence = evidence_for(f"Sourdough £4.50 {uuid.uuid4().hex}", None)
    text = "Sourdough £4.50, rolls £1.20, rolls £1.20 again"
    unsupported = evidence.unsupported_in(text)
    assert [f.value for f in unsupported] == ["GBP 1.2"]  # each (kind, value) once
    assert evidence.unsupported_in(text) is unsupported
    assert claims_in(text) is claims_in(text)
