"""The intents on a page's words: set a heading, text or button to the person's words; shorter, longer.

"Change the hero headline to 'Loaves worth waking for'", "the button should say
Order now", "Change 'Visit us' to 'Come and see us'", "make the intro shorter".
The new words are the person's, verbatim; the target is named by its part
(heading, text, button) and its section (none: the hero).
"""

from __future__ import annotations

from typing import Final

from charlotte.offline.clauses import folded
from charlotte.offline.edits import Context, Edit, Refusal, set_text
from charlotte.offline.intents.intent import (
    ADD,
    CHANGE,
    FILLERS,
    VERBS,
    Clause,
    Intent,
    Reading,
    value_of,
)
from charlotte.offline.lengths import resize
from charlotte.offline.requests import Resize, Restyle, SetText, Target
from charlotte.sections.catalogue import SECTION_WORDS, kinds_in
from charlotte.sections.page_view import PageView

__all__ = ["LONGER", "RESIZE", "SET_TEXT", "SHORTER", "new_words", "split_to", "target_of"]

SHORTER: Final = frozenset(
    {"shorten", "trim", "tighten", "condense", "cut down", "shorter", "briefer", "punchier",
     "snappier", "crisper", "tighter"}
)
LONGER: Final = frozenset({"lengthen", "expand", "extend", "longer", "fuller", "taller"})
#: A band made bigger is taller ("make the hero bigger"); words made bigger are a font size.
_TALLER: Final = LONGER | {"bigger", "larger"}
#: Words around a section's name that name nothing ("make the hero a bit shorter").
_FILLER = frozenset({"the", "a", "an", "section", "band", "much", "bit", "little", "lot", "please", "it"})
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
     "must", "needs", "to", "have", "be", "say", "read"})  # fmt: skip
#: Words offering new words as a suggestion ("more fun, something like 'Parties kids love'").
_SUGGESTING: Final = (", something like", " something like", ", maybe", ", like", ", e.g.", ", such as")
#: Verbs that name a section's heading by the section ("rename the treatments section to …").
_RENAME: Final = frozenset({"rename", "retitle"})
_SEPARATORS: Final = (
    " should say: ", " should read: ", " should say ", " should read ", " should be ", " to say ", " to read ", " to ", " so it says ", " say ", " says ", " read ", ": ", " is now ", " is "
)  # fmt: skip


#: What a correction says before its new words ("it's wrong, it should be …").
_CORRECTIONS: Final = (
    "should be ", "should say ", "should read ", "it's now ", "it is now ", "changed to ", "set to ",
    "updated to ",
)  # fmt: skip
#: Polite words closing a request, never the end of its new words ("… Order now please").
_CLOSING: Final = (" please", ", please", " thanks", ", thanks", " thank you", ", thank you")
_CORRECTION_WORDS: Final = frozenset(
    {"wrong", "incorrect", "outdated", "old", "not", "right", "it", "is", "it's", "that's", "should",
     "be", "say", "read", "now", "the", "a", "thing", "mistake", "typo", "has", "there's"}
)  # fmt: skip


def target_of(phrase: str) -> Target | None:
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


def split_to(lower: str) -> tuple[int, int]:
    """(where the words naming the target end, where the new words start), else (-1, -1).

    The first separator in the clause wins ("the headline is wrong, it should be …" names the
    headline); of two at one place, the longer ("to say" before "to").
    """
    found = [(at, -len(sep)) for sep in _SEPARATORS if (at := lower.find(sep)) >= 0]
    if not found:
        return -1, -1
    at, minus = min(found)
    return at, at - minus


def _quoted_swap(clause: Clause) -> SetText | None:
    """``change 'old words' to 'new'`` / ``replace 'old' with 'new'`` / ``use 'new' as the headline``."""
    body, lbody, verb, runs = clause.body, clause.lbody, clause.verb, clause.runs
    after = body[len(verb) :].lstrip()
    if verb in CHANGE and after.startswith("\x00"):
        close = after.find("\x00", 1)
        old = runs[int(after[1:close])] if close > 1 and after[1:close].isdigit() else ""
        rest = folded(after[close + 1 :])
        for sep in (" to ", " with ", " into ", " by "):
            if old and rest.startswith(sep):
                new = value_of(after[close + 1 + len(sep) :], runs)
                return SetText(Target(old, "quote"), new) if new else None
    at = lbody.find(" as the ")
    if verb in ("use", "put", "make", "set") and at > 0:
        target = target_of(lbody[at + 4 :])
        new = value_of(body[len(verb) : at], runs)
        if target is not None and new:
            return SetText(target, new)
    return None


def _read_set_text(clause: Clause) -> Reading | None:
    quoted = _quoted_swap(clause)
    if quoted is not None:
        return Reading(50, (quoted,))
    body, lbody, verb = clause.body, clause.lbody, clause.verb
    end, cut = split_to(lbody)
    if cut < 0 and "\x00" in body:
        end = cut = body.find("\x00")
    start = len(verb) if verb in CHANGE else 0
    phrase = lbody[start:end] if end > start else ""
    if "\x00" in body[cut:]:
        # "the headline more fun, something like 'Parties …'": the quoted words are the
        # new words; what they should be like is not a part of the target.
        for words in _SUGGESTING:
            if phrase.rstrip().endswith(words.strip(", ")) and words in phrase:
                phrase = phrase[: phrase.find(words)].split(" more ")[0].split(" less ")[0]
                break
    styled = any(w in phrase for w in ("font", "colour", "color", "palette", "background", "theme"))
    target = target_of(phrase) if phrase and not styled else None
    named = phrase.strip(" .,").removeprefix("the ").removesuffix(" section").strip()
    if target is None and verb in _RENAME and named and not styled:
        target = Target(named, "heading")  # a section renamed: its heading
    if target is not None and (verb in CHANGE or verb not in VERBS):
        value, why = new_words(clause, cut)
        if why:
            return Reading(40, (), why=why)
        if value:
            return Reading(40, (SetText(target, value),))
    return None


def new_words(clause: Clause, cut: int) -> tuple[str, str]:
    """(the new words from ``cut`` (in ``lbody``) on, "") or ("", what was not understood).

    Quoted words are the words, and only polite fillers may stand beside them;
    "wrong, it should be …" gives what follows it; any other "should be" is not
    understood, so the words of a correction never land on the page.
    """
    rest, lrest = clause.body[cut:], clause.lbody[cut:]
    if "\x00" in rest:
        close = rest.find("\x00", rest.find("\x00") + 1)
        outside = clause.words_of(clause.at + cut, clause.at + cut + rest.find("\x00"))
        outside += clause.words_of(clause.at + cut + close + 1, len(clause.lower))
        left = [w for w in outside if w not in FILLERS]
        if left:
            return "", f'I did not understand "{" ".join(left)}" beside the quoted words'
        return value_of(rest[: close + 1], clause.runs), ""
    marks = [(lrest.rfind(m) + len(m), lrest.rfind(m)) for m in _CORRECTIONS if m in lrest]
    at, start = max(marks, default=(-1, -1))
    if at >= 0:
        before = clause.words_of(clause.at + cut, clause.at + cut + start)
        if not set(before) <= _CORRECTION_WORDS:
            return "", f'I did not understand "{" ".join(before)}"'
        rest = rest[at:]
    value = value_of(rest, clause.runs)
    if {w.strip(".,!?").lower() for w in value.split()} <= _CORRECTION_WORDS:
        return "", "I found no new words"  # "the headline is wrong": what should it say?
    for words in _CLOSING:
        if value.lower().endswith(words) and len(value) > len(words):
            value = value[: -len(words)].rstrip(" ,")
    return value, ""


#: Words asking for more words in a section ("add a bit more to our story").
_MORE: Final = frozenset(
    {"a", "bit", "little", "some", "few", "more", "words", "detail", "details", "text", "sentence",
     "sentences", "line", "lines", "or", "two", "couple", "of"}
)  # fmt: skip


def _read_more(clause: Clause) -> Reading | None:
    """"add a bit more to our story": that section's text longer (its words from the brief and facts)."""
    lbody, verb = clause.lbody, clause.verb
    at = lbody.find(" to ")
    asked = clause.words_of(clause.at + len(verb), clause.at + at) if at > 0 else []
    if verb not in ADD or "more" not in asked or not set(asked) <= _MORE:
        return None
    if any(mark in lbody[at:] for mark in (",", " - ", "(")):
        return None  # a remark or an aside: the add reader's refusal stands
    section = " ".join(clause.words_of(clause.at + at + 4, len(clause.lower)))
    section = section.removeprefix("the ").removesuffix(" section").strip()
    if not section or target_of(section) is not None or " and " in f" {section} " or len(kinds_in(section)) > 1:
        return None
    # Above the add reader's: "our story" names the about section to lengthen, not one to add.
    return Reading(88, (Resize(Target(section, "text"), longer=True),))


def _read_resize(clause: Clause) -> Reading | None:
    more = _read_more(clause)
    if more is not None:
        return more
    words, lower, verb = clause.words, clause.lower, clause.verb
    shorter = any(w.strip(".,!") in SHORTER for w in words) or "cut down" in lower
    longer = any(w.strip(".,!") in LONGER for w in words)
    taller = any(w.strip(".,!") in _TALLER for w in words)
    if shorter == taller or " palette" in lower or " colour" in lower:
        return None
    phrase = " ".join(w for w in words[clause.k :] if w.strip(".,!") not in SHORTER | _TALLER)
    target = target_of(phrase.replace(verb, " ", 1) if verb in CHANGE else phrase)
    if target is not None:
        return Reading(60, (Resize(target, longer),)) if shorter != longer else None
    band = {w.strip(".,!?").lower() for w in phrase.split()} - CHANGE - _FILLER
    if band and band <= set(SECTION_WORDS["hero"]):
        # "make the hero shorter": the band itself, not its words.
        return Reading(55, (Restyle("height", "taller" if taller else "shorter", "hero"),))
    return None


def _plan_set_text(request: SetText, page: PageView, _context: Context) -> Edit | Refusal:
    return set_text(page, request)


def _plan_resize(request: Resize, page: PageView, context: Context) -> Edit | Refusal:
    return resize(page, request, context)


SET_TEXT: Final = Intent(
    "set text",
    _read_set_text,
    (SetText,),
    _plan_set_text,
    "set a heading, text or button to your words",
)
RESIZE: Final = Intent(
    "shorter or longer words",
    _read_resize,
    (Resize,),
    _plan_resize,
    "make a heading or text shorter or longer",
)


