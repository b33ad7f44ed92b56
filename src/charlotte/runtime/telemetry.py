"""``UsageTelemetry``: optional ``usage.observed`` events from a run's usage.

It is the only reader of the model runtime's usage. A turn never depends on
it: when disabled it returns before touching anything, and when enabled it
swallows its own failures (logged at debug level by type only, so no
exception message reaches a log event or anywhere else).
"""

from __future__ import annotations

import logging
from typing import Final

import sqlalchemy as sa
from pydantic_ai.usage import RunUsage

from charlotte.events import AGENT_ACTOR, EventTypes, NewEvent
from charlotte.policy.text import storable_text
from charlotte.storage import EventLog, Units

__all__ = ["UsageTelemetry"]

_log = logging.getLogger(__name__)

_MAX_MODEL_NAME: Final = 255  # usage.observed model bound


class UsageTelemetry:
    """Records a run's usage as ``usage.observed`` when ``enabled`` (nothing reads it back)."""

    __slots__ = ("_enabled", "_events")

    def __init__(self, enabled: bool, events: EventLog | None = None) -> None:
        self._enabled = enabled
        self._events = events

    @property
    def enabled(self) -> bool:
        """True when ``observe`` records anything."""
        return self._enabled

    def observe(
        self,
        engine: sa.Engine,
        session_id: str,
        tenant: str,
        turn_id: str,
        model_name: str,
        usage: RunUsage,
    ) -> None:
        """Record ``usage`` of one run of ``turn_id`` in its own transaction; never raises."""
        if not self._enabled:
            return
        try:
            payload = {
                "turn_id": turn_id,
                # The provider names the model: its text is made storable too.
                "model": storable_text(model_name or "unknown")[:_MAX_MODEL_NAME],
                "requests": _count(usage.requests),
                "input_tokens": _count(usage.input_tokens),
                "output_tokens": _count(usage.output_tokens),
            }
            with Units(engine, events=self._events).recording(session_id, tenant) as unit:
                unit.emit(NewEvent(EventTypes.USAGE_OBSERVED, payload, AGENT_ACTOR))
        except Exception as error:
            # Telemetry must never end a turn; the type is enough to investigate.
            _log.debug("usage.observed not recorded: %s", type(error).__name__)


def _count(value: object) -> int:
    # Providers may omit a figure; the event needs a non-negative integer.
    if type(value) is int and value >= 0:
        return value
    return 0
