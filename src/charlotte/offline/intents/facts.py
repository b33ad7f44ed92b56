"""The intent on the contact facts a page shows: a new phone number, e-mail address or address.

"Change the phone number to +44 113 496 0999", "Our phone number changed, it's
now 01603 555 0177", "The number on the page is wrong, it should be 01603 555
0177", "update the email to orders@example.test". The value is exactly the one
the message gives: a phone number or e-mail must parse as one, and every other
word of the clause must be one that names the fact or links it to its value
(``_ACCOUNTED``); a clause naming a fact with any other word, or with no value
or two, is refused, saying what was not understood ("ext 12").
"""

from __future__ import annotations

from typing import Final

from charlotte.offline.edits import Context, Edit, Refusal, change_fact
from charlotte.offline.intents.intent import CHANGE, FILLERS, Clause, Intent, Reading
from charlotte.offline.intents.text import new_words
from charlotte.offline.requests import ChangeFact
from charlotte.sections.page_view import PageView

__all__ = ["CHANGE_FACT", "unaccounted"]

_NOUNS: Final = {
    "phone": "phone", "telephone": "phone",
    "e-mail": "email", "email": "email", "mail": "email", "address": "address",
}  # fmt: skip
#: Words that name the phone only beside a phone number ("on mobile" is a screen, not a fact).
_WEAK: Final = frozenset({"number", "mobile", "tel", "landline"})
_NAMED: Final = {"phone": "phone number", "email": "e-mail address", "address": "address"}
#: Words that name a contact fact or link it to its new value; any other word is not understood.
_ACCOUNTED: Final = CHANGE | FILLERS | frozenset(_NOUNS) | _WEAK | frozenset(
    {"the", "our", "my", "your", "its", "on", "of", "in", "page", "site", "website",
     "is", "are", "it", "it's", "should", "be", "has", "have", "changed", "new", "wrong",
     "incorrect", "outdated", "old", "out", "date", "from", "instead", "today", "again", "shown",
     "show", "a", "moved", "we've", "we", "contact", "us", "at", "say", "says", "read", "reads",
     "correct", "right", "one", "that", "this", "there", "here", "with", "relocated", "we're",
     "premises", "shop", "studio", "office", "i've", "got", "chnage", "chang", "cahnge", "udpate",
     "updated", "please", "pls"}
)  # fmt: skip
#: Words that make a clause about a text on the page, not the fact ("the button should say …").
_TEXT_WORDS: Final = frozenset(
    {"headline", "heading", "title", "button", "label", "text", "intro", "subheading", "tagline"}
)
#: Words after which an address begins ("… it should be 3 Briggate").
_LINKS: Final = (" should be ", " is now ", " it's now ", " now is ", " to ", " is ", ": ", " now at ")
#: Words that give a new address without naming it ("we moved to …", "we're now at …").
_MOVED: Final = ("moved to ", "relocated to ", "now at ")


def unaccounted(words: list[str], accounted: frozenset[str]) -> list[str]:
    """The words of ``words`` that ``accounted`` does not hold (possessive "'s" aside)."""
    return [w for w in words if w not in accounted and w.removesuffix("'s") not in accounted]


def _kind(words: list[str]) -> str | None:
    kinds = {_NOUNS[w] for w in words if w in _NOUNS}
    if kinds == {"email", "address"}:
        return "email"  # "the e-mail address"
    return kinds.pop() if len(kinds) == 1 else None


def _refuse(why: str) -> Reading:
    return Reading(70, (), why=why)


def _contact(clause: Clause, kind: str) -> Reading:
    found = [f for f in clause.found if f.kind == kind]
    values = [f for f in found if clause.text[f.start : f.end].find("\x00") < 0]
    pair = len(values) == 2 and " from " in clause.lower[: values[0].start] + " "
    if len(values) != 1 and not pair:
        return _refuse(f"I found {'no' if not values else 'more than one'} new {_NAMED[kind]}")
    new = values[-1]
    before = clause.words_of(0, values[0].start if pair else new.start)
    between = clause.words_of(values[0].end, new.start) if pair else []
    after = clause.words_of(new.end, len(clause.lower))
    if kind == "email" and len(after) >= 2 and after[0] == "not" and "@" in after[1]:
        after = after[2:]  # "… not office@": the address it replaces, by its name
    left = unaccounted(before + between + after, _ACCOUNTED)
    if left or (pair and between != ["to"]):
        return _refuse(f'I did not understand "{" ".join(left or between)}" beside the {_NAMED[kind]}')
    return Reading(70, (ChangeFact(kind, new.text),))


def _address(clause: Clause) -> Reading:
    """The address after the first link word ("to", "is", "now at"); a correction's own words
    ("is wrong, it should be") and a closing "now" or "please" stay off it."""
    lower = clause.lower
    found = [(at, -len(link)) for link in _LINKS if (at := lower.find(link, clause.at)) >= 0]
    if not found:
        return _refuse("I found no new address")
    at, minus = min(found)
    left = unaccounted(clause.words_of(0, at - minus), _ACCOUNTED)
    if left:
        return _refuse(f'I did not understand "{" ".join(left)}" beside the address')
    value, why = new_words(clause, at - minus - clause.at)
    if why:
        return _refuse(why)
    words = value.split()
    while words and words[-1].lower().strip(".,!") in ("now", "instead"):
        words.pop()
    value = " ".join(words).rstrip(",")
    if not any(c.isdigit() for c in value):
        # A street address carries a number (a house or a postcode): "the new one" is none.
        return _refuse(f'"{value}" does not read as an address')
    return Reading(70, (ChangeFact("address", value),))


def _read(clause: Clause) -> Reading | None:
    words = clause.words_of(0, len(clause.lower))
    kind = _kind(words)
    found = clause.found
    if kind is None and _WEAK & set(words) and any(f.kind == "phone" for f in found):
        kind = "phone"  # "the number on the page is wrong, it should be …"
    moved = next((at for m in _MOVED if (at := clause.lower.find(m)) >= 0), -1)
    if kind is None and moved >= 0 and any(c.isdigit() for c in clause.lower[moved:]):
        if unaccounted(clause.words_of(0, moved), _ACCOUNTED) or any(f.kind == "hours" for f in found):
            return None  # "Poetry night has moved to 7:30pm": something else moved
        kind = "address"  # "we moved to 5 Market Street, Leeds"
    if kind is None or _TEXT_WORDS & set(words):
        return None
    return _address(clause) if kind == "address" else _contact(clause, kind)


def _plan(request: ChangeFact, page: PageView, context: Context) -> Edit | Refusal:
    return change_fact(page, request, context)


CHANGE_FACT: Final = Intent(
    "change the phone number, e-mail or address",
    _read,
    (ChangeFact,),
    _plan,
    "change the phone number, e-mail or address the page shows to the one you give",
)
