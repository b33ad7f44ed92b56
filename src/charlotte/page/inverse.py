"""Exact inverses of ops: what undoing a change applies.

``inverse_of(view, op)`` is computed against the state *before* a valid op and
returns ops that, applied to the state after it, give the before-state back
exactly: every key, every order key, the absence of keys a merge added. Where a
narrow op can say that (a merge that only overwrote keys, a move, a replaced
animation), the inverse is that narrow op, so undo logs read like the edits;
otherwise it is charlotte's ``restore_node`` / ``restore_meta`` /
``restore_theme``, which put a value back wholesale. Undo of a root move never
uses ``reorder_roots`` (that re-mints every root key): it moves the node back
to its original key.

``restore_node`` does two jobs: it puts back a node an op removed (the inverse
of ``remove_node``), and it replaces a node's value wholesale (the inverse of a
merge that added a key). The reducer applies it as it comes, as upstream does;
``PageSession`` holds it to one rule that serves both jobs and every inverse
already stored:

- a node that exists is replaced only **in place**: the restored value has the
  node's current parent (else ``duplicate_id``: that id names another node
  now, one made after the id was freed, and replacing it would lose it);
- a node that is absent is put back only **at the root or under a parent that
  exists** (else ``parent_not_found``: it would be an orphan nobody sees), and
  only under a container type (``not_a_container``), as any insert.

A selective undo (``drafts.history``) refuses ``conflicted`` before that
rule is reached whenever a later op wrote a node the inverse would write or
placed the parent it needs; the rule is what holds when the history cannot
say (a restore of any revision, a host's repository).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol

from charlotte.page.model import Op
from charlotte.page.ordering import key_between
from charlotte.page.seo import meta_patch_problem


class PageView(Protocol):
    """The read side of a document an inverse is computed against."""

    @property
    def meta(self) -> Any: ...

    @property
    def theme(self) -> Any: ...

    def node(self, id: str) -> dict[str, Any] | None: ...

    def root_ids(self) -> list[str]: ...

    def descendants(self, id: str) -> list[str]: ...

    def creates_cycle(self, id: str, parent: str) -> bool: ...


def inverse_of(view: PageView, op: Op) -> list[Op]:
    """Inverse ops of ``op``, which must be valid against ``view``."""
    return _INVERSES[op["t"]](view, op)


def _restore(node: dict[str, Any]) -> Op:
    return {"t": "restore_node", "node": node}


def _restores(view: PageView, ids: Iterable[str]) -> list[Op]:
    return [_restore(node) for id in ids if (node := view.node(id)) is not None]


def _before(view: PageView, op: Op) -> dict[str, Any]:
    node = view.node(op["id"])
    assert node is not None, "inverse_of needs a valid op"
    return node


def _old_values(base: Any, keys: Iterable[str]) -> dict[str, Any] | None:
    """The previous values of ``keys``, or None when a key was absent (a merge cannot delete)."""
    if not isinstance(base, dict):
        return None
    old: dict[str, Any] = {}
    for key in keys:
        if key not in base:
            return None
        old[key] = base[key]
    return old


def _adopting(view: PageView, id: str) -> list[Op]:
    # A node that appears under ``id`` adopts every orphan that pointed at
    # ``id``; remove_node would take those along, so they are put back.
    return [{"t": "remove_node", "id": id}, *_restores(view, view.descendants(id))]


def _insert(view: PageView, op: Op) -> list[Op]:
    return _adopting(view, op["node"]["id"])


def _restore_node(view: PageView, op: Op) -> list[Op]:
    id = op["node"]["id"]
    old = view.node(id)
    return [_restore(old)] if old is not None else _adopting(view, id)


def _remove(view: PageView, op: Op) -> list[Op]:
    return _restores(view, [op["id"], *view.descendants(op["id"])])


def _move_back(view: PageView, node: dict[str, Any]) -> Op:
    """``move_node`` to where ``node`` is now, when that move is valid and exact."""
    id, parent, order = node["id"], node.get("parent", 0), node.get("order")
    if isinstance(order, str) and (
        parent is None
        or (
            isinstance(parent, str)
            and view.node(parent) is not None
            and not view.creates_cycle(id, parent)
        )
    ):
        return {"t": "move_node", "id": id, "parent": parent, "order": order}
    return _restore(node)


def _move(view: PageView, op: Op) -> list[Op]:
    return [_move_back(view, _before(view, op))]


def _reorder(view: PageView, op: Op) -> list[Op]:
    back: list[Op] = []
    key: str | None = None
    for id in op["order"]:
        key = key_between(key, None)
        node = view.node(id)
        if node is not None and node.get("order") != key:
            back.append(_move_back(view, node))
    return back


def _props(view: PageView, op: Op) -> list[Op]:
    node = _before(view, op)
    old = _old_values(node.get("props"), op["patch"])
    if old is None:
        return [_restore(node)]
    return [{"t": "set_node_props", "id": op["id"], "patch": old}]


def _layout(view: PageView, op: Op) -> list[Op]:
    node = _before(view, op)
    if "layout" not in node:
        return [{"t": "set_layout", "id": op["id"], "layout": None}]
    if node["layout"] is None:
        return [_restore(node)]
    return [{"t": "set_layout", "id": op["id"], "layout": node["layout"]}]


def _breakpoint_merge(key: str) -> Callable[[PageView, Op], list[Op]]:
    def inverse(view: PageView, op: Op) -> list[Op]:
        node = _before(view, op)
        outer = node.get(key)
        inner = outer.get(op["breakpoint"]) if isinstance(outer, dict) else None
        old = _old_values(inner, op["patch"])
        if old is None:
            return [_restore(node)]
        return [{"t": op["t"], "id": op["id"], "breakpoint": op["breakpoint"], "patch": old}]

    return inverse


def _set_animation(view: PageView, op: Op) -> list[Op]:
    node = _before(view, op)
    items = node.get("animations")
    anim_id = op["anim"].get("id")
    if isinstance(items, list):
        for item in items:
            if isinstance(item, dict) and item.get("id") == anim_id:
                # The first match is what the op replaced; put it back the same way.
                return [{"t": "set_animation", "id": op["id"], "anim": item}]
        if isinstance(anim_id, str):
            return [{"t": "remove_animation", "id": op["id"], "animId": anim_id}]
    return [_restore(node)]


def _set_action(view: PageView, op: Op) -> list[Op]:
    node = _before(view, op)
    items = node.get("actions")
    index, action = op["index"], op["action"]
    if isinstance(items, list):
        if action is not None and index >= len(items):
            return [{"t": "set_action", "id": op["id"], "index": len(items), "action": None}]
        if action is not None and index >= 0 and items[index] is not None:
            return [{"t": "set_action", "id": op["id"], "index": index, "action": items[index]}]
        if action is None and 0 <= index == len(items) - 1 and items[index] is not None:
            # Deleting the last entry: appending it again restores the list.
            return [{"t": "set_action", "id": op["id"], "index": index, "action": items[index]}]
    return [_restore(node)]


def _wholesale(view: PageView, op: Op) -> list[Op]:
    return [_restore(_before(view, op))]


def _top(key: str) -> Callable[[PageView, Op], list[Op]]:
    def inverse(view: PageView, op: Op) -> list[Op]:
        current = view.meta if key == "meta" else view.theme
        if op["t"] == f"set_{key}":
            old = _old_values(current, op["patch"])
            # Old values a new write may no longer hold (a stored title over 120
            # characters, ``page.seo``) go back wholesale: an undo always applies.
            if old is not None and (key != "meta" or meta_patch_problem(old) is None):
                return [{"t": f"set_{key}", "patch": old}]
        return [{"t": f"restore_{key}", key: current}]

    return inverse


_INVERSES: dict[str, Callable[[PageView, Op], list[Op]]] = {
    "insert_node": _insert,
    "remove_node": _remove,
    "move_node": _move,
    "set_node_props": _props,
    "set_layout": _layout,
    "set_style": _breakpoint_merge("style"),
    "set_constraints": _breakpoint_merge("constraints"),
    "set_animation": _set_animation,
    "remove_animation": _wholesale,
    "set_action": _set_action,
    "set_meta": _top("meta"),
    "set_theme": _top("theme"),
    "reorder_roots": _reorder,
    "restore_node": _restore_node,
    "restore_meta": _top("meta"),
    "restore_theme": _top("theme"),
}
