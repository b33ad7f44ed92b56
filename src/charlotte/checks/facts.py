"""The facts check: claims on the page that the brief and the host's facts do not support.

``Evidence`` reads the brief and every fact (``"key: value"``) once with the
same reader as the page (``claims.read``), and answers "is this claim
supported?". A claim is supported when its normalised value is among the
normalised values of the sources, or when the claim's words appear there
verbatim. Kind by kind:

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
from collections.abc import Iterable, Mapping
from decimal import Decimal

from charlotte.checks.amounts import currencies_match
from charlotte.checks.claims import Amount, Found, Reading, read
from charlotte.checks.contacts import Phone, WebAddress, parse_web_address
from charlotte.checks.findings import quote
from charlotte.checks.hours import Hours, endpoints

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


def message_for(found: Found) -> str:
    """The finding sentence for an unsupported claim, quoting its words."""
    words = quote(found.text, QUOTE_LIMIT)
    return f'The {_LABELS[found.kind]} "{words}" is not in the brief or the facts.'


def _squash(text: str) -> str:
    text = re.sub(r"[\u2010-\u2015\u2212]", "-", text.lower())
    return " ".join(text.replace("\u00a0", " ").replace("\u202f", " ").split())


class Evidence:
    """What the brief and the facts say, read once, to test page claims against."""

    def __init__(
        self, brief: str, facts: Mapping[str, str] | None, site_origin: str | None = None
    ) -> None:
        texts = [brief] if isinstance(brief, str) else []
        for key, value in (facts or {}).items():
            if isinstance(value, str | int | float) and not isinstance(value, bool):
                texts.append(f"{str(key).replace('_', ' ')}: {value}")
        self._squashed = "\n".join(_squash(t) for t in texts)
        self._amounts: list[Amount] = []
        self._prices: list[Amount] = []
        self._phones: list[Phone] = []
        self._emails: set[str] = set()
        self._addresses: set[WebAddress] = set()
        self._hosts: set[str] = set()
        self._ranges: dict[tuple[int, int], list[frozenset[int] | None]] = {}
        self._times: set[int] = set()
        self._bare: set[Decimal] = set()
        self._numbers: set[Decimal] = set()
        self._site_host = None
        if site_origin:
            site = parse_web_address(site_origin)
            self._site_host = site.host if site else None
        for text in texts:
            self._learn(read(text, number_words=True))

    def _learn(self, reading: Reading) -> None:
        self._bare |= reading.bare
        self._numbers |= reading.numbers | reading.bare
        for found in reading.found:
            key = found.key
            if isinstance(key, Amount):
                (self._prices if found.kind == "price" else self._amounts).append(key)
                self._numbers.add(key.value)
            elif isinstance(key, Phone):
                self._phones.append(key)
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
            self._ranges.setdefault((hours.start, hours.end), []).append(hours.days)

    def supports(self, found: Found) -> bool:
        """True when the brief or the facts back ``found``."""
        if self._verbatim(found.text):
            return True
        key = found.key
        if isinstance(key, Amount):
            return self._amount(found.kind, key)
        if isinstance(key, Phone):
            return any(key.matches(p) for p in self._phones)
        if isinstance(key, WebAddress):
            return self._address(key)
        if isinstance(key, Hours):
            return self._hours(key)
        return key in self._emails

    def _verbatim(self, text: str) -> bool:
        words = _squash(text)
        if not words or not any(c.isdigit() or c in "@." for c in words):
            return False
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
                p.value == key.value and currencies_match(p.currency, key.currency)
                for p in self._prices
            )
        if kind == "year" or (kind == "number" and not key.unit):
            return key.value in self._numbers
        return key.value in self._bare or any(
            a.value == key.value and a.unit == key.unit for a in self._amounts
        )

    def _address(self, key: WebAddress) -> bool:
        if key.host == self._site_host or key in self._addresses:
            return True
        return not key.path and key.host in self._hosts

    def _hours(self, key: Hours) -> bool:
        if key.end is None:
            return key.start in self._times
        said = self._ranges.get((key.start, key.end))
        if said is None:
            return False
        if key.days is None or any(days is None for days in said):
            return True
        covered: set[int] = set()
        for days in said:
            covered |= days or set()
        return key.days <= covered


def unsupported(evidence: Evidence, claims: Iterable[tuple[str, Found]]) -> list[tuple[str, Found]]:
    """The (node id, claim) pairs ``evidence`` does not back, each (node, kind, value) once."""
    seen: set[tuple[str, str, str]] = set()
    out: list[tuple[str, Found]] = []
    for node_id, found in claims:
        mark = (node_id, found.kind, found.value)
        if mark in seen or evidence.supports(found):
            continue
        seen.add(mark)
        out.append((node_id, found))
    return out
