"""Collateral edits: the nodes a turn changed beyond what its request asked for.

A follow-up's predicates say what it asked for; ``collateral(predicates,
before, after)`` is the ids of the nodes the turn touched (added, removed, or
changed: type, parent, order, props, style) outside that scope, so a report
can say "touched 3 nodes beyond the requested" and a precise builder shows 0.

The scope a follow-up's predicates give:

- ``section`` / ``no_section`` / ``within`` (of ``text_contains``, ``count``,
  ``max_words``, ``shorter``, ``longer``): the named sections, whole;
- ``order``: the named sections' own nodes (a move changes where a band sits,
  not what is in it);
- ``fact``: every node whose words or link say the value (a phone changed is
  changed on each label and link that shows it), in any spelling of a claim;
- ``text_contains`` without ``within``: the nodes that say the words;
- ``theme`` with ``within``: that section, whole ("make the hero navy");
- ``theme`` without ``within``: the whole page (a restyle); so is ``shorter``
  or ``longer`` without ``within`` (a shorter page may say less anywhere on it). ``{"unchanged":
  false}`` says something changed, not where: it gives no scope.

A follow-up whose predicates give no scope at all (only the reply or
readiness) is not judged: ``None``. An unsupported request's scope is empty:
whatever it changed is collateral. Linear in the two documents.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from typing import Any, Final, Literal

from charlotte.evaluation.predicates import fact_shown, sections_of
from charlotte.page.model import node_map
from charlotte.page.tree import descendants_of

__all__ = ["collateral", "touched"]

#: Node fields whose change is a change of the node.
_FIELDS: Final = ("type", "parent", "order", "props", "style")
_SCOPED: Final = ("text_contains", "count", "max_words", "shorter", "longer")
_DIGITS = re.compile(r"\d")


def touched(before: Mapping[str, Any], after: Mapping[str, Any]) -> set[str]:
    """The ids of the nodes added, removed or changed between the two documents.

    A new ``order`` key alone is no change when the node keeps its place among
    its siblings (an insert or a move may re-key its neighbours): of a parent's
    children in both documents, the ones that moved are those outside a longest
    run kept in the same order.
    """
    old, new = node_map(before), node_map(after)
    out = set(old) ^ set(new)
    rekeyed: set[str] = set()
    for node_id in set(old) & set(new):
        a, b = old[node_id], new[node_id]
        changed = [f for f in _FIELDS if a.get(f) != b.get(f)]
        if changed == ["order"]:
            rekeyed.add(node_id)
        elif changed:
            out.add(node_id)
    return out | (rekeyed & _moved(old, new))


def _moved(old: Mapping[str, Any], new: Mapping[str, Any]) -> set[str]:
    """The nodes whose place among their (common) siblings changed: all but a longest kept run."""
    siblings: dict[object, list[str]] = {}
    for node_id in set(old) & set(new):
        if old[node_id].get("parent") == new[node_id].get("parent"):
            siblings.setdefault(old[node_id].get("parent"), []).append(node_id)
    moved: set[str] = set()
    for ids in siblings.values():
        before = sorted(ids, key=lambda i: (str(old[i].get("order", "")), i))
        rank = {i: n for n, i in enumerate(sorted(ids, key=lambda i: (str(new[i].get("order", "")), i)))}
        moved |= set(before) - _longest_run(before, rank)
    return moved


def _longest_run(ids: Sequence[str], rank: Mapping[str, int]) -> set[str]:
    """The ids of a longest subsequence of ``ids`` whose ranks increase (patience sorting)."""
    tails: list[int] = []  # rank of the smallest tail of each run length
    tail_at: list[int] = []  # index in ids of that tail
    back: list[int] = []
    for n, node_id in enumerate(ids):
        r = rank[node_id]
        k = bisect_left(tails, r)
        if k == len(tails):
            tails.append(r)
            tail_at.append(n)
        else:
            tails[k], tail_at[k] = r, n
        back.append(tail_at[k - 1] if k else -1)
    run: set[str] = set()
    n = tail_at[-1] if tail_at else -1
    while n >= 0:
        run.add(ids[n])
        n = back[n]
    return run


def collateral(
    predicates: Sequence[Mapping[str, Any]],
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    *,
    supported: bool = True,
) -> tuple[str, ...] | None:
    """The touched nodes outside the predicates' scope, sorted; None when they give no scope."""
    changed = touched(before, after)
    if not supported:
        return tuple(sorted(changed))
    scope = _scope(predicates, before, after)
    if scope is None:
        return None
    if isinstance(scope, bool):
        return ()
    return tuple(sorted(changed - scope))


def _scope(
    predicates: Sequence[Mapping[str, Any]], before: Mapping[str, Any], after: Mapping[str, Any]
) -> set[str] | Literal[True] | None:
    """The node ids the request may touch; True for the whole page; None when unscoped."""
    scope: set[str] = set()
    scoped = False
    for predicate in predicates:
        for name, arg in predicate.items():
            if name == "theme" and isinstance(arg, Mapping) and isinstance(arg.get("within"), str):
                scope |= _sections(arg["within"], before, after, whole=True)
            elif name == "theme":
                return True
            elif name in ("section", "no_section") and isinstance(arg, str):
                scope |= _sections(arg, before, after, whole=True)
            elif name == "order" and isinstance(arg, list):
                for kind in arg:
                    scope |= _sections(str(kind), before, after, whole=False)
            elif name == "fact" and isinstance(arg, Mapping):
                scope |= _saying([str(v) for v in arg.values()], before, after)
            elif name in _SCOPED and isinstance(arg, Mapping):
                within = arg.get("within")
                if isinstance(within, str):
                    scope |= _sections(within, before, after, whole=True)
                elif name == "text_contains" and isinstance(arg.get("words"), list):
                    scope |= _saying([" ".join(map(str, arg["words"]))], before, after)
                elif name in ("shorter", "longer"):
                    return True
                else:
                    continue
            else:
                continue
            scoped = True
    return scope if scoped else None


def _sections(
    name: str, before: Mapping[str, Any], after: Mapping[str, Any], *, whole: bool
) -> set[str]:
    out: set[str] = set()
    for doc in (before, after):
        for node_id, kind in sections_of(doc):
            if kind == name or node_id == name:
                out.add(node_id)
                if whole:
                    out.update(descendants_of(doc, node_id))
    return out


def _saying(values: Sequence[str], before: Mapping[str, Any], after: Mapping[str, Any]) -> set[str]:
    """The nodes (in either document) whose own words or link state one of ``values``."""
    out: set[str] = set()
    for doc in (before, after):
        for node_id, node in node_map(doc).items():
            props = node.get("props") if isinstance(node.get("props"), dict) else {}
            words = [str(props.get(k, "")) for k in ("content", "label", "href", "alt")]
            single = {"nodes": {node_id: {**node, "parent": None}}}
            text = " ".join(w for w in words if w)
            if not text:
                continue
            for value in values:
                digits = "".join(_DIGITS.findall(value))
                said = "".join(_DIGITS.findall(text))
                if fact_shown(single, value) or (len(digits) >= 7 and digits[-9:] in said):
                    out.add(node_id)
                    break
    return out
