"""The session event contract: event types, the envelope, and its JSON Schema.

Every change in a session is an event in an append-only, per-session log. The
contract lives in four places that must agree (``tests/test_event_contract.py``
checks it): ``EventTypes.ALL`` here, the JSON Schema
``charlotte/schema/events.v1.json``, the fixture ``tests/fixtures/events.v1.json``
and ``docs/events.md``. Adding a type means updating all four.

>>> event = Event("s1", 1, EventTypes.TEXT_DELTA, "2025-01-01T00:00:00.000000Z",
...               AGENT_ACTOR, {"text": "Hello"})
>>> event.to_json()
'{"session_id":"s1","seq":1,"type":"text.delta","at":"2025-01-01T00:00:00.000000Z","actor":"agent","payload":{"text":"Hello"}}'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from importlib import resources
from typing import Any, Final

__all__ = [
    "AGENT_ACTOR",
    "OUTSIDE_AGENT_PREFIX",
    "Event",
    "EventTypes",
    "NewEvent",
    "event_schema",
    "format_at",
    "is_agent_actor",
    "schema_errors",
    "utc_now",
]

#: The actor of everything the agent's turn records (tool writes included).
AGENT_ACTOR: Final = "agent"
#: What an outside agent's actor starts with (``agent:<client>``, ``charlotte.mcp``).
OUTSIDE_AGENT_PREFIX: Final = "agent:"


def is_agent_actor(actor: object) -> bool:
    """True for the built-in agent's actor and an outside agent's (``agent:<client>``)."""
    return actor == AGENT_ACTOR or (isinstance(actor, str) and actor.startswith(OUTSIDE_AGENT_PREFIX))


class EventTypes:
    """One constant per event type; ``ALL`` lists them in documentation order."""

    SESSION_OPENED: Final = "session.opened"
    TURN_QUEUED: Final = "turn.queued"
    TURN_STARTED: Final = "turn.started"
    RUN_STARTED: Final = "run.started"
    TEXT_DELTA: Final = "text.delta"
    TOOL_CALLED: Final = "tool.called"
    TOOL_RESULT: Final = "tool.result"
    PAGE_CHANGED: Final = "page.changed"
    RUN_FINISHED: Final = "run.finished"
    RUN_FAILED: Final = "run.failed"
    TURN_FINISHED: Final = "turn.finished"
    TURN_STOPPED: Final = "turn.stopped"
    PROPOSAL_OPENED: Final = "proposal.opened"
    PROPOSAL_APPROVED: Final = "proposal.approved"
    PROPOSAL_REJECTED: Final = "proposal.rejected"
    PROPOSAL_CONFLICTED: Final = "proposal.conflicted"
    PAGE_PUBLISHED: Final = "page.published"
    HUMAN_EDITED: Final = "human.edited"
    USAGE_OBSERVED: Final = "usage.observed"

    ALL: Final[tuple[str, ...]] = (
        SESSION_OPENED,
        TURN_QUEUED,
        TURN_STARTED,
        RUN_STARTED,
        TEXT_DELTA,
        TOOL_CALLED,
        TOOL_RESULT,
        PAGE_CHANGED,
        RUN_FINISHED,
        RUN_FAILED,
        TURN_FINISHED,
        TURN_STOPPED,
        PROPOSAL_OPENED,
        PROPOSAL_APPROVED,
        PROPOSAL_REJECTED,
        PROPOSAL_CONFLICTED,
        PAGE_PUBLISHED,
        HUMAN_EDITED,
        USAGE_OBSERVED,
    )

    @classmethod
    def is_known(cls, type: str) -> bool:
        """True when ``type`` is one of ``ALL``."""
        return type in _KNOWN


_KNOWN: Final = frozenset(EventTypes.ALL)


def utc_now() -> datetime:
    """The current time as an aware UTC datetime."""
    return datetime.now(UTC)


def format_at(moment: datetime) -> str:
    """``moment`` as the envelope's ``at``: UTC ISO-8601 with microseconds and ``Z``.

    >>> format_at(datetime(2025, 5, 1, 12, 30, tzinfo=UTC))
    '2025-05-01T12:30:00.000000Z'
    """
    if moment.tzinfo is None:
        raise ValueError("format_at needs an aware datetime")
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event not yet in the log: what ``append_many`` takes."""

    type: str
    payload: Mapping[str, Any]
    actor: str


@dataclass(frozen=True, slots=True)
class Event:
    """One logged event: the envelope ``{session_id, seq, type, at, actor, payload}``."""

    session_id: str
    seq: int
    type: str
    at: str
    actor: str
    payload: Mapping[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """The envelope as a plain JSON-shaped dict."""
        return {
            "session_id": self.session_id,
            "seq": self.seq,
            "type": self.type,
            "at": self.at,
            "actor": self.actor,
            "payload": dict(self.payload),
        }

    def to_json(self) -> str:
        """The envelope as compact JSON text (what a live stream sends)."""
        return json.dumps(self.to_dict(), separators=(",", ":"), ensure_ascii=False)


@cache
def event_schema() -> dict[str, Any]:
    """The event JSON Schema (Draft 2020-12) shipped in ``charlotte/schema``."""
    text = resources.files("charlotte").joinpath("schema/events.v1.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def schema_errors(envelope: Mapping[str, Any] | Event) -> list[str]:
    """Where ``envelope`` breaks the event schema: ``"<json path>: <keyword>"`` lines.

    An empty list means the envelope is valid. Meant for tests and diagnostics;
    the log itself does not validate payloads on the write path.
    """
    data = envelope.to_dict() if isinstance(envelope, Event) else dict(envelope)
    validator = _validator()
    found = sorted(validator.iter_errors(data), key=lambda e: (e.json_path, e.validator))
    return [f"{error.json_path}: {error.validator}" for error in found]


@cache
def _validator() -> Any:
    # jsonschema is for tests and diagnostics: imported on first use, not at ``import charlotte``.
    from jsonschema import Draft202012Validator, FormatChecker

    return Draft202012Validator(event_schema(), format_checker=FormatChecker())
