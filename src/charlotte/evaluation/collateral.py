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
  changed on each label and link that shows it), in any spelling of a claim,
  and every row whose cells say it together (the smallest container that does,
  with its nodes: "Mon-Fri" | "8:00-18:00"); for opening hours, the rows that
  showed hours for any of its days before (the hours it replaces);
- ``text_contains`` without ``within``: the nodes that say the words;
- ``text_absent``: the nodes, and the smallest rows, that said one of its words
  before the turn (a value asked to go is a node asked to change: "£28 now,
  not £26");
- ``theme`` with ``within``: that section, whole ("make the hero navy"); with
  ``hue`` too, also every node whose only change is a colour swapped the way
  the section's was (its old colour's hue family to the asked hue): the page's
  colour asked to change ("use blue instead" on a page in greens) is changed
  wherever the page wears it (the accent on a label, a price, a tinted band),
  and a colour moving within the asked hue is more of it ("more purple");
- ``theme`` without ``within``: the whole page (a restyle); so is ``shorter``
  or ``longer`` without ``within`` (a shorter page may say less anywhere on it). ``{"unchanged":
  false}`` says something changed, not where: it gives no scope.

A node added (or removed) only to hold nodes in scope, such as the card
around a new link and its label, or a band taken off with the one value it
showed, is in scope with them (headings included).

A follow-up whose predicates give no scope at all (only the reply or
readiness) is not judged: ``None``. An unsupported request's scope is empty:
whatever it changed is collateral. Linear in the two documents.
"""

from __future__ import annotations

import colorsys
import re
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from typing import Any, Final, Literal

from charlotte.checks.claims import claims_in
from charlotte.checks.copytext import copy_of
from charlotte.checks.hours import Hours
from charlotte.evaluation.colours import hue_name, parse_hex
from charlotte.evaluation.predicates import fact_shown, sections_of
from charlotte.page.model import node_map
from charlotte.page.tree import descendants_of

__all__ = ["collateral", "touched"]

#: Node fields whose change is a change of the node.
_FIELDS: Final = ("type", "parent", "order", "props", "style")
_SCOPED: Final = ("text_contains", "count", "max_words", "shorter", "longer")
_DIGITS = re.compile(r"\d")
_HEX = re.compile(r"#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{3})(?![0-9a-fA-F])")


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
    return tuple(sorted(changed - scope - _holders(changed - scope, scope, before, after)))


def _holders(
    ids: set[str], scope: set[str], before: Mapping[str, Any], after: Mapping[str, Any]
) -> set[str]:
    """The nodes of ``ids`` added or removed only to hold what was asked, with their headings.

    A node added or removed whose innermost descendants, headings aside, are all in
    scope (at least one; boxes between them hold nothing of their own): the card around a new link and its label, the band taken off with
    the only value it showed ("take the pass rate off") and its heading.
    """
    out: set[str] = set()
    for doc, other in ((after, before), (before, after)):
        nodes, others = node_map(doc), node_map(other)
        for node_id in ids:
            if node_id not in nodes or node_id in others:
                continue
            below = descendants_of(doc, node_id)
            boxes = {nodes.get(d, {}).get("parent") for d in below}
            words = {d for d in below if d not in boxes and nodes.get(d, {}).get("type") != "heading"}
            if words and words <= scope:
                out |= {node_id, *below}
    return out


def _scope(
    predicates: Sequence[Mapping[str, Any]], before: Mapping[str, Any], after: Mapping[str, Any]
) -> set[str] | Literal[True] | None:
    """The node ids the request may touch; True for the whole page; None when unscoped."""
    scope: set[str] = set()
    scoped = False
    for predicate in predicates:
        for name, arg in predicate.items():
            if name == "theme" and isinstance(arg, Mapping) and isinstance(arg.get("within"), str):
                section = _sections(arg["within"], before, after, whole=True)
                scope |= section
                if isinstance(arg.get("hue"), str):
                    scope |= _swapped(section, arg["hue"], before, after)
            elif name == "theme":
                return True
            elif name in ("section", "no_section") and isinstance(arg, str):
                scope |= _sections(arg, before, after, whole=True)
            elif name == "order" and isinstance(arg, list):
                for kind in arg:
                    scope |= _sections(str(kind), before, after, whole=False)
            elif name == "fact" and isinstance(arg, Mapping):
                values = [str(v) for v in arg.values()]
                scope |= _saying(values, before, after) | _rows_saying(values, (before, after))
                scope |= _rows_of_days(values, before)
            elif name == "text_absent" and isinstance(arg, Mapping) and isinstance(arg.get("words"), list):
                words = [str(w) for w in arg["words"]]
                scope |= _said_before(words, before) | _rows_saying(words, (before,), literal=True)
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


def _said_before(words: Sequence[str], before: Mapping[str, Any]) -> set[str]:
    """The nodes whose words said one of ``words`` before the turn (asked to go, so asked to change)."""
    wanted = [w.lower() for w in words if w.strip()]
    return {node_id for node_id, text in copy_of(before) if any(w in text.lower() for w in wanted)}


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


def _row_texts(doc: Mapping[str, Any]) -> dict[str, str]:
    """Each row's words (a container of nodes that hold none), in reading order.

    Only rows: a band or a list saying a fact across its rows scopes nothing more.
    """
    nodes = node_map(doc)
    parents = {n.get("parent") for n in nodes.values() if isinstance(n, dict)}
    joined: dict[str, list[str]] = {}
    for node_id, words in copy_of(doc):
        node = nodes.get(node_id)
        parent = node.get("parent") if isinstance(node, dict) else None
        if node_id not in parents and isinstance(parent, str) and parent in nodes:
            joined.setdefault(parent, []).append(words)
    kids_hold = {n.get("parent") for n in nodes.values() if isinstance(n, dict) and n.get("id") in parents}
    return {node_id: " ".join(parts) for node_id, parts in joined.items() if node_id not in kids_hold}


def _smallest(doc: Mapping[str, Any], found: set[str]) -> set[str]:
    """Of ``found`` (containers), those holding no other one, with their nodes."""
    nodes = node_map(doc)
    holders: set[str] = set()
    for node_id in found:
        node = nodes.get(node_id)
        for _ in range(64):
            parent = node.get("parent") if isinstance(node, dict) else None
            if not isinstance(parent, str) or parent not in nodes:
                break
            holders.add(parent)
            node = nodes[parent]
    out: set[str] = set()
    for node_id in found - holders:
        out.add(node_id)
        out.update(descendants_of(doc, node_id))
    return out


def _rows_saying(
    values: Sequence[str], docs: Sequence[Mapping[str, Any]], *, literal: bool = False
) -> set[str]:
    """The smallest containers whose nodes say one of ``values`` together, with their nodes."""
    out: set[str] = set()
    for doc in docs:
        found = set()
        for node_id, text in _row_texts(doc).items():
            lowered = " ".join(text.lower().split())
            if literal:
                hit = any(" ".join(v.lower().split()) in lowered for v in values)
            else:
                single = {"nodes": {node_id: {"id": node_id, "type": "text", "parent": None,
                                              "props": {"content": text}}}}  # fmt: skip
                hit = any(fact_shown(single, v) for v in values)
            if hit:
                found.add(node_id)
        out |= _smallest(doc, found)
    return out


def _rows_of_days(values: Sequence[str], before: Mapping[str, Any]) -> set[str]:
    """The smallest rows that showed hours, before, for a day the values' hours name."""
    days: set[int] = set()
    for value in values:
        days.update(d for f in claims_in(value) if isinstance(f.key, Hours) for d in (f.key.days or ()))
    if not days:
        return set()
    texts = [*_row_texts(before).items(), *copy_of(before)]
    found = {
        node_id
        for node_id, text in texts
        if any(isinstance(f.key, Hours) and f.key.days and f.key.days & days for f in claims_in(text))
    }
    return _smallest(before, found)


def _hue(colour: str) -> str | None:
    """``colour``'s hue family; a band's faint tint (too light for ``hue_name``) counts in its hue's."""
    rgb = parse_hex(colour)
    if rgb is None:
        return None
    hue, lightness, saturation = colorsys.rgb_to_hls(*rgb)
    if lightness > 0.97 and saturation >= 0.15:
        rgb = colorsys.hls_to_rgb(hue, 0.5, 1.0)  # its hue, at a lightness that has a name
    return hue_name(rgb)


def _colour_swaps(a: Mapping[str, Any], b: Mapping[str, Any]) -> set[tuple[str | None, str | None]] | None:
    """The (old, new) hue families of a node's changed colours; None when anything else changed.

    Anything else: a field but its style, a style value that differs in more than its
    ``#rgb``/``#rrggbb`` colours.
    """
    if any(a.get(f) != b.get(f) for f in _FIELDS if f != "style"):
        return None
    old_style, new_style = a.get("style"), b.get("style")
    old_style = old_style if isinstance(old_style, Mapping) else {}
    new_style = new_style if isinstance(new_style, Mapping) else {}
    swaps: set[tuple[str | None, str | None]] = set()
    for bp in set(old_style) | set(new_style):
        old, new = old_style.get(bp), new_style.get(bp)
        old, new = old if isinstance(old, Mapping) else {}, new if isinstance(new, Mapping) else {}
        for key in set(old) | set(new):
            x, y = old.get(key), new.get(key)
            if x == y:
                continue
            if not isinstance(x, str) or not isinstance(y, str) or _HEX.sub("#", x) != _HEX.sub("#", y):
                return None
            swaps |= {(_hue(o), _hue(n)) for o, n in zip(_HEX.findall(x), _HEX.findall(y), strict=True) if o != n}
    return swaps


def _swapped(
    section: set[str], hue: str, before: Mapping[str, Any], after: Mapping[str, Any]
) -> set[str]:
    """The nodes outside ``section`` whose only change swaps colours as the section's did to ``hue``.

    The section's swaps are the (old, new) hue families of its changed colours whose new
    family is ``hue`` and old one a colour (not a grey), and ``hue`` to itself; a node is in
    when every colour it changed is one of those swaps.
    """
    old, new = node_map(before), node_map(after)
    # A colour moving within the asked hue ("more purple" on a purple page: a deeper tint).
    asked: set[tuple[str | None, str | None]] = {(hue, hue)}
    for node_id in section & set(old) & set(new):
        found = _colour_swaps(old[node_id], new[node_id]) or set()
        asked |= {(o, n) for o, n in found if o is not None and n == hue}
    out: set[str] = set()
    for node_id in (set(old) & set(new)) - section:
        swaps = _colour_swaps(old[node_id], new[node_id])
        if swaps and swaps <= asked:
            out.add(node_id)
    return out
