"""The intent on a list a band states: "Add Portishead to the areas we cover", "add Fareham to where I go".

The items are the words between the verb and "to", as written, split at
commas and "and" ("Syston and Anstey"); the list is a band the last words
name (``_LISTS``: the areas a business covers, the languages it teaches).
The band must state its list as one short text of names ("Bristol, Bath,
Clevedon", "Spanish · Italian"): the items go at its end, in its own
separator ("… the Cotswolds and Portishead" where it closes with "and"). A
band that says anything else ("York and within 20 miles"), or already names
an item, changes nothing.
"""

from __future__ import annotations

from typing import Final

from charlotte.offline.edits import Context, Edit, Refusal
from charlotte.offline.intents.intent import ADD, FILLERS, Clause, Intent, Reading
from charlotte.offline.requests import AddToList
from charlotte.sections.catalogue import kinds_in
from charlotte.sections.page_view import PROP, PageView

__all__ = ["ADD_TO_LIST"]

#: The words that name a list, by the first words of "to …", and the band each names.
_LISTS: Final = {
    ("areas",): "areas", ("area",): "areas", ("places",): "areas", ("towns",): "areas",
    ("where", "i", "go"): "areas", ("where", "we", "go"): "areas", ("where", "i", "cover"): "areas",
    ("where", "we", "cover"): "areas", ("where", "i", "work"): "areas", ("where", "we", "work"): "areas",
    ("languages",): "languages",
}  # fmt: skip
#: Words that may follow the list's name ("the areas we cover please").
_AFTER: Final = FILLERS | frozenset({"we", "i", "cover", "covered", "go", "to", "serve", "teach", "work", "list"})
_LEADS: Final = frozenset({"the", "our", "my", "list", "of"})
_PRONOUNS: Final = frozenset({"it", "them", "this", "that", "these", "those", "one"})
_MAX_ITEM_WORDS: Final = 4


def _read(clause: Clause) -> Reading | None:
    if clause.verb not in ADD or "\x00" in clause.text:
        return None
    lower = clause.lower
    cut = lower.rfind(" to ")
    if cut <= clause.at:
        return None
    target = [w for w in clause.words_of(cut + 4, len(lower))]
    while target and target[0] in _LEADS:
        target = target[1:]
    band = next((b for words, b in _LISTS.items() if tuple(target[: len(words)]) == words), None)
    if band is None:
        return None
    rest = target[max(len(w) for w in _LISTS if tuple(target[: len(w)]) == w) :]
    said = clause.text[clause.at + len(clause.verb) : cut].strip(" ,")
    items = [i.strip(" ,.") for part in said.split(",") for i in f" {part} ".split(" and ")]
    items = [i for i in items if i]
    bare = [w for i in items for w in i.lower().split()]
    wrong = (not items or any(len(i.split()) > _MAX_ITEM_WORDS for i in items)
             or set(bare) & (_PRONOUNS | {"section", "band", "page"}) or kinds_in(said.lower()))  # fmt: skip
    left = [w for w in rest if w not in _AFTER]
    if wrong or left:
        why = f'I did not understand "{" ".join(left)}"' if left else "I could not tell what to add"
        return Reading(87, (), why=why)
    return Reading(87, (AddToList(band, tuple(items)),))


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


def _plan(request: AddToList, page: PageView, _context: Context) -> Edit | Refusal:
    root = page.section(request.band)
    if root is None:
        return Refusal(f"the page shows no {request.band} to add to")
    texts = [n for n in page.inside(root) if n.get("type") == "text"]
    listed = _parts(page.words(texts[0])) if len(texts) == 1 else None
    if listed is None:
        return Refusal(f"the {page.label(root)} band is not one list of names I can add to")
    sep, names, anded = listed
    known = {n.lower() for n in names}
    there = [i for i in request.items if i.lower() in known]
    if there:
        return Refusal(f"the {page.label(root)} band already names {', '.join(there)}")
    every = [*names, *request.items]
    text = f"{sep.join(every[:-1])} and {every[-1]}" if anded else sep.join(every)
    node = texts[0]
    op = {"t": "set_node_props", "id": node["id"], "patch": {PROP[str(node["type"])]: text}}
    return Edit((op,), f'added {" and ".join(request.items)} to the {page.label(root)}: "{text}"')


ADD_TO_LIST: Final = Intent(
    "add to a list",
    _read,
    (AddToList,),
    _plan,
    "add names to a list the page shows (\"add Portishead to the areas we cover\")",
)
