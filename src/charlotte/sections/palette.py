"""What the builder page's palette offers a person: the section kinds, and one section's ops.

A person adds a whole section the way a follow-up adds one: the band is built
from the session's brief and facts only (``additions.section_batch``), shows
the contact details the page shows now and wears its current look. Nothing is
written here: the ops go back to the page, which sends them through
``/edits`` with its ``basedOn`` like any edit of the person's.

``facts`` is the session's stored facts (anything that is not a mapping is
none, as ``section_batch`` reads it). ``sections(brief, facts)`` lists every kind with its name and whether the
brief and facts feed it (``available``); ``section_ops(kind, brief, facts,
doc, after=)`` is the insert ops of one new band placed after the top-level
node ``after`` (at the end without it), or None when nothing feeds that kind.
"""

from __future__ import annotations

from typing import Any

from charlotte.page.model import node_map
from charlotte.page.ordering import key_between
from charlotte.page.tree import children_index
from charlotte.sections.additions import KIND_TITLES, section_batch
from charlotte.sections.catalogue import KIND_KEYS
from charlotte.sections.page_view import PageView

__all__ = ["KIND_KEYS", "section_ops", "sections"]


def sections(brief: str, facts: object) -> list[dict[str, Any]]:
    """Every section kind a person may add: ``{kind, name, available}``, in catalogue order."""
    return [
        {
            "kind": kind,
            "name": KIND_TITLES.get(kind, kind),
            "available": section_batch(kind, brief, facts, index=0, taken_ids=()) is not None,
        }
        for kind in KIND_KEYS
    ]


def section_ops(
    kind: str, brief: str, facts: object, doc: object, *, after: str | None = None
) -> dict[str, Any] | None:
    """``{"kind", "root", "ops"}``: a new ``kind`` band after ``after`` (a root id) or last; None if unfed."""
    nodes = _reading_order(doc)
    page = PageView(nodes)
    batch = section_batch(
        kind, brief, facts, index=len(page.roots), taken_ids=set(page.by_id), page=page
    )
    if batch is None:
        return None
    orders = {str(n["id"]): n.get("order") for n in nodes if n.get("parent") is None}
    roots = page.roots
    at = roots.index(after) + 1 if after is not None and after in orders else len(roots)
    below = _key(orders.get(roots[at - 1])) if at > 0 else None
    above = _key(orders.get(roots[at])) if at < len(roots) else None
    order = key_between(below, above) if below is None or above is None or below < above else None
    ops: list[dict[str, Any]] = []
    for op in batch.ops:
        node = dict(op["node"])
        if node["id"] == batch.root and order is not None:
            node["order"] = order
        ops.append({"t": op["t"], "node": node})
    return {"kind": kind, "root": batch.root, "ops": ops}


def _key(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _reading_order(doc: object) -> list[dict[str, Any]]:
    """The document's nodes depth first in sibling order, as ``cms_get`` lists them."""
    index = children_index(doc)
    known = node_map(doc)
    out: list[dict[str, Any]] = []
    stack = list(reversed(index.get(None, [])))
    seen: set[str] = set()
    while stack and len(out) <= len(known):
        node = stack.pop()
        node_id = node.get("id")
        if not isinstance(node_id, str) or node_id in seen:
            continue
        seen.add(node_id)
        out.append(node)
        stack.extend(reversed(index.get(node_id, [])))
    return out
