"""The facts check: claims on the page that the brief, the host's facts and the people do not support.

``Evidence`` reads the brief and every fact (``"key: value"``) once with the
same reader as the page (``claims.read``), and answers "is this claim
supported?". What the person said in the session's turn messages is evidence
too (the person is the authority on their business; the draft's text, tool
results and the agent's replies never are), and so is what people vouched for
on the page: its published copy, their own edits, the change sets they
approved (``vouched``). ``Evidence.of_messages`` reads each of these texts
once, and ``Either`` backs a claim that the brief and facts or those texts
back. A claim is supported when its normalised value is
among the normalised values of the sources, or when the claim's words appear
there verbatim. Kind by kind:

- price: same amount, compatible currency (``$`` matches any dollar, ``¥`` yen
  or yuan; an amount written without currency on either side matches any), or
  the amount appears as a plain number in the sources;
- phone: same national number, same country code where both sides give one;
- e-mail: same address, any case;
- web address: same host and path; a bare host matches any address on it; any
  address on the site's own origin is supported;
- percentage and number: same value and unit, or the value appears as a plain
  number in the sources (a number with no unit matches any number seen there);
- year: the number appears anywhere in the sources;
- hours: the same time range (or a single time that starts or ends a range),
  on days the sources give for that range.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Final

from charlotte.checks._memo import Memo
from charlotte.checks.amounts import currencies_match
from charlotte.checks.claims import (
    CLAIM_WEIGHT,
    Amount,
    Found,
    Reading,
    claims_in,
    pack_claims,
    read,
    unpack_claims,
    weigh,
)
from charlotte.checks.contacts import Phone, WebAddress, parse_web_address
from charlotte.checks.findings import quote
from charlotte.checks.hours import Hours, endpoints, said_times
from charlotte.checks.vouched import counted_vouched

#: Kinds whose unsupported claims are errors (they send customers somewhere wrong).
ERROR_KINDS = frozenset({"price", "phone", "email", "url"})

#: Finding code per claim kind.
CODES: Mapping[str, str] = {
    "price": "unsupported_price",
    "phone": "unsupported_phone",
    "email": "unsupported_email",
    "url": "unsupported_url",
    "percent": "unsupported_percent",
    "hours": "unsupported_hours",
    "year": "unsupported_year",
    "number": "unsupported_number",
}

_LABELS: Mapping[str, str] = {
    "price": "price",
    "phone": "phone number",
    "email": "e-mail address",
    "url": "web address",
    "percent": "percentage",
    "hours": "opening time",
    "year": "year",
    "number": "number",
}

#: Longest quote of page text a message carries.
QUOTE_LIMIT = 80

#: The person's messages that count as evidence: at most the newest this many…
PERSON_MESSAGES: Final = 200
#: …and of those the newest that fit in this many characters together.
PERSON_CHARACTERS: Final = 200_000


def message_for(found: Found) -> str:
    """The finding sentence for an unsupported claim, quoting its words."""
    words = quote(found.text, QUOTE_LIMIT)
    return f'The {_LABELS[found.kind]} "{words}" is not in the brief or the facts.'


def _squash(text: str) -> str:
    text = re.sub(r"[\u2010-\u2015\u2212]", "-", text.lower())
    return " ".join(text.replace("\u00a0", " ").replace("\u202f", " ").split())


class Evidence:
    """What the brief and the facts say (or the person's messages), read once, to test page claims against.

    ``evidence_for`` keeps the evidence of recent briefs and facts, and of
    the person's messages, so a session's brief, facts and messages are read
    once, not on every check. Every test
    is a lookup: the sources' amounts, prices, phones and hours are indexed by
    value, and a verbatim search is made once per distinct claim text.
    """

    def __init__(
        self, brief: str, facts: Mapping[str, str] | None, site_origin: str | None = None
    ) -> None:
        texts = source_texts(brief, facts)
        self._start(texts, site_origin)
        for text in texts:
            self._learn(read(text, number_words=True))

    @classmethod
    def of_messages(cls, messages: Sequence[str]) -> Evidence:
        """The evidence of what the person said: ``messages`` read like the brief.

        Each message is read once while it is kept (``_MESSAGE_READINGS``):
        a new message costs reading it, not every earlier one again.
        """
        evidence = cls.__new__(cls)
        evidence._start(messages, None)
        for message in messages:
            evidence._learn(_MESSAGE_READINGS.get_or_make(message, _read_message, _weigh_reading))
            evidence._times |= said_times(message)  # "we open at 8": a time the person gave
        return evidence

    def _start(self, texts: Sequence[str], site_origin: str | None) -> None:
        self._squashed = "\n".join(_squash(t) for t in texts)
        self._amounts: set[tuple[Decimal, str]] = set()
        self._prices: dict[Decimal, set[str | None]] = {}
        self._phones: dict[str, set[str | None]] = {}
        self._emails: set[str] = set()
        self._addresses: set[WebAddress] = set()
        self._hosts: set[str] = set()
        self._ranges: dict[tuple[int, int], tuple[bool, frozenset[int]]] = {}
        self._times: set[int] = set()
        self._bare: set[Decimal] = set()
        self._numbers: set[Decimal] = set()
        self._said: Memo[str, bool] = Memo(entries=65_536, budget=4_000_000)
        self._site_host = None
        if site_origin:
            site = parse_web_address(site_origin)
            self._site_host = site.host if site else None

    def _learn(self, reading: Reading) -> None:
        self._bare |= reading.bare
        self._numbers |= reading.numbers | reading.bare
        for found in reading.found:
            key = found.key
            if isinstance(key, Amount):
                if found.kind == "price":
                    self._prices.setdefault(key.value, set()).add(key.currency)
                else:
                    self._amounts.add((key.value, key.unit))
                self._numbers.add(key.value)
            elif isinstance(key, Phone):
                for cc, national in key.readings:
                    self._phones.setdefault(national, set()).add(cc)
            elif isinstance(key, WebAddress):
                self._addresses.add(key)
                self._hosts.add(key.host)
            elif isinstance(key, Hours):
                self._learn_hours(key)
            elif found.kind == "email":
                self._emails.add(key)
                self._hosts.add(key.rsplit("@", 1)[-1])

    def _learn_hours(self, hours: Hours) -> None:
        self._times.update(endpoints(hours))
        if hours.end is not None:
            span = (hours.start, hours.end)
            any_day, days = self._ranges.get(span, (False, frozenset()))
            # Days not said: the range holds on any day.
            self._ranges[span] = (any_day or hours.days is None, days | (hours.days or set()))

    def supports(self, found: Found) -> bool:
        """True when the brief or the facts back ``found``."""
        if self._verbatim(found.text):
            return True
        key = found.key
        if isinstance(key, Amount):
            return self._amount(found.kind, key)
        if isinstance(key, Phone):
            return self._phone(key)
        if isinstance(key, WebAddress):
            return self._address(key)
        if isinstance(key, Hours):
            return self._hours(key)
        return key in self._emails

    def unsupported_in(self, text: str) -> tuple[Found, ...]:
        """The claims of page text ``text`` the sources do not back, each (kind, value) once.

        Kept in a bounded memo by evidence and text: a turn checks the same
        texts again and again.
        """
        return _UNSUPPORTED.get_or_make((self, text), _unsupported_in, _weigh_unsupported)

    def _verbatim(self, text: str) -> bool:
        words = _squash(text)
        if not words or not any(c.isdigit() or c in "@." for c in words):
            return False
        return self._said.get_or_make(words, self._said_verbatim, _weigh_words)

    def _said_verbatim(self, words: str) -> bool:
        haystack = self._squashed
        at = haystack.find(words)
        while at >= 0:
            end = at + len(words)
            before = haystack[at - 1] if at else " "
            after = haystack[end : end + 2]
            # Whole words only: "$5" is not said by "$50" nor by "$5.50".
            clear_before = not (before.isalnum() or before in "_.")
            clear_after = not after or not (
                after[0].isalnum() or after[0] == "_" or (after[0] in ".," and after[1:].isdigit())
            )
            if clear_before and clear_after:
                return True
            at = haystack.find(words, at + 1)
        return False

    def _amount(self, kind: str, key: Amount) -> bool:
        if kind == "price":
            return key.value in self._bare or any(
                currencies_match(currency, key.currency)
                for currency in self._prices.get(key.value, ())
            )
        if kind == "year" or (kind == "number" and not key.unit):
            return key.value in self._numbers
        return key.value in self._bare or (key.value, key.unit) in self._amounts

    def _phone(self, key: Phone) -> bool:
        # Phone.matches, by lookup: the same national number, and country codes
        # that agree where both sides give one.
        for cc, national in key.readings:
            codes = self._phones.get(national)
            if codes and (cc is None or cc in codes or None in codes):
                return True
        return False

    def _address(self, key: WebAddress) -> bool:
        if key.host == self._site_host or key in self._addresses:
            return True
        return not key.path and key.host in self._hosts

    def states_time(self, minutes: int) -> bool:
        """True when a source states the time ``minutes`` (alone or as a range's end)."""
        return minutes in self._times

    def _hours(self, key: Hours) -> bool:
        if key.end is None:
            return key.start in self._times
        said = self._ranges.get((key.start, key.end))
        if said is None:
            return False
        any_day, days = said
        return key.days is None or any_day or key.days <= days


class Either:
    """Two evidences as one: a claim is supported when either backs it.

    The brief and facts on one side, the person's messages on the other: each
    is read and kept on its own, so a new message leaves the brief's evidence
    as it was (it is not read again).
    """

    __slots__ = ("first", "second")

    def __init__(self, first: Evidence, second: Evidence) -> None:
        self.first = first
        self.second = second

    def supports(self, found: Found) -> bool:
        """True when either evidence backs ``found``.

        A time range is backed too when the person said one of its ends and
        either side states the other: "we open at 8 now, same closing" on a
        row the facts give as "8:30-18:00" is "8:00-18:00".
        """
        if self.first.supports(found) or self.second.supports(found):
            return True
        key = found.key
        if not isinstance(key, Hours) or key.end is None:
            return False
        ends = (key.start, key.end)
        return any(self.second.states_time(t) for t in ends) and all(
            self.first.states_time(t) or self.second.states_time(t) for t in ends
        )

    def unsupported_in(self, text: str) -> tuple[Found, ...]:
        """The claims of ``text`` neither backs, each (kind, value) once (kept like ``Evidence``'s)."""
        return _UNSUPPORTED.get_or_make((self, text), _unsupported_in, _weigh_unsupported)


#: Evidence of recent briefs and facts, by their exact texts (and site host).
_EVIDENCE: Memo[tuple[tuple[str, ...], str | None], Evidence] = Memo(
    entries=16, budget=8_000_000
)
#: Evidence of what the person said, by the exact messages that count.
_PERSON: Memo[tuple[str, ...], Evidence] = Memo(entries=16, budget=8_000_000)
#: What reading one message found, by its exact text. This memo and ``_UNSUPPORTED`` keep
#: their values packed: the garbage collector does not track them (see ``Memo``).
_MESSAGE_READINGS: Memo[str, Reading] = Memo(
    entries=4096, budget=16_000_000, pack=Reading.packed, unpack=Reading.unpacked
)
#: The brief's and the person's evidence as one, by the two (each kept above).
_EITHER: Memo[tuple[Evidence, Evidence], Either] = Memo(entries=16, budget=16)
#: Unsupported claims by evidence and page text.
_UNSUPPORTED: Memo[tuple[Evidence | Either, str], tuple[Found, ...]] = Memo(
    entries=8192, budget=32_000_000, pack=pack_claims, unpack=unpack_claims
)


def source_texts(brief: object, facts: Mapping[str, object] | None) -> list[str]:
    """The texts evidence is read from: the brief, then each fact as ``"key: value"``."""
    texts = [brief] if isinstance(brief, str) else []
    for key, value in (facts or {}).items():
        if isinstance(value, str | int | float) and not isinstance(value, bool):
            texts.append(f"{str(key).replace('_', ' ')}: {value}")
    return texts


def evidence_for(
    brief: str,
    facts: Mapping[str, str] | None,
    site_origin: str | None = None,
    person_said: Sequence[str] = (),
    vouched: Sequence[str] = (),
) -> Evidence | Either:
    """The evidence of ``brief``, ``facts``, ``person_said`` and ``vouched``: read once, then kept while they stay the same.

    ``person_said``: the person's messages in this session, oldest first; the
    newest of them count (``counted_messages``). ``vouched``: what people
    vouched for on the page (``vouched.vouched_texts``), read like the
    messages; the first of them count (``vouched.counted_vouched``).
    """
    key = (tuple(source_texts(brief, facts)), site_origin or None)
    evidence = _EVIDENCE.get_or_make(
        key, lambda _: Evidence(brief, facts, site_origin), _weigh_evidence
    )
    messages = counted_vouched(vouched) + counted_messages(person_said)
    if not messages:
        return evidence
    person = _PERSON.get_or_make(messages, Evidence.of_messages, _weigh_messages)
    return _EITHER.get_or_make((evidence, person), _either, _weigh_one)


def counted_messages(person_said: Sequence[str]) -> tuple[str, ...]:
    """The messages that count as evidence, oldest first.

    The newest ``PERSON_MESSAGES``, and of those the newest that fit in
    ``PERSON_CHARACTERS`` together (an older message past the budget does
    not count, nor any before it). Empty and non-text entries are skipped.
    """
    kept: list[str] = []
    total = 0
    for message in reversed(person_said[-PERSON_MESSAGES:]):
        if not isinstance(message, str) or not message:
            continue
        total += len(message)
        if total > PERSON_CHARACTERS:
            break
        kept.append(message)
    kept.reverse()
    return tuple(kept)


def _read_message(message: str) -> Reading:
    return read(message, number_words=True)


def _weigh_reading(message: str, reading: Reading) -> int:
    return len(message) + CLAIM_WEIGHT * (len(reading.found) + len(reading.numbers))


def _weigh_messages(messages: tuple[str, ...], _evidence: Evidence) -> int:
    return 2 * sum(len(message) for message in messages)


def _either(pair: tuple[Evidence, Evidence]) -> Either:
    return Either(*pair)


def _weigh_one(_pair: tuple[Evidence, Evidence], _either: Either) -> int:
    return 1


def _weigh_words(words: str, _said: bool) -> int:
    return len(words)


def _weigh_evidence(key: tuple[tuple[str, ...], str | None], _evidence: Evidence) -> int:
    return 2 * sum(len(text) for text in key[0])


def _unsupported_in(key: tuple[Evidence | Either, str]) -> tuple[Found, ...]:
    evidence, text = key
    seen: set[tuple[str, str]] = set()
    out: list[Found] = []
    for found in claims_in(text):
        mark = (found.kind, found.value)
        if mark in seen or evidence.supports(found):
            continue
        seen.add(mark)
        out.append(found)
    return tuple(out)


def _weigh_unsupported(key: tuple[Evidence | Either, str], found: tuple[Found, ...]) -> int:
    return weigh(key[1], found)
