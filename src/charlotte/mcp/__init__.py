"""charlotte's page tools for outside agents (Claude Desktop, Claude Code, a host's own), over MCP.

``OutsideTools`` (``outside.py``) holds the rules and needs no MCP library;
``charlotte.mcp.server`` serves it with the official MCP SDK (the ``mcp``
extra): Streamable HTTP at ``…/mcp`` of the ASGI app and the Django adapter,
and stdio (``charlotte mcp --tenant T --user U``). ``docs/mcp.md`` is the guide.
"""

from __future__ import annotations

from charlotte.mcp.catalogue import ToolSpec, tool_specs
from charlotte.mcp.limits import DEFAULT_CALLS_PER_MINUTE, OutsideLimits
from charlotte.mcp.outside import Caller, DirectWrites, OutsideTools, outside_actor

__all__ = [
    "DEFAULT_CALLS_PER_MINUTE",
    "Caller",
    "DirectWrites",
    "OutsideLimits",
    "OutsideTools",
    "ToolSpec",
    "outside_actor",
    "tool_specs",
]
