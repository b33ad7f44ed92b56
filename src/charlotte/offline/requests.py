"""What a person asks of the offline builder after the first build: a message read as requests.

``read_requests(message)`` splits a message into clauses (at sentence ends, and
at ``and`` / ``then`` / a comma when a new request verb follows) and reads
each clause as one typed request: ``SetText``, ``Resize``, ``AddSection``,
``RemoveSection``, ``MoveSection``, ``ChangeFact``, ``Restyle``, or
``Unsupported`` when it is none of those. Quoted words ("…", '…', “…”) are
kept whole and verbatim. Reading is a linear scan over a bounded message:
words are compared with small tables, never matched by a backtracking regex.

>>> [type(r).__name__ for r in read_requests("Make the headline shorter and add an FAQ")]
['Resize', 'AddSection']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from charlotte.checks.claims import read
from charlotte.offline.clauses import folded, quoted, split_clauses, unquote
from charlotte.offline.looks import Restyle, read_looks
from charlotte.sections.catalogue import SECTION_WORDS, kind_spans, kinds_in

__all__ = [
    "AddSection",
    "ChangeFact",
    "MoveSection",
    "RemoveSection",
    "Request",
    "Resize",
    "Restyle",
    "SetText",
    "Target",
    "Unsupported",
    "is_build_request",
    "read_requests",
]

#: Characters of a message read; the rest is ignored.
MAX_MESSAGE: Final = 4_000
#: Requests read from one message.
MAX_REQUESTS: Final = 8

_ADD = frozenset({"add", "include", "insert", "create", "append", "introduce"})
_REMOVE = frozenset({"remove", "delete", "drop", "hide", "cut", "lose", "scrap", "ditch"})
_MOVE = frozenset({"move", "put", "place", "shift", "bring"})
_CHANGE = frozenset(
    {"change", "set", "make", "rename", "update", "edit", "replace", "switch", "turn", "use",
     "give", "retitle", "reword", "rewrite"}
)  # fmt: skip
_SHORTER = frozenset({"shorten", "trim", "tighten", "condense", "cut down", "shorter", "briefer"})
_LONGER = frozenset({"lengthen", "expand", "extend", "longer", "fuller", "taller", "bigger"})
#: Words around a section's name that name nothing ("make the hero a bit shorter").
_FILLER = frozenset({"the", "a", "an", "section", "band", "much", "bit", "little", "lot", "please", "it"})
_VERBS = _ADD | _REMOVE | _MOVE | _CHANGE | {"shorten", "lengthen", "expand", "trim", "get", "take"}
#: Verbs the builder does not act on: a clause they open is read (and refused) on its own.
_OTHER_VERBS = frozenset(
    {"translate", "write", "publish", "send", "schedule", "optimise", "optimize", "improve", "fix",
     "book", "link", "embed", "upload", "connect", "integrate", "animate", "share", "post", "print",
     "export", "draw", "design", "redesign", "generate", "tell", "show", "explain", "check"}
)  # fmt: skip
_FILLERS = frozenset(
    {"please", "can", "could", "would", "will", "you", "now", "also", "then", "and", "just", "kindly",
     "i'd", "like", "to", "i", "want", "we", "let's", "ok", "okay", "so"}
)  # fmt: skip
_BUILD = frozenset(
    {"build", "rebuild", "check", "recheck", "finish", "continue", "again", "generate", "start"}
)
_POSITIONS: Final = (
    (" to the top", "top"), (" at the top", "top"), (" to the bottom", "bottom"),
    (" at the bottom", "bottom"), (" to the end", "bottom"), (" at the end", "bottom"),
    (" near the top", "top"), (" at the start", "top"), (" near the bottom", "bottom"),
    (" near the end", "bottom"), (" first", "top"), (" last", "bottom"),
)  # fmt: skip
#: What may follow "to the top" and its kin: "near the top of the page".
_PAGE_WORDS: Final = frozenset({"", "of the page", "of the site", "of it"})
_RELATIVE: Final = (
    (" above ", "above"), (" before ", "above"), (" over ", "above"),
    (" below ", "below"), (" after ", "below"), (" under ", "below"), (" beneath ", "below"),
)  # fmt: skip
_FACTS: Final = (
    ("phone number", "phone"), ("telephone", "phone"), ("phone", "phone"), ("number", "phone"),
    ("e-mail", "email"), ("email", "email"), ("mail address", "email"), ("address", "address"),
)  # fmt: skip
#: Words that may stand beside a new phone number or e-mail address without being part of it.
_BESIDE_VALUE: Final = frozenset(
    {"now", "please", "pls", "instead", "thanks", "thank", "you", "today", "from", "on", "again"}
)
_HEADING = frozenset({"headline", "heading", "title", "header", "h1", "name"})
_TEXT = frozenset(
    {"subheading", "subtitle", "subheadline", "tagline", "strapline", "intro", "introduction",
     "text", "paragraph", "copy", "description", "blurb", "sentence", "lead", "words"}
)  # fmt: skip
_HERO_TEXT = frozenset({"subheading", "subtitle", "subheadline", "tagline", "strapline", "intro",
                        "introduction", "lead"})  # fmt: skip
_BUTTON = frozenset({"button", "label"})
_NOISE = frozenset({"the", "a", "an", "our", "my", "this", "that", "section", "part", "block",
                    "of", "in", "on", "for", "page", "page's", "main", "top", "bit", "one", "'s", "please",
                    "little", "lot", "much", "more", "slightly", "some", "it", "can", "you", "make", "should",
     "must", "needs", "to"})  # fmt: skip
_ABOUT_WHAT = ("our", "the", "my", "how", "what", "when", "where", "who")
#: Words that may follow a section's name in an add clause ("an FAQ section", "a map below …").
_AFTER_NAME = frozenset(
    {"", "section", "sections", "part", "block", "bit", "area", "page", "panel", "list", "table",
     "grid", "box", "and", "or", "with", "to", "at", "on", "in", "below", "above", "before",
     "after", "under", "over", "beneath", "then", "please", "too", "as", "for", "from", "of",
     "that", "which", "here", "there", "near", "next", "about", "showing", "also", "&"}
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Target:
    """A piece of text on the page: a part (heading, text, button) of a section (None: the hero).

    ``part`` "quote": the node whose words contain ``section`` (the words the person quoted).
    """

    section: str | None
    part: str
    hero_text: bool = False


@dataclass(frozen=True, slots=True)
class SetText:
    """Put ``words`` (the person's, verbatim) in ``target``."""

    target: Target
    words: str


@dataclass(frozen=True, slots=True)
class Resize:
    """Make ``target`` shorter (``longer`` False) or longer."""

    target: Target
    longer: bool


@dataclass(frozen=True, slots=True)
class AddSection:
    """Add a section of ``kind``; ``where`` top/bottom/above/below ``anchor`` (None: the usual place)."""

    kind: str
    where: str | None = None
    anchor: str | None = None


@dataclass(frozen=True, slots=True)
class RemoveSection:
    """Remove the section the words ``section`` name."""

    section: str


@dataclass(frozen=True, slots=True)
class MoveSection:
    """Move ``section`` to the top/bottom, or above/below ``anchor``."""

    section: str
    where: str
    anchor: str | None = None


@dataclass(frozen=True, slots=True)
class ChangeFact:
    """Show ``value`` (the person's words) where the page shows its ``kind`` (phone, email, address)."""

    kind: str
    value: str


@dataclass(frozen=True, slots=True)
class Unsupported:
    """A clause the builder cannot act on offline (its words, shortened)."""

    words: str


Request = (
    SetText | Resize | AddSection | RemoveSection | MoveSection | ChangeFact | Restyle | Unsupported
)


def _first_word(words: list[str]) -> int:
    """Index of the first word that is not a polite filler."""
    k = 0
    while k < len(words) and words[k].strip(",") in _FILLERS and words[k] not in _VERBS:
        k += 1
    return k


def _opens(word: str) -> bool:
    return word in _VERBS or word in _OTHER_VERBS or word in _SHORTER or word in _LONGER


def _sections_added(rest: str) -> list[str]:
    """The kinds an add clause names as sections: not as a word describing something else.

    "a booking calendar", "a contact form": the kind's name is followed by another noun, so
    the person asks for a thing the builder cannot make, not for that section.
    """
    return [kind for _at, kind, after in kind_spans(rest) if after in _AFTER_NAME]


def _position(lower: str) -> tuple[str | None, str | None, int]:
    """(where, anchor words, where the position words start) in a clause."""
    for words, where in _POSITIONS:
        at = lower.find(words)
        if at >= 0 and lower[at + len(words) :].strip(" .,!") in _PAGE_WORDS:
            return where, None, at
    for words, where in _RELATIVE:
        at = lower.find(words)
        if at >= 0:
            anchor = lower[at + len(words) :].strip(" .,!")
            return where, anchor or None, at
    return None, None, -1


def _target(phrase: str) -> Target | None:
    """The text a phrase names ("the hero headline", "the services heading", "the intro")."""
    words = [w.strip(".,!?:") for w in phrase.replace("'s ", " ").split()]
    part: str | None = None
    hero_text = False
    rest: list[str] = []
    for word in words:
        if part is None and word in _HEADING:
            part = "heading"
        elif part is None and word in _TEXT:
            part, hero_text = "text", word in _HERO_TEXT
        elif part is None and word in _BUTTON:
            part = "button"
        elif word and word not in _NOISE and word not in _HEADING | _TEXT | _BUTTON:
            rest.append(word)
    if part is None:
        return None
    section = " ".join(rest) or None
    if section == "hero":
        section = None
    return Target(section, part, hero_text and section is None)


def _fact_kind(lower: str) -> str | None:
    padded = f" {lower} "
    for words, kind in _FACTS:
        if f" {words} " in padded or f" {words}," in padded:
            return kind
    return None


def _value(original: str, runs: Sequence[str]) -> str:
    value = unquote(original.strip(), runs).strip()
    if "\x00" not in original:
        value = value.rstrip(".!,;")
    return value.strip()


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


def _split_to(lower: str) -> tuple[int, int]:
    """(where the words naming the target end, where the new words start), else (-1, -1)."""
    for sep in (" to say ", " to read ", " to ", " so it says ", " say ", " says ", " read ", ": ",
                " is now ", " is "):  # fmt: skip
        at = lower.find(sep)
        if at >= 0:
            return at, at + len(sep)
    return -1, -1


def _quoted_swap(body: str, lbody: str, verb: str, runs: Sequence[str]) -> SetText | None:
    """``change 'old words' to 'new'`` / ``replace 'old' with 'new'`` / ``use 'new' as the headline``."""
    after = body[len(verb) :].lstrip()
    if verb in _CHANGE and after.startswith("\x00"):
        close = after.find("\x00", 1)
        old = runs[int(after[1:close])] if close > 1 and after[1:close].isdigit() else ""
        rest = folded(after[close + 1 :])
        for sep in (" to ", " with ", " into ", " by "):
            if old and rest.startswith(sep):
                new = _value(after[close + 1 + len(sep) :], runs)
                return SetText(Target(old, "quote"), new) if new else None
    at = lbody.find(" as the ")
    if verb in ("use", "put", "make", "set") and at > 0:
        target = _target(lbody[at + 4 :])
        new = _value(body[len(verb) : at], runs)
        if target is not None and new:
            return SetText(target, new)
    return None


def _read_clause(clause: str, runs: Sequence[str]) -> list[Request]:
    lower = folded(clause)
    words = lower.split()
    k = _first_word(words)
    verb = words[k].strip(",") if k < len(words) else ""
    # The clause from its first word that is not a filler, in the original and in lower case.
    starts = [
        i for i, c in enumerate(lower) if not c.isspace() and (i == 0 or lower[i - 1].isspace())
    ]
    body_at = starts[k] if k < len(starts) else len(lower)
    body, lbody = clause[body_at:], lower[body_at:]
    rest = lbody[len(verb) :] if verb else lbody
    if verb in ("get", "take") and (" rid of " in f" {rest} " or rest.startswith(" out")):
        verb = "remove"
        rest = rest.replace(" rid of ", " ", 1).replace(" out ", " ", 1)
    if verb in _REMOVE:
        kinds = kinds_in(rest)
        named = rest.strip(" .!").removeprefix("the ").removesuffix(" section").strip()
        return [RemoveSection(k) for k in kinds] or ([RemoveSection(named)] if named else [])
    if verb in _ADD:
        where, anchor, at = _position(rest)
        kinds = _sections_added(rest[:at] if at >= 0 else rest)
        if len(kinds) > 1 and any(f" about {w} " in f"{rest} " for w in _ABOUT_WHAT):
            kinds.remove("about")  # "a section about our team": about is the preposition
        return [AddSection(kind, where, anchor) for kind in kinds if kind != "hero"]
    if verb in _MOVE:
        where, anchor, at = _position(rest)
        if where is not None:
            named = rest[:at].strip(" .").removeprefix("the ").removesuffix(" section").strip()
            if named:
                return [MoveSection(named, where, anchor)]
    named_end, fact_to = _split_to(lbody)
    kind = _fact_kind(lbody[:named_end]) if named_end >= 0 else None
    if kind is not None and fact_to > 0:
        value = _value(body[fact_to:], runs)
        if kind in ("phone", "email"):
            value = _contact_value(kind, value)
        target = _target(lbody[:named_end])
        if value and (target is None or kind in ("phone", "email")):
            return [ChangeFact(kind, value)]
    shorter = any(w.strip(".,!") in _SHORTER for w in words) or "cut down" in lower
    longer = any(w.strip(".,!") in _LONGER for w in words)
    if shorter != longer and not (" palette" in lower or " colour" in lower):
        phrase = " ".join(w for w in words[k:] if w.strip(".,!") not in _SHORTER | _LONGER)
        target = _target(phrase.replace(verb, " ", 1) if verb in _CHANGE else phrase)
        if target is not None:
            return [Resize(target, longer)]
        band = {w.strip(".,!?").lower() for w in phrase.split()} - _CHANGE - _FILLER
        if band and band <= set(SECTION_WORDS["hero"]):
            # "make the hero shorter": the band itself, not its words.
            return [Restyle("height", "taller" if longer else "shorter", "hero")]
    quoted = _quoted_swap(body, lbody, verb, runs)
    if quoted is not None:
        return [quoted]
    end, cut = _split_to(lbody)
    if cut < 0 and "\x00" in body:
        end = cut = body.find("\x00")
    start = len(verb) if verb in _CHANGE else 0
    phrase = lbody[start:end] if end > start else ""
    styled = any(w in phrase for w in ("font", "colour", "color", "palette", "background", "theme"))
    target = _target(phrase) if phrase and not styled else None
    if target is not None and (verb in _CHANGE or verb not in _VERBS):
        value = _value(body[cut:], runs)
        if value:
            return [SetText(target, value)]
    return list[Request](read_looks(lower))


def read_requests(message: str) -> list[Request]:
    """The requests in ``message``, in order (at most ``MAX_REQUESTS``)."""
    text, runs = quoted(message[:MAX_MESSAGE])
    out: list[Request] = []
    for clause in split_clauses(text, _opens):
        found = _read_clause(clause, runs)
        if not found:
            split = unquote(clause, runs).split()
            while split and folded(split[0]) in ("and", "then", "also", "so", "but"):
                split = split[1:]
            words = " ".join(split)
            found = [Unsupported(words[:120])]
        out += found
        if len(out) >= MAX_REQUESTS:
            break
    return out[:MAX_REQUESTS]


def is_build_request(message: str) -> bool:
    """True for a message that asks to build (or check, or finish) the page as a whole."""
    words = {w.strip(".,!?:;") for w in folded(message[:MAX_MESSAGE]).split()}
    return bool(words & _BUILD)
