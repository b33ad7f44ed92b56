"""What every write of a draft or a change set shares: who may act, what it touched, its event."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from charlotte.errors import Refused
from charlotte.events import AGENT_ACTOR, EventTypes, NewEvent
from charlotte.page.session import Applied

__all__ = ["check_person", "page_changed", "touched_node_ids"]


def check_person(user: object) -> None:
    """``Refused("invalid_request")`` unless ``user`` names a person (a non-empty id, never the agent's).

    The actor of a person's edit or decision names who took it; nobody acts as the agent.
    """
    if not isinstance(user, str) or not user or user == AGENT_ACTOR:
        raise Refused("invalid_request", detail={"field": "user"})


def page_changed(applied: Applied, node_ids: tuple[str, ...], actor: str) -> NewEvent:
    """The ``page.changed`` event of a write: its revision, actor, op count and touched nodes."""
    payload = {
        "revision": applied.revision,
        "actor": actor,
        "ops": len(applied.ops),
        "node_ids": list(node_ids),
    }
    return NewEvent(EventTypes.PAGE_CHANGED, payload, actor)


def touched_node_ids(ops: Iterable[dict[str, Any]]) -> tuple[str, ...]:
    """Ids of the nodes a batch of (applied, well-formed) ops wrote, first-seen order."""
    seen: dict[str, None] = {}
    for op in ops:
        node = op.get("node")
        nid = node.get("id") if isinstance(node, dict) else op.get("id")
        if isinstance(nid, str):
            seen.setdefault(nid, None)
    return tuple(seen)
