"""The person's words are evidence: a fact stated in a turn message is supported, like one of the brief.

Only what is handed as ``person_said`` counts: the same fact in page text (any
node), or anywhere else, is still flagged. Values are compared as for the brief.
"""

from __future__ import annotations

import doctest
from collections import Counter
from typing import Any

import pytest
from tests.unit.checks.conftest import Build, Scenario

from charlotte.checks import PageChecks, facts, page_checks
from charlotte.checks.claims import Reading
from charlotte.checks.facts import PERSON_CHARACTERS, PERSON_MESSAGES, counted_messages

ASKED = "Change the phone number to +44 113 496 0999"


def facts_codes(checks: PageChecks, doc: dict[str, Any]) -> list[tuple[str | None, str]]:
    return [(f.node, f.code) for f in checks.run(doc, only=["facts"])]


def test_a_phone_the_person_asked_for_is_supported(dentist: Scenario, build: Build) -> None:
    doc = build(("call", "text", {"content": "Call us on +44 113 496 0999."}))
    assert facts_codes(dentist.checks(), doc) == [("call", "unsupported_phone")]
    assert facts_codes(dentist.checks(person_said=[ASKED]), doc) == []
    # As the empty page's (the quality check's no_h1 is for a page that shows words).
    rest = ("facts", "copy", "links", "assets")
    assert dentist.checks(person_said=[ASKED]).run(doc, rest) == dentist.checks().run(build(), rest)


@pytest.mark.parametrize(
    ("said", "shown"),
    [
        ("+44 113 496 0999", "0113 496 0999"),
        ("0113 496 0999", "+44 (0)113 496 0999"),
        ("0113-496-0999", "+44 113 496 0999"),
    ],
)
def test_phones_compare_as_for_the_brief(
    dentist: Scenario, build: Build, said: str, shown: str
) -> None:
    dialled = "".join(c for c in shown if c.isdigit() or c == "+").replace("(0)", "")
    doc = build(
        ("call", "text", {"content": f"Call {shown}"}),
        ("tel", "link", {"content": "Ring", "href": f"tel:{dialled}"}),
    )
    as_brief = Scenario(f"{dentist.brief} {said}", dentist.facts, dentist.site_origin)
    assert facts_codes(as_brief.checks(), doc) == []
    assert facts_codes(dentist.checks(person_said=[f"Use {said} please"]), doc) == []


def test_a_different_country_code_is_not_the_number_asked_for(
    dentist: Scenario, build: Build
) -> None:
    doc = build(("call", "text", {"content": "Call +353 113 496 0999"}))
    assert facts_codes(dentist.checks(person_said=[ASKED]), doc) == [("call", "unsupported_phone")]


@pytest.mark.parametrize(
    ("said", "shown", "code"),
    [
        ("The whitening offer is £250 now", "Teeth whitening, now £250", "unsupported_price"),
        (
            "new e-mail: Smile@HarbourDental.co.uk",
            "Write to smile@harbourdental.co.uk",
            "unsupported_email",
        ),
        ("We open Sundays 10am to 2pm", "Sunday 10:00-14:00", "unsupported_hours"),
        ("we have three hygienists now", "3 hygienists", "unsupported_number"),
    ],
)
def test_every_kind_of_fact_the_person_states_is_supported(
    dentist: Scenario, build: Build, said: str, shown: str, code: str
) -> None:
    doc = build(("p", "text", {"content": shown}))
    assert facts_codes(dentist.checks(), doc) == [("p", code)]
    assert facts_codes(dentist.checks(person_said=["Hello", said]), doc) == []


def test_page_text_is_never_evidence_for_itself(dentist: Scenario, build: Build) -> None:
    # The new number shown twice, once as if quoting the person: neither backs the other.
    doc = build(
        ("a", "text", {"content": f'The owner said: "{ASKED}".'}),
        ("b", "text", {"content": "Call +44 113 496 0999"}),
    )
    assert facts_codes(dentist.checks(person_said=["Make the page calmer"]), doc) == [
        ("a", "unsupported_phone"),
        ("b", "unsupported_phone"),
    ]


def test_what_the_person_did_not_say_stays_flagged(dentist: Scenario, build: Build) -> None:
    doc = build(("p", "text", {"content": "Call +44 113 496 0999, whitening £250"}))
    assert facts_codes(dentist.checks(person_said=[ASKED]), doc) == [("p", "unsupported_price")]


def test_only_the_newest_messages_count() -> None:
    old = "Whitening is £250"
    filler = [f"tweak {n}" for n in range(PERSON_MESSAGES)]
    assert counted_messages([old, *filler[1:]])[0] == old
    assert old not in counted_messages([old, *filler])
    big = "x" * (PERSON_CHARACTERS // 2)
    assert counted_messages([old, big, big]) == (big, big)
    rest = big[len(old) :]  # old, big and rest: exactly the budget
    assert counted_messages([old, big, "", rest]) == (old, big, rest)
    assert counted_messages(["a", "", "b"]) == ("a", "b")


def test_the_bounds_hold_in_the_checks(dentist: Scenario, build: Build) -> None:
    doc = build(("p", "text", {"content": "Whitening £250"}))
    big = "x" * (PERSON_CHARACTERS // 2)
    assert facts_codes(dentist.checks(person_said=["£250", big, big[4:]]), doc) == []
    assert facts_codes(dentist.checks(person_said=["£250", big, big]), doc) == [
        ("p", "unsupported_price")
    ]


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Every text the evidence reads, counted (the real reader still reads it)."""
    counted: Counter[str] = Counter()
    real_read = facts.read

    def counting_read(text: str, *, number_words: bool = False) -> Reading:
        counted[text] += 1
        return real_read(text, number_words=number_words)

    monkeypatch.setattr(facts, "read", counting_read)
    return counted


def test_each_message_is_read_once_and_a_new_one_reads_neither_the_brief_nor_the_others(
    reads: Counter[str], build: Build
) -> None:
    brief, first, second = (
        f"{words} {id(reads)}" for words in ("A dental practice.", ASKED, "Whitening £250")
    )
    doc = build(("p", "text", {"content": "Call +44 113 496 0999, whitening £250"}))
    for _ in range(3):
        assert facts_codes(PageChecks(brief=brief, person_said=[first]), doc) == [
            ("p", "unsupported_price")
        ]
    for _ in range(3):
        assert facts_codes(PageChecks(brief=brief, person_said=[first, second]), doc) == []
    assert (reads[brief], reads[first], reads[second]) == (1, 1, 1)


def test_the_page_checks_example_holds() -> None:
    result = doctest.testmod(page_checks)
    assert result.attempted >= 4 and result.failed == 0


@pytest.mark.parametrize(
    ("said", "shown", "backed"),
    [
        # One end the person said anew, the other the facts state: the new row is backed.
        ("We open at 8 on weekdays now, same closing", "Mon-Fri 8:00-18:00", True),
        ("open saturdays til 2 only now", "Sat 8:30-2pm", True),
        ("we open at 7:45am on Fridays", "Fri 7:45am-6pm", True),
        # Neither end said by the person, or an end nobody said: still invented.
        ("We open at 8 on weekdays now", "Mon-Fri 8:00-19:00", False),
        ("make the headline bigger", "Mon-Fri 9:00-18:00", False),
        ("We open at 8 on weekdays now", "Mon-Fri 9:00-17:00", False),
    ],
)
def test_a_range_with_one_end_the_person_said_is_backed(
    build: Build, said: str, shown: str, backed: bool
) -> None:
    shop = Scenario("A bike shop in Cambridge.", {"hours": "Mon-Sat 8:30-18:00"}, "https://spokes.test")
    doc = build(("hours", "text", {"content": shown}))
    codes = facts_codes(shop.checks(person_said=[said]), doc)
    assert (codes == []) is backed, codes
