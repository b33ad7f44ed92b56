"""``call_tool``: one page tool call in the units of work it needs, recorded in the session's log.

The page tools take the caller's unit (``PageTools.call``); this is the one
caller that opens units for them, the runner's and any other (a test, the
benchmarks). A call is one write unit: the stop check (``stop``), its
``tool.called``, what the tool wrote and emitted (``page.changed``), its
``tool.result``, all committed together. A checking call (``cms_check``,
``cms_ready``: they may run long on a large page) commits its ``tool.called``
and takes its notices in that unit, reads in a read unit of its own (no lock
held while the checks run), then records its ``tool.result`` in a third.

A ``stop`` that raises rolls the first unit back: the call leaves no event,
and the exception propagates as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from charlotte.errors import Refused
from charlotte.storage import UnitOfWork, Units
from charlotte.tools import CHECKING, PageTools, ToolBinding, ToolResult
from charlotte.tools.results import failure

__all__ = ["ToolCallLog", "call_tool"]


class ToolCallLog(Protocol):
    """Where a call's ``tool.called`` and ``tool.result`` are recorded (``StreamRecorder``)."""

    def tool_called(self, unit: UnitOfWork, call_id: object, name: object, arguments: object) -> None:
        """Emit the call's ``tool.called`` in ``unit``."""

    def tool_answered(
        self, unit: UnitOfWork, call_id: object, name: object, result: Mapping[str, Any]
    ) -> None:
        """Emit the call's ``tool.result`` in ``unit``."""


def call_tool(
    units: Units,
    tools: PageTools,
    name: object,
    arguments: object,
    binding: ToolBinding,
    *,
    stop: Callable[[UnitOfWork], None] | None = None,
    log: ToolCallLog | None = None,
    call_id: object = None,
) -> ToolResult:
    """Run tool ``name`` on the session ``binding`` names, in its units of work (see module docstring)."""
    if not PageTools.accepts(binding):
        return failure("forbidden", None)
    checking = isinstance(name, str) and name in CHECKING
    try:
        with units.write(binding.session_id, binding.tenant) as unit:
            if stop is not None:
                stop(unit)
            if log is not None:
                log.tool_called(unit, call_id, name, arguments)
            if not checking:
                result = tools.call(unit, name, arguments, binding)
                if log is not None:
                    log.tool_answered(unit, call_id, name, result)
                return result
            notices = tools.notices(unit, binding) if tools.binds(unit, binding) else []
        with units.read(binding.session_id, binding.tenant) as unit:
            result = tools.with_notices(tools.call(unit, name, arguments, binding), notices)
    except Refused as refused:
        if refused.code != "not_found":
            raise
        return failure("not_found", None)  # no such session in the binding's tenant: nothing to log in
    if log is not None:
        with units.recording(binding.session_id, binding.tenant) as unit:
            log.tool_answered(unit, call_id, name, result)
    return result
