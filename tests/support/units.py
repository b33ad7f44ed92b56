"""Calling the unit-taking services the way a request does: each call in a unit of its own.

``in_unit(ws, session_id, tenant).agent_apply(ops, based_on=0)`` opens a
write unit on the session (its row locked), runs ``ws.agent_apply(unit,
ops, based_on=0)`` in it and commits; the reads (``draft``, ``changes_since``
…) run in a read unit. ``call_tool(tools, name, arguments, binding)`` is
``charlotte.runtime.tool_calls.call_tool`` over the tools' own units.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from charlotte.runtime.tool_calls import call_tool as _call_tool
from charlotte.storage import Units
from charlotte.tools import PageTools, ToolBinding, ToolResult

#: The unit-taking functions that only read: they run in a read unit.
READS = frozenset(
    {"draft", "published", "changes_since", "history", "publish_preview", "view", "open_change_set"}
)


class InUnit:
    """A service whose functions each run in a unit of their own on one session."""

    def __init__(self, service: Any, session_id: str, tenant: str) -> None:
        self._service = service
        self._session_id = session_id
        self._tenant = tenant

    def __getattr__(self, name: str) -> Callable[..., Any]:
        function = getattr(self._service, name)
        units = units_of(self._service)

        def call(*args: Any, **kwargs: Any) -> Any:
            opener = units.read if name in READS else units.write
            with opener(self._session_id, self._tenant) as unit:
                return function(unit, *args, **kwargs)

        return call


def units_of(service: Any) -> Units:
    """The units a Workspace, ChangeSets, DraftHistory or PageTools works in."""
    for path in ("units", "workspace.units"):
        found: Any = service
        try:
            for part in path.split("."):
                found = getattr(found, part)
        except AttributeError:
            continue
        if isinstance(found, Units):
            return found
    raise TypeError(f"no units on {service!r}")


def in_unit(service: Any, session_id: str, tenant: str) -> Any:
    """``service`` with each function called in a unit of its own on ``session_id`` of ``tenant``."""
    return InUnit(service, session_id, tenant)


def call_tool(
    tools: PageTools, name: object, arguments: object, binding: ToolBinding, **options: Any
) -> ToolResult:
    """One tool call in the units the runner would open for it (``stop``, ``log``: as the runner's)."""
    return _call_tool(tools.units, tools, name, arguments, binding, **options)
