"""The intent on a contact fact shown in one more band: "add our email to the find us section".

The clause names one contact fact (the phone number, the e-mail address, the
address) and nothing else before "to", and a band after it. The value is the
one the page already shows (a person may have changed it in an earlier turn),
else the facts': never a new one (a new value is ``intents/facts.py``'s). It
goes at the end of the band, a link (``tel:``/``mailto:``) worded as the value,
styled like the band's last words; a band already showing it changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from charlotte.offline.edits import Context, Edit, Refusal, section_of
from charlotte.offline.intents.intent import ADD, FILLERS, Clause, Intent, Reading
from charlotte.offline.requests import ShowFact
from charlotte.sections.fact_changes import shown_facts
from charlotte.sections.facts import contact_items
from charlotte.sections.page_view import PageView

__all__ = ["SHOW_FACT"]

#: The words naming a contact fact, and the fact.
_FACTS: Final = {
    ("email",): "email", ("e-mail",): "email", ("email", "address"): "email",
    ("e-mail", "address"): "email", ("phone",): "phone", ("phone", "number"): "phone",
    ("number",): "phone", ("telephone", "number"): "phone", ("mobile", "number"): "phone",
    ("address",): "address", ("postal", "address"): "address",
}  # fmt: skip
_NAMED: Final = {"phone": "phone number", "email": "e-mail address", "address": "address"}
_LEADS: Final = frozenset({"our", "the", "my", "your"})
#: Words after the band's name that name nothing ("the find us section too").
_AFTER: Final = FILLERS | frozenset({"section", "bit", "part", "band", "block", "too", "as", "well"})
#: Words that place something rather than name a band ("to the top").
_PLACES: Final = frozenset({"top", "bottom", "end", "start", "page", "site", "website", "footer"})
_MAX_BAND_WORDS: Final = 4


def _read(clause: Clause) -> Reading | None:
    if clause.verb not in ADD or "\x00" in clause.text:
        return None
    cut = clause.lower.find(" to ", clause.at)
    if cut < 0:
        return None
    named = clause.words_of(clause.at + len(clause.verb), cut)
    while named and named[0] in _LEADS:
        named = named[1:]
    kind = _FACTS.get(tuple(named))
    given = next((_FACTS[n] for n in _FACTS if tuple(named[: len(n)]) == n and len(named) > len(n)), None)
    if kind is None and given is not None and any(f.kind in ("email", "phone") for f in clause.found):
        why = f"I add only the {_NAMED[given]} the page has; to change it, say \"change the {_NAMED[given]} to …\""
        return Reading(89, (), why=why)
    band = clause.words_of(cut + 4, len(clause.lower))
    while band and band[0] in _LEADS:
        band = band[1:]
    while band and band[-1] in _AFTER:
        band = band[:-1]
    if kind is None or not band or _PLACES & set(band):
        return None
    if len(band) > _MAX_BAND_WORDS:
        return Reading(89, (), why="I could not tell which section")
    return Reading(89, (ShowFact(kind, " ".join(band)),))


def _value(kind: str, page: PageView, facts: object) -> tuple[str, str | None] | None:
    """(the words, the link) of the fact as the page shows it now, else as the facts give it."""
    table = {str(k): v for k, v in facts.items()} if isinstance(facts, Mapping) else {}
    now = shown_facts(page, table).get(kind)
    items = contact_items({kind: now} if now else table)
    return next(((words, href) for label, words, href in items if label == kind), None)


def _plan(request: ShowFact, page: PageView, context: Context) -> Edit | Refusal:
    name = _NAMED[request.kind]
    root = section_of(page, request.section)
    if root is None:
        return Refusal(f"there is no {request.section} section on the page")
    if root == page.hero():
        return Refusal(f"I add the {name} only to a section below the hero")
    value = _value(request.kind, page, context.facts)
    if value is None:
        return Refusal(f"neither the page nor the facts give {'an' if request.kind != 'phone' else 'a'} {name}")
    words, href = value
    inside = page.inside(root)
    label = page.label(root)
    if any(words in page.words(n) or (href and (n.get("props") or {}).get("href") == href) for n in inside):
        return Refusal(f"the {label} section already shows the {name}")
    last = next((n for n in reversed(inside) if n.get("type") == "text" and n.get("parent") == root), None)
    node: dict[str, Any] = {
        "id": f"{root}-{request.kind}", "type": "link" if href else "text", "parent": root,
        "props": {"content": words, **({"href": href} if href else {})},
    }  # fmt: skip
    if last is not None and isinstance(last.get("style"), dict):
        node["style"] = last["style"]
    if node["id"] in page.by_id:
        return Refusal(f"the {label} section already has a node for the {name}")
    return Edit(({"t": "insert_node", "node": node},), f"added the {name} ({words}) to the {label} section")


SHOW_FACT: Final = Intent(
    "show a contact fact in a section",
    _read,
    (ShowFact,),
    _plan,
    "show the phone number, e-mail or address the page has in another section (\"add our email to the find us section\")",
)
