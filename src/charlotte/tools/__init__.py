"""The nine page tools the agent edits a draft with, and the binding that confines them.

- ``PageTools``: ``definitions()`` (name, description, JSON schema of each
  tool) and ``call(unit, name, arguments, binding)`` → a JSON-able result, in
  the caller's unit of work (``CHECKING``: the tools a caller may run in a read unit).
- ``ToolBinding``: session, tenant, page and scope of a run; created only by
  the TurnRunner, never from arguments.
- Results: ``success`` / ``failure`` / ``is_error``; failures carry a stable
  code (``invalid_arguments`` with ``path``, ``expected``, ``got``; a
  ``PageSessionError`` or ``Refused`` code with ``at`` and ``detail``).

No tool publishes: publishing is a person's act (``Workspace.publish``).
"""

from __future__ import annotations

from charlotte.tools.arguments import ArgumentParser
from charlotte.tools.binding import ToolBinding, scope_of
from charlotte.tools.page_tools import CHECKING, ChecksFactory, PageTools, SiteLinksFor, fact_texts
from charlotte.tools.results import UNTRUSTED_NOTE, ToolResult, failure, is_error, success
from charlotte.tools.schemas import TOOL_NAMES, ToolDefinition, tool_definitions

__all__ = [
    "CHECKING",
    "TOOL_NAMES",
    "UNTRUSTED_NOTE",
    "ArgumentParser",
    "ChecksFactory",
    "PageTools",
    "SiteLinksFor",
    "ToolBinding",
    "ToolDefinition",
    "ToolResult",
    "fact_texts",
    "failure",
    "is_error",
    "scope_of",
    "success",
    "tool_definitions",
]
