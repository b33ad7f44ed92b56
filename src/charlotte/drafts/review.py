"""Reviewing an open change set node by node: take some nodes' changes out before approving.

``reject_nodes`` keeps the change-set invariants by building only on the two
resolutions they already cover: in one transaction, the open set is
**rejected** (its working revisions retired, ``proposal.rejected``, the agent
told once), and, when any of its ops are kept, a **new open set** holds them,
replayed on the current draft (``proposal.opened``; its base is the draft's
revision, as when the agent opens a set). The agent's next call carries the
rejection notice; it reads the kept changes with ``cms_get``.

An op is taken out when it changes one of the named nodes, or puts a node
under one; a node inserted by an op taken out takes its later ops with it
(they could not apply without it). What an op changes is read on the draft
the review compares the set with, from the op and its inverse: a removal
changes every descendant it takes along, a reorder every root it moves, so
every node the review lists as removed or changed can be named. Node keys are node ids, or ``#meta``,
``#theme``, ``#order`` (the top-level order), as in ``conflicted``.
Refusals: ``no_open_change_set``; ``invalid_request`` (``field`` ``nodes``)
for a list that is empty, longer than ``MAX_REVIEW_NODES``, holds anything
but short strings, or names no node the set changes; ``conflicted`` (with
``nodes``) when the kept ops no longer apply to the current draft. A refusal
changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from charlotte.drafts._writes import check_person
from charlotte.drafts.change_sets import ChangeSets, Resolution
from charlotte.drafts.history import op_keys
from charlotte.errors import Refused, ReplayConflict
from charlotte.events import EventTypes, NewEvent
from charlotte.page.inverse import inverse_of
from charlotte.page.ops import WorkingCopy
from charlotte.page.session import PageSession
from charlotte.storage import UnitOfWork

__all__ = ["MAX_REVIEW_NODES", "NodesRejected", "reject_nodes", "split_ops"]

#: The most node keys one ``reject_nodes`` call names.
MAX_REVIEW_NODES: Final = 200


@dataclass(frozen=True, slots=True)
class NodesRejected:
    """What ``reject_nodes`` did: the rejected set, the ops taken out and kept, the new set."""

    rejected: Resolution
    dropped: int
    kept: int
    #: The new open set holding the kept ops (None when nothing was kept).
    change_set_id: str | None

    def to_json(self) -> dict[str, Any]:
        """The answer of the API."""
        return {
            "rejected_id": self.rejected.change_set_id,
            "dropped": self.dropped,
            "kept": self.kept,
            "change_set_id": self.change_set_id,
            "revision": self.rejected.revision,
        }


def split_ops(
    ops: Sequence[dict[str, Any]], nodes: set[str], draft: dict[str, Any]
) -> tuple[list[dict[str, Any]], int]:
    """The ops that keep none of ``nodes``' changes, and how many were taken out (linear).

    What each op changes is read on ``draft`` (what the review compares the
    set with) with the kept ops before it applied, as the replay will apply
    them: the op's own keys and those of its inverse there, so a section's
    removal names every descendant it takes along and a reorder every root
    it moves, as the review lists them.
    """
    out = set(nodes)
    kept: list[dict[str, Any]] = []
    dropped = 0
    page = WorkingCopy(draft)
    for op in ops:
        keys = op_keys(op, parents=True)
        for back in inverse_of(page, op) if page.check(op) is None else ():
            keys |= op_keys(back)
        if keys & out:
            dropped += 1
            if op.get("t") == "insert_node":
                out |= op_keys(op)  # what it inserted goes too, with its later ops
            continue
        page.apply(op)
        kept.append(op)
    return kept, dropped


def reject_nodes(sets: ChangeSets, unit: UnitOfWork, nodes: object, user: str) -> NodesRejected:
    """Take ``nodes``' changes out of the open change set (see module docstring)."""
    check_person(user)
    wanted = _node_keys(nodes)
    ws = sets.workspace
    change_set = sets.open_change_set(unit, for_update=True)
    if change_set is None:
        raise Refused("no_open_change_set")
    doc, revision = ws.load_draft(unit)
    kept, dropped = split_ops(change_set.ops, wanted, doc)
    if not dropped:
        raise Refused("invalid_request", detail={"field": "nodes"})
    page = PageSession(doc, node_types=ws.node_types)
    replayed: list[dict[str, Any]] = []
    if kept:
        try:
            replayed = sets.replay(page, ((op, None) for op in kept), ws.links).ops
        except ReplayConflict as conflict:
            keys = sorted(op_keys(kept[conflict.at])) if conflict.at < len(kept) else []
            raise Refused("conflicted", detail={"nodes": keys}) from None
    resolution = Resolution(change_set.id, "rejected", change_set.op_count, revision)
    payload = {"proposal_id": change_set.id, "ops": change_set.op_count}
    sets.resolve(
        unit, resolution, EventTypes.PROPOSAL_REJECTED, payload, user, change_set.base_revision
    )
    new_id = None
    if replayed:
        new_id = sets.store.insert_open(unit.conn, unit.session, page.doc, replayed)
        opened = {"proposal_id": new_id, "base_revision": revision}
        unit.emit(NewEvent(EventTypes.PROPOSAL_OPENED, opened, user))
    return NodesRejected(resolution, dropped, len(replayed), new_id)


def _node_keys(nodes: object) -> set[str]:
    if (
        not isinstance(nodes, list)
        or not 1 <= len(nodes) <= MAX_REVIEW_NODES
        or not all(isinstance(key, str) and 1 <= len(key) <= 64 for key in nodes)
    ):
        raise Refused("invalid_request", detail={"field": "nodes"})
    return set(nodes)
