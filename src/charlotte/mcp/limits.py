"""``OutsideLimits``: the caps on an outside agent's tool calls in one session.

The host's ``TurnContextFactory`` gives them: its ``for_outside_agent(session,
actor)`` when it defines one (a ``TurnContext``: ``usage_limits.tool_calls_limit``
and ``calls_per_minute``), narrowed by charlotte's own ``Settings.tool_calls_limit``
(the smaller wins, as for a turn); without it, charlotte's own and
``DEFAULT_CALLS_PER_MINUTE``. Over a stateless transport an outside agent's
MCP session is its actor on a charlotte session, so the caps count its
``tool.called`` events in the session's log: every process serving the
endpoint sees the same count. ``check`` runs in the call's write unit, with
the session row locked, before the call writes anything: a call over a cap
is ``usage_limit`` (all its calls) or ``rate_limited`` (the last minute's)
and leaves no trace.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Final

from charlotte.errors import Refused
from charlotte.events import EventTypes, utc_now
from charlotte.runtime.turn_context import TurnContext, merge_limits
from charlotte.storage import SessionRecord, UnitOfWork, count_events

if TYPE_CHECKING:
    from charlotte.app import Charlotte

__all__ = ["DEFAULT_CALLS_PER_MINUTE", "OutsideLimits"]

#: Tool calls an outside agent may make on a session in any minute unless the host says otherwise.
DEFAULT_CALLS_PER_MINUTE: Final = 120
_MINUTE: Final = timedelta(minutes=1)


class OutsideLimits:
    """The caps of an outside agent's calls (see module docstring)."""

    def __init__(self, charlotte: Charlotte) -> None:
        self._app = charlotte

    def caps(self, session: SessionRecord, actor: str) -> tuple[int | None, int]:
        """``(tool calls in the session, tool calls per minute)`` for ``actor`` on ``session``."""
        factory = self._app.runner.context_factory
        hook = getattr(factory, "for_outside_agent", None)
        context = hook(session, actor) if callable(hook) else None
        if context is not None and not isinstance(context, TurnContext):
            raise TypeError("for_outside_agent must return a TurnContext or None")
        limits = merge_limits(self._app.settings, context.usage_limits if context else None)
        per_minute = DEFAULT_CALLS_PER_MINUTE
        if context is not None and type(context.calls_per_minute) is int and context.calls_per_minute >= 0:
            per_minute = context.calls_per_minute
        return limits.tool_calls_limit, per_minute

    def check(self, unit: UnitOfWork, actor: str) -> None:
        """``Refused`` (``usage_limit``, ``rate_limited``) when ``actor``'s next call goes over a cap."""
        session = unit.session
        total, per_minute = self.caps(session, actor)
        called = EventTypes.TOOL_CALLED
        if total is not None and count_events(unit.conn, session.id, session.tenant, called, actor) >= total:
            raise Refused("usage_limit", detail={"cap": "tool_calls"})
        since = utc_now() - _MINUTE
        if count_events(unit.conn, session.id, session.tenant, called, actor, since) >= per_minute:
            raise Refused("rate_limited", detail={"cap": "calls_per_minute"})
