"""What every write of a draft or a change set shares: who may act, what it touched, its event."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from charlotte.errors import PageSessionError, Refused
from charlotte.events import AGENT_ACTOR, EventTypes, NewEvent
from charlotte.page.node_types import MAX_OPS_PER_APPLY
from charlotte.page.op_table import RESTORE_OP_TYPES
from charlotte.page.ops import touched_node_ids
from charlotte.page.session import Applied, PageSession

__all__ = [
    "Written",
    "apply_in_pieces",
    "check_person",
    "check_vocabulary",
    "link_view",
    "page_changed",
    "touched_node_ids",
]  # touched_node_ids: page.ops


@dataclass(frozen=True, slots=True)
class Written:
    """A committed write: the new revision, the ops as applied, their undo, the event seq."""

    revision: int
    ops: list[dict[str, Any]]
    inverse: list[dict[str, Any]]
    node_ids: tuple[str, ...]
    #: Seq of the ``page.changed`` event; None when the batch was empty (nothing written)
    #: or the caller appends the write's events itself (``events=``).
    seq: int | None


def check_person(user: object) -> None:
    """``Refused("invalid_request")`` unless ``user`` names a person (a non-empty id, never the agent's).

    The actor of a person's edit or decision names who took it; nobody acts as the agent.
    """
    if not isinstance(user, str) or not user or user == AGENT_ACTOR:
        raise Refused("invalid_request", detail={"field": "user"})


def check_vocabulary(ops: object) -> None:
    """``unknown_op`` (with ``at``) for charlotte's own ``restore_*`` ops in a person's edit.

    A person's edit sends the ops ``docs/edits.md`` lists (the agent's tools
    offer only those too); ``restore_node``/``restore_meta``/``restore_theme``
    replace values wholesale and are written by an undo or a restore only,
    from stored inverses.
    """
    if isinstance(ops, list | tuple):  # anything else PageSession refuses with its own code
        for at, op in enumerate(ops):
            if isinstance(op, dict) and op.get("t") in RESTORE_OP_TYPES:
                raise PageSessionError("unknown_op", at=at, detail="t: unknown op type")


def page_changed(revision: int, ops: int, node_ids: tuple[str, ...], actor: str) -> NewEvent:
    """The ``page.changed`` event of a write: its revision, actor, op count and touched nodes."""
    payload = {
        "revision": revision,
        "actor": actor,
        "ops": ops,
        "node_ids": list(node_ids),
    }
    return NewEvent(EventTypes.PAGE_CHANGED, payload, actor)


def apply_in_pieces(
    page: PageSession, ops: Sequence[object], *, based_on: int, actor: str
) -> Applied:
    """``ops`` applied as one batch of any length, ``MAX_OPS_PER_APPLY`` at a time (op indexes kept)."""
    if type(based_on) is not int or based_on != page.revision:
        raise PageSessionError("stale_revision", detail={"revision": page.revision})
    done: list[dict[str, Any]] = []
    undo: list[tuple[dict[str, Any], ...]] = []
    for start in range(0, len(ops), MAX_OPS_PER_APPLY):
        try:
            piece = page.apply(
                ops[start : start + MAX_OPS_PER_APPLY], based_on=page.revision, actor=actor
            )
        except PageSessionError as e:
            raise PageSessionError(e.code, at=start + (e.at or 0), detail=e.detail) from None
        done += piece.ops
        undo += piece.undo
    inverse = [back for part in reversed(undo) for back in part]
    return Applied(page.revision, done, inverse, undo)


def link_view(ops: object) -> list[Any]:
    # LinkPolicy walks a list; anything else is refused by PageSession.apply
    # with its own code, so LinkPolicy sees nothing to check.
    return list(ops) if isinstance(ops, list | tuple) else []
