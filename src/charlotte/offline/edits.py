"""How a follow-up request becomes ops on the page as it is now: the intents' planners.

Each planner (``set_text``, ``add``, ``remove``, ``move``,
``change_fact``, ``restyle``; ``intents/registry.py``'s ``edit_for`` picks one
by the request's intent) resolves the request's targets against
the current page (read through ``cms_get``, so a person's own edits count):
"the hero" is the band holding the page's first heading, a section named by
kind is found by its id or its heading's words, "the phone number" is the
text holding a phone number. It returns an ``Edit`` (the ops, and what they
do in words) or a ``Refusal`` saying why nothing was done. Nothing here
invents a fact: new words are the person's, or the brief's and the facts'.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from charlotte.checks.contacts import parse_phone
from charlotte.offline.looks import look_ops
from charlotte.offline.naming import bands_named, said_name
from charlotte.offline.requests import (
    AddSection,
    ChangeFact,
    MoveSection,
    RemoveSection,
    Restyle,
    SetText,
    Target,
)
from charlotte.page.ordering import key_between
from charlotte.sections.additions import KIND_TITLES, section_batch
from charlotte.sections.batch import Batch
from charlotte.sections.fact_changes import fact_ops
from charlotte.sections.page_view import PROP as _PROP
from charlotte.sections.page_view import PageView

__all__ = [
    "LIMITS",
    "Context",
    "Edit",
    "Refusal",
    "add",
    "band_of",
    "change_fact",
    "move",
    "moved_ops",
    "remove",
    "restyle",
    "section_of",
    "set_text",
    "target_node",
]

_MAX_OPS: Final = 200
LIMITS: Final = {"heading": 300, "text": 5_000, "button": 100}
#: Kinds that close a page: a new section goes above them.
_CLOSING: Final = ("cta", "contact", "location")


@dataclass(frozen=True, slots=True)
class Context:
    """What the session says: the brief, the host's facts (``cms_facts``), the person's earlier messages."""

    brief: str
    facts: object
    earlier: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Edit:
    """Ops to apply and what they do, in words for the reply."""

    ops: tuple[dict[str, Any], ...]
    said: str


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a request was not carried out."""

    reason: str


def section_of(page: PageView, words: str) -> str | None:
    """The one band ``words`` name (``naming.bands_named``), else None (none, or several)."""
    found = bands_named(page, words)
    return found[0] if len(found) == 1 else None


def band_of(page: PageView, words: str) -> str | Refusal:
    """The one band ``words`` name, else a refusal saying there is none or asking which."""
    found = bands_named(page, words)
    if len(found) == 1:
        return found[0]
    if not found:
        return Refusal(f"there is no {said_name(words) or words} section on the page")
    names = [f"the {page.label(r)}" for r in found]
    return Refusal(f'"{words}" could be {", ".join(names[:-1])} or {names[-1]} section; say which')


def target_node(page: PageView, target: Target) -> tuple[Mapping[str, Any], str] | Refusal:
    """The node a target names and how the reply names it, or why there is none."""
    root = page.hero() if target.section is None else band_of(page, target.section)
    if root is None or isinstance(root, Refusal):
        return root or Refusal("the page has no sections")
    kinds = (target.part,) if target.part != "button" else ("button", "link")
    node = next((n for n in page.inside(root) if n.get("type") in kinds), None)
    name = f"the {page.label(root)} {target.part}"
    return (node, name) if node is not None else Refusal(f"{name} is not on the page")


def _swap(page: PageView, old: str, new: str) -> Edit | Refusal:
    """The person's quoted words replaced where the page first shows them."""
    needle = old.casefold()
    for node in page.nodes:
        kind, text = str(node.get("type")), page.words(node)
        at = text.casefold().find(needle) if kind in _PROP else -1
        if at >= 0 and len(text.casefold()) == len(text):
            changed = text[:at] + new + text[at + len(old) :]
            if len(changed) > LIMITS.get(kind, 300):
                return Refusal(f'"{new}" is longer than a {kind} may be')
            op = {"t": "set_node_props", "id": node["id"], "patch": {_PROP[kind]: changed}}
            return Edit((op,), f'changed "{old}" to "{new}"')
    return Refusal(f'the page does not show "{old}"')


def set_text(page: PageView, request: SetText) -> Edit | Refusal:
    if request.target.part == "quote" and request.target.section:
        return _swap(page, request.target.section, request.words)
    found = target_node(page, request.target)
    if isinstance(found, Refusal):
        return found
    node, name = found
    kind = str(node.get("type"))
    if len(request.words) > LIMITS.get(kind, 300):
        return Refusal(f"the new words for {name} are longer than a {kind} may be")
    patch = {_PROP[kind]: request.words}
    return Edit(
        ({"t": "set_node_props", "id": node["id"], "patch": patch},),
        f'set {name} to "{request.words}"',
    )


def change_fact(page: PageView, request: ChangeFact, context: Context) -> Edit | Refusal:
    digits = "".join(c for c in request.value if c.isdigit() or c == "+")
    if request.kind == "phone" and (parse_phone(request.value) is None or len(digits) < 7):
        return Refusal(f'"{request.value}" does not read as a phone number')
    if request.kind == "email" and "@" not in request.value:
        return Refusal(f'"{request.value}" does not read as an e-mail address')
    ops = fact_ops(page, request.kind, request.value, context.facts)
    noun = {"phone": "phone number", "email": "e-mail address", "address": "address"}[request.kind]
    if not ops:
        return Refusal(
            f"the page shows no {noun} to change (adding a contact section can show one)"
        )
    shown = sum(op["t"] == "set_node_props" for op in ops)
    places = "1 place" if shown == 1 else f"{shown} places"
    return Edit(tuple(ops), f"changed the {noun} to {request.value} ({places})")


def _order_ops(page: PageView, order: list[str]) -> list[dict[str, Any]]:
    return [] if order == page.roots else [{"t": "reorder_roots", "order": order}]


def moved_ops(page: PageView, order: list[str], moved: Sequence[str]) -> list[dict[str, Any]]:
    """The ops putting the roots in ``order`` by re-keying only the ``moved`` ones.

    A ``move_node`` per moved band, its key between its new neighbours', so no other
    band's place changes (``reorder_roots`` re-mints every key); the whole order when
    a key is missing or the others would not stay in order.
    """
    keys = {r: page.by_id[r].get("order") for r in order if r in page.by_id}
    if order == page.roots:
        return []
    stay = [keys.get(r) for r in order if r not in moved]
    if not all(isinstance(k, str) for k in keys.values()) or stay != sorted(stay, key=str):
        return _order_ops(page, order)
    ops: list[dict[str, Any]] = []
    lower: str | None = None
    try:
        for at, root in enumerate(order):
            if root not in moved:
                lower = str(keys[root])
                continue
            upper = next((str(keys[r]) for r in order[at + 1 :] if r not in moved), None)
            lower = key_between(lower, upper)
            ops.append({"t": "move_node", "id": root, "parent": None, "order": lower})
    except ValueError:
        return _order_ops(page, order)
    return ops


def _placed(
    order: list[str], item: str, where: str | None, anchor: str | None, hero: str | None
) -> list[str]:
    """``order`` with ``item`` moved; "the top" of a page is under its hero (the hero heads it)."""
    rest = [r for r in order if r != item]
    if where == "top":
        first = 1 if rest and rest[0] == hero else 0
        return [*rest[:first], item, *rest[first:]]
    if where == "bottom" or anchor is None:
        return [*rest, item]
    at = rest.index(anchor) + (1 if where == "below" else 0)
    return [*rest[:at], item, *rest[at:]]


def _a(title: str) -> str:
    """``title`` with its article: "an FAQ", "a gallery"."""
    return f"{'an' if title[:1].lower() in 'aeiou' or title.startswith('FAQ') else 'a'} {title}"


def add(page: PageView, request: AddSection, context: Context) -> Edit | Refusal:
    title = KIND_TITLES.get(request.kind, request.kind)
    present = next((r for r in page.roots if page.kind(r) == request.kind), None)
    if present is not None and request.where is not None:
        # "add opening hours near the top" on a page that has them: the person
        # wants them there, so they move (or are said to be there already).
        moved = _move_root(page, present, request.where, request.anchor)
        if isinstance(moved, Refusal):
            return Refusal(f"the page already has {_a(title)} section: {moved.reason}")
        return Edit(moved.ops, f"the page already had {_a(title)} section: {moved.said}")
    if present is not None:
        return Refusal(f"the page already has {_a(title)} section")
    anchor = band_of(page, request.anchor) if request.anchor else None
    if isinstance(anchor, Refusal):
        return Refusal(f"{anchor.reason} to put the {title} section next to")
    batch = section_batch(
        request.kind,
        context.brief,
        context.facts,
        index=len(page.roots),
        taken_ids=set(page.by_id),
        page=page,
    )
    if batch is None:
        return Refusal(f"the brief and the facts say nothing {_a(title)} section could show")
    order = [*page.roots, batch.root]
    if request.where is None and request.kind not in ("contact",):
        closing = len(page.roots)
        while closing > 0 and page.kind(page.roots[closing - 1]) in _CLOSING:
            closing -= 1
        if request.kind == "cta":
            closing = len(page.roots) - (
                1 if page.roots and page.kind(page.roots[-1]) == "contact" else 0
            )
        order = [*page.roots[:closing], batch.root, *page.roots[closing:]]
    else:
        order = _placed(order, batch.root, request.where, anchor, page.hero())
    batch = _unlike_neighbours(batch, order, page, request, context)
    ops = [
        *batch.ops,
        *_order_ops(PageView([*page.nodes, {"id": batch.root, "parent": None}]), order),
    ]
    if len(ops) > _MAX_OPS:
        return Refusal(f"the {title} section is too big to add in one change")
    heading = next(
        (
            str(op["node"].get("props", {}).get("content", ""))
            for op in batch.ops
            if op.get("node", {}).get("type") == "heading"
        ),
        "",
    )
    titled = f' titled "{heading}"' if heading and heading.lower() != title.lower() else ""
    slots = sum(
        1
        for op in batch.ops
        if op.get("node", {}).get("id", "").endswith("-label") and "-slot-" in op["node"]["id"]
    )
    note = f" with {slots} photo slots to fill from the asset library" if slots else ""
    return Edit(tuple(ops), f"added {_a(title)} section{titled}{note}, {_where(order, batch.root, page)}")


def _where(order: list[str], root: str, page: PageView) -> str:
    """Where a new section went, in words: at the top (under the hero), at the bottom, or between two."""
    at = order.index(root)
    hero = page.hero()
    if at == 0 or (at == 1 and order[0] == hero):
        return "at the top, under the hero" if at == 1 else "at the top"
    if at == len(order) - 1:
        return "at the bottom"
    return f"between the {page.label(order[at - 1])} and {page.label(order[at + 1])} sections"


def _background(nodes: Sequence[Mapping[str, Any]], root: str | None) -> object:
    node = next((n for n in nodes if n.get("id") == root), None)
    style = node.get("style") if node else None
    base = style.get("base") if isinstance(style, dict) else None
    return base.get("background") if isinstance(base, dict) else None


def _unlike_neighbours(
    batch: Batch, order: list[str], page: PageView, request: AddSection, context: Context
) -> Batch:
    """The band in the other shade (plain or tinted) when its first shade is its neighbour's.

    Bands alternate shades; a band added between two keeps apart from the one above it
    (else from the one below), so two bands do not run together.
    """
    at = order.index(batch.root)
    above = order[at - 1] if at > 0 else None
    below = order[at + 1] if at + 1 < len(order) else None
    mine = _background([op["node"] for op in batch.ops if op["t"] == "insert_node"], batch.root)
    if mine not in (_background(page.nodes, above), _background(page.nodes, below)):
        return batch
    other = section_batch(
        request.kind,
        context.brief,
        context.facts,
        index=len(page.roots) + 1,
        taken_ids=set(page.by_id),
        page=page,
    )
    if other is None or other.root != batch.root:
        return batch
    theirs = _background([op["node"] for op in other.ops if op["t"] == "insert_node"], other.root)
    if theirs != _background(page.nodes, above) and (
        mine == _background(page.nodes, above) or theirs != _background(page.nodes, below)
    ):
        return other
    return batch


def remove(page: PageView, request: RemoveSection) -> Edit | Refusal:
    root = band_of(page, request.section)
    if isinstance(root, Refusal):
        return root
    return Edit(({"t": "remove_node", "id": root},), f"removed the {page.label(root)} section")


def move(page: PageView, request: MoveSection) -> Edit | Refusal:
    root = band_of(page, request.section)
    if isinstance(root, Refusal):
        return root
    moved = _move_root(page, root, request.where, request.anchor)
    if request.also is None or isinstance(moved, Refusal):
        return moved
    where, words = request.also
    anchor = band_of(page, words) if words else None
    if isinstance(anchor, Refusal):
        return anchor
    order = _placed(page.roots, root, request.where, section_of(page, request.anchor or ""), page.hero())
    at = order.index(root)
    if not {
        "top": at <= 1 and order[0] in (root, page.hero()),
        "bottom": at == len(order) - 1,
        "above": anchor in order[at + 1 :],
        "below": anchor in order[:at] or anchor == page.hero(),
    }.get(where, False):
        return Refusal(f"the two places you gave for the {page.label(root)} section disagree; say one")
    return moved


def _move_root(page: PageView, root: str, where: str, anchor_words: str | None) -> Edit | Refusal:
    """Section ``root`` moved to the top/bottom, or above/below the section ``anchor_words`` name."""
    anchor = band_of(page, anchor_words) if anchor_words else None
    if isinstance(anchor, Refusal):
        return anchor
    if anchor == root:
        return Refusal(f'"{anchor_words}" names the section it moves; say which section to put it next to')
    order = _placed(page.roots, root, where, anchor, page.hero())
    if order == page.roots:
        there = {"top": "at the top", "bottom": "at the bottom"}.get(where)
        if there is None and anchor is not None:
            there = f"{where} the {page.label(anchor)} section"
        return Refusal(f"the {page.label(root)} section is already {there or 'there'}")
    top = "to the top, under the hero" if order[0] != root else "to the top"
    place = {"top": top, "bottom": "to the bottom"}.get(where) or f"{where} the {page.label(anchor or '')} section"
    return Edit(tuple(moved_ops(page, order, (root,))), f"moved the {page.label(root)} section {place}")


def restyle(page: PageView, request: Restyle) -> Edit | Refusal:
    ops, said = look_ops(request, page.nodes)
    if not ops:
        return Refusal(
            said
            if not said.startswith(("changed", "gave", "made", "set"))
            else "nothing on the page has that look to change"
        )
    if len(ops) > _MAX_OPS:
        return Refusal("the page has too many styled nodes to restyle in one change")
    return Edit(tuple(ops), said)
