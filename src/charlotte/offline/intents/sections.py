"""The intents on a page's sections: add one, remove one, move one.

"Add an FAQ", "add a call to action at the bottom", "remove the gallery",
"put the pricing above services". A section is named by its kind (the words of
``sections/catalogue.py``'s ``KIND_NAMES``) or by its heading's words.
"""

from __future__ import annotations

import re
from typing import Final

from charlotte.offline.clauses import folded, unquote
from charlotte.offline.edits import Context, Edit, Refusal, add, move, remove
from charlotte.offline.intents.intent import (
    ADD,
    MOVE,
    OTHER_VERBS,
    REMOVE,
    VERBS,
    Clause,
    Intent,
    Reading,
)
from charlotte.offline.intents.quotes import plan_quotes, quote_after
from charlotte.offline.requests import AddSection, MoveSection, RemoveSection, Request, Unsupported
from charlotte.sections.catalogue import SECTION_WORDS, kind_spans, kinds_in
from charlotte.sections.page_view import PageView

__all__ = ["ADD_SECTION", "MOVE_SECTION", "REMOVE_SECTION", "object_phrase", "position", "resolved"]

_POSITIONS: Final = (
    (" to the top", "top"), (" at the top", "top"), (" to the bottom", "bottom"),
    (" at the bottom", "bottom"), (" to the end", "bottom"), (" at the end", "bottom"),
    (" near the top", "top"), (" at the start", "top"), (" near the bottom", "bottom"),
    (" near the end", "bottom"), (" first", "top"), (" last", "bottom"),
    (" to the very top", "top"), (" at the very top", "top"), (" to the very bottom", "bottom"),
    (" at the very bottom", "bottom"), (" to the very end", "bottom"), (" at the very end", "bottom"),
)  # fmt: skip
#: Words between a section's name and where it goes that say only how exactly ("straight after").
_EXACTLY: Final = frozenset({"straight", "right", "just", "directly", "immediately", "up", "down"})
#: A clause wanting a section somewhere without a verb: "I'd like the FAQ after the fees".
_WANT: Final = ("i'd like ", "i would like ", "we'd like ", "we would like ", "i want ", "we want ", "id like ")
#: "The about me bit should come first": a section, a modal, a verb of place, where.
_SHOULD = re.compile(
    r"^(?P<named>.+?) (?:should|could|can|must|needs? to|has to|have to|ought to|would) "
    r"(?:come|go|be|sit|appear|move)(?: (?:moved|put|placed))? (?P<where>.+)$"
)
#: What may follow "to the top" and its kin: "near the top of the page".
_PAGE_WORDS: Final = frozenset({"", "of the page", "of the site", "of it"})
_RELATIVE: Final = (
    (" above ", "above"), (" before ", "above"), (" over ", "above"),
    (" below ", "below"), (" after ", "below"), (" under ", "below"), (" beneath ", "below"),
)  # fmt: skip
_ABOUT_WHAT = ("our", "the", "my", "how", "what", "when", "where", "who")
#: Words that may follow a section's name in an add clause ("an FAQ section", "a map below …").
_AFTER_NAME = frozenset(
    {"", "section", "sections", "part", "block", "bit", "area", "page", "panel", "list", "table",
     "grid", "box", "and", "or", "with", "to", "at", "on", "in", "below", "above", "before",
     "after", "under", "over", "beneath", "then", "please", "too", "as", "for", "from", "of",
     "that", "which", "here", "there", "near", "next", "about", "showing", "also", "&"}
)  # fmt: skip


#: Words opening a question ("what space do you need", "do you bring music").
_QUESTION_WORDS: Final = frozenset(
    {"what", "how", "when", "where", "who", "which", "why", "do", "does", "can", "is", "are", "will",
     "should", "have", "has"}
)  # fmt: skip
#: Words saying questions are the common ones ("people always ring us about", "customers ask").
_ASKING: Final = frozenset({"ask", "asks", "asked", "ring", "call", "phone", "email", "e-mail", "message"})
_ASKED_OFTEN: Final = _ASKING | frozenset(
    {"people", "customers", "clients", "parents", "patients", "owners", "guests", "everyone", "always",
     "often", "usually", "keep", "us", "me", "about", "most", "we", "i", "get", "all", "the", "time",
     "a", "lot", "that", "which"}
)  # fmt: skip

#: Words that may go on a list of sections after a comma ("the gallery, and the team too").
_LIST_WORDS: Final = frozenset(
    {"and", "or", "&", "the", "a", "an", "our", "my", "section", "sections", "part", "bit", "too",
     "also", "as", "well", "both", "please"}
)  # fmt: skip
#: Words that make a clause ask something other than a place ("the headline to be bigger").
_NOT_A_NAME: Final = frozenset({"to", "be", "is", "are", "say", "says", "read", "look", "bigger", "smaller"})
#: Words placing the thing named inside a section ("the photos from the gallery").
_INSIDE: Final = ("from", "in", "on", "inside", "within", "under", "of")
#: Words standing for the section the request before named ("add an FAQ and move it to the end").
_PRONOUNS: Final = frozenset({"it", "them", "that", "this", "this one", "that one", "that section", "this section"})
_ON_PAGE: Final = (
    " from the page", " from the site", " from the website", " from the homepage",
    " off the page", " on the page", " from it",
)  # fmt: skip


def position(lower: str) -> tuple[str | None, str | None, int]:
    """(where, anchor words, where the position words start) in a clause."""
    for words, where in _POSITIONS:
        at = lower.find(words)
        if at >= 0 and lower[at + len(words) :].strip(" .,!") in _PAGE_WORDS:
            return where, None, at
    for words, where in _RELATIVE:
        at = lower.find(words)
        if at >= 0:
            anchor = lower[at + len(words) :].strip(" .,!()")
            return where, anchor or None, at
    return None, None, -1


def places(lower: str) -> tuple[tuple[str | None, str | None, int], tuple[str, str | None] | None]:
    """The position a clause says, and a second one an aside after it gives ("first (after the top bit)").

    The aside must itself be only a position; the first is what the move does, the
    second what it must agree with.
    """
    for cut in (", ", " (", " - "):
        k = lower.find(cut)
        if k <= 0:
            continue
        first = position(lower[:k])
        where, anchor, at = position(" " + lower[k + len(cut) :].strip(" .,!()"))
        if first[0] is not None and where is not None and at == 0:
            return first, (where, anchor)
    return position(lower), None


def _named(words: str) -> str:
    """The section's words before its position: no article, "section" or "straight" ("right under")."""
    split = words.strip(" .,").split()
    while split and split[-1] in _EXACTLY:
        split.pop()
    named = " ".join(split)
    for article in ("the ", "our ", "my "):
        named = named.removeprefix(article)
    return named.removesuffix(" section").strip()


def _sections_added(rest: str) -> list[str]:
    """The kinds an add clause names as sections: not as a word describing something else.

    "a booking calendar", "a contact form": the kind's name is followed by another noun, so
    the person asks for a thing the builder cannot make, not for that section. "The
    questions people always ring us about": questions said to be the common ones are the FAQ.
    """
    return [
        kind
        for at, kind, after in kind_spans(rest)
        if after in _AFTER_NAME or (kind == "faq" and _common(rest[at:]))
    ]


def _common(named: str) -> bool:
    """Whether "questions …" goes on only to say they are the ones people always ask."""
    words = [w.strip(".,!?") for w in named.split()[1:]]
    return bool(words) and all(w in _ASKED_OFTEN for w in words) and bool(_ASKING & set(words))


def _rest(clause: Clause) -> tuple[str, str]:
    """(the verb, the words after it), "get rid of" and "take out" read as remove."""
    verb, rest = clause.verb, clause.lbody[len(clause.verb) :] if clause.verb else clause.lbody
    rest = folded(unquote(rest, clause.runs))  # "add a 'find us' section": the quoted name
    if verb in ("get", "take") and (" rid of " in f" {rest} " or rest.startswith(" out")):
        return "remove", rest.replace(" rid of ", " ", 1).replace(" out ", " ", 1)
    return verb, rest


def object_phrase(rest: str) -> str:
    """The words a remove or move clause acts on: up to a remark after a comma or a dash.

    "the find us section, the address is in the contact bit anyway": the remark names
    the contact section but asks nothing of it. A list going on after the comma ("the
    gallery, and the team too") is still the object.
    """
    for mark in (", ", " - ", " \u2013 ", " \u2014 ", " because ", " since ", " as "):
        at = rest.find(mark)
        if at < 0:
            continue
        tail = " " + " ".join(rest[at + len(mark) :].strip(" .,!").split()) + " "
        kinds = kinds_in(tail)
        for name in (n for kind in kinds for n in SECTION_WORDS[kind]):
            tail = tail.replace(f" {name} ", " ")
        if kinds and all(w in _LIST_WORDS for w in tail.split()):
            continue  # the list goes on
        return rest[:at]
    return rest


def _read_remove(clause: Clause) -> Reading | None:
    verb, rest = _rest(clause)
    if verb not in REMOVE:
        return None
    if any(f.kind == "price" for f in clause.found):
        # "drop the lessons to £30" lowers a price: it takes nothing off the page.
        return None
    said = object_phrase(rest).strip(" .!,")
    for words in _ON_PAGE:
        said = said.removesuffix(words)
    if any(f" {w} " in f" {said} " for w in _INSIDE):
        # "the photos from the gallery": something inside a section, not the section.
        return Reading(90, (), why="it names something inside a section, not a section")
    kinds = kinds_in(said)
    if kinds and _beyond_names(said, kinds):
        # "cut the prices by 10%", "delete the second testimonial", "drop the menu font size":
        # words beyond the sections' names ask something else of them, never their removal.
        return Reading(90, (), why="it asks something of a section besides removing it")
    named = said.strip(" .!").removeprefix("the ").removesuffix(" section").strip()
    found = [RemoveSection(k) for k in kinds] or ([RemoveSection(named)] if named else [])
    return Reading(90, tuple(found), why="it names no section of the page")


#: Words around sections' names in a removal that ask nothing more ("the whole gallery section").
_AROUND_NAMES: Final = frozenset(
    {"the", "a", "our", "my", "your", "section", "sections", "part", "bit", "block", "band", "and",
     "&", "both", "whole", "entire", "all", "please", "too", "also", "completely", "altogether",
     "then", "this", "that", "as", "well", "thing", "stuff", "list", "one", "box", "area", "for",
     "now", "pls", "plz", "thanks", "thx", "moment", "temporarily", "any", "more", "anymore", "just"}
)  # fmt: skip


def _beyond_names(said: str, kinds: list[str]) -> bool:
    """True when ``said`` holds words besides the names of ``kinds`` and the words around them."""
    padded = " " + " ".join(w.strip("'\"\u2018\u2019\u201c\u201d,.!?") for w in said.split()) + " "
    for kind in kinds:
        phrase = next((p for p in SECTION_WORDS[kind] if f" {p} " in padded), None)
        if phrase is not None:
            padded = padded.replace(f" {phrase} ", " ", 1)
    return any(w not in _AROUND_NAMES for w in padded.split())


def _asked(rest: str) -> tuple[str, tuple[str, ...]] | None:
    """``rest`` without a closing parenthesis of questions ("an FAQ (what space do you need, …)"),
    and the questions; None when the parenthesis holds anything but questions."""
    open_at = rest.find("(")
    close_at = rest.find(")", open_at)
    if open_at < 0 or close_at < 0 or rest[close_at + 1 :].strip(" .!?"):
        return None
    parts = [p.strip(" ?.") for p in rest[open_at + 1 : close_at].replace("?", ",").split(",")]
    parts = [p.removesuffix(" etc").removesuffix(" and so on").strip() for p in parts]
    questions = tuple(p for p in parts if p and p != "etc")
    if not questions or any(p.split()[0] not in _QUESTION_WORDS for p in questions):
        return None
    return rest[:open_at], questions


def _read_add(clause: Clause) -> Reading | None:
    verb, rest = _rest(clause)
    if verb not in ADD:
        return None
    given = quote_after(clause)
    if given is not None:
        at, quote, by = given
        head = _read_add(Clause.of(clause.text[:at], clause.runs))
        kinds = [r.kind for r in head.requests if isinstance(r, AddSection)] if head else []
        if kinds != ["testimonials"]:
            return Reading(85, (), why="a quote goes in a testimonials section")
        return Reading(85, (AddSection("testimonials", quotes=((quote, by),)),))
    runs = [clause.runs[int(p)] for k, p in enumerate(clause.text.split("\x00")) if k % 2 and p.isdigit()]
    if "testimonials" in kinds_in(rest) and any("testimonials" not in kinds_in(folded(r)) for r in runs):
        # "add 'great' to the reviews": a quote not read as one, never a section without it.
        return Reading(85, (), why="I could not tell what the quoted words are; write \"here's a review: '…' - their name\"")
    asked = _asked(rest)
    if asked is None and "(" in rest:
        return Reading(85, (), why="I did not understand the words in brackets")
    if asked is not None:
        head = _read_add(Clause.of(clause.text[: clause.text.find("(", clause.at)], clause.runs))
        kinds = [r.kind for r in head.requests if isinstance(r, AddSection)] if head else []
        if kinds != ["faq"]:
            return Reading(85, (), why="it is not a kind of section I can build")
        return Reading(85, (AddSection("faq", asked=asked[1]),))
    where, anchor, at = position(rest)
    kinds = _sections_added(rest[:at] if at >= 0 else rest)
    if len(kinds) > 1 and any(f" about {w} " in f"{rest} " for w in _ABOUT_WHAT):
        kinds.remove("about")  # "a section about our team": about is the preposition
    ends = rest.strip(" .,!?").split()
    if "about" in kinds and ends[-1:] == ["about"] and ends[-2:-1] not in (["an"], ["the"], ["our"], ["my"]):
        kinds.remove("about")  # "the questions people ring us about": a preposition at the end
    found = tuple(AddSection(kind, where, anchor) for kind in kinds if kind != "hero")
    return Reading(85, found, why="it is not a kind of section I can build")


def _read_move(clause: Clause) -> Reading | None:
    verb, rest = _rest(clause)
    if verb not in MOVE:
        return _read_placed(clause)
    (where, anchor, at), also = places(rest)
    if where is None:
        return None
    named = _named(rest[:at])
    return Reading(80, (MoveSection(named, where, anchor, also),)) if named else None


def _read_placed(clause: Clause) -> Reading | None:
    """A section wanted somewhere without a verb of moving: "I'd like the reviews after the banner",
    "the 'about me' bit should come first". The section must be named by the catalogue's words
    or be a short name (a heading's), never a phrase that asks something else of it.
    """
    lbody = folded(unquote(clause.lbody, clause.runs)).strip(" .!?")
    should = _SHOULD.match(lbody)
    if should is not None:
        named, rest = should["named"], " " + should["where"]
        (where, anchor, at), also = places(rest)
        if at != 0:
            return None
    elif clause.lower.startswith(_WANT) and clause.verb not in VERBS | OTHER_VERBS:
        lbody = next((lbody[len(w) :] for w in _WANT if lbody.startswith(w)), lbody)
        (where, anchor, at), also = places(lbody)
        named = lbody[:at] if at > 0 else ""
        if not named.startswith(("the ", "our ", "my ")) and not kinds_in(named):
            return None  # "I want a blue background at the top": no section of the page
    else:
        return None
    named = _named(named)
    if where is None or not named or not (kinds_in(named) or len(named.split()) <= 3):
        return None
    if any(c.isdigit() for c in f"{anchor or ''}{also or ''}"):
        return None  # "prices should be under £50": an amount, not a section
    if any(w in _NOT_A_NAME for w in named.split()):
        return None
    return Reading(70, (MoveSection(named, where, anchor, also),))


def resolved(requests: list[Request]) -> list[Request]:
    """``requests`` with a move of "it" aimed at the section the request before it added or moved.

    "Add an FAQ and move it to the end": "it" is the FAQ. With no such request before
    it ("move it to the top" alone, or after a text change), nothing is guessed: the
    move is refused.
    """
    out: list[Request] = []
    for request in requests:
        if isinstance(request, MoveSection) and request.section in _PRONOUNS:
            before = out[-1] if out else None
            named = (
                before.kind if isinstance(before, AddSection)
                else before.section if isinstance(before, MoveSection)
                else None
            )  # fmt: skip
            if named is None:
                words = f"move {request.section}"
                why = f'I could not tell which section "{request.section}" is; say its name'
                request = Unsupported(words, f'"{words}": {why}, for example "move the FAQ to the bottom"')
            else:
                request = MoveSection(named, request.where, request.anchor)
        out.append(request)
    return out


def _plan_add(request: AddSection, page: PageView, context: Context) -> Edit | Refusal:
    if request.quotes:
        return plan_quotes(page, request, context)
    edit = add(page, request, context)
    if not isinstance(edit, Edit) or not request.asked:
        return edit
    asks = " ".join(
        str(op["node"].get("props", {}).get("content", "")).lower()
        for op in edit.ops
        if op.get("t") == "insert_node" and op["node"].get("type") == "heading"
    )
    missing = [q for q in request.asked if q.lower() not in asks]
    if not missing:
        return edit
    named = " or ".join(f'"{q}"' for q in missing)
    said = f"{edit.said}; nothing in the brief or the facts answers {named}, so add those by hand"
    return Edit(edit.ops, said)


def _plan_remove(request: RemoveSection, page: PageView, _context: Context) -> Edit | Refusal:
    return remove(page, request)


def _plan_move(request: MoveSection, page: PageView, _context: Context) -> Edit | Refusal:
    return move(page, request)


ADD_SECTION: Final = Intent(
    "add a section",
    _read_add,
    (AddSection,),
    _plan_add,
    "add a section the brief and the facts can fill (an FAQ, a gallery, opening hours, …)",
)
REMOVE_SECTION: Final = Intent(
    "remove a section", _read_remove, (RemoveSection,), _plan_remove, "remove a section"
)
MOVE_SECTION: Final = Intent(
    "move a section",
    _read_move,
    (MoveSection,),
    _plan_move,
    "move a section above or below another, or to the top or bottom",
)
