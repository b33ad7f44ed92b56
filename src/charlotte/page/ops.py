"""Ops and the reducer: the only way a page document changes.

An op is a dict tagged by ``"t"``. ``reduce(doc, op)`` is pure and total: an
invalid op gives back the *same* document object and a reason string; a valid
op gives a new document with ``seq + 1``. Neither the input document nor any
node in it is ever mutated; documents share unchanged nodes structurally, so
nothing inside a document may be mutated in place by anyone.

>>> from charlotte.page.model import empty_doc
>>> doc, reason = reduce(empty_doc("p"), {"t": "remove_node", "id": "x"})
>>> reason
'node not found'

``WorkingCopy`` applies a linear batch of ops at a cost proportional to what
each op touches (copy-on-write per node, an incremental parent→children index);
``reduce_all`` and ``invert`` are built on it.

Reasons beyond the spec table: ``malformed op`` (not a dict, ``t`` missing or
not a string, a field missing or of the wrong JSON type) and ``malformed
document`` (not a dict with a ``nodes`` object and an integer ``seq``; for the
meta/theme ops also a ``meta``/``theme`` object; for ``restore_node`` an entry
under the node's id that is not that node).

A map entry counts as a node only when it is a dict whose ``id`` equals its
key; an entry whose ``parent`` is neither ``None`` nor a string belongs to no
parent. ``invert`` is exact on every document where each entry is such a node.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import Enum
from typing import Any, cast

from charlotte.page.inverse import inverse_of
from charlotte.page.ordering import key_between

Doc = dict[str, Any]
Op = dict[str, Any]

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


class _Stray(Enum):
    STRAY = 0


_STRAY = _Stray.STRAY
Slot = str | None | _Stray


def _is_node(key: str, value: object) -> bool:
    return isinstance(value, dict) and value.get("id") == key


def _slot(key: str, value: object) -> Slot:
    """The parent a map entry is indexed under, or STRAY when it has none."""
    if not isinstance(value, dict) or value.get("id") != key:
        return _STRAY
    parent = value.get("parent")
    return parent if parent is None or isinstance(parent, str) else _STRAY


def _is_doc(doc: object) -> bool:
    if not isinstance(doc, dict) or not isinstance(doc.get("nodes"), dict):
        return False
    seq = doc.get("seq")
    return isinstance(seq, int) and not isinstance(seq, bool)


class WorkingCopy:
    """A page document changed op by op, copy-on-write at node level.

    >>> from charlotte.page.model import empty_doc
    >>> wc = WorkingCopy(empty_doc("p"))
    >>> wc.apply({"t": "set_meta", "patch": {"title": "Home"}}) is None
    True
    >>> wc.doc["meta"]["title"], wc.doc["seq"]
    ('Home', 1)

    The document given is never mutated. The top-level dict and the node map
    are copied once, on the first op that applies; a node is copied the first
    time an op changes it. Reading ``doc`` hands the current state out, so the
    next op copies the top level again instead of mutating what was handed out.
    """

    __slots__ = ("_doc", "_kids", "_nodes", "_ok", "_owned", "_writable")

    def __init__(self, doc: Doc) -> None:
        self._doc: Any = doc
        self._ok = _is_doc(doc)
        self._nodes: dict[str, Any] = doc["nodes"] if self._ok else {}
        self._writable = False
        self._owned: set[str] = set()
        self._kids: dict[str | None, dict[str, None]] | None = None

    @property
    def doc(self) -> Doc:
        """The current document (the input object itself while no op has applied)."""
        self._writable = False
        result: Doc = self._doc
        return result

    @property
    def meta(self) -> Any:
        """The current ``meta`` value."""
        return self._doc.get("meta") if isinstance(self._doc, dict) else None

    @property
    def theme(self) -> Any:
        """The current ``theme`` value."""
        return self._doc.get("theme") if isinstance(self._doc, dict) else None

    # -- reading ----------------------------------------------------------------

    def node(self, id: str) -> dict[str, Any] | None:
        """The current node ``id``, or ``None`` (do not mutate it)."""
        value = self._nodes.get(id)
        return value if _is_node(id, value) else None

    def children(self, parent: str | None) -> list[str]:
        """Child ids of ``parent`` (``None``: the roots), by ``order`` then id."""
        kids = self._index().get(parent)
        if not kids:
            return []
        nodes = self._nodes

        def sort_key(k: str) -> tuple[str, str]:
            order = nodes[k].get("order")
            return (order if isinstance(order, str) else "", k)

        return sorted(kids, key=sort_key)

    def root_ids(self) -> list[str]:
        """Ids of the roots in order (an orphan is no root)."""
        return self.children(None)

    def descendants(self, id: str) -> list[str]:
        """Transitive descendant ids of ``id``, in ``tree.descendants_of`` order."""
        out: list[str] = []
        seen = {id}
        stack = [id]
        while stack:
            for child in self.children(stack.pop()):
                if child not in seen:
                    seen.add(child)
                    out.append(child)
                    stack.append(child)
        return out

    def ancestors(self, id: str) -> list[str]:
        """Ancestor ids of ``id``, nearest first; cycle-safe, stops at a missing id."""
        out: list[str] = []
        seen = {id}
        node = self.node(id)
        while node is not None:
            parent = node.get("parent")
            if not isinstance(parent, str) or parent in seen:
                break
            node = self.node(parent)
            if node is None:
                break
            seen.add(parent)
            out.append(parent)
        return out

    def creates_cycle(self, id: str, parent: str) -> bool:
        """True when putting ``id`` under ``parent`` would close a cycle."""
        return parent == id or id in self.ancestors(parent)

    # -- applying ---------------------------------------------------------------

    def apply(self, op: object) -> str | None:
        """Apply ``op``; on an invalid op return the reason and change nothing."""
        reason = self.check(op)
        if reason is None:
            self._apply_checked(cast(Op, op))
        return reason

    def apply_with_inverse(self, op: object) -> tuple[str | None, list[Op]]:
        """Apply ``op`` and return ``(reason, inverse ops)``; ``[]`` when invalid."""
        reason = self.check(op)
        if reason is not None:
            return reason, []
        inverse = inverse_of(self, cast(Op, op))
        for back in inverse:
            if back["t"] == "restore_node":
                # The inverse holds this node object: never mutate it in place.
                self._owned.discard(back["node"]["id"])
        self._apply_checked(cast(Op, op))
        return None, inverse

    def check(self, op: object) -> str | None:
        """The reason ``op`` cannot apply to the current state, or ``None``."""
        if not self._ok:
            return MALFORMED_DOC
        if not isinstance(op, dict):
            return MALFORMED_OP
        t = op.get("t")
        if not isinstance(t, str):
            return MALFORMED_OP
        spec = _OPS.get(t)
        if spec is None:
            return unknown_op(t)
        fields, check, _ = spec
        for name, shape in fields.items():
            if name not in op or not _SHAPES[shape](op[name]):
                return MALFORMED_OP
        return check(self, op)

    def _apply_checked(self, op: Op) -> None:
        if not self._writable:
            doc = dict(self._doc)
            self._nodes = doc["nodes"] = dict(self._nodes)
            self._doc = doc
            self._owned.clear()
            self._writable = True
        _OPS[op["t"]][2](self, op)
        self._doc["seq"] += 1

    # -- internals used by the op handlers ---------------------------------------

    def _index(self) -> dict[str | None, dict[str, None]]:
        if self._kids is None:
            self._kids = {}
            for key, value in self._nodes.items():
                self._link(key, value)
        return self._kids

    def _link(self, key: str, value: object) -> None:
        slot = _slot(key, value)
        if self._kids is not None and slot is not _STRAY:
            self._kids.setdefault(slot, {})[key] = None

    def _unlink(self, key: str, value: object) -> None:
        slot = _slot(key, value)
        if self._kids is not None and slot is not _STRAY:
            kids = self._kids.get(slot)
            if kids is not None:
                kids.pop(key, None)
                if not kids:
                    del self._kids[slot]

    def _own(self, id: str) -> dict[str, Any]:
        node: dict[str, Any] = self._nodes[id]
        if id not in self._owned:
            node = dict(node)
            self._nodes[id] = node
            self._owned.add(id)
        return node

    def _put(self, id: str, node: dict[str, Any]) -> None:
        old = self._nodes.get(id)
        if old is not None:
            self._unlink(id, old)
        self._nodes[id] = node
        self._owned.discard(id)  # a node from an op is shared with the op: copy before changing
        self._link(id, node)

    def _set_parent(self, id: str, parent: str | None, order: str) -> None:
        node = self._own(id)
        self._unlink(id, node)
        node["parent"] = parent
        node["order"] = order
        self._link(id, node)

    def _remove(self, id: str) -> None:
        doomed = [id, *self.descendants(id)]
        kids = self._index()
        for key in doomed:
            self._unlink(key, self._nodes.pop(key))
            kids.pop(key, None)
            self._owned.discard(key)


# -- op handlers: field shapes, a check, an effect ---------------------------------

Check = Callable[[WorkingCopy, Op], str | None]
Effect = Callable[[WorkingCopy, Op], None]


def _is_payload_node(v: Any) -> bool:
    return isinstance(v, dict) and isinstance(v.get("id"), str)


#: JSON shape of an op field; a field that is missing or of another shape is a malformed op.
_SHAPES: dict[str, Callable[[Any], bool]] = {
    "str": lambda v: isinstance(v, str),
    "str|None": lambda v: v is None or isinstance(v, str),
    "object": lambda v: isinstance(v, dict),
    "list": lambda v: isinstance(v, list),
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "any": lambda v: True,
    "node": lambda v: _is_payload_node(v) and "parent" in v and _SHAPES["str|None"](v["parent"]),
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
_OPS: dict[str, tuple[dict[str, str], Check, Effect]] = {
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
OP_TYPES: frozenset[str] = frozenset(_OPS) - {"restore_node", "restore_meta", "restore_theme"}
#: charlotte's own ops, used by inverses only; never offered to the model.
RESTORE_OP_TYPES: frozenset[str] = frozenset({"restore_node", "restore_meta", "restore_theme"})


def reduce(doc: Doc, op: object) -> tuple[Doc, str | None]:
    """Apply one op: ``(new doc, None)``, or ``(the same doc, reason)`` when invalid."""
    wc = WorkingCopy(doc)
    reason = wc.apply(op)
    return wc.doc, reason


def reduce_all(doc: Doc, ops: Iterable[object]) -> tuple[Doc, list[tuple[int, str]]]:
    """Apply ops in order, skipping invalid ones; returns the doc and ``(index, reason)`` skips.

    Linear in the size of what the ops touch; the same as folding ``reduce``.
    """
    wc = WorkingCopy(doc)
    skipped: list[tuple[int, str]] = []
    for i, op in enumerate(ops):
        reason = wc.apply(op)
        if reason is not None:
            skipped.append((i, reason))
    return wc.doc, skipped


def invert(doc: Doc, op: object) -> list[Op]:
    """Ops that turn ``reduce(doc, op)`` back into ``doc`` exactly (only ``seq`` differs).

    ``[]`` for an invalid op (and for a valid op that changes nothing but ``seq``).
    """
    wc = WorkingCopy(doc)
    if wc.check(op) is not None:
        return []
    return inverse_of(wc, cast(Op, op))
