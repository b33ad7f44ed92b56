"""The prose of the OpenAPI document and the parts no route declares.

Hand-written: the document's description, what each error status means, the
error body, the page's facts, the path parameters and the live stream (served
by the adapters, ``charlotte.http.follow``, not by a ``Route``). Everything
else is derived from ``charlotte.http.routes.ROUTES`` by
``charlotte.http.openapi.document``; the answers' schemas are in
``charlotte.http.openapi.answers``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

__all__ = [
    "DESCRIPTION",
    "ERROR_FIELDS",
    "FACTS",
    "NODE_NAMES",
    "PARAMETERS",
    "QUALITY_FINDING",
    "QUALITY_FINDINGS",
    "RESPONSES",
    "REVISION_STEP",
    "STATUS_RESPONSES",
    "STREAM",
    "SUCCESS",
]

#: The document's ``info.description``.
DESCRIPTION: Final = (
    "The HTTP API of charlotte's page builder. The user and the tenant come from the host's "
    "request (cookies, headers), never from a body. Every POST must be sent with `Content-Type: "
    "application/json`, also when it has no body (else 415 `unsupported_media_type`), and is "
    "refused with 403 `cross_site` when a browser sent it from another site's page (an `Origin` "
    "other than the server's own, or `Sec-Fetch-Site` other than `same-origin`) unless the host "
    "trusts that origin (`Settings.trusted_origins`). A body naming a key twice or a key the route "
    "does not know is a 400. Every error is `{\"error\": {\"code\", \"message\"}}` with a fixed "
    "message per code."
)

#: The shared error responses (``components.responses``): what each means.
RESPONSES: Final[Mapping[str, str]] = {
    "BadRequest": (
        "The body or query is not valid (`invalid_json`: not JSON, a key named twice, text that is "
        "not Unicode; `invalid_request`: wrong shape, an unknown key or a NUL character, with "
        "`field`)."
    ),
    "Unauthorized": "No signed-in user (`unauthorized`).",
    "Forbidden": (
        "The host's authorizer said no, the request has no tenant (`forbidden`), or a browser sent "
        "this write from another site's page (`cross_site`)."
    ),
    "NotFound": (
        "No such session in this tenant (another tenant's session looks the same), or nothing "
        "published yet (`not_found`)."
    ),
    "Conflict": (
        "The session or draft is not in a state for this (`busy`, `stale_revision` with "
        "`revision`, `no_open_change_set`, `publish_refused`, `empty_page`, `conflicted` with "
        "`nodes`, `already_undone`, `not_own_edit`, `quality_gate` with `findings` and `codes`)."
    ),
    "TooLarge": "The body is larger than the limit (`body_too_large`).",
    "UnsupportedMediaType": (
        "The request is not sent as application/json: every POST, empty ones included, and any "
        "other request with a body (`unsupported_media_type`)."
    ),
    "Unprocessable": (
        "A page or policy refusal (`unsafe_link`, `css_fetch`, `node_not_found`, …; `at` when "
        "known)."
    ),
    "Internal": (
        "Something failed on the server (`internal`); the `X-Correlation-Id` header names the log "
        "entry."
    ),
    "QueueUnavailable": (
        "The turn queue (a Celery broker) did not take the turn (`queue_unavailable`); the turn "
        "ended failed with that code and the session is idle again: send again later."
    ),
}

#: The fields of an error body's ``error`` object (``code``'s enum is derived from ``charlotte.errors``).
ERROR_FIELDS: Final[Mapping[str, dict[str, Any]]] = {
    "code": {"type": "string", "description": "stable error code"},
    "message": {
        "type": "string",
        "description": "the fixed sentence of the code (charlotte.errors.MESSAGES)",
    },
    "revision": {
        "type": "integer",
        "minimum": 0,
        "description": "the current revision (stale_revision only)",
    },
    "at": {
        "type": "integer",
        "minimum": 0,
        "description": "index of the op the error concerns, when known",
    },
    "field": {
        "type": "string",
        "description": (
            "the request field the error concerns, when known (e.g. `brief`, `revision`, an "
            "unknown key)"
        ),
    },
    "allow": {
        "type": "string",
        "description": (
            "method_not_allowed only: the methods the path allows, as the Allow header lists them "
            "(e.g. `POST`)"
        ),
    },
    "nodes": {
        "type": "array",
        "items": {"type": "string"},
        "maxItems": 100,
        "description": (
            "conflicted only: the nodes later edits touched (node ids, or `#meta`, `#theme`, "
            "`#order`)"
        ),
    },
    "findings": {
        "type": "array",
        "maxItems": 200,
        "items": {"$ref": "#/components/schemas/QualityFinding"},
        "description": "quality_gate only: the error findings that hold the page back",
    },
    "codes": {
        "type": "array",
        "items": {"type": "string"},
        "description": (
            "quality_gate only: their codes; send them as `override` to publish anyway"
        ),
    },
}

#: The page's facts, a body field of ``POST /sessions`` and a field of a session.
FACTS: Final[Mapping[str, Any]] = {
    "type": "object",
    "maxProperties": 100,
    "propertyNames": {"minLength": 1, "maxLength": 200},
    "additionalProperties": {"type": "string", "maxLength": 20000},
    "description": (
        "The page's facts: up to 100 names with string values. Left out or empty: the session "
        "starts with the page's facts (those of the newest earlier session of this page that had "
        "any); given, they replace them for later sessions."
    ),
}

# A session or turn id, as the path carries it.
_ID: Final = {"type": "string", "minLength": 1, "maxLength": 64}

#: The path parameters, by the template segment that holds them.
PARAMETERS: Final[Mapping[str, tuple[str, dict[str, Any]]]] = {
    "{id}": (
        "SessionId",
        {"name": "id", "in": "path", "required": True, "schema": _ID},
    ),
    "{turn_id}": (
        "TurnId",
        {"name": "turn_id", "in": "path", "required": True, "schema": _ID},
    ),
}

#: ``GET /sessions/{id}/stream`` (``charlotte.http.routes.STREAM_ROUTE``).
STREAM: Final[Mapping[str, Any]] = {
    "operationId": "streamEvents",
    "summary": "The live event stream (Server-Sent Events; served by the ASGI adapter).",
    "description": (
        "Each event is `id: <seq>` and `data: <event envelope JSON>`; `Last-Event-ID` replays what "
        "was missed, then follows."
    ),
    "parameters": [
        {"name": "Last-Event-ID", "in": "header", "required": False, "schema": {"type": "string"}},
        {
            "name": "after",
            "in": "query",
            "required": False,
            "description": "replay events after this seq (Last-Event-ID wins)",
            "schema": {"type": "string", "pattern": "^[0-9]{1,10}$"},
        },
        {
            "name": "until",
            "in": "query",
            "required": False,
            "description": "end the stream after the event with this seq",
            "schema": {"type": "string", "pattern": "^[0-9]{1,10}$"},
        },
        {
            "name": "limit",
            "in": "query",
            "required": False,
            "description": "end the stream after this many events",
            "schema": {"type": "string", "pattern": "^[0-9]{1,10}$"},
        },
    ],
    "responses": {
        "200": {
            "description": "An endless text/event-stream.",
            "content": {"text/event-stream": {"schema": {"type": "string"}}},
        },
        "401": {"$ref": "#/components/responses/Unauthorized"},
        "403": {"$ref": "#/components/responses/Forbidden"},
        "404": {"$ref": "#/components/responses/NotFound"},
        "500": {"$ref": "#/components/responses/Internal"},
        "400": {"$ref": "#/components/responses/BadRequest"},
    },
}

#: The shared error response of each error status.
STATUS_RESPONSES: Final[Mapping[int, str]] = {
    400: "BadRequest",
    401: "Unauthorized",
    403: "Forbidden",
    404: "NotFound",
    409: "Conflict",
    413: "TooLarge",
    415: "UnsupportedMediaType",
    422: "Unprocessable",
    500: "Internal",
    503: "QueueUnavailable",
}

#: The description of each success status.
SUCCESS: Final[Mapping[int, str]] = {200: "OK", 201: "Created", 202: "Accepted"}


#: One finding of the quality checks, as the publish preview and a ``quality_gate`` answer carry it.
QUALITY_FINDING: Final[Mapping[str, Any]] = {
    "type": "object",
    "properties": {
        "code": {"type": "string", "description": "the quality code (`docs/checks.md`)"},
        "node": {
            "type": ["string", "null"],
            "description": "the node id, `#meta`, or null for the whole page",
        },
        "severity": {"type": "string", "enum": ["error", "warning"]},
        "message": {"type": "string", "description": "what is wrong and what fixes it"},
    },
    "required": ["code", "node", "severity", "message"],
    "additionalProperties": False,
    "description": "One finding of the quality checks.",
}
QUALITY_FINDINGS: Final[Mapping[str, Any]] = {
    "type": "array",
    "items": {"$ref": "#/components/schemas/QualityFinding"},
    "description": (
        "the draft's quality findings, errors first: errors hold publishing back "
        "(`quality_gate`) unless `override` names their codes"
    ),
}

#: A history group's or step's first nodes in words, as they were at its revision.
NODE_NAMES: Final[Mapping[str, Any]] = {
    "type": "object",
    "additionalProperties": {"type": "string"},
    "description": (
        "node id → its words (a heading's or a text's own, a box's first heading's) at the "
        "last revision (before the first for a node it removed); nodes without words are left out"
    ),
}
#: One write of a person inside a history group.
REVISION_STEP: Final[Mapping[str, Any]] = {
    "type": "object",
    "properties": {
        "first_revision": {"type": "integer", "minimum": 1},
        "last_revision": {"type": "integer", "minimum": 1},
        "ops": {"type": "integer", "minimum": 1},
        "at": {"type": ["string", "null"], "format": "date-time"},
        "node_ids": {"type": "array", "items": {"type": "string"}, "maxItems": 100},
        "names": dict(NODE_NAMES),
        "back_to": {
            "type": ["integer", "null"],
            "minimum": 0,
            "description": (
                "the revision this step took the page back to (a restore, a reset, an undo of "
                "the edit before it); null for an edit"
            ),
        },
    },
    "required": ["first_revision", "last_revision", "ops", "at", "node_ids", "names", "back_to"],
    "additionalProperties": False,
    "description": "One write (one request) of a person: the state before it is `first_revision - 1`.",
}
