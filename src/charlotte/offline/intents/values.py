"""The intent on one value a page states, said anew: a time, a number with its unit, a handle, a phrase.

"Poetry night has moved to 7:30pm", "change the catering minimum to 30
guests", "We now cover up to 30 miles from York", "change instagram to
@thistletwine", "Could you write 'Children from age 5' instead?". The new
value has a shape (a time, a number and the word after it, an @handle, or a
quoted phrase that differs from one on the page by its number); the clause's
other words, linking words aside, must all be said where the page states the
old value (its text, its row, its band's title). Exactly one such place
changes, and only the value in it; none or more than one changes nothing.
"""

from __future__ import annotations

import re
from typing import Any, Final

from charlotte.offline.edits import Context, Edit, Refusal
from charlotte.offline.intents.intent import (
    ADD,
    CHANGE,
    FILLERS,
    MOVE,
    OTHER_VERBS,
    REMOVE,
    Clause,
    Intent,
    Reading,
)
from charlotte.offline.intents.price_places import name_words
from charlotte.offline.requests import ChangeValue
from charlotte.sections.page_view import PROP, PageView

__all__ = ["CHANGE_VALUE"]

_TIME: Final = re.compile(r"\b\d{1,2}(?:[:.]\d{2})?\s?(?:am|pm)\b", re.IGNORECASE)
_NUMBER: Final = re.compile(r"\b(\d+(?:\.\d+)?)\s+([a-z]+)\b", re.IGNORECASE)
_HANDLE: Final = re.compile(r"(?<![\w@])@[A-Za-z0-9_.]*[A-Za-z0-9_]")
_DIGITS: Final = re.compile(r"\d+(?:[.,:]\d+)?")
#: Words that link what is named to its new value; any other word must be said where the value is.
_LINKS: Final = FILLERS | CHANGE | frozenset(
    {"the", "a", "an", "to", "is", "are", "has", "have", "had", "moved", "changed", "be", "should",
     "it", "its", "it's", "our", "my", "up", "from", "at", "cover", "covers", "we've", "we're",
     "i've", "of", "for", "new", "chnage", "udpate", "updated", "been", "gone", "goes", "now",
     "write", "say", "says", "read", "reads", "instead", "put", "that", "this"}
)  # fmt: skip
_NEGATIONS: Final = frozenset({"not", "don't", "dont", "never", "no", "doesn't", "isn't", "won't"})
_TEXT_WORDS: Final = frozenset(
    {"headline", "heading", "title", "button", "label", "text", "intro", "subheading", "tagline"}
)
#: What a number counts when it is the look, not a value the page states ("24 px", "3 columns").
_LOOK_UNITS: Final = frozenset(
    {"px", "pt", "em", "rem", "percent", "pixels", "pixel", "columns", "column", "rows", "photos",
     "images", "pictures", "photo", "image", "picture", "sections", "section", "words", "lines"}
)  # fmt: skip
#: Words after a number that are not what it counts ("30 to 40", "5 and 6").
_NOT_UNITS: Final = frozenset(
    {"to", "and", "or", "am", "pm", "now", "please", "instead", "the", "a", "an", "from", "on", "only",
     "at", "in", "for", "of", "til", "till", "until", "by", "with", "each", "per", "every", "is",
     "are", "then", "too", "as", "but", "so", "if", "we", "i", "it", "o'clock", "oclock"}
)  # fmt: skip


def _value(clause: Clause) -> tuple[str, str, str, tuple[int, int]] | None:
    """(the new value as written, its shape, its unit, its span in the clause), or None."""
    text = clause.text
    if text.count("\x00") == 2:
        run = clause.runs[int(text.split("\x00")[1])]
        if len(_DIGITS.findall(run)) == 1:
            start = text.find("\x00")
            return run, "quote", "", (start, text.find("\x00", start + 1) + 1)
        return None
    if "\x00" in text:
        return None
    for shape, pattern in (("time", _TIME), ("handle", _HANDLE)):
        found = list(pattern.finditer(text))
        if len(found) == 1:
            return found[0].group(0), shape, "", found[0].span()
        if found:
            return None
    numbers = [m for m in _NUMBER.finditer(text) if m.group(2).lower() not in _NOT_UNITS]
    if len(numbers) == 1 and len(_DIGITS.findall(text)) == 1:
        match = numbers[0]
        return match.group(0), "number", match.group(2).lower(), match.span()
    return None


def _read(clause: Clause) -> Reading | None:
    if any(f.kind in ("price", "phone", "email", "url") for f in clause.found):
        return None
    words = set(clause.words_of(0, len(clause.lower)))
    if words & _TEXT_WORDS or words & _NEGATIONS or clause.verb in ADD | REMOVE | MOVE | OTHER_VERBS - {"write"}:
        return None
    found = _value(clause)
    if found is None:
        return None
    value, shape, unit, (start, end) = found
    named = [w for w in clause.words_of(0, start) + clause.words_of(end, len(clause.lower)) if w not in _LINKS]
    if shape == "quote" and named:
        return None  # a quoted phrase with other words is a text change, not a value
    if (shape != "quote" and not named) or unit in _LOOK_UNITS:
        return None  # a value with nothing naming where it is, or a size of the look
    return Reading(45, (ChangeValue(value, shape, tuple(named), unit),))


def _spans(text: str, request: ChangeValue) -> list[tuple[int, int]]:
    """Where ``text`` states a value of the request's shape (the digits only, for a number)."""
    if request.shape == "time":
        return [m.span() for m in _TIME.finditer(text)]
    if request.shape == "handle":
        return [m.span() for m in _HANDLE.finditer(text)]
    if request.shape == "number":
        unit = name_words(request.unit)
        return [m.span(1) for m in _NUMBER.finditer(text) if name_words(m.group(2)) == unit]
    head, digits, tail = _DIGITS.split(request.value, 1)[0], _DIGITS.search(request.value), ""
    if digits is None:
        return []
    tail = request.value[digits.end() :]
    pattern = re.compile(re.escape(head) + r"\d+(?:[.,:]\d+)?" + re.escape(tail), re.IGNORECASE)
    return [m.span() for m in pattern.finditer(text)]


def _context(page: PageView, node: Any) -> set[str]:
    """The words said where ``node`` is: its own, its row's, its band's title."""
    parent = node.get("parent")
    row = [page.words(n) for n in page.nodes if parent is not None and n.get("parent") == parent]
    root = page.root_of(str(node["id"]))
    title = page.title(root) if root else ""
    return set(name_words(" ".join([page.words(node), *row, title])))


def _plan(request: ChangeValue, page: PageView, _context_: Context) -> Edit | Refusal:
    named = set(name_words(" ".join(request.named)))
    places: list[tuple[Any, int, int]] = []
    for node in page.nodes:
        if node.get("type") not in ("text", "heading") and not (node.get("type") == "link" and request.shape == "handle"):
            continue
        text = page.words(node)
        spans = _spans(text, request)
        if spans and named <= _context(page, node):
            places += [(node, start, end) for start, end in spans]
    what = f'"{" ".join(request.named)}"' if request.named else "it"
    if not places:
        return Refusal(f"the page shows no value like {request.value} where it says {what}")
    if len(places) > 1:
        shown = ", ".join(sorted({page.words(n)[a:b] for n, a, b in places}))
        return Refusal(f"the page shows more than one value like {request.value} ({shown}); which one is not clear")
    node, start, end = places[0]
    text = page.words(node)
    new = _DIGITS.search(request.value) if request.shape == "number" else None
    value = new.group(0) if new else request.value
    if text[start:end] == value:
        return Refusal(f"the page already says {request.value}")
    patch = {PROP[str(node["type"])]: text[:start] + value + text[end:]}
    if node.get("type") == "link":
        # A handle that links to its profile: the address follows it ("@old" → ".../new").
        href = str((node.get("props") or {}).get("href", ""))
        old_name, new_name = text[start:end].lstrip("@"), value.lstrip("@")
        if not re.search(rf"[/@]{re.escape(old_name)}/?$", href):
            return Refusal(f"the link's address does not end with {text[start:end]}; change it by hand")
        patch["href"] = href[: href.rindex(old_name)] + new_name + href[href.rindex(old_name) + len(old_name) :]
    op = {"t": "set_node_props", "id": node["id"], "patch": patch}
    was = f"{text[start:end]} {request.unit}" if request.shape == "number" else text[start:end]
    return Edit((op,), f'changed "{was}" to "{request.value}"')


CHANGE_VALUE: Final = Intent(
    "change a value the page states",
    _read,
    (ChangeValue,),
    _plan,
    "change a time, a number, a handle or a phrase the page states (\"poetry night has moved to 7:30pm\")",
)
