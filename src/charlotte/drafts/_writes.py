"""What every write of a draft or a change set shares: who may act, what it touched, its event."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from charlotte.errors import PageSessionError, Refused
from charlotte.events import EventTypes, NewEvent, is_agent_actor
from charlotte.page.node_types import MAX_OPS_PER_APPLY
from charlotte.page.op_table import RESTORE_OP_TYPES
from charlotte.page.ops import touched_node_ids
from charlotte.page.session import Applied, PageSession

__all__ = [
    "MAX_APPLIED_CHARS",
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
    """A write: the new revision, the ops as applied, their undo, the nodes they touched."""

    revision: int
    ops: list[dict[str, Any]]
    inverse: list[dict[str, Any]]
    node_ids: tuple[str, ...]


def check_person(user: object) -> None:
    """``Refused("invalid_request")`` unless ``user`` names a person (a non-empty id, never the agent's).

    The actor of a person's edit or decision names who took it; nobody acts as the agent.
    """
    if not isinstance(user, str) or not user or is_agent_actor(user):
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


#: The longest JSON text of the ops a ``page.changed`` carries (``applied``):
#: over it the event names the revision and the nodes only, and a client reads
#: the page once. A person's edit or one tool call is far below it.
MAX_APPLIED_CHARS: Final = 16_000


def page_changed(
    revision: int,
    count: int,
    node_ids: tuple[str, ...],
    actor: str,
    *,
    working: bool = False,
    applied: Sequence[dict[str, Any]] | None = None,
) -> NewEvent:
    """The ``page.changed`` event of a write: revision, actor, op count, touched nodes, the ops.

    ``working``: the ops changed a change set's working copy, not the draft.
    ``applied`` (the ops as applied) is carried when its JSON text is at most
    ``MAX_APPLIED_CHARS``, so a client applies them to its copy instead of
    reading the page (docs/events.md).
    """
    payload: dict[str, Any] = {
        "revision": revision,
        "actor": actor,
        "ops": count,
        "node_ids": list(node_ids),
        "copy": "working" if working else "draft",
    }
    if applied and _within_bound(applied):
        payload["applied"] = list(applied)
    return NewEvent(EventTypes.PAGE_CHANGED, payload, actor)


def _within_bound(ops: Sequence[dict[str, Any]]) -> bool:
    # Every op's JSON text is longer than 8 characters (``{"t":…}``), so a
    # batch of many ops is over the bound before any of it is encoded.
    if len(ops) * 8 > MAX_APPLIED_CHARS:
        return False
    text = json.dumps(list(ops), ensure_ascii=False, separators=(",", ":"))
    return len(text) <= MAX_APPLIED_CHARS


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
