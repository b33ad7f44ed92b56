"""The reducer: the only way a page document changes.

An op is a dict tagged by ``"t"``. ``reduce(doc, op)`` is pure and total: an
invalid op gives back the *same* document object and a reason string; a valid
op gives a new document with ``seq + 1``. Neither the input document nor any
node in it is ever mutated; documents share unchanged nodes structurally, so
nothing inside a document may be mutated in place by anyone.

>>> from charlotte.page.model import empty_doc
>>> doc, reason = reduce(empty_doc("p"), {"t": "remove_node", "id": "x"})
>>> reason
'node not found'

``WorkingCopy`` (module ``working_copy``, re-exported here) applies a linear
batch of ops at a cost proportional to what each op touches (copy-on-write per
node, an incremental parent→children index); ``reduce``, ``reduce_all`` and
``invert`` are built on it. What each op means (field shapes, check, effect)
and the reasons it gives are in ``op_table``.

A map entry counts as a node only when it is a dict whose ``id`` equals its
key; an entry whose ``parent`` is neither ``None`` nor a string belongs to no
parent. ``invert`` is exact on every document where each entry is such a node.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from charlotte.page.inverse import inverse_of
from charlotte.page.model import Doc, Op
from charlotte.page.op_table import META_OP_TYPES
from charlotte.page.working_copy import WorkingCopy

__all__ = [
    "WorkingCopy",
    "invert",
    "reduce",
    "reduce_all",
    "touched_node_ids",
    "writes_meta",
    "written_node_id",
]


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


def touched_node_ids(ops: Iterable[object]) -> tuple[str, ...]:
    """Ids of the nodes a batch of ops writes (an inserted node's own id, else the op's ``id``), first-seen order.

    Anything that is not an op with such an id names nothing.
    """
    seen: dict[str, None] = {}
    for op in ops:
        nid = written_node_id(op)
        if nid is not None:
            seen.setdefault(nid, None)
    return tuple(seen)


def written_node_id(op: object) -> str | None:
    """The id of the node ``op`` writes (an inserted node's own id, else the op's ``id``), or None."""
    if not isinstance(op, dict):
        return None
    node = op.get("node")
    nid = node.get("id") if isinstance(node, dict) else op.get("id")
    return nid if isinstance(nid, str) else None


def writes_meta(ops: Iterable[object]) -> bool:
    """True when one of ``ops`` writes the page's meta (``set_meta``, ``restore_meta``)."""
    return any(isinstance(op, dict) and op.get("t") in META_OP_TYPES for op in ops)
