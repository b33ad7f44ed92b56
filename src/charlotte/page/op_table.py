"""The op table: what each op means (field shapes, a check, an effect) and the reasons it gives.

``OPS`` maps an op's ``t`` to its field shapes (``SHAPES``), its check and its
effect; ``WorkingCopy`` (``working_copy``) dispatches through it, and
``reduce``, ``reduce_all`` and ``invert`` (``ops``) are built on
``WorkingCopy``. The check runs on a well-shaped op; the effect only after the
check passed, so an invalid op never changes anything. Both ``ops`` and
``working_copy`` import this module at the top: it needs ``WorkingCopy`` for
its annotations only.

Reasons beyond the spec table: ``malformed op`` (not a dict, ``t`` missing or
not a string, a field missing or of the wrong JSON type) and ``malformed
document`` (not a dict with a ``nodes`` object and an integer ``seq``; for the
meta/theme ops also a ``meta``/``theme`` object; for ``restore_node`` an entry
under the node's id that is not that node).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from charlotte.page.model import Op
from charlotte.page.ordering import key_between

if TYPE_CHECKING:
    from charlotte.page.working_copy import WorkingCopy

__all__ = [
    "BAD_REORDER",
    "CYCLE",
    "MALFORMED_DOC",
    "MALFORMED_OP",
    "META_OP_TYPES",
    "NEW_PARENT_NOT_FOUND",
    "NODE_EXISTS",
    "NODE_NOT_FOUND",
    "OPS",
    "OP_TYPES",
    "PARENT_NOT_FOUND",
    "RESTORE_OP_TYPES",
    "SELF_PARENT",
    "SHAPES",
    "Check",
    "Effect",
    "unknown_op",
]

NODE_EXISTS = "node id already exists"
PARENT_NOT_FOUND = "parent not found"
NODE_NOT_FOUND = "node not found"
SELF_PARENT = "cannot parent a node to itself"
NEW_PARENT_NOT_FOUND = "new parent not found"
CYCLE = "move would create a cycle"
BAD_REORDER = "reorder must be a permutation of the current roots"
MALFORMED_OP = "malformed op"
MALFORMED_DOC = "malformed document"


def unknown_op(t: str) -> str:
    """The reason for an op whose ``t`` the reducer does not know."""
    return f'unknown op "{t}"'


# -- op handlers: field shapes, a check, an effect ---------------------------------
# (WorkingCopy.check and .apply dispatch through SHAPES and OPS.)

Check = Callable[["WorkingCopy", Op], str | None]
Effect = Callable[["WorkingCopy", Op], None]


def _is_payload_node(v: Any) -> bool:
    return isinstance(v, dict) and isinstance(v.get("id"), str)


#: JSON shape of an op field; a field that is missing or of another shape is a malformed op.
SHAPES: dict[str, Callable[[Any], bool]] = {
    "str": lambda v: isinstance(v, str),
    "str|None": lambda v: v is None or isinstance(v, str),
    "object": lambda v: isinstance(v, dict),
    "list": lambda v: isinstance(v, list),
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "any": lambda v: True,
    "node": lambda v: _is_payload_node(v) and "parent" in v and SHAPES["str|None"](v["parent"]),
    "any node": _is_payload_node,
}


def _found(wc: WorkingCopy, op: Op) -> str | None:
    return None if wc.node(op["id"]) is not None else NODE_NOT_FOUND


def _check_insert(wc: WorkingCopy, op: Op) -> str | None:
    node = op["node"]
    if node["id"] in wc._nodes:
        return NODE_EXISTS
    parent = node["parent"]
    if parent is not None and wc.node(parent) is None:
        return PARENT_NOT_FOUND
    return None


def _check_move(wc: WorkingCopy, op: Op) -> str | None:
    id, parent = op["id"], op["parent"]
    if wc.node(id) is None:
        return NODE_NOT_FOUND
    if parent == id:
        return SELF_PARENT
    if parent is not None:
        if wc.node(parent) is None:
            return NEW_PARENT_NOT_FOUND
        if wc.creates_cycle(id, parent):
            return CYCLE
    return None


def _check_reorder(wc: WorkingCopy, op: Op) -> str | None:
    order: list[Any] = op["order"]
    roots = wc._index().get(None, {})
    if (
        len(order) == len(roots)
        and all(isinstance(id, str) and id in roots for id in order)
        and len(set(order)) == len(order)
    ):
        return None
    return BAD_REORDER


def _check_restore(wc: WorkingCopy, op: Op) -> str | None:
    id = op["node"]["id"]
    return MALFORMED_DOC if id in wc._nodes and wc.node(id) is None else None


def _has_object(key: str) -> Check:
    return lambda wc, op: None if isinstance(wc._doc.get(key), dict) else MALFORMED_DOC


def _merged(base: Any, patch: dict[str, Any]) -> dict[str, Any]:
    return {**base, **patch} if isinstance(base, dict) else dict(patch)


def _do_props(wc: WorkingCopy, op: Op) -> None:
    node = wc._own(op["id"])
    node["props"] = _merged(node.get("props"), op["patch"])


def _do_layout(wc: WorkingCopy, op: Op) -> None:
    node = wc._own(op["id"])
    layout = op.get("layout")
    if layout is None:
        node.pop("layout", None)
    else:
        node["layout"] = layout


def _do_breakpoint_merge(key: str, default: Callable[[], dict[str, Any]]) -> Effect:
    def effect(wc: WorkingCopy, op: Op) -> None:
        node = wc._own(op["id"])
        current = node.get(key)
        outer = current if isinstance(current, dict) else default()
        bp = op["breakpoint"]
        node[key] = {**outer, bp: _merged(outer.get(bp), op["patch"])}

    return effect


def _hug() -> dict[str, Any]:
    return {"base": {"width": "hug", "height": "hug"}}


def _list_of(node: dict[str, Any], key: str) -> list[Any]:
    value = node.get(key)
    return value if isinstance(value, list) else []


def _same_anim(item: Any, anim_id: Any) -> bool:
    return isinstance(item, dict) and item.get("id") == anim_id


def _do_set_animation(wc: WorkingCopy, op: Op) -> None:
    node = wc._own(op["id"])
    anim = op["anim"]
    items = list(_list_of(node, "animations"))
    at = next((i for i, a in enumerate(items) if _same_anim(a, anim.get("id"))), None)
    if at is None:
        items.append(anim)
    else:
        items[at] = anim
    node["animations"] = items


def _do_remove_animation(wc: WorkingCopy, op: Op) -> None:
    node = wc._own(op["id"])
    anim_id = op["animId"]
    node["animations"] = [a for a in _list_of(node, "animations") if not _same_anim(a, anim_id)]


def _do_set_action(wc: WorkingCopy, op: Op) -> None:
    node = wc._own(op["id"])
    items = list(_list_of(node, "actions"))
    index, action = op["index"], op["action"]
    if action is None:
        if 0 <= index < len(items):
            del items[index]
    elif index >= len(items):
        items.append(action)
    elif index >= 0:  # a negative index matches no position: nothing changes
        items[index] = action
    node["actions"] = items


def _do_reorder(wc: WorkingCopy, op: Op) -> None:
    key: str | None = None
    for id in op["order"]:
        key = key_between(key, None)
        wc._own(id)["order"] = key


def _do_top(key: str, field: str, merge: bool) -> Effect:
    def effect(wc: WorkingCopy, op: Op) -> None:
        wc._doc[key] = {**wc._doc[key], **op[field]} if merge else op[field]

    return effect


def _do_put(wc: WorkingCopy, op: Op) -> None:
    wc._put(op["node"]["id"], op["node"])


_BP_PATCH = {"id": "str", "breakpoint": "str", "patch": "object"}

#: t → (field shapes, check, effect). The check runs on a well-shaped op; the
#: effect only after the check passed, so an invalid op never changes anything.
OPS: dict[str, tuple[dict[str, str], Check, Effect]] = {
    "insert_node": ({"node": "node"}, _check_insert, _do_put),
    "remove_node": ({"id": "str"}, _found, lambda wc, op: wc._remove(op["id"])),
    "move_node": (
        {"id": "str", "parent": "str|None", "order": "str"},
        _check_move,
        lambda wc, op: wc._set_parent(op["id"], op["parent"], op["order"]),
    ),
    "set_node_props": ({"id": "str", "patch": "object"}, _found, _do_props),
    "set_layout": ({"id": "str"}, _found, _do_layout),
    "set_style": (_BP_PATCH, _found, _do_breakpoint_merge("style", dict)),
    "set_constraints": (_BP_PATCH, _found, _do_breakpoint_merge("constraints", _hug)),
    "set_animation": ({"id": "str", "anim": "object"}, _found, _do_set_animation),
    "remove_animation": ({"id": "str", "animId": "str"}, _found, _do_remove_animation),
    "set_action": ({"id": "str", "index": "int", "action": "any"}, _found, _do_set_action),
    "set_meta": ({"patch": "object"}, _has_object("meta"), _do_top("meta", "patch", True)),
    "set_theme": ({"patch": "object"}, _has_object("theme"), _do_top("theme", "patch", True)),
    "reorder_roots": ({"order": "list"}, _check_reorder, _do_reorder),
    "restore_node": ({"node": "any node"}, _check_restore, _do_put),
    "restore_meta": ({"meta": "object"}, _has_object("meta"), _do_top("meta", "meta", False)),
    "restore_theme": ({"theme": "object"}, _has_object("theme"), _do_top("theme", "theme", False)),
}

#: The op vocabulary of the spec table (what tools and hosts may send).
OP_TYPES: frozenset[str] = frozenset(OPS) - {"restore_node", "restore_meta", "restore_theme"}
#: charlotte's own ops, used by inverses only; never offered to the model.
RESTORE_OP_TYPES: frozenset[str] = frozenset({"restore_node", "restore_meta", "restore_theme"})
#: The ops that write the page's meta.
META_OP_TYPES: frozenset[str] = frozenset({"set_meta", "restore_meta"})
