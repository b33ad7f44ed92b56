"""What an outside agent is offered: the nine page tools plus four to find its way, with their hints.

The nine page tools keep their names, descriptions, argument schemas and
bounds (``PageTools.definitions``); each gains one required argument,
``session``: over a stateless transport every call names the session it works
on (the tenant never comes from arguments: it is the caller's). The four more:
``charlotte_pages`` and ``charlotte_sessions`` (what the caller may use),
``charlotte_open_session`` (the host's authorizer decides) and
``charlotte_change_set`` (the outside agent's writes waiting for a person).
No tool publishes, and no name contains ``publish``.

Each ``ToolSpec`` carries the MCP hints: ``read_only`` (it changes no page and
opens nothing), ``destructive`` (its writes may remove or overwrite what is on
the page), ``idempotent`` (repeating the call with the same arguments has no
further effect: a repeated ``cms_apply`` names a revision that is no longer
current and is refused ``stale_revision``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from charlotte.access import MAX_BRIEF, MAX_PAGE
from charlotte.tools import PageTools

__all__ = [
    "MAX_SESSION_ID",
    "OWN_TOOLS",
    "PAGE_TOOL_HINTS",
    "ToolSpec",
    "tool_specs",
]

#: The longest session id a call may name (what ``Charlotte.find`` accepts).
MAX_SESSION_ID: Final = 64


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One tool as an MCP server lists it: name, description, input schema and its hints."""

    name: str
    description: str
    input_schema: dict[str, Any]
    read_only: bool
    destructive: bool
    idempotent: bool


_SESSION: Final[dict[str, Any]] = {
    "type": "string",
    "minLength": 1,
    "maxLength": MAX_SESSION_ID,
    "description": "the session to work on (charlotte_sessions lists them, charlotte_open_session opens one)",
}

#: ``(read_only, destructive, idempotent)`` of each page tool.
PAGE_TOOL_HINTS: Final[dict[str, tuple[bool, bool, bool]]] = {
    "cms_get": (True, False, True),
    "cms_outline": (True, False, True),
    "cms_types": (True, False, True),
    "cms_find": (True, False, True),
    "cms_facts": (True, False, True),
    # Writes to the change set (or the draft): ops may remove nodes; a repeat is stale_revision.
    "cms_apply": (False, True, True),
    "cms_changes_since": (True, False, True),
    "cms_check": (True, False, True),
    "cms_ready": (True, False, True),
}


def _closed(properties: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(required),
        "additionalProperties": False,
    }


_PAGE_KEY: Final[dict[str, Any]] = {
    "type": "string",
    "minLength": 1,
    "maxLength": MAX_PAGE,
    "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]*$",
    "description": "the host's page key (home, about-us, blog.post-1)",
}

#: charlotte's own tools for outside agents: ``(name, description, schema, hints)``.
OWN_TOOLS: Final[tuple[ToolSpec, ...]] = (
    ToolSpec(
        "charlotte_pages",
        "The pages of your site that have been published: their keys, revisions and dates.",
        _closed({}),
        True, False, True,
    ),
    ToolSpec(
        "charlotte_sessions",
        "The editing sessions of one page that you may use, newest first (20 at a time; "
        "before: the last id you were given, for the next ones).",
        _closed({"page": _PAGE_KEY, "before": dict(_SESSION, description="list sessions opened before this one")},
                ("page",)),
        True, False, True,
    ),
    ToolSpec(
        "charlotte_open_session",
        "Open an editing session on a page with a brief (what the page is for). Your writes in it "
        "wait in a change set until a person approves them; only a person publishes.",
        _closed(
            {
                "page": _PAGE_KEY,
                "brief": {"type": "string", "minLength": 1, "maxLength": MAX_BRIEF, "pattern": r"\S"},
            },
            ("page", "brief"),
        ),
        False, False, False,
    ),
    ToolSpec(
        "charlotte_change_set",
        "The change set your writes wait in for a person's approval: how many ops, the diff "
        "against the draft and the page it makes (null when none is open).",
        _closed({"session": _SESSION}, ("session",)),
        True, False, True,
    ),
)  # fmt: skip


def tool_specs(tools: PageTools) -> list[ToolSpec]:
    """The nine page tools (each with its ``session`` argument) and charlotte's own, in that order."""
    specs: list[ToolSpec] = []
    for definition in tools.definitions():
        schema = definition.parameters_json_schema
        schema["properties"] = {"session": dict(_SESSION), **schema.get("properties", {})}
        schema["required"] = ["session", *schema.get("required", [])]
        read_only, destructive, idempotent = PAGE_TOOL_HINTS[definition.name]
        specs.append(
            ToolSpec(definition.name, definition.description, schema, read_only, destructive, idempotent)
        )
    specs.extend(OWN_TOOLS)
    return specs
