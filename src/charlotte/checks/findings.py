"""The values the checks hand out: ``Claim`` (a fact stated on the page) and ``Finding``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

CheckName = Literal["facts", "copy", "links", "assets", "quality"]
Severity = Literal["error", "warning"]

#: The checks, in the order ``PageChecks.run`` reports them.
CHECKS: tuple[CheckName, ...] = ("facts", "copy", "links", "assets", "quality")


def quote(text: str, limit: int) -> str:
    """Page words for a finding's message: on one line, cut to ``limit`` characters with "…"."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True, slots=True)
class Claim:
    """A factual claim read from the page's copy.

    ``kind`` is one of price, phone, email, url, percent, hours, year, number;
    ``text`` the words as written; ``value`` the normalised form compared with
    the brief and the facts (``"EUR 12.5"``, ``"+44 2079460958"``,
    ``"mon-fri 08:00-18:00"``); ``node`` the id of the node that says it.
    """

    kind: str
    text: str
    value: str
    node: str


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem a check found: on a node (or the whole page, ``node=None``).

    ``code`` is a stable snake_case name; ``message`` a fixed sentence of ours
    (it may quote the page's words, never an exception).
    """

    check: CheckName
    node: str | None
    severity: Severity
    code: str
    message: str

    def to_json(self) -> dict[str, str | None]:
        """The finding as a JSON-shaped dict (as tool results and API bodies carry it)."""
        return {
            "check": self.check,
            "node": self.node,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
        }
