"""What every write of a draft or a change set shares: who may act, what it touched, its event."""

from __future__ import annotations

from charlotte.errors import Refused
from charlotte.events import AGENT_ACTOR, EventTypes, NewEvent
from charlotte.page.ops import touched_node_ids
from charlotte.page.session import Applied

__all__ = ["check_person", "page_changed", "touched_node_ids"]  # touched_node_ids: page.ops


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
