"""The intent on a list a band states: "Add Portishead to the areas we cover", "add Jess to the team, she does extensions".

The items are the words between the verb and "to", as written, split at
commas and "and" ("Syston and Anstey"); the list is a band the words after
"to" name (``_LISTS``: the areas a business covers, the languages it teaches;
or a listing kind: the services, treatments, team, menu). Names of places,
people and languages start with a capital as written; an offering may not
("pregnancy massage") but is never a word for a part of the page or its look
("add shadows to the services" adds nothing). A remark after a comma or dash
describing the one item is its note ("she does extensions": "extensions",
"it's from the second trimester"), never part of its name; "We're adding
German from January - please add it to the languages": German, noted "from
January".

The band states its list either as one short text of names ("Bristol, Bath,
Clevedon", "Spanish · Italian"): the items go at its end, in its own separator;
or as cards or rows of one kind (``offline/items.py``): one more like the last.
A band that says anything else, lists prices, or already names an item,
changes nothing (an item already listed without a note gets the note given).
"""

from __future__ import annotations

from typing import Any, Final

from charlotte.offline.edits import Context, Edit, Refusal
from charlotte.offline.intents.intent import ADD, FILLERS, Clause, Intent, Reading
from charlotte.offline.items import Item, items_of, new_item
from charlotte.offline.looks import colour_of, read_looks
from charlotte.offline.requests import AddToList
from charlotte.sections.catalogue import KIND_BY_KEY, SECTION_WORDS, kinds_in
from charlotte.sections.facts import capitalised
from charlotte.sections.page_view import PROP, PageView

__all__ = ["ADD_TO_LIST"]

#: The words that name a list, by the first words of "to …", and the band each names.
_LISTS: Final[dict[tuple[str, ...], str]] = {
    ("areas",): "areas", ("area",): "areas", ("places",): "areas", ("towns",): "areas",
    ("where", "i", "go"): "areas", ("where", "we", "go"): "areas", ("where", "i", "cover"): "areas",
    ("where", "we", "cover"): "areas", ("where", "i", "work"): "areas", ("where", "we", "work"): "areas",
    ("languages",): "languages",
    **{tuple(name.split()): kind for kind in ("services", "team", "menu") for name in SECTION_WORDS[kind]
       if not name.startswith(("our ", "the "))},
    # The team by what its people are ("add Sam to the tutors"): the words its fact is named by.
    **{(word,): "team" for word in KIND_BY_KEY["team"].facts if "_" not in word},
}  # fmt: skip
#: Lists of names (places, people, languages): an item starts with a capital as written.
_NAMES: Final = frozenset({"areas", "team", "languages"})
#: Words that may follow the list's name ("the areas we cover please").
_AFTER: Final = FILLERS | frozenset(
    {"we", "i", "cover", "covered", "go", "to", "serve", "teach", "work", "list", "section", "bit", "part",
     "page", "too", "as", "well"}
)  # fmt: skip
_LEADS: Final = frozenset({"the", "our", "my", "list", "of"})
_PRONOUNS: Final = frozenset({"it", "them", "this", "that", "these", "those", "one"})
#: Words that make an "item" a part of the page or its look, or a thing unnamed ("a photo").
_THINGS: Final = frozenset(
    {"section", "band", "page", "photo", "photos", "picture", "pictures", "image", "images", "icon",
     "icons", "button", "buttons", "link", "links", "map", "video", "videos", "form", "shadow", "shadows",
     "border", "borders", "padding", "spacing", "space", "colour", "colours", "color", "colors",
     "animation", "animations", "background", "font", "fonts", "heading", "headings", "headline",
     "title", "titles", "text", "words", "detail", "details", "info", "information", "description",
     "descriptions", "price", "prices", "emoji", "emojis", "logo", "bullet", "bullets", "line", "lines",
     "more", "some", "a", "an", "the", "our", "my", "another", "new", "email", "e-mail", "phone",
     "number", "address", "hours", "style", "gradient", "quote", "review", "reviews"}
)  # fmt: skip
#: A remark describing the one item: its subject and verb, the note being what follows. After
#: "is" a person's note is a role ("she's our colourist": "colourist"), an offering's a
#: condition ("it's from the second trimester"), never an opinion ("she's lovely", "it's great").
_DOES: Final = (
    ("she", "does"), ("he", "does"), ("they", "do"), ("who", "does"), ("she", "teaches"), ("he", "teaches"),
    ("she", "specialises", "in"), ("he", "specialises", "in"),
)  # fmt: skip
_IS_ROLE: Final = (("she's",), ("he's",), ("she", "is"), ("he", "is"))
_IS_WHEN: Final = (("it's",), ("it", "is"), ("they're",), ("they", "are"))
_ROLE_LEADS: Final = frozenset({"our", "the", "a", "an", "my"})
_WHEN_LEADS: Final = frozenset(
    {"from", "for", "with", "on", "in", "at", "by", "only", "available", "suitable", "until", "over", "under"}
)
#: Words a note never holds: asking for something, or time words about the message itself.
_NOT_NOTE: Final = frozenset({"please", "now", "add", "move", "remove", "change", "make", "also", "too", "should"})
#: "We're adding German from January": the lead naming the item, then "add it to …".
_ADDING: Final = (("we're", "adding"), ("we", "are", "adding"), ("i'm", "adding"), ("im", "adding"))
_PREPOSITIONS: Final = frozenset({"from", "in", "on", "starting", "until", "at", "for"})
_MAX_ITEM_WORDS: Final = 4
_MAX_NOTE_WORDS: Final = 8


def _note(words: list[str], raw: list[str]) -> str | None:
    """The note a remark gives the item ("she does extensions": "extensions"), else None."""
    for opener in (*_DOES, *_IS_ROLE, *_IS_WHEN):
        if tuple(words[: len(opener)]) != opener:
            continue
        said = raw[len(opener) :]
        first = said[0].lower() if said else ""
        if opener in _IS_ROLE:
            if first not in _ROLE_LEADS:
                return None
            said = said[1:]
        elif opener in _IS_WHEN and first not in _WHEN_LEADS:
            return None
        bare = [w.lower().strip(".,!") for w in said]
        if said and len(said) <= _MAX_NOTE_WORDS and not _NOT_NOTE & set(bare):
            return " ".join(said).strip(" .,!")
        return None
    return None


def _adding(clause: Clause) -> tuple[str, str, str] | None:
    """("German", "from January", the add clause) for "we're adding German from January - add it to …"."""
    words = clause.lower.split()
    opener = next((o for o in _ADDING if tuple(words[: len(o)]) == o), None)
    cut = next((at for mark in (" - ", " \u2013 ", ", ") if (at := clause.lower.find(mark)) > 0), -1)
    if opener is None or cut < 0:
        return None
    raw = clause.text[:cut].split()[len(opener) :]
    name = [w for w in raw[: next((k for k, w in enumerate(raw) if w.lower() in _PREPOSITIONS), len(raw))]]
    note = " ".join(raw[len(name) :]).strip(" .,")
    if not name or len(name) > _MAX_ITEM_WORDS or not all(w[:1].isupper() for w in name):
        return None
    return " ".join(name), note, clause.text[cut:].lstrip(" -\u2013,")


def _read(clause: Clause) -> Reading | None:
    if "\x00" in clause.text:
        return None
    lead = _adding(clause)
    if lead is not None:
        inner = _list(Clause.of(lead[2], clause.runs), pronoun=True)
        asked = inner.requests[0] if inner and len(inner.requests) == 1 else None
        if not isinstance(asked, AddToList) or asked.items != ("it",) or asked.note:
            return None
        return Reading(87, (AddToList(asked.band, (lead[0],), lead[1]),))
    return _list(clause, pronoun=False)


def _list(clause: Clause, *, pronoun: bool) -> Reading | None:
    """"add <items> to <a list>[, <a note>]"; ``pronoun``: "it" may be the item (named before)."""
    if clause.verb not in ADD:
        return None
    lower = clause.lower
    cut = lower.find(" to ", clause.at)
    if cut <= clause.at:
        return None
    remark = next((at for mark in (", ", " - ", " \u2013 ") if (at := lower.find(mark, cut)) > 0), len(lower))
    target = clause.words_of(cut + 4, remark)
    while target and target[0] in _LEADS:
        target = target[1:]
    named = [words for words in _LISTS if tuple(target[: len(words)]) == words]
    if not named:
        return None
    band = _LISTS[max(named, key=len)]
    rest = target[len(max(named, key=len)) :]
    said = clause.text[clause.at + len(clause.verb) : cut].strip(" ,")
    items = [i.strip(" ,.") for part in said.split(",") for i in f" {part} ".split(" and ")]
    items = [i for i in items if i]
    bare = [w for i in items for w in i.lower().split()]
    if kinds_in(said.lower()):
        return None  # "add an FAQ to the services": a section, the section intent's
    note = None
    if remark < len(lower):
        tail = clause.text[remark:].lstrip(" ,-\u2013").split()
        note = _note([w.lower().strip(".,!") for w in tail], tail)
        if note is None:
            return None  # a remark that is not the item's note: the registry reads it
    capital = band not in _NAMES or all(i[:1].isupper() for i in items)
    looks = any(colour_of([w]) is not None or read_looks(w) for w in bare)
    wrong = (not items or any(len(i.split()) > _MAX_ITEM_WORDS for i in items) or not capital or looks
             or set(bare) & (_PRONOUNS - {"it"} | _THINGS) or (note and len(items) > 1))  # fmt: skip
    if bare == ["it"] and pronoun:
        wrong = False
    left = [w for w in rest if w not in _AFTER]
    if wrong or left:
        why = f'I did not understand "{" ".join(left)}"' if left else "I could not tell what to add"
        return Reading(87, (), why=why)
    return Reading(87, (AddToList(band, tuple(items), note or ""),))


def _parts(text: str) -> tuple[str, list[str], bool] | None:
    """(the separator, the names, whether the last is joined by "and") of a list text, or None."""
    sep = " · " if " · " in text else "; " if "; " in text else ", "
    names = [p.strip() for p in text.strip().rstrip(".").split(sep.strip())]
    anded = " and " in names[-1]
    if anded:
        names = [*names[:-1], *names[-1].split(" and ", 1)]
    if len(names) < 2 or any(not n or len(n.split()) > _MAX_ITEM_WORDS or any(c.isdigit() for c in n)
                             or " and " in n for n in names):  # fmt: skip
        return None
    return sep, names, anded


def _in_text(request: AddToList, page: PageView, root: str, node: Any) -> Edit | Refusal:
    listed = _parts(page.words(node))
    if listed is None:
        return Refusal(f"the {page.label(root)} band is not one list of names I can add to")
    sep, names, anded = listed
    known = {n.lower() for n in names}
    there = [i for i in request.items if i.lower() in known]
    if there:
        return Refusal(f"the {page.label(root)} band already names {', '.join(there)}")
    added = [f"{request.items[0]} ({request.note})"] if request.note else list(request.items)
    every = [*names, *added]
    text = f"{sep.join(every[:-1])} and {every[-1]}" if anded else sep.join(every)
    op = {"t": "set_node_props", "id": node["id"], "patch": {PROP[str(node["type"])]: text}}
    return Edit((op,), f'added {" and ".join(added)} to the {page.label(root)}: "{text}"')


def _name(words: str, dashed: bool) -> str:
    return words.split(" - ", 1)[0].strip().lower() if dashed else words.strip().lower()


def _in_items(request: AddToList, page: PageView, root: str, items: list[Item]) -> Edit | Refusal:
    label = page.label(root)
    if any(any(c.isdigit() for c in page.words(n)) for i in items for n in i.words[1:]):
        return Refusal(f"the {label} band lists prices or times; say the price too")
    firsts = [page.words(i.words[0]) for i in items]
    dashed = all(" - " in w for w in firsts)
    known = {_name(w, dashed): i for w, i in zip(firsts, items, strict=True)}
    there = [n for n in request.items if n.lower() in known]
    if there and request.note and len(known[there[0].lower()].words) == 1 and not dashed:
        item = known[there[0].lower()]
        note = {"id": f"{item.node['id']}-note", "type": "text", "parent": item.node["id"],
                "props": {"content": request.note}}  # fmt: skip
        if note["id"] in page.by_id:
            return Refusal(f"the {label} band already names {there[0]}")
        return Edit(({"t": "insert_node", "node": note},), f'noted "{request.note}" under {there[0]} in the {label}')
    if there:
        return Refusal(f"the {label} band already names {', '.join(there)}")
    upper = all(w[:1].isupper() for w in firsts)
    ops: list[dict[str, Any]] = []
    view = page
    for name in request.items:
        shown = capitalised(name) if upper else name
        words = [f"{shown} - {request.note}"] if dashed and request.note else [shown]
        if request.note and not dashed:
            words.append(request.note)
        made = new_item(view, items_of(view, root), words)
        if made is None:
            return Refusal(f"the {label} band is not a list I can add to")
        ops += made
        view = PageView([*view.nodes, *(op["node"] for op in made)])
    noted = f" ({request.note})" if request.note else ""
    return Edit(tuple(ops), f"added {' and '.join(request.items)}{noted} to the {label}")


def _plan(request: AddToList, page: PageView, _context: Context) -> Edit | Refusal:
    root = page.section(request.band)
    if root is None or root == page.hero():
        return Refusal(f"the page shows no {request.band} to add to")
    texts = [n for n in page.inside(root) if n.get("type") == "text"]
    items = items_of(page, root)
    if len(items) >= 2:
        return _in_items(request, page, root, items)
    if len(texts) == 1:
        return _in_text(request, page, root, texts[0])
    return Refusal(f"the {page.label(root)} band is not one list of names I can add to")


ADD_TO_LIST: Final = Intent(
    "add to a list",
    _read,
    (AddToList,),
    _plan,
    "add names to a list the page shows (\"add Portishead to the areas we cover\", \"add Jess to the team\")",
)
