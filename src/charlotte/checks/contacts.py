"""Phone numbers, e-mail addresses and web addresses, read and normalised.

A phone number is kept as its *national significant number* (the digits after
the country code or the trunk ``0``) plus its country code when written, so
``020 7946 0958``, ``+44 20 7946 0958`` and ``+44 (0)20 7946 0958`` compare
equal. E-mail addresses compare case-insensitively; web addresses by host
(lower case, without ``www.``) and path (without a trailing ``/``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


# --- phones -------------------------------------------------------------------

#: A ``Phone`` as the memos keep it: tag, value, then each reading's country code
#: ("" when not given) and national number (see ``Phone.packed``).
PackedPhone = tuple[Literal["phone"], str, *tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class Phone:
    """A phone number: every (country code or None, national number) it may stand for."""

    readings: frozenset[tuple[str | None, str]]
    value: str

    def packed(self) -> PackedPhone:
        """One flat tuple, readings sorted: a form the garbage collector does not track (``Memo``)."""
        readings = sorted((cc or "", national) for cc, national in self.readings)
        return ("phone", self.value, *(part for reading in readings for part in reading))

    @staticmethod
    def unpacked(packed: PackedPhone) -> Phone:
        """The phone ``packed`` was made from."""
        parts = packed[2:]
        readings = frozenset(
            (cc or None, national) for cc, national in zip(parts[::2], parts[1::2], strict=True)
        )
        return Phone(readings, packed[1])

    def matches(self, other: Phone) -> bool:
        """True when both can be the same line (country codes agree where both are known)."""
        for cc_a, nsn_a in self.readings:
            for cc_b, nsn_b in other.readings:
                if nsn_a == nsn_b and (cc_a is None or cc_b is None or cc_a == cc_b):
                    return True
        return False


# A candidate: an optional "+"/"00", digit groups joined by one space, dot or
# dash (or " - "), an area code in parentheses, a "(0)" trunk mark. Validated
# by ``parse_phone``; ``find_phones`` also trims a trailing group that is not
# part of the number ("call 020 7946 0958 10 times").
PHONE = re.compile(
    r"(?<![\w+.,/:\-])(?:\+ ?|\b00 ?)?(?:\(\d{1,5}\) ?)?\d{1,12}"
    r"(?:(?: ?\(0\) ?| ?\(\d{1,5}\) ?|[ .\-]| - )\d{1,12}){0,6}(?![\w])"
)
_GROUPS = re.compile(r"\d+")
_MIN_NATIONAL = 6


def _strip_trunk(digits: str) -> str:
    return digits[1:] if digits.startswith("0") else digits


def parse_phone(text: str, *, dialled: bool = False) -> Phone | None:
    """The phone number ``text`` is, or None when it does not look like one.

    ``dialled`` (a ``tel:`` link) skips the shape test that keeps dates and
    large numbers in prose from reading as phone numbers.

    >>> parse_phone("+44 (0)20 7946 0958").value, parse_phone("020 7946 0958").value
    ('+44 2079460958', '2079460958')
    """
    raw = text.strip()
    if raw.count("(") != raw.count(")"):
        return None
    intl = raw.startswith(("+", "00"))
    body = raw[1:] if raw.startswith("+") else raw[2:] if intl else raw
    body = body.replace("(0)", " ")  # "+44 (0)20": the trunk 0 is not dialled from abroad
    groups = _GROUPS.findall(body)
    digits = "".join(groups)
    if not 7 <= len(digits) <= 15:
        return None
    if not (intl or dialled or "(" in raw or _national_shape(raw, groups)):
        return None
    readings: set[tuple[str | None, str]] = set()
    if intl:
        if len(groups) > 1 and len(groups[0]) <= 3:
            readings.add((groups[0], _strip_trunk(digits[len(groups[0]) :])))
            value = f"+{groups[0]} {_strip_trunk(digits[len(groups[0]) :])}"
        else:
            # "+442079460958": the country code is 1 to 3 digits; keep every split.
            readings.update((digits[:k], _strip_trunk(digits[k:])) for k in (1, 2, 3))
            value = f"+{digits}"
    else:
        national = _strip_trunk(digits)
        readings.add((None, national))
        if len(digits) == 11 and digits.startswith("1"):
            readings.add(("1", digits[1:]))  # "1-555-010-2000": the North American trunk 1
        value = national
    readings = {(cc, nsn) for cc, nsn in readings if len(nsn) >= _MIN_NATIONAL}
    return Phone(frozenset(readings), value) if readings else None


def _national_shape(raw: str, groups: list[str]) -> bool:
    """Digit groups that read as a phone number rather than a date, a year range or 1 000 000."""
    sizes = [len(g) for g in groups]
    if len(groups) == 1:
        return groups[0].startswith("0") and 10 <= sizes[0] <= 11
    if len(groups) == 2:
        return sizes == [3, 4] or (groups[0].startswith("0") and sum(sizes) >= 9)
    thousands = all(s == 3 for s in sizes[1:]) and " " in raw and "-" not in raw
    if thousands and not groups[0].startswith("0"):
        return False  # "1 000 000", "100 200 300": thousands written with spaces
    # Three or more groups: a full national number ("555-010-2000", "01 23 45 67 89"),
    # not two hour ranges ("10 - 12 14 - 18").
    return (sizes[0] >= 2 or groups[0] == "1") and (sum(sizes) >= 9 or groups[0].startswith("0"))


def find_phones(text: str) -> Iterator[tuple[int, int, Phone]]:
    """(start, end, phone) for each phone number in ``text``."""
    for m in PHONE.finditer(text):
        candidate = m.group(0)
        # Trim trailing groups that make it invalid (at most two), keeping the longest valid.
        for _ in range(3):
            phone = parse_phone(candidate)
            if phone is not None:
                yield m.start(), m.start() + len(candidate.rstrip()), phone
                break
            cut = max(candidate.rstrip().rfind(" "), candidate.rstrip().rfind("-"))
            if cut <= 0:
                break
            candidate = candidate[:cut].rstrip(" .-(")


# --- e-mail -------------------------------------------------------------------

EMAIL = re.compile(
    r"(?<![\w.%+\-])[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}\b"
)


def email_value(text: str) -> str:
    """An e-mail address as compared: lower case."""
    return text.strip().lower()


# --- web addresses --------------------------------------------------------------

#: Top-level domains recognised in a bare domain ("rosebakery.com"); with a scheme
#: or ``www.`` any domain is read. ``example`` and ``test`` are the reserved ones.
_TLDS = _words(
    "com org net io co uk de fr es it nl be ch at eu us ca au nz ie se no dk fi pl "
    "pt app dev ai shop store biz info me tv xyz site online tech cloud health "
    "dental cafe restaurant bakery studio agency email page example test"
)
_TAIL = r"[^\s<>\"'`]*"
URL = re.compile(
    rf"(?:\bhttps?://{_TAIL}|(?<![\w@./\-])www\.{_TAIL}|"
    rf"(?<![\w@./\-])(?:[a-z0-9](?:[a-z0-9\-]{{0,61}}[a-z0-9])?\.)+(?:{'|'.join(_TLDS)})"
    rf"(?![\w\-])(?:[/?#]{_TAIL})?)",
    re.IGNORECASE,
)
_TRAILING = ".,;:!?)]}'\""

#: A ``WebAddress`` as the memos keep it (see ``WebAddress.packed``).
PackedWebAddress = tuple[Literal["url"], str, str]


@dataclass(frozen=True, slots=True)
class WebAddress:
    """A web address as compared: host without ``www.``, path without a trailing ``/``."""

    host: str
    path: str

    def packed(self) -> PackedWebAddress:
        """One flat tuple: a form the garbage collector does not track (``Memo``)."""
        return ("url", self.host, self.path)

    @staticmethod
    def unpacked(packed: PackedWebAddress) -> WebAddress:
        """The address ``packed`` was made from."""
        return WebAddress(packed[1], packed[2])

    @property
    def value(self) -> str:
        """``host/path`` (or the host alone)."""
        return f"{self.host}{self.path}"


def parse_web_address(text: str) -> WebAddress | None:
    """The host and path of ``text`` (with or without a scheme)."""
    rest = re.sub(r"^[a-z][a-z0-9+.\-]*://", "", text.strip(), flags=re.IGNORECASE)
    rest = re.split(r"[?#]", rest, maxsplit=1)[0]
    host, _, path = rest.partition("/")
    host = host.rsplit("@", 1)[-1].split(":", 1)[0].lower().rstrip(".")
    if host.startswith("www."):
        host = host[4:]
    if "." not in host:
        return None
    path = "/" + path.strip("/") if path.strip("/") else ""
    return WebAddress(host, path.lower())


def find_web_addresses(text: str) -> Iterator[tuple[int, int, WebAddress]]:
    """(start, end, address) for each web address in ``text``."""
    for m in URL.finditer(text):
        raw = m.group(0).rstrip(_TRAILING)
        address = parse_web_address(raw)
        if address is not None:
            yield m.start(), m.start() + len(raw), address
