"""The host's per-turn caps: ``TurnContextFactory.for_turn`` and how its limits meet the settings'.

A host installs a factory with ``Charlotte.context_using``; the runner calls
``for_turn`` once per turn (before any model call) and merges the caps it
returns with charlotte's own limits: the smaller of each wins, so a host can
only narrow them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from pydantic_ai.usage import UsageLimits

from charlotte.settings import Settings
from charlotte.storage import SessionRecord, TurnRecord

__all__ = ["HarnessDefaults", "TurnContext", "TurnContextFactory", "merge_limits"]


@dataclass(frozen=True, slots=True)
class TurnContext:
    """The host's caps for one turn (all optional). They narrow charlotte's own limits.

    ``calls_per_minute`` is read for outside agents (``charlotte.mcp``): the
    most tool calls one may make in any minute on a session.
    """

    usage_limits: UsageLimits | None = None
    calls_per_minute: int | None = None


class TurnContextFactory(Protocol):
    """The host's per-turn hook (e.g. billing caps); raise ``Refused`` to refuse the turn.

    A factory may also define ``for_outside_agent(session, actor)``, the caps
    of an outside agent on a session (``charlotte.mcp``: its ``tool_calls_limit``
    and ``calls_per_minute``); without it the outside agent gets charlotte's own.
    """

    def for_turn(self, session: SessionRecord, turn: TurnRecord) -> TurnContext | None:
        """Caps for this turn, or None for charlotte's defaults."""
        ...


class HarnessDefaults:
    """The default ``TurnContextFactory``: no caps beyond the settings."""

    def for_turn(self, session: SessionRecord, turn: TurnRecord) -> TurnContext | None:
        """Always None."""
        return None


def merge_limits(settings: Settings, host: UsageLimits | None) -> UsageLimits:
    """Charlotte's limits, narrowed by the host's (the smaller of each wins)."""

    def smaller(a: int | None, b: int | None) -> int | None:
        if a is None:
            return b
        if b is None:
            return a
        return min(a, b)

    if host is None:
        return UsageLimits(
            request_limit=settings.request_limit,
            tool_calls_limit=settings.tool_calls_limit,
            total_tokens_limit=settings.total_tokens_limit,
        )
    return UsageLimits(
        request_limit=smaller(settings.request_limit, host.request_limit),
        tool_calls_limit=smaller(settings.tool_calls_limit, host.tool_calls_limit),
        total_tokens_limit=smaller(settings.total_tokens_limit, host.total_tokens_limit),
        input_tokens_limit=host.input_tokens_limit,
        output_tokens_limit=host.output_tokens_limit,
        cost_limit=host.cost_limit,
    )
