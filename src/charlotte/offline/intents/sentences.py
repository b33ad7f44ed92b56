"""A section made longer with the person's own sentences, or from the brief when they give none.

"Please expand the about me section a little - mention I've practised for
twelve years": the words after *mention* go on the about text, as written.
"Could you add a sentence or two more about the studio? It's a lovely light
room with big windows over the park.": the sentences that follow are the ones
to add (``filled``). "The about section could do with more": that text made
longer as *make the about text longer* does (a sentence of the brief or the
facts the page does not show yet). Nothing is invented: the new words are the
person's, or the brief's and the facts'.
"""

from __future__ import annotations

import re
from typing import Final

from charlotte.offline.clauses import unquote
from charlotte.offline.edits import Context, Edit, Refusal, band_of
from charlotte.offline.intents.intent import ADD, Clause, Intent, Reading
from charlotte.offline.requests import AddSentences, Request, Resize, Target
from charlotte.sections.additions import KIND_TITLES
from charlotte.sections.catalogue import kinds_in
from charlotte.sections.page_view import PROP, PageView

__all__ = ["ADD_SENTENCES", "filled", "finished", "sentence"]

#: Verbs that make a section's words longer.
_EXPAND: Final = frozenset({"expand", "lengthen", "extend", "flesh"})
#: Words for the business itself: a sentence "about us" goes on the about section.
_SELF: Final = frozenset(
    {"us", "me", "myself", "ourselves", "the business", "the studio", "the shop", "the practice",
     "the clinic", "the salon", "the company", "the firm", "the school", "the cafe", "the bakery"}
)  # fmt: skip
_SENTENCES = re.compile(
    r"^(?:a |one |another |an extra |a couple of )?(?:sentence|line|few words|sentences|lines)"
    r"(?: or two| or so)?(?: more)? (?:about|on|to|for) (?P<section>.+?)(?:: (?P<words>.+))?$"
)
_MENTION = re.compile(
    r"^(?P<section>.+?)(?: a (?:little|bit)| slightly| a touch)?"
    r"(?: - | \u2013 | \u2014 |, | and |: | to )(?:mention|say|saying|add|adding|include)(?: that)? (?P<words>.+)$"
)
_MORE = re.compile(
    r"^(?:the )?(?P<section>.+?) (?:could do with|could use|needs|wants|would benefit from) "
    r"(?:a (?:bit|little|few words|little bit) |some )?more(?: words| text| detail| details| on it| in it)?$"
)
#: "expand the about section a little", "make the about section longer": its text, from the brief.
_WHOLE = re.compile(
    r"^(?P<section>.+? (?:section|bit|part))(?: a (?:little|bit)| slightly)?(?P<longer> longer)?$"
)
#: Words a sentence the person dictates opens with ("mention I've practised for twelve years").
_SUBJECTS: Final = frozenset(
    {"i", "i'm", "i've", "i'd", "i'll", "we", "we're", "we've", "we'd", "we'll", "she", "she's", "he",
     "he's", "they", "they're", "it", "it's", "there", "there's", "you", "you'll", "everyone", "all"}
)  # fmt: skip
#: Words of a remark on the page or its words rather than on the business ("it's a bit thin").
_ABOUT_THE_PAGE: Final = frozenset(
    {"feels", "looks", "seems", "thin", "short", "long", "boring", "empty", "bare", "sparse", "page",
     "section", "text", "website", "words", "wordy", "please", "thanks", "can", "could", "?"}
)  # fmt: skip
#: Sentences that may follow a request for "a sentence or two" (the rest is not read as theirs).
_MAX_SENTENCES: Final = 3


def _section(named: str) -> str | None:
    """The section a phrase names for a sentence: the about section for the business, else a kind."""
    named = named.strip(" .,!?").removesuffix(" section").strip()
    if named in _SELF:
        return "about"
    kinds = kinds_in(named)
    if len(kinds) == 1 and len(named.split()) <= 4:
        return named.removeprefix("the ").removeprefix("our ").removeprefix("my ")
    return None


def sentence(words: str) -> str:
    """The person's words as a sentence: a capital first, a full stop last."""
    words = " ".join(words.split()).strip(" ,;")
    for polite in (" please", " thanks", " thank you", " pls", " cheers"):
        if words.lower().endswith(polite):
            words = words[: -len(polite)].rstrip(" ,;")  # the person's manners stay off the page
    if not words:
        return ""
    return words[0].upper() + words[1:] + ("" if words[-1] in ".!?" else ".")


def _a(title: str) -> str:
    return f"{'an' if title[:1].lower() in 'aeiou' else 'a'} {title}"


def _read(clause: Clause) -> Reading | None:
    lbody = unquote(clause.lbody, clause.runs).strip(" .!?")
    body = unquote(clause.body, clause.runs).strip(" .!?")
    verb = clause.verb
    more = _MORE.match(lbody)
    if more is not None:
        named = _section(more["section"])
        return Reading(66, (Resize(Target(named, "text"), longer=True),)) if named else None
    rest, original = lbody[len(verb) :].strip(), body[len(verb) :].strip()
    if verb in ADD and (asked := _SENTENCES.match(rest)) is not None:
        named = _section(asked["section"])
        if named is None:
            return Reading(86, (), why="I could not tell which section the sentence is for")
        words = sentence(original[asked.start("words") :]) if asked["words"] else ""
        return Reading(86, (AddSentences(named, words),))
    # "expand the about bit - mention …", and "add to the about bit, mention …" (its object the section).
    skip = 3 if verb in ADD and rest.startswith("to ") else 0
    if (verb in _EXPAND or skip) and (asked := _MENTION.match(rest[skip:])) is not None:
        named = _section(asked["section"])
        said = asked["words"].split()
        if named is None:
            return None
        if said[0] not in _SUBJECTS or len(said) < 3:
            # "mention prices": what to write about, not the words to write.
            return Reading(86, (), why="say the sentence to add in your own words")
        return Reading(86, (AddSentences(named, sentence(original[skip + asked.start("words") :])),))
    band = _WHOLE.match(rest) if verb in _EXPAND or verb == "make" else None
    if band is not None and (verb != "make" or band["longer"]):
        named = _section(band["section"])
        if named is None or kinds_in(named) == ["hero"]:
            return None  # the hero made longer is a taller band (``text.py``)
        return Reading(64, (Resize(Target(named, "text"), longer=True),))
    return None


def filled(last: Request | None, part: str, taken: int) -> AddSentences | None:
    """"Add a sentence about the studio? It's a lovely light room …": ``last`` with ``part`` (a
    sentence after it, the ``taken``-th) as words to add, or None when ``part`` is not one of them."""
    if not isinstance(last, AddSentences) or (last.sentences and not taken) or taken >= _MAX_SENTENCES:
        return None
    if {w.strip(".,!?").lower() for w in part.split()} & _ABOUT_THE_PAGE:
        return None  # "It feels short": a remark on the page, not words for it
    words = sentence(part)
    return AddSentences(last.section, f"{last.sentences} {words}".strip()) if words else None


def finished(requests: list[Request]) -> list[Request]:
    """``requests`` with a sentence request given no words made a longer text from the brief and facts."""
    return [
        Resize(Target(r.section, "text"), longer=True) if isinstance(r, AddSentences) and not r.sentences else r
        for r in requests
    ]


def _plan(request: AddSentences, page: PageView, _context: Context) -> Edit | Refusal:
    root = band_of(page, request.section)
    if isinstance(root, Refusal):
        kinds = kinds_in(request.section)
        first = f' (say "add {_a(KIND_TITLES.get(kinds[0], kinds[0]))} section" first)' if kinds else ""
        return Refusal(f"{root.reason}{first}")
    node = next((n for n in page.inside(root) if n.get("type") == "text"), None)
    if node is None:
        return Refusal(f"the {page.label(root)} section has no text to add a sentence to")
    now = page.words(node)
    if request.sentences.casefold().rstrip(".") in now.casefold():
        return Refusal(f"the {page.label(root)} section already says that")
    new = f"{now.rstrip()} {request.sentences}".strip()
    if len(new) > 5_000:
        return Refusal(f"the {page.label(root)} text would be longer than a text may be")
    op = {"t": "set_node_props", "id": node["id"], "patch": {PROP["text"]: new}}
    return Edit((op,), f'added your words to the {page.label(root)} section: "{request.sentences}"')


ADD_SENTENCES: Final = Intent(
    "add your sentences to a section",
    _read,
    (AddSentences,),
    _plan,
    "add your own sentences to a section's text (\"expand the about section - mention I've practised for twelve years\")",
)
