"""Numbers as people write them: amounts with either separator, currencies, units, words.

The facts check compares what the page says with what the brief and the host's
facts say, so both sides go through the same readers here: ``1,299.00``,
``1.299,00`` and ``1 299`` are all ``Decimal("1299")``; ``€``, ``EUR`` and
``euros`` are all ``EUR``; ``20 mins`` and ``20 minutes`` are both ``20 min``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from functools import lru_cache


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


#: Longer digit runs are no price or count anyone states (and would overflow the
#: decimal context once multiplied): they are not read as numbers.
MAX_DIGITS = 15

# Thousands may be grouped with a comma, a dot, an apostrophe (Swiss), a space
# or a no-break/thin space. A spaced group must be exactly three digits after a
# group of one to three, so "in 2019 100 people" stays two numbers.
#
# The number of groups is bounded (a head of up to three digits and four groups
# make MAX_DIGITS) and a group ends where its digits do. Unbounded, "1 111 111
# …" made every reader try the whole chain again from each of its groups and
# give it back group by group: quadratic, minutes for a 20,000-character brief.
_GROUP = r"[,.' \u00a0\u202f]"
_MAX_GROUPS = (MAX_DIGITS - 3) // 3
AMOUNT = (
    rf"(?:\d{{1,3}}(?:{_GROUP}\d{{3}}(?!\d)){{1,{_MAX_GROUPS}}}(?:[.,]\d{{1,2}})?"
    r"|\d+(?:[.,]\d+)?)"
)

#: Multipliers written after an amount ("$5k", "€2 million").
MULTIPLIER = r"(?:\s?(?:million|billion|thousand|bn|mn)\b|[kKmM](?![\w]))"
_MULTIPLIERS: Mapping[str, int] = {
    "k": 1_000,
    "thousand": 1_000,
    "m": 1_000_000,
    "mn": 1_000_000,
    "million": 1_000_000,
    "bn": 1_000_000_000,
    "billion": 1_000_000_000,
}

#: Currency marks written before or after an amount → ISO code, or a generic
#: mark ("$", "¥", "kr") that several currencies share.
CURRENCY_MARKS: Mapping[str, str] = {
    "US$": "USD",
    "CA$": "CAD",
    "C$": "CAD",
    "AU$": "AUD",
    "A$": "AUD",
    "NZ$": "NZD",
    "HK$": "HKD",
    "S$": "SGD",
    "R$": "BRL",
    "$": "$",
    "€": "EUR",
    "£": "GBP",
    "¥": "¥",
    "₹": "INR",
    "₩": "KRW",
    "₺": "TRY",
    "₽": "RUB",
    "₪": "ILS",
    "zł": "PLN",
    "kr": "kr",
    "Fr.": "CHF",
}

#: Currency codes recognised in upper case only ("TRY" is also an English word).
CURRENCY_CODES = frozenset(
    _words(
        "USD EUR GBP JPY CNY CHF CAD AUD NZD HKD SGD SEK NOK DKK ISK PLN CZK HUF INR "
        "BRL MXN ZAR KRW TRY RUB AED ILS"
    )
)

#: Currency words after an amount ("20 dollars"). "pounds" is left out: it is a weight too.
CURRENCY_WORDS: Mapping[str, str] = {
    "dollar": "$",
    "dollars": "$",
    "euro": "EUR",
    "euros": "EUR",
}

#: A generic mark matches each of these codes.
GENERIC_CURRENCIES: Mapping[str, frozenset[str]] = {
    "$": frozenset({"USD", "CAD", "AUD", "NZD", "HKD", "SGD", "MXN"}),
    "¥": frozenset({"JPY", "CNY"}),
    "kr": frozenset({"SEK", "NOK", "DKK", "ISK"}),
}


def _alternation(words: list[str]) -> str:
    # Longest first, so "US$" wins over "$".
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


def _starts(words: list[str]) -> str:
    """A lookahead for the first characters of ``words`` (letters as one class).

    Put before a long alternation, it turns every position where none of the
    words can start into one failed test instead of one per word: the readers
    try their unit and currency words after every number of a hostile text.
    """
    marks = "".join(re.escape(m) for m in sorted({w[0] for w in words if not w[0].isalpha()}))
    return rf"(?=[^\W\d_]|[{marks}])" if marks else r"(?=[^\W\d_])"


_CODES = "|".join(sorted(CURRENCY_CODES))
_SYMBOLS = [m for m in CURRENCY_MARKS if m not in ("kr", "Fr.")]
#: A currency written before the amount.
CURRENCY_BEFORE = rf"(?:{_alternation(_SYMBOLS)}|\b(?:{_CODES}|Fr\.|kr\.?)(?=\s?\d))"
#: A currency written after the amount.
CURRENCY_AFTER = (
    rf"(?:{_starts(_SYMBOLS)}(?:{_alternation(_SYMBOLS)}|\b(?:{_CODES})\b|\bkr\b\.?|\bFr\.|"
    rf"\b(?i:{_alternation(list(CURRENCY_WORDS))})\b))"
)


def currency_of(mark: str) -> str:
    """The code (or generic mark) a written currency stands for."""
    mark = mark.strip()
    if mark in CURRENCY_CODES:
        return mark
    if mark.lower() in CURRENCY_WORDS:
        return CURRENCY_WORDS[mark.lower()]
    if mark.rstrip(".") == "kr":
        return "kr"
    return CURRENCY_MARKS.get(mark, mark)


def currencies_match(a: str | None, b: str | None) -> bool:
    """True when two currencies can be the same one (``None``: not written)."""
    if a is None or b is None or a == b:
        return True
    return b in GENERIC_CURRENCIES.get(a, frozenset()) or a in GENERIC_CURRENCIES.get(
        b, frozenset()
    )


_SPACES = re.compile(r"[\s'\u00a0\u202f]")


def parse_amount(text: str) -> Decimal | None:
    """The value of a written number, reading either separator convention.

    Both separators: the last one is the decimal mark. One separator used more
    than once: thousands. Used once: thousands when exactly three digits follow
    (and the integer part is not ``0``), else the decimal mark.

    >>> [str(parse_amount(t)) for t in ["1,299.00", "1.299,00", "12,50", "1,299", "0.125"]]
    ['1299', '1299', '12.5', '1299', '0.125']
    """
    return _parse_amount(text)


# Hostile copy repeats one number thousands of times ("1 1 1 …"), and every text
# is read by several readers: the same few strings are parsed over and over.
@lru_cache(maxsize=4096)
def _parse_amount(text: str) -> Decimal | None:
    raw = _SPACES.sub("", text)
    if not raw or not raw[0].isdigit() or sum(c.isdigit() for c in raw) > MAX_DIGITS:
        return None
    dots, commas = raw.count("."), raw.count(",")
    if dots and commas:
        decimal_mark = "." if raw.rfind(".") > raw.rfind(",") else ","
        group_mark = "," if decimal_mark == "." else "."
        raw = raw.replace(group_mark, "").replace(decimal_mark, ".")
    elif dots + commas > 1:
        raw = raw.replace(".", "").replace(",", "")
    elif dots + commas == 1:
        mark = "." if dots else ","
        whole, frac = raw.split(mark)
        raw = whole + frac if len(frac) == 3 and whole != "0" else f"{whole}.{frac}"
    try:
        value = Decimal(raw)
    except InvalidOperation:
        return None
    return normalised(value) if value.is_finite() else None


def apply_multiplier(value: Decimal, word: str | None) -> Decimal:
    """``value`` times a written multiplier (``k``, ``million``…); unchanged without one."""
    if not word:
        return value
    factor = _MULTIPLIERS.get(word.strip().lower())
    return normalised(value * factor) if factor else value


def normalised(value: Decimal) -> Decimal:
    """``12.50`` and ``12.5`` (and ``1E+3`` and ``1000``) as one comparable value."""
    value = value.normalize()
    # normalize() turns 1000 into 1E+3; quantize back to a plain integer form.
    if value == value.to_integral_value():
        return value.quantize(Decimal(1))
    return value


def show(value: Decimal) -> str:
    """A value as plain digits (``1299``, ``12.5``)."""
    return format(value, "f")


# --- units ------------------------------------------------------------------

#: Measure units → canonical unit. Words match in any case; abbreviations as written.
_MEASURE_WORDS: Mapping[str, tuple[str, ...]] = {
    "s": ("second", "seconds", "sec", "secs"),
    "min": ("minute", "minutes", "min", "mins"),
    "h": ("hour", "hours", "hr", "hrs"),
    "day": ("day", "days"),
    "week": ("week", "weeks", "wk", "wks"),
    "month": ("month", "months"),
    "year": ("year", "years", "yr", "yrs"),
    "decade": ("decade", "decades"),
    "km": ("kilometre", "kilometres", "kilometer", "kilometers"),
    "m": ("metre", "metres", "meter", "meters"),
    "mi": ("mile", "miles"),
    "ft": ("foot", "feet"),
    "kg": ("kilogram", "kilograms", "kilo", "kilos"),
    "g": ("gram", "grams"),
    "l": ("litre", "litres", "liter", "liters"),
    "ml": ("millilitre", "millilitres", "milliliter", "milliliters"),
    "°": ("degree", "degrees"),
}
_MEASURE_ABBREVIATIONS: Mapping[str, str] = {
    "km": "km",
    "kms": "km",
    "mi": "mi",
    "ft": "ft",
    "kg": "kg",
    "mg": "mg",
    "ml": "ml",
    "ms": "ms",
    "GB": "gb",
    "TB": "tb",
    "MB": "mb",
    "°C": "°c",
    "°F": "°f",
    "h": "h",
}

#: Things a business counts ("3 locations", "12 dentists"), singular forms. Kept to
#: the scale of a business: "2 recipes" or "4 friends" is prose, not a claim (a
#: number of 100 or more is a claim whatever it counts).
_COUNT_NOUNS = _words(
    "customer client patient user member subscriber student guest visitor employee "
    "person team company business brand partner location store shop branch office "
    "clinic studio bakery restaurant cafe café city country language integration "
    "review award dentist doctor hygienist specialist expert engineer developer "
    "freelancer download install installation transaction volunteer donor supporter "
    "follower"
)
_IRREGULAR_PLURALS: Mapping[str, str] = {
    "people": "person",
    "staff": "staff",
    "children": "child",
    "families": "family",
}


def _plural(word: str) -> str:
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "o", "u"):
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    return word + "s"


COUNT_UNITS: Mapping[str, str] = {
    **{w: w for w in _COUNT_NOUNS},
    **{_plural(w): w for w in _COUNT_NOUNS},
    **_IRREGULAR_PLURALS,
    "family": "family",
    "child": "child",
}
MEASURE_UNITS: Mapping[str, str] = {
    **{w: unit for unit, words in _MEASURE_WORDS.items() for w in words},
}

#: A measure unit written after a number (the caller adds the boundaries).
_ABBREVIATIONS = [a for a in _MEASURE_ABBREVIATIONS if a != "h"]
MEASURE_UNIT = (
    rf"(?:{_starts([*MEASURE_UNITS, *_ABBREVIATIONS])}(?:(?i:{_alternation(list(MEASURE_UNITS))})|"
    rf"{_alternation(_ABBREVIATIONS)}))"
)
#: A counted noun written after a number.
COUNT_UNIT = rf"(?:{_starts(list(COUNT_UNITS))}(?i:{_alternation(list(COUNT_UNITS))}))"


def unit_of(word: str) -> str | None:
    """The canonical unit of a unit word or abbreviation, or ``None``."""
    if word in _MEASURE_ABBREVIATIONS:
        return _MEASURE_ABBREVIATIONS[word]
    lowered = word.lower()
    return MEASURE_UNITS.get(lowered) or COUNT_UNITS.get(lowered)


def is_unit_word(word: str) -> bool:
    """True when ``word`` names a unit or a counted thing."""
    return unit_of(word) is not None


# --- numbers written as words (read on the brief and facts side only) --------

_SMALL = _words(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen "
    "fourteen fifteen sixteen seventeen eighteen nineteen"
)
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_WORD_VALUES: Mapping[str, int] = {
    **{w: i for i, w in enumerate(_SMALL)},
    **{w: 20 + 10 * i for i, w in enumerate(_TENS)},
}
_WORD_NUMBER = re.compile(
    rf"\b(?i:({'|'.join(_TENS)})[- ]({'|'.join(_SMALL[1:10])})|({'|'.join(_WORD_VALUES)}))"
    r"(?i:\s+(hundred|thousand))?\b"
)


def digits_for_words(text: str) -> str:
    """``text`` with simple number words as digits ("three locations" → "3 locations")."""

    def value(match: re.Match[str]) -> str:
        tens, ones, single, scale = match.groups()
        if single is not None:
            n = _WORD_VALUES[single.lower()]
        else:
            n = _WORD_VALUES[tens.lower()] + _WORD_VALUES[ones.lower()]
        if scale:
            n *= 100 if scale.lower() == "hundred" else 1000
        return str(n)

    return _WORD_NUMBER.sub(value, text)
