"""The intent on the facts a page shows: a new phone number, e-mail address or address.

"Change the phone number to +44 113 496 0999", "Our phone number is now 0113
496 0999", "update the email to orders@example.test". The value is exactly the
one the message gives: a phone number or e-mail must parse as one, and no other
word may stand beside it but a few ("now", "please", "thanks").
"""

from __future__ import annotations

from typing import Final

from charlotte.checks.claims import read
from charlotte.offline.edits import Context, Edit, Refusal, change_fact
from charlotte.offline.intents.intent import Clause, Intent, Reading, value_of
from charlotte.offline.intents.text import split_to, target_of
from charlotte.offline.requests import ChangeFact
from charlotte.sections.page_view import PageView

__all__ = ["CHANGE_FACT"]

_FACTS: Final = (
    ("phone number", "phone"), ("telephone", "phone"), ("phone", "phone"), ("number", "phone"),
    ("e-mail", "email"), ("email", "email"), ("mail address", "email"), ("address", "address"),
)  # fmt: skip
#: Words that may stand beside a new phone number or e-mail address without being part of it.
_BESIDE_VALUE: Final = frozenset(
    {"now", "please", "pls", "instead", "thanks", "thank", "you", "today", "from", "on", "again"}
)


def _fact_kind(lower: str) -> str | None:
    padded = f" {lower} "
    for words, kind in _FACTS:
        if f" {words} " in padded or f" {words}," in padded:
            return kind
    return None


def _contact_value(kind: str, value: str) -> str:
    """The one phone number or e-mail address ``value`` gives, as written; "" when it gives none,
    several, or other words than ``_BESIDE_VALUE`` ("0113 496 0550 now" is 0113 496 0550, never
    "0113 496 0550 now"; "0113 496 0550 ext 12" is not understood)."""
    found = [f for f in read(value).found if f.kind == kind]
    if len(found) != 1:
        return ""
    rest = f"{value[: found[0].start]} {value[found[0].end :]}".lower()
    words = {w.strip(".,!?;:()") for w in rest.split()} - {""}
    return found[0].text if words <= _BESIDE_VALUE else ""


def _read(clause: Clause) -> Reading | None:
    lbody, body = clause.lbody, clause.body
    named_end, fact_to = split_to(lbody)
    kind = _fact_kind(lbody[:named_end]) if named_end >= 0 else None
    if kind is None or fact_to <= 0:
        return None
    value = value_of(body[fact_to:], clause.runs)
    if kind in ("phone", "email"):
        value = _contact_value(kind, value)
    target = target_of(lbody[:named_end])
    if value and (target is None or kind in ("phone", "email")):
        return Reading(70, (ChangeFact(kind, value),))
    return None


def _plan(request: ChangeFact, page: PageView, context: Context) -> Edit | Refusal:
    return change_fact(page, request, context)


CHANGE_FACT: Final = Intent(
    "change a fact",
    _read,
    (ChangeFact,),
    _plan,
    "change the phone number, e-mail or address the page shows",
)
