"""One intent of the offline builder: how a clause asking for it is read, planned and named.

An ``Intent`` is a recognizer (a ``Clause`` → a ``Reading``: a score, the span
of the clause it accounts for, the requests it reads there), the request types
it makes, the planner that turns one of its requests into ops on the page
(``edits.py`` and its siblings), and the sentence saying what it can do. The
registry (``registry.py``) keeps the reading of the intent whose span, with
polite fillers around it, covers the whole clause and whose score is highest.
A reading without requests claims the clause and refuses it (``why`` says what
it did not understand): a clause that names a phone number but gives none is
never read as something else.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from charlotte.checks.claims import Found, read
from charlotte.offline.clauses import folded, unquote
from charlotte.offline.edits import Context, Edit, Refusal
from charlotte.offline.requests import Request
from charlotte.sections.page_view import PageView

__all__ = [
    "ADD",
    "CHANGE",
    "FILLERS",
    "MOVE",
    "OTHER_VERBS",
    "REMOVE",
    "VERBS",
    "Clause",
    "Intent",
    "Planner",
    "Reading",
    "Recognizer",
    "value_of",
]

ADD: Final = frozenset({"add", "include", "insert", "create", "append", "introduce"})
REMOVE: Final = frozenset({"remove", "delete", "drop", "hide", "cut", "lose", "scrap", "ditch"})
MOVE: Final = frozenset({"move", "put", "place", "shift", "bring"})
CHANGE: Final = frozenset(
    {"change", "set", "make", "rename", "update", "edit", "replace", "switch", "turn", "use",
     "give", "retitle", "reword", "rewrite"}
)  # fmt: skip
VERBS: Final = ADD | REMOVE | MOVE | CHANGE | {"shorten", "lengthen", "expand", "trim", "get", "take", "swap"}
#: Verbs the builder does not act on: a clause they open is read (and refused) on its own.
OTHER_VERBS: Final = frozenset(
    {"translate", "write", "publish", "send", "schedule", "optimise", "optimize", "improve", "fix",
     "book", "link", "embed", "upload", "connect", "integrate", "animate", "share", "post", "print",
     "export", "draw", "design", "redesign", "generate", "tell", "show", "explain", "check"}
)  # fmt: skip
#: Polite words a clause may carry around what it asks (never part of a request).
FILLERS: Final = frozenset(
    {"please", "can", "could", "would", "will", "you", "now", "also", "then", "and", "just", "kindly",
     "i'd", "like", "to", "i", "want", "we", "let's", "ok", "okay", "so", "thanks", "thank", "pls",
     "plz", "u"}
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Clause:
    """A clause as recognizers read it: its words (quotes as markers), lower case, its verb.

    ``body``/``lbody``: the clause from its first word that is not a polite filler, as
    written and in lower case (``lbody`` starts at ``lower[at]``). ``found``: the claims
    (phone numbers, e-mails, prices, web addresses) ``checks.claims`` reads in it, read once.
    """

    text: str
    runs: tuple[str, ...]
    lower: str
    words: tuple[str, ...]
    k: int
    verb: str
    at: int
    found: tuple[Found, ...]

    @classmethod
    def of(cls, text: str, runs: Sequence[str]) -> Clause:
        """``text`` (one clause, quotes as markers) read once."""
        lower = folded(text)
        words = tuple(lower.split())
        k = 0
        while k < len(words) and words[k].strip(",") in FILLERS and words[k] not in VERBS:
            k += 1
        starts = [i for i, c in enumerate(lower) if not c.isspace() and (i == 0 or lower[i - 1].isspace())]
        at = starts[k] if k < len(starts) else len(lower)
        verb = words[k].strip(",") if k < len(words) else ""
        return cls(text, tuple(runs), lower, words, k, verb, at, tuple(read(text).found))

    @property
    def body(self) -> str:
        return self.text[self.at :]

    @property
    def lbody(self) -> str:
        return self.lower[self.at :]

    def words_of(self, start: int, end: int) -> list[str]:
        """The bare words of ``lower[start:end]`` (punctuation around them dropped)."""
        return [w for w in (w.strip(".,!?;:()") for w in self.lower[start:end].split()) if w]

    def shown(self) -> str:
        """The clause as the person wrote it, without leading joining words (at most 120 characters)."""
        split = unquote(self.text, self.runs).split()
        while split and folded(split[0]) in ("and", "then", "also", "so", "but"):
            split = split[1:]
        return " ".join(split)[:120]


@dataclass(frozen=True, slots=True)
class Reading:
    """What one intent reads in a clause: requests (none: it refuses it), how sure, where.

    ``start``/``end`` cut ``Clause.lower``; ``end`` None is the clause's end. ``why``:
    what it did not understand, for a reading without requests.
    """

    score: int
    requests: tuple[Request, ...]
    start: int = 0
    end: int | None = None
    why: str = ""


Recognizer = Callable[[Clause], Reading | None]
Planner = Callable[[Any, PageView, Context], Edit | Refusal]


@dataclass(frozen=True, slots=True)
class Intent:
    """A kind of follow-up: its recognizer, the request types it makes, its planner, its sentence."""

    name: str
    recognize: Recognizer
    makes: tuple[type, ...]
    plan: Planner
    capability: str


def value_of(original: str, runs: Sequence[str]) -> str:
    """A value as written: quotes put back, end punctuation dropped (kept inside quotes)."""
    value = unquote(original.strip(), runs).strip()
    if "\x00" not in original:
        value = value.rstrip(".!,;")
    return value.strip()
