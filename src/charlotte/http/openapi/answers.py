"""The answers' schemas of the OpenAPI document: what each route's success body holds.

Hand-written: a handler answers what the session (``charlotte.session``)
returns, and nothing declares those dicts' shape but this. Each ``Route``
names its answer (``Route.answer``); ``tests/unit/http/test_openapi.py``
validates real answers against these schemas.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from charlotte.http.openapi.prose import (
    NODE_NAMES,
    QUALITY_FINDING,
    QUALITY_FINDINGS,
    REVISION_STEP,
)

__all__ = ["ANSWERS"]

STEPS: Final = "a person's writes, newest first (a restore and a reset are steps of their own); [] for a turn"


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def _closed(
    properties: dict[str, Any], *required: str, description: str | None = None
) -> dict[str, Any]:
    """An object with these properties and no other (``required`` ones always there)."""
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = list(required)
    schema["additionalProperties"] = False
    if description is not None:
        schema["description"] = description
    return schema


ANSWERS: Final[Mapping[str, dict[str, Any]]] = {
    "Session": _closed(
        {
            "id": {"type": "string", "minLength": 1, "maxLength": 64},
            "tenant": {"type": "string", "minLength": 1, "maxLength": 128},
            "page": {"type": "string", "minLength": 1, "maxLength": 255},
            "status": {"type": "string", "enum": ["idle", "queued", "running", "stopping"]},
            "stop_requested": {"type": "boolean"},
            "mode": {"type": "string", "minLength": 1, "maxLength": 64},
            "approve_on_save": {"type": "boolean"},
            "brief": {"type": "string"},
            "facts": _ref("Facts"),
            "revision": {"type": "integer", "minimum": 0, "description": "the draft's revision"},
            "change_set_open": {"type": "boolean"},
            "last_seq": {"type": "integer", "minimum": 0},
            "created_by": {"type": "string"},
            "created_at": {"type": "string", "format": "date-time"},
            "updated_at": {"type": "string", "format": "date-time"},
        },
        "id", "tenant", "page", "status",
    ),
    "SessionResponse": _closed({"session": _ref("Session")}, "session"),
    "Turn": _closed(
        {
            "id": {"type": "string", "minLength": 1, "maxLength": 64},
            "session_id": {"type": "string", "minLength": 1, "maxLength": 64},
            "status": {
                "type": "string",
                "enum": ["queued", "running", "finished", "failed", "stopped"],
            },
            "ready": {"type": "boolean"},
            "error_code": {
                "type": ["string", "null"],
                "description": "the failure code of a failed turn",
            },
        },
        "id", "session_id", "status", "ready", "error_code",
    ),
    "TurnResponse": _closed({"turn": _ref("Turn")}, "turn"),
    "StopResponse": _closed(
        {
            "stop_requested": {"type": "boolean", "description": "false when the session was idle"},
            "status": {"type": "string", "enum": ["idle", "queued", "running", "stopping"]},
        },
        "stop_requested", "status",
    ),
    "Event": _closed(
        {
            "seq": {"type": "integer", "minimum": 1},
            "type": {"type": "string"},
            "at": {"type": "string", "format": "date-time"},
            "actor": {"type": "string", "minLength": 1},
            "payload": {"type": "object"},
        },
        "seq", "type", "at", "actor", "payload",
        description="One logged event (payloads: charlotte/schema/events.v1.json).",
    ),
    "EventsResponse": _closed(
        {
            "events": {"type": "array", "items": _ref("Event"), "maxItems": 1000},
            "next_after": {
                "type": "integer",
                "minimum": 0,
                "description": "the `after` to ask for next",
            },
        },
        "events", "next_after",
    ),
    "MessagesResponse": _closed(
        {
            "turns": {"type": "array", "items": _ref("ConversationTurn"), "maxItems": 100},
            "next_before": {
                "type": ["integer", "null"],
                "minimum": 1,
                "description": (
                    "the `before` to ask for older turns; null when this page holds every older "
                    "turn"
                ),
            },
        },
        "turns", "next_before",
    ),
    "ConversationTurn": _closed(
        {
            "turn_id": {"type": "string"},
            "seq": {
                "type": "integer",
                "minimum": 1,
                "description": "the seq of the turn's end event",
            },
            "status": {"type": "string", "enum": ["finished", "stopped", "failed"]},
            "message": {"type": "string", "description": "what the person asked"},
            "reply": {"type": "string", "description": "what the agent said"},
            "record": _ref("TurnRecordSummary"),
            "asked_at": {"type": "string", "format": "date-time"},
            "ended_at": {"type": "string", "format": "date-time"},
        },
        "turn_id", "seq", "status", "message", "reply", "record", "asked_at", "ended_at",
        description="One ended turn of the conversation (docs/conversation.md).",
    ),
    "TurnRecordSummary": {
        "type": "object",
        "description": (
            "A turn's tool work and how it ended; empty when a stored record could not be read."
        ),
        "properties": {
            "tools": {
                "type": "object",
                "additionalProperties": {"type": "integer", "minimum": 1},
                "description": "tool name → calls",
            },
            "node_ids": {
                "type": "array",
                "items": {"type": "string"},
                "maxItems": 50,
                "description": "nodes the turn's writes named (the first 50)",
            },
            "nodes_changed": {"type": "integer", "minimum": 0},
            "revision": {
                "type": ["integer", "null"],
                "minimum": 0,
                "description": "the revision its last tool result reported",
            },
            "ended": {"type": "string", "enum": ["finished", "stopped", "failed"]},
            "ready": {"type": "boolean"},
            "code": {"type": ["string", "null"], "description": "a failed turn's code"},
        },
    },
    "PageDocument": {"type": "object", "description": "A fancy-cms page document (flat node map)."},
    "DraftResponse": _closed(
        {
            "revision": {"type": "integer", "minimum": 0},
            "page": _ref("PageDocument"),
            "html": {"type": "string"},
            "css": {"type": "string", "description": "the page's stylesheet (emit_css)"},
        },
        "revision", "page", "html", "css",
    ),
    "EditResponse": _closed(
        {
            "revision": {"type": "integer", "minimum": 0},
            "applied": {"type": "integer", "minimum": 0},
            "node_ids": {"type": "array", "items": {"type": "string"}},
        },
        "revision", "applied", "node_ids",
    ),
    "NodeChange": _closed(
        {
            "id": {"type": "string"},
            "props": {"type": "array", "items": {"type": "string"}},
            "style": {"type": "array", "items": {"type": "string"}},
            "fields": {"type": "array", "items": {"type": "string"}},
            "text": {
                "type": "object",
                "description": (
                    "before and after of each changed prop that is text on both sides (each at "
                    "most 2,000 characters)"
                ),
                "additionalProperties": _closed(
                    {
                        "before": {"type": "string", "maxLength": 2000},
                        "after": {"type": "string", "maxLength": 2000},
                    },
                    "before", "after",
                ),
            },
        },
        "id", "props", "style", "fields", "text",
    ),
    "ChangeSetDiff": _closed(
        {
            "added": {"type": "array", "items": {"type": "string"}},
            "removed": {"type": "array", "items": {"type": "string"}},
            "changed": {"type": "array", "items": _ref("NodeChange")},
            "meta": {"type": "boolean"},
            "theme": {"type": "boolean"},
        },
        "added", "removed", "changed", "meta", "theme",
    ),
    "ChangeSet": _closed(
        {
            "id": {"type": "string", "minLength": 1, "maxLength": 64},
            "status": {"const": "open"},
            "ops": {"type": "integer", "minimum": 0},
            "base_revision": {"type": "integer", "minimum": 0},
            "revision": {
                "type": "integer",
                "minimum": 0,
                "description": "the working copy's revision",
            },
            "draft_revision": {"type": "integer", "minimum": 0},
            "created_at": {"type": "string", "format": "date-time"},
            "html": {"type": "string", "description": "the working copy rendered"},
            "diff": _ref("ChangeSetDiff"),
            "css": {"type": "string", "description": "the working copy's stylesheet"},
            "page": {
                "$ref": "#/components/schemas/PageDocument",
                "description": "the working copy's document",
            },
        },
        "id",
        "status",
        "ops",
        "base_revision",
        "revision",
        "draft_revision",
        "created_at",
        "html",
        "diff",
        "css",
        "page",
    ),
    "ChangeSetResponse": _closed(
        {"change_set": {"oneOf": [_ref("ChangeSet"), {"type": "null"}]}},
        "change_set",
    ),
    "Resolution": _closed(
        {
            "id": {"type": "string", "minLength": 1, "maxLength": 64},
            "status": {"type": "string", "enum": ["approved", "rejected", "conflicted"]},
            "ops": {"type": "integer", "minimum": 0},
            "revision": {
                "type": "integer",
                "minimum": 0,
                "description": "the draft's revision afterwards",
            },
            "code": {"type": "string", "description": "why the replay conflicted"},
            "at": {
                "type": "integer",
                "minimum": 0,
                "description": "index of the op that conflicted",
            },
        },
        "id", "status", "ops", "revision",
    ),
    "ResolutionResponse": _closed({"resolution": _ref("Resolution")}, "resolution"),
    "PublishResponse": _closed({"revision": {"type": "integer", "minimum": 0}}, "revision"),
    "PublishedResponse": _closed(
        {
            "revision": {"type": "integer", "minimum": 0},
            "page": _ref("PageDocument"),
            "html": {"type": "string"},
            "css": {"type": "string", "description": "the page's stylesheet (emit_css)"},
        },
        "revision", "page", "html", "css",
    ),
    "OpenApiDocument": {"type": "object", "required": ["openapi", "paths"]},
    "SessionListResponse": _closed(
        {
            "sessions": {"type": "array", "items": _ref("SessionSummary")},
            "next_before": {
                "type": ["string", "null"],
                "description": "pass as `before` for older sessions; null when the list ended",
            },
        },
        "sessions", "next_before",
    ),
    "SessionSummary": _closed(
        {
            "id": {"type": "string"},
            "page": {"type": "string"},
            "status": {"type": "string", "enum": ["idle", "queued", "running", "stopping"]},
            "created_at": {"type": "string", "format": "date-time"},
            "created_by": {"type": "string"},
            "brief": {
                "type": "string",
                "maxLength": 200,
                "description": "the brief's first 200 characters",
            },
            "turns": {"type": "integer", "minimum": 0, "description": "how many turns were sent"},
            "approve_on_save": {"type": "boolean"},
        },
        "id", "page", "status", "created_at", "created_by", "brief", "turns", "approve_on_save",
    ),
    "HistoryResponse": _closed(
        {
            "revision": {
                "type": "integer",
                "minimum": 0,
                "description": "the draft's current revision",
            },
            "published_revision": {
                "type": ["integer", "null"],
                "minimum": 0,
                "description": "the revision last published; null before a first publish",
            },
            "groups": {"type": "array", "items": _ref("RevisionGroup")},
            "next_before": {
                "type": ["integer", "null"],
                "minimum": 1,
                "description": "pass as `before` for older groups; null when none",
            },
        },
        "revision", "published_revision", "groups", "next_before",
    ),
    "RevisionGroup": _closed(
        {
            "kind": {"type": "string", "enum": ["turn", "person"]},
            "actor": {"type": "string", "description": "`agent`, or the person's id"},
            "turn_id": {
                "type": ["string", "null"],
                "description": "the agent turn (kind `turn`; null for an approval's replay)",
            },
            "undoes": {"type": ["string", "null"], "description": "a person's undo of this turn"},
            "first_revision": {"type": "integer", "minimum": 1},
            "last_revision": {"type": "integer", "minimum": 1},
            "ops": {"type": "integer", "minimum": 1},
            "at": {
                "type": ["string", "null"],
                "format": "date-time",
                "description": (
                    "when the group's last op was written (null for history older than this "
                    "version)"
                ),
            },
            "node_ids": {"type": "array", "items": {"type": "string"}, "maxItems": 100},
            "names": dict(NODE_NAMES),
            "steps": {"type": "array", "items": _ref("RevisionStep"), "description": STEPS},
        },
        "kind", "actor", "turn_id", "undoes", "first_revision", "last_revision", "ops", "at",
        "node_ids", "names", "steps",
        description="The revisions (one op each) of one agent turn, or of one person within two minutes.",
    ),
    "RevisionStep": dict(REVISION_STEP),
    "QualityFinding": dict(QUALITY_FINDING),
    "QualityFindings": dict(QUALITY_FINDINGS),
    "PublishPreviewResponse": _closed(
        {
            "preview": _closed(
                {
                    "revision": {
                        "type": "integer",
                        "minimum": 0,
                        "description": "the draft revision to send as `revision` when publishing",
                    },
                    "published_revision": {"type": ["integer", "null"], "minimum": 0},
                    "empty": {
                        "type": "boolean",
                        "description": (
                            "the draft has no node: publishing is refused (`empty_page`)"
                        ),
                    },
                    "unchanged": {
                        "type": "boolean",
                        "description": "the published copy already is this draft",
                    },
                    "diff": _ref("ChangeSetDiff"),
                    "findings": _ref("QualityFindings"),
                },
                "revision", "published_revision", "empty", "unchanged", "diff", "findings",
            ),
        },
        "preview",
    ),
    "RejectNodesResponse": _closed(
        {
            "rejected_id": {"type": "string", "description": "the change set now rejected"},
            "dropped": {"type": "integer", "minimum": 1, "description": "ops taken out"},
            "kept": {"type": "integer", "minimum": 0, "description": "ops kept in the new set"},
            "change_set_id": {
                "type": ["string", "null"],
                "description": "the new open set holding the kept ops; null when none was kept",
            },
            "revision": {
                "type": "integer",
                "minimum": 0,
                "description": "the draft's revision (the new set's base)",
            },
        },
        "rejected_id", "dropped", "kept", "change_set_id", "revision",
    ),
    "PaletteResponse": _closed(
        {
            "types": {
                "type": "object",
                "description": (
                    "the node-type catalogue as the `cms_types` tool shows it: types with props "
                    "and bounds, style keys, breakpoints, limits"
                ),
            },
            "sections": {
                "type": "array",
                "items": _closed(
                    {
                        "kind": {"type": "string"},
                        "name": {"type": "string"},
                        "available": {"type": "boolean"},
                    },
                    "kind", "name", "available",
                ),
            },
        },
        "types", "sections",
    ),
    "PaletteSectionResponse": _closed(
        {
            "kind": {"type": "string"},
            "root": {"type": "string", "description": "the new section's node id"},
            "ops": {
                "type": "array",
                "items": {"type": "object"},
                "description": "insert_node ops, the section first",
            },
        },
        "kind", "root", "ops",
    ),
}
