"""``WorkingCopy``: a page document changed op by op, copy-on-write.

Each op costs what it touches: the document given is copied on write, node by
node, and a parent→children index is kept up to date incrementally, so a
linear batch of ops never rescans the whole node map. ``reduce``,
``reduce_all`` and ``invert`` (in ``ops``) are built on it; what each op means
(its field shapes, its check and its effect) lives in ``op_table``, next to
the reasons it gives.

A map entry counts as a node only when it is a dict whose ``id`` equals its
key; an entry whose ``parent`` is neither ``None`` nor a string belongs to no
parent (it is indexed under none).
"""

from __future__ import annotations

from enum import Enum
from typing import Any, cast

from charlotte.page.inverse import inverse_of
from charlotte.page.model import Doc, Op
from charlotte.page.op_table import MALFORMED_DOC, MALFORMED_OP, OPS, SHAPES, unknown_op


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
        spec = OPS.get(t)
        if spec is None:
            return unknown_op(t)
        fields, check, _ = spec
        for name, shape in fields.items():
            if name not in op or not SHAPES[shape](op[name]):
                return MALFORMED_OP
        return check(self, op)

    def _apply_checked(self, op: Op) -> None:
        if not self._writable:
            doc = dict(self._doc)
            self._nodes = doc["nodes"] = dict(self._nodes)
            self._doc = doc
            self._owned.clear()
            self._writable = True
        OPS[op["t"]][2](self, op)
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
