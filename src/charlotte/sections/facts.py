"""How the offline builder reads the host's facts: by name, and verbatim.

A fact is looked up by its name folded to lower case (``fact_key``), under the
first of several names a host might use (``fact``), and shown as the page shows
it: one value (``scalar``), a list of items (``fact_items``), the facts a
business singles out (``featured_items``) or its phone, e-mail and address
(``contact_items``). Values are kept verbatim, strings as written and numbers as
JSON writes them: the page may state only what the facts say, and the facts
check compares the page's words with theirs.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from charlotte.checks.contacts import parse_phone
from charlotte.checks.hours import is_day_group
from charlotte.sections.catalogue import MAX_ITEMS

__all__ = [
    "capitalised",
    "contact_items",
    "fact",
    "fact_items",
    "fact_key",
    "featured_items",
    "has_contact",
    "listed",
    "priced",
    "scalar",
    "split_figure",
]

_PHONE_KEYS = ("phone", "telephone", "tel", "phone_number")
_EMAIL_KEYS = ("email", "e_mail", "mail")
_ADDRESS_KEYS = ("address", "location")
#: Facts a business singles out; shown verbatim as a highlight next to the offerings.
_FEATURED_KEYS = (
    "signature",
    "signature_dish",
    "specialty",
    "speciality",
    "special",
    "specials",
    "bestseller",
    "best_seller",
    "highlight",
)


def fact_key(name: str) -> str:
    """A fact's name as the builder looks it up: lower case, words joined by ``_``."""
    return re.sub(r"[\s-]+", "_", name.strip().lower())


def fact(facts: Mapping[str, Any], keys: Sequence[str]) -> Any:
    """The value of the first of ``keys`` the facts have, else None."""
    for key in keys:
        if key in facts:
            return facts[key]
    return None


def scalar(value: Any) -> str | None:
    """A fact value as the page shows it: strings verbatim, numbers as JSON writes them."""
    if isinstance(value, str):
        return value.strip() or None
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return None


def fact_items(value: Any) -> list[tuple[str | None, str | None]]:
    """A fact as (title, detail) pairs, each part verbatim from the fact."""
    out: list[tuple[str | None, str | None]] = []
    if isinstance(value, Mapping):
        for key, item in value.items():
            detail = scalar(item)
            if detail is None and isinstance(item, Mapping | list):
                parts = [
                    s
                    for s in map(scalar, item.values() if isinstance(item, Mapping) else item)
                    if s
                ]
                detail = " · ".join(parts) or None
            out.append((str(key).strip() or None, detail))
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, Mapping):
                title = scalar(fact(item, ("name", "title", "plan", "item", "day", "days")))
                rest = [
                    s
                    for k, v in item.items()
                    if k not in ("name", "title", "plan", "item") and (s := scalar(v))
                ]
                out.append((title, " · ".join(rest) or None))
            elif (text := scalar(item)) is not None:
                out.append((text, None))
    elif (text := scalar(value)) is not None:
        parts = _day_lists([p for p in _entries(text) if p.strip(" .")], text)
        # "Puncture repair £12, full service £95": one item per entry, not one run-on line.
        if len(parts) > 1:
            out.extend(split_figure(p) for p in parts)
        else:
            out.append((None, text))
    return [(t, d) for t, d in out if t or d][:MAX_ITEMS]


#: Where a one-line list of a fact breaks into entries: ``;``, a new line, `` · ``, `` | ``,
#: and ``, `` (``_entries``).
_SEPARATOR = re.compile(r"\s*(?:[;\n]|\s[·|]\s)\s*")
_COMMA = re.compile(r",\s+")


def _entries(text: str) -> list[str]:
    """The entries of a one-line fact; "Bootcamp: Tue & Thu 7am, Sat 9am" is one (its name's list)."""
    out: list[str] = []
    for part in _SEPARATOR.split(text):
        name, colon, _rest = part.partition(": ")
        whole = colon and part.count(": ") == 1 and ", " not in name
        out.extend([part] if whole else _COMMA.split(part))
    return out


#: A quote in a fact's words: its words inside quote marks, then who said it after a dash.
_QUOTED = re.compile(
    r"(?:[\"\u201c]([^\"\u201c\u201d]{3,}?)[\"\u201d]"  # "…" or “…”
    r"|(?:^|(?<=\s))['\u2018](.{3,}?)['\u2019](?!\w))"  # in single quotes, never an apostrophe
    r"(?:\s*[-\u2013\u2014]\s*([^;\n\"\u201c\u2018]{1,80}))?"  # - who said it
)


def quotes_in(text: str) -> list[tuple[str, str | None]]:
    """(quote, who said it) of each quoted review in a fact's words, as written.

    ``"Came home to a spotless house" - Nadia; "Brilliant" - Sam`` is two; words
    with no quote marks, or words around the quotes, are one quote, whole, with
    nobody named (nothing is guessed from a dash inside them).
    """
    found = [
        ((m.group(1) or m.group(2)).strip(), (m.group(3) or "").strip(" ,") or None)
        for m in _QUOTED.finditer(text)
    ]
    # Only a text made of quotes (and who said them) is read as quotes: words around them
    # ("We're proud: 'best in town' says the Echo") keep the whole text one quote.
    rest = _QUOTED.sub("", text).strip(" \t\n;,.")
    return found if found and not rest else [(text.strip(), None)]


#: What may sit between an entry's name and its figure: a colon, a hyphen, an en or em dash.
_DASHES = ":-\u2013\u2014"
#: A figure: a price ("£12", "$9/month", "12€") or a time ("9:30", "10am-4pm", "9-5"): a
#: bare number ("age 6", "20-minute trial", "2 people") is part of the words, never a figure.
_PRICE_START = re.compile(r"[£$€¥₹]|\d[\d,.]*\s?[£$€¥₹](?!\s?\d)")
_CLOCK = r"\d{1,2}(?:[:.]\d{2})?\s?(?:am|pm|a\.m\.|p\.m\.)?"
_TIME = re.compile(rf"(?i)(?=\d{{1,2}}(?:[:.]\d{{2}}|\s?[ap]\.?m|\s?[-\u2013]\s?\d)){_CLOCK}(?:\s?[-\u2013]\s?{_CLOCK})?$")


def _day_lists(parts: list[str], text: str) -> list[str]:
    """``parts`` with a run of bare days joined to the entry they list days of.

    "Mon, Tue, Thu 10am-8pm; Sat 9am-3pm" is two entries, not "Mon", "Tue" and
    "Thu 10am-8pm": a day alone before a comma shares the hours after it.
    """
    out: list[str] = []
    for part in parts:
        if out and is_day_group(out[-1].split(", ")[-1]) and f"{out[-1]}, {part}" in text:
            out[-1] = f"{out[-1]}, {part}"
        else:
            out.append(part)
    return out


def _is_figure(word: re.Match[str]) -> bool:
    """True when the words from ``word`` on open with a price, or ``word`` is a time."""
    return _PRICE_START.match(word.string, word.start()) is not None or _TIME.match(word.group(0)) is not None


def split_figure(entry: str) -> tuple[str | None, str | None]:
    """(name, figure) of an entry "Full service £95" or "Mon-Fri 8:30-17:30", both verbatim.

    An entry splits at its first ": " ("Ada Moss: physiotherapist", "Monday: the
    market"); else the figure is the first word after the first that is a price or
    a time ("from" before it goes with it). Anything else stays whole: "Children
    from age 6", "Free 20-minute trial" and "Sun closed" hold no figure.
    """
    entry = entry.strip()
    name, colon, detail = entry.partition(": ")
    if colon and name.strip() and detail.strip():
        return name.strip(), detail.strip()
    words = list(re.finditer(r"\S+", entry))
    for n, word in enumerate(words[1:], 1):
        if _is_figure(word):
            start = (
                words[n - 1].start() if words[n - 1].group(0).lower() == "from" else word.start()
            )
            name = entry[:start].strip().rstrip(_DASHES).strip()
            if name:
                return name, entry[start:].strip()
            break
    return entry, None


def listed(items: Sequence[str]) -> str:
    """ "Bread", "Bread and cakes", "Bread, cakes and coffee"."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def capitalised(text: str) -> str:
    """``text`` with its first letter upper case and the rest as written.

    A first word written with a capital inside ("iPhone", "eBay") is a name, kept as it is.
    """
    first = text.split(" ", 1)[0]
    if any(c.isupper() for c in first[1:]):
        return text
    return text[:1].upper() + text[1:]


def featured_items(facts: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(label, words) for the facts a business singles out ("signature"), words verbatim."""
    out: list[tuple[str, str]] = []
    for key in _FEATURED_KEYS:
        text = scalar(facts.get(key))
        if text is not None:
            out.append((capitalised(key.replace("_", " ")), text))
    return out


def has_contact(facts: Mapping[str, Any]) -> bool:
    """True when the facts have a phone, e-mail or address (even an empty one)."""
    return any(fact(facts, k) is not None for k in (_PHONE_KEYS, _EMAIL_KEYS, _ADDRESS_KEYS))


def contact_items(facts: Mapping[str, Any]) -> list[tuple[str, str, str | None]]:
    """(label, words, href) for the phone, e-mail and address facts, verbatim."""
    out: list[tuple[str, str, str | None]] = []
    phone = scalar(fact(facts, _PHONE_KEYS))
    if phone:
        digits = re.sub(r"[^\d+]", "", phone)
        said, dialled = parse_phone(phone), parse_phone(digits, dialled=True)
        # A tel: link is a phone claim of its own: only for text that reads as that number.
        linked = said is not None and dialled is not None and said.matches(dialled)
        out.append(("phone", phone, f"tel:{digits}" if linked else None))
    email = scalar(fact(facts, _EMAIL_KEYS))
    if email:
        plain = re.fullmatch(r"[^\s@<>\"]+@[^\s@<>\"]+\.[A-Za-z]{2,}", email)
        out.append(("email", email, f"mailto:{email}" if plain else None))
    address = scalar(fact(facts, _ADDRESS_KEYS))
    if address:
        out.append(("address", address, None))
    return out


#: A price in an entry's detail: a currency sign or code, or a rate per period.
_PRICE = re.compile(r"[£$€¥₹]|\d\s*(?:EUR|USD|GBP|CHF|kr)\b|/\s*(?:month|year|hour|session)")


def priced(items: Sequence[tuple[str | None, str | None]]) -> bool:
    """True when at least half the entries' details are prices ("£12", "$9/month")."""
    return sum(1 for _t, d in items if d and _PRICE.search(d)) * 2 >= len(items) > 0
