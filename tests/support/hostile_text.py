"""Hostile copy for the checks: text shapes that made (or could make) a reader super-linear.

Each shape is a head and a unit repeated to the length asked for: ``1 111 111 …``
(a space is a thousands separator), ``a@a.a@a.a…``, ``Mon-Tue, Mon-Tue, …``,
``[aaaa…`` and the like, one per kind of pattern the readers run (numbers,
phone numbers, e-mail and web addresses, hours, day groups, brackets and
templates). ``tests/reliability/test_checks_linear.py`` and ``bench/check.py``
read them.
"""

from __future__ import annotations

from typing import Final

#: Shape name → (head, unit repeated after it).
SHAPES: Final[dict[str, tuple[str, str]]] = {
    "spaced thousands": ("1 ", "111 "),
    "no-break thousands": ("1\u00a0", "111\u00a0"),
    "apostrophe thousands": ("1'", "111'"),
    "dotted thousands": ("1.", "111."),
    "comma runs": ("", "1,"),
    "digit run": ("", "1"),
    "decimal run": ("1", "1.1"),
    "ones": ("", "1 "),
    "phone groups": ("", "+1 1 1 1 "),
    "dashed digits": ("", "1-"),
    "spaced dashes": ("", "1 - "),
    "parenthesised groups": ("", "(1) "),
    "e-mail chain": ("", "a@a.a"),
    "at then dots": ("a@", "a."),
    "dotted labels": ("", "a."),
    "hyphen labels": ("", "a-"),
    "long address": ("http://", "a"),
    "www labels": ("www.", "a."),
    "day groups": ("", "Mon-Tue, "),
    "days and hours": ("", "Mon 9-5 "),
    "times": ("", "9am "),
    "hour ranges": ("", "9-5 "),
    "percentages": ("", "1% "),
    "prices": ("", "$1 "),
    "bare prices": ("", "1.50 "),
    "version numbers": ("", "version 1.50 "),
    "counted words": ("", "1 big customers "),
    "spaces": ("1", " "),
    "words after a number": ("1 ", "aa "),
    "open bracket": ("[", "a"),
    "bracket letters": ("", "[a"),
    "open template": ("{%", "a"),
    "years": ("", "2019 "),
    "ratings": ("", "4/5 "),
    "copyright": ("", "\u00a9 "),
    "templates": ("", "your "),
}


def hostile(shape: str, length: int, salt: str = "") -> str:
    """``length`` characters of ``shape``, ending in ``salt`` (to make texts distinct)."""
    head, unit = SHAPES[shape]
    body = head + unit * ((length - len(head)) // len(unit) + 1)
    return body[: length - len(salt)] + salt
