"""The sections a follow-up may add, built from the brief and the facts only.

``section_batch(kind, brief, facts, index=, taken_ids=, page=)`` is the one
place a follow-up (or the builder page's palette) gets a new section's batch. It builds the band the way the
first draft does (``bands.build_section``, in the page's colour scheme as
``plan_page`` picks it), and returns None when the brief and the facts cannot
support that kind honestly (an FAQ with no question the facts answer, a
location with no address, testimonials the host never gave).

Given the page as it is now, the new band matches it: it shows the phone
number, e-mail and address the page shows (a person may have changed them in
an earlier turn), and wears the page's current look. The look is learned by
comparing the first draft's styles with the page's, node by node: each style
value the first draft gave (a band's background, a heading's size, a font
stack) maps to the value the page has now, and the new band's values are
mapped the same way (a dark, serif, bolder page gets a dark, serif, bolder band).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final

from charlotte.sections.bands import build_section, scheme_of
from charlotte.sections.batch import Batch
from charlotte.sections.catalogue import KIND_NAMES
from charlotte.sections.colours import legible_words
from charlotte.sections.fact_changes import fact_ops, shown_facts
from charlotte.sections.page_view import PageView
from charlotte.sections.writer import plan_page

__all__ = ["KIND_TITLES", "section_batch"]

#: Each kind a person may add and what the reply calls it: the first of the words a person
#: calls it by (``catalogue.KIND_NAMES``), "FAQ" in capitals.
KIND_TITLES: Final[Mapping[str, str]] = MappingProxyType(
    {kind: "FAQ" if kind == "faq" else names[0] for kind, names in KIND_NAMES.items()}
)

_Key = tuple[str, str, str, str]  # node type, breakpoint, style key, the first draft's value
_ABSENT: Final = "<absent>"


def section_batch(
    kind: str,
    brief: str,
    facts: object,
    *,
    index: int,
    taken_ids: Collection[str],
    page: PageView | None = None,
) -> Batch | None:
    """The batch adding a ``kind`` section (its ids clear of ``taken_ids``), or None.

    With ``page`` (the page as it is now) the band shows the page's contact
    details and wears its look.
    """
    table = {str(k): v for k, v in facts.items()} if isinstance(facts, Mapping) else {}
    batch = build_section(
        kind, brief, table, scheme_of(brief, table), index=index, taken_ids=taken_ids
    )
    if batch is None or page is None:
        return batch
    nodes = [dict(op["node"]) for op in batch.ops if op["t"] == "insert_node"]
    for fact_kind, value in shown_facts(page, table).items():
        _patched(nodes, fact_ops(PageView(nodes), fact_kind, value, table))
    learned = _looks(plan_page(brief, table), page.nodes)
    for node in nodes:
        node["style"] = _in_look(node, learned)
    _legible_on_grounds(nodes)
    ops = tuple({"t": "insert_node", "node": node} for node in nodes)
    return Batch(batch.root, batch.title, ops)


def _patched(nodes: list[dict[str, Any]], ops: Sequence[Mapping[str, Any]]) -> None:
    """``set_node_props`` / ``set_style`` ops folded into the nodes about to be inserted."""
    by_id = {n["id"]: n for n in nodes}
    for op in ops:
        node = by_id.get(op["id"])
        if node is None:
            continue
        if op["t"] == "set_node_props":
            node["props"] = {**node.get("props", {}), **op["patch"]}
        elif op["t"] == "set_style":
            style = dict(node.get("style", {}))
            style[op["breakpoint"]] = {**style.get(op["breakpoint"], {}), **op["patch"]}
            node["style"] = style


def _looks(plan: Any, now: Sequence[Mapping[str, Any]]) -> dict[_Key, str]:
    """Each first-draft style value → the value the page shows now (the most common, as JSON).

    A key the first draft did not set (``_ABSENT``) but most nodes of that type
    have now (a bolder look's heading weight) is learned too.
    """
    first = {
        op["node"]["id"]: op["node"]
        for batch in plan.batches
        for op in batch.ops
        if op["t"] == "insert_node"
    }
    seen: dict[_Key, Counter[str]] = {}
    matched: Counter[tuple[str, str]] = Counter()
    for node in now:
        was = first.get(str(node.get("id")))
        style = node.get("style")
        if was is None or was.get("type") != node.get("type") or not isinstance(style, dict):
            continue
        kind = str(node.get("type"))
        for bp, current in style.items():
            if not isinstance(current, dict):
                continue
            before = was.get("style", {}).get(bp, {})
            matched[(kind, bp)] += 1
            for key, value in current.items():
                draft = json.dumps(before[key], sort_keys=True) if key in before else _ABSENT
                k = (kind, bp, key, draft)
                seen.setdefault(k, Counter())[json.dumps(value, sort_keys=True)] += 1
    return {
        k: counts.most_common(1)[0][0]
        for k, counts in seen.items()
        if k[3] != _ABSENT or 2 * sum(counts.values()) > matched[(k[0], k[1])]
    }


def _in_look(node: Mapping[str, Any], learned: Mapping[_Key, str]) -> dict[str, Any]:
    """The node's style with each value the page has changed since the first draft changed."""
    kind = str(node["type"])
    style: dict[str, Any] = {bp: dict(v) for bp, v in node.get("style", {}).items()}
    for (of, bp, key, draft), value in learned.items():
        if of != kind:
            continue
        values = style.get(bp, {})
        if draft == _ABSENT and key not in values and (bp in style or bp == "base"):
            style[bp] = {**values, key: json.loads(value)}
        elif key in values and json.dumps(values[key], sort_keys=True) == draft:
            values[key] = json.loads(value)
    return style


def _legible_on_grounds(nodes: Sequence[dict[str, Any]]) -> None:
    """Each new node's words made legible (4.5:1) on the nearest background the band gives them.

    The look is learned value by value, so a band's words can take the page's
    new colour while a box they sit on keeps the first draft's (a dark page's
    light accent on a gallery slot still light): the words move, never the box.
    """
    by_id = {str(node["id"]): node for node in nodes}
    for node_id, colour in legible_words(nodes).items():
        by_id[node_id]["style"]["base"]["color"] = colour
