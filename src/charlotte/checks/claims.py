"""Reading factual claims out of a piece of text.

``read(text)`` finds, in this order, e-mail addresses, web addresses, dates,
phone numbers, prices, percentages, opening hours, ratings, numbers with units,
prices written without a currency, years and large numbers. Each reader masks
what it took, so "+44 20 7946 0958" is one phone number and not four numbers,
and "€12.50" one price and not a bare decimal. Numbers no reader took are kept
(``Reading.bare``): on the brief's side they support a claim that repeats them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Literal

from charlotte.checks._memo import Memo
from charlotte.checks.amounts import (
    AMOUNT,
    COUNT_UNIT,
    CURRENCY_AFTER,
    CURRENCY_BEFORE,
    MEASURE_UNIT,
    MULTIPLIER,
    apply_multiplier,
    currency_of,
    digits_for_words,
    parse_amount,
    show,
    unit_of,
)
from charlotte.checks.contacts import (
    EMAIL,
    PackedPhone,
    PackedWebAddress,
    Phone,
    WebAddress,
    email_value,
    find_phones,
    find_web_addresses,
)
from charlotte.checks.hours import Hours, PackedHours, find_hours

#: Claim kinds, in the order findings report them for one node.
KINDS = ("price", "phone", "email", "url", "percent", "hours", "year", "number")


@dataclass(frozen=True, slots=True)
class Amount:
    """A number with what it counts: a currency (prices), ``%``, a unit, or nothing."""

    value: Decimal
    unit: str = ""
    currency: str | None = None

    def packed(self) -> PackedAmount:
        """One flat tuple: a form the garbage collector does not track (``Memo``)."""
        return ("amount", self.value, self.unit, self.currency)

    @staticmethod
    def unpacked(packed: PackedAmount) -> Amount:
        """The amount ``packed`` was made from."""
        return Amount(packed[1], packed[2], packed[3])


PackedAmount = tuple[Literal["amount"], Decimal, str, str | None]
Key = Amount | Phone | WebAddress | Hours | str
#: A ``Key`` as the memos keep it: its ``packed()``, an e-mail address tagged.
PackedKey = (
    PackedAmount | PackedPhone | PackedWebAddress | PackedHours | tuple[Literal["email"], str]
)


def unpack_key(packed: PackedKey) -> Key:
    """The key ``packed`` was made from."""
    if packed[0] == "amount":
        return Amount.unpacked(packed)
    if packed[0] == "email":
        return packed[1]
    if packed[0] == "phone":
        return Phone.unpacked(packed)
    if packed[0] == "url":
        return WebAddress.unpacked(packed)
    return Hours.unpacked(packed)


@dataclass(frozen=True, slots=True)
class Found:
    """One claim read from a text: kind, where, the words as written, normalised value, key."""

    kind: str
    start: int
    end: int
    text: str
    value: str
    key: Key

    def packed(self) -> PackedFound:
        """One flat tuple, its key's fields last: untracked at the collector's first pass (``Memo``)."""
        where = (self.kind, self.start, self.end, self.text, self.value)
        key = self.key
        if isinstance(key, str):
            return (*where, "email", key)
        return (*where, *key.packed())

    @staticmethod
    def unpacked(packed: PackedFound) -> Found:
        """The claim ``packed`` was made from."""
        return Found(packed[0], packed[1], packed[2], packed[3], packed[4], unpack_key(packed[5:]))


#: A ``Found`` as the memos keep it: kind, start, end, text, value, then its key's fields.
PackedFound = (
    tuple[str, int, int, str, str, Literal["amount"], Decimal, str, str | None]
    | tuple[str, int, int, str, str, Literal["email"], str]
    | tuple[str, int, int, str, str, Literal["phone"], str, *tuple[str, ...]]
    | tuple[str, int, int, str, str, Literal["url"], str, str]
    | tuple[str, int, int, str, str, Literal["hours"], int, int | None, int | None]
)


def pack_claims(claims: tuple[Found, ...]) -> tuple[PackedFound, ...]:
    """Claims as plain tuples, for a memo (``claims_in``)."""
    return tuple(found.packed() for found in claims)


def unpack_claims(packed: tuple[PackedFound, ...]) -> tuple[Found, ...]:
    """The claims ``packed`` was made from, in their order."""
    return tuple([Found.unpacked(found) for found in packed]) if packed else ()


@dataclass(slots=True)
class Reading:
    """What ``read`` found: the claims, numbers left over, and every number seen."""

    found: list[Found] = field(default_factory=list)
    bare: set[Decimal] = field(default_factory=set)
    numbers: set[Decimal] = field(default_factory=set)

    def packed(self) -> PackedReading:
        """The numbers sorted, then the claims: tuples the garbage collector does not track (``Memo``)."""
        found = (f.packed() for f in self.found)
        return (tuple(sorted(self.bare)), tuple(sorted(self.numbers)), *found)

    @staticmethod
    def unpacked(packed: PackedReading) -> Reading:
        """A new reading equal to the one ``packed`` was made from."""
        found = [Found.unpacked(f) for f in packed[2:]]
        return Reading(found, set(packed[0]), set(packed[1]))


PackedReading = tuple[tuple[Decimal, ...], tuple[Decimal, ...], *tuple[PackedFound, ...]]


_MASK = "\x00"
_START = r"(?<![\w.,\x00])"
_END = r"(?![\w]|[.,]\d)"
_DASH = r"(?:-|\u2013|\u2014|to)"

_DATE = re.compile(
    r"(?<![\w.,/\-])(?:(?P<iso>(?:19|20)\d{2})-\d{1,2}-\d{1,2}"
    r"|\d{1,2}[./\-]\d{1,2}[./\-](?P<year>(?:19|20)\d{2}|\d{2}))(?![\w]|[.,/\-]\d)"
)
_PRICE_BEFORE = re.compile(
    rf"(?P<cur>{CURRENCY_BEFORE})\s?(?P<a>{AMOUNT})(?P<ma>{MULTIPLIER})?"
    rf"(?:\s?{_DASH}\s?(?:{CURRENCY_BEFORE})?\s?(?P<b>{AMOUNT})(?P<mb>{MULTIPLIER})?)?{_END}"
)
_PRICE_AFTER = re.compile(
    rf"{_START}(?P<a>{AMOUNT})(?P<ma>{MULTIPLIER})?"
    rf"(?:\s?{_DASH}\s?(?P<b>{AMOUNT})(?P<mb>{MULTIPLIER})?)?\s?(?P<cur>{CURRENCY_AFTER})"
)
_PERCENT = re.compile(
    rf"{_START}(?P<a>{AMOUNT})(?:\s?{_DASH}\s?(?P<b>{AMOUNT}))?\s?(?:%|(?i:per\s?cent)\b)"
)
_RATING = re.compile(
    rf"{_START}(?P<a>{AMOUNT})\s?(?:/|(?i:out\s+of))\s?(?P<scale>5|10|100){_END}"
    rf"|{_START}(?P<s>{AMOUNT})\s?(?:(?i:stars?)\b|★)|★\s?(?P<t>{AMOUNT}){_END}"
)
_MEASURE = re.compile(
    rf"{_START}(?P<a>{AMOUNT})(?P<m>[kK](?![\w]))?(?P<plus>\+)?"
    rf"(?:(?:\s?|-)(?P<u>{MEASURE_UNIT})|(?P<h>h))(?![\w])"
)
_STOP = (
    "of|the|our|a|an|and|or|to|in|for|with|by|from|at|on|per|than|who|that|which|is|are|"
    "was|were|we|you|your|their|its|it|has|have|had|more|most|less|each|every|all"
)
_COUNT = re.compile(
    rf"{_START}(?P<a>{AMOUNT})(?P<m>{MULTIPLIER})?(?P<plus>\+)?"
    rf"(?:\s+(?=[^\W\d_])(?!(?i:{_STOP})\b)[^\W\d_]+(?:-[^\W\d_]+)?){{0,2}}\s+(?P<u>{COUNT_UNIT})(?![\w])"
)
_TIMES = re.compile(rf"{_START}(?P<a>{AMOUNT})[x\u00d7](?![\w])")
_BARE_PRICE = re.compile(r"(?<![\w.,:/#\x00])\d{1,6}[.,]\d{2}(?![\w%]|[.,:]\d)")
# "version 2.10", "at 12.30": where one of these words (and nothing but spaces)
# comes before a bare decimal, it is no price. Found once per text, by the
# position the word's spaces end at, not by searching everything before each number.
_NOT_A_PRICE_AFTER = re.compile(
    r"(?i)\b(?:version|release|build|update|at|from|until|till|by|before|after|opens?|closes?)\s*"
)
_YEAR = re.compile(r"(?<![\w.,/:#$€£¥\x00])(?:19|20)\d{2}(?![\w%]|[.,]\d)")
# "© 2019-2024 Rose Bakery" is a notice, not a claim: masked before anything reads it.
_COPYRIGHT = re.compile(
    r"(?i)(?:©|\(c\)|copyright)\s*(?:19|20)\d{2}(?:\s?[-\u2013]\s?(?:19|20)\d{2})?"
)
_BIG = re.compile(rf"(?<![\w.,#\x00])(?P<a>{AMOUNT})(?P<m>{MULTIPLIER})?(?P<plus>\+)?{_END}")
_DIGIT = re.compile(r"\d|(?i:noon|midnight)")
_NUMBER = re.compile(rf"(?<![\d.,])({AMOUNT})(?![\d]|[.,]\d)")

#: Below this, a number without a unit is ordinary prose ("our 3 sisters", "step 2").
BIG_NUMBER = 100


class _Reader:
    """One text being read: the original, the masked copy, and what was found.

    Each reader's spans are masked together once it is done (``mask``): one
    copy of the text per reader, not one per claim.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.masked = text
        self.reading = Reading()
        self._spans: list[tuple[int, int]] = []

    def take(self, start: int, end: int) -> None:
        self._spans.append((start, end))

    def mask(self) -> None:
        """Mask every span taken since the last call."""
        if not self._spans:
            return
        pieces: list[str] = []
        at = 0
        for start, end in sorted(self._spans):
            start = max(start, at)
            if end > start:
                pieces += (self.masked[at:start], _MASK * (end - start))
                at = end
        pieces.append(self.masked[at:])
        self.masked = "".join(pieces)
        self._spans.clear()

    def free(self, start: int, end: int) -> bool:
        """True when nothing in ``start:end`` was masked yet."""
        return self.masked.find(_MASK, start, end) < 0

    def add(self, kind: str, start: int, end: int, value: str, key: Key, text: str = "") -> None:
        self.reading.found.append(
            Found(kind, start, end, text or self.text[start:end].strip(), value, key)
        )

    def each(self, pattern: re.Pattern[str], handle: Callable[[re.Match[str]], bool]) -> None:
        """Run ``handle`` on every match of the masked text; mask the matches it keeps.

        Matches of one pattern never overlap, so masking them together once
        the pattern is done leaves every ``free`` test as it was.
        """
        for m in pattern.finditer(self.masked):
            if self.free(m.start(), m.end()) and handle(m):
                self.take(m.start(), m.end())
        self.mask()


def _amount(text: str | None, multiplier: str | None = None) -> Decimal | None:
    if text is None:
        return None
    value = parse_amount(text)
    return None if value is None else apply_multiplier(value, multiplier)


def _prices(r: _Reader, m: re.Match[str]) -> bool:
    currency = currency_of(m.group("cur"))
    values = [_amount(m.group("a"), m.group("ma")), _amount(m.group("b"), m.group("mb"))]
    kept = False
    for value in values:
        if value is not None:
            r.add(
                "price",
                m.start(),
                m.end(),
                f"{currency} {show(value)}",
                Amount(value, "", currency),
            )
            kept = True
    return kept


def _percents(r: _Reader, m: re.Match[str]) -> bool:
    kept = False
    for value in (_amount(m.group("a")), _amount(m.group("b"))):
        if value is not None:
            r.add("percent", m.start(), m.end(), f"{show(value)}%", Amount(value, "%"))
            kept = True
    return kept


def _rating(r: _Reader, m: re.Match[str]) -> bool:
    scale = m.group("scale") or "5"
    value = _amount(m.group("a") or m.group("s") or m.group("t"))
    if value is None or value > Decimal(scale):
        return False
    unit = f"/{scale}"
    r.add("number", m.start(), m.end(), f"{show(value)}{unit}", Amount(value, unit))
    return True


def _quantity(r: _Reader, m: re.Match[str]) -> bool:
    groups = m.groupdict()
    value = _amount(groups["a"], groups.get("m"))
    word = groups.get("u") or groups.get("h") or ""
    unit = unit_of(word) if word else "x"
    if value is None or unit is None:
        return False
    r.add("number", m.start(), m.end(), f"{show(value)} {unit}", Amount(value, unit))
    return True


def _bare_price(r: _Reader, m: re.Match[str], not_prices: set[int]) -> bool:
    if m.start() in not_prices:
        return False
    value = parse_amount(m.group(0))
    if value is None:
        return False
    r.add("price", m.start(), m.end(), show(value), Amount(value, "", None))
    return True


def _year(r: _Reader, m: re.Match[str]) -> bool:
    r.add("year", m.start(), m.end(), m.group(0), Amount(Decimal(m.group(0)), "year"))
    return True


def _big(r: _Reader, m: re.Match[str]) -> bool:
    value = _amount(m.group("a"), m.group("m"))
    if value is None or not (m.group("plus") or m.group("m") or value >= BIG_NUMBER):
        return False
    r.add("number", m.start(), m.end(), show(value), Amount(value, ""))
    return True


def _date(r: _Reader, m: re.Match[str]) -> bool:
    year = m.group("iso") or m.group("year")
    if year is not None and len(year) == 4:
        # Only the year of a date is compared (see docs/checks.md, limits).
        r.add("year", m.start(), m.end(), year, Amount(Decimal(year), "year"))
    return True


def _contacts(r: _Reader) -> None:
    for m in EMAIL.finditer(r.masked):
        value = email_value(m.group(0))
        r.add("email", m.start(), m.end(), value, value)
        r.take(m.start(), m.end())
    r.mask()
    for start, end, address in find_web_addresses(r.masked):
        if r.free(start, end):
            r.add("url", start, end, address.value, address)
            r.take(start, end)
    r.mask()
    r.each(_COPYRIGHT, lambda m: True)
    r.each(_DATE, lambda m: _date(r, m))
    for start, end, phone in find_phones(r.masked):
        if r.free(start, end):
            r.add("phone", start, end, phone.value, phone)
            r.take(start, end)
    r.mask()


def read(text: str, *, number_words: bool = False) -> Reading:
    """Every claim in ``text`` (sorted by position), plus its left-over and seen numbers.

    ``number_words`` reads "three locations" as "3 locations" first: used on the
    brief and facts, where it can only add support.
    """
    if number_words:
        text = digits_for_words(text)
    r = _Reader(text)
    _contacts(r)
    if not _DIGIT.search(r.masked):
        # Every later reader starts at a digit (or noon/midnight): most prose stops here.
        r.reading.found.sort(key=lambda f: (f.start, KINDS.index(f.kind)))
        return r.reading
    r.reading.numbers.update(_numbers(r.masked))
    r.each(_PRICE_BEFORE, lambda m: _prices(r, m))
    r.each(_PRICE_AFTER, lambda m: _prices(r, m))
    r.each(_PERCENT, lambda m: _percents(r, m))
    found_hours, spans = find_hours(r.masked)
    for h in found_hours:
        r.add("hours", h.start, h.end, h.hours.value, h.hours, h.text)
    for start, end in spans:
        r.take(start, end)
    r.mask()
    r.each(_RATING, lambda m: _rating(r, m))
    r.each(_MEASURE, lambda m: _quantity(r, m))
    r.each(_COUNT, lambda m: _quantity(r, m))
    r.each(_TIMES, lambda m: _quantity(r, m))
    not_prices = {m.end() for m in _NOT_A_PRICE_AFTER.finditer(r.text)}
    r.each(_BARE_PRICE, lambda m: _bare_price(r, m, not_prices))
    r.each(_YEAR, lambda m: _year(r, m))
    r.each(_BIG, lambda m: _big(r, m))
    r.reading.bare.update(_numbers(r.masked))
    for found in r.reading.found:
        if found.kind == "year" and isinstance(found.key, Amount):
            r.reading.numbers.add(found.key.value)
    r.reading.found.sort(key=lambda f: (f.start, KINDS.index(f.kind)))
    return r.reading


def _numbers(text: str) -> Iterator[Decimal]:
    for m in _NUMBER.finditer(text):
        value = parse_amount(m.group(1))
        if value is not None:
            yield value


#: What one kept claim weighs in a memo, against one character of text.
CLAIM_WEIGHT = 400

_CLAIMS: Memo[str, tuple[Found, ...]] = Memo(
    entries=4096, budget=16_000_000, pack=pack_claims, unpack=unpack_claims
)


def claims_in(text: str) -> tuple[Found, ...]:
    """The claims ``read`` finds in a page text, kept in a bounded memo: a page is
    checked again and again during a turn while most of its texts stay the same
    (kept packed: each call hands out equal claims, not the same objects)."""
    return _CLAIMS.get_or_make(text, _found_in, weigh)


def _found_in(text: str) -> tuple[Found, ...]:
    return tuple(read(text).found)


def weigh(text: str, claims: tuple[Found, ...]) -> int:
    """The memo weight of a text and the claims kept for it."""
    return len(text) + CLAIM_WEIGHT * len(claims)
