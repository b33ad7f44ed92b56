"""The OpenAPI 3.1 document, written from the routes.

``document()`` builds it: each ``Route`` gives its path, method,
``operationId``, summary, query parameters and request body (from its
``Body``/``Query`` specs), its success answer and its error statuses (those of
every route of its kind, plus ``Route.refusals``); the error code enum is
every code an API body can carry (``charlotte.errors``). The prose and the
answers' schemas are hand-written (``prose``, ``answers``). ``render()`` is
the text shipped as ``charlotte/schema/openapi.v1.json`` and served at
``GET /openapi.json``; ``python -m charlotte.http.openapi`` rewrites that
file and a test fails while it differs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from charlotte.errors import PageSessionError, Refused
from charlotte.http.openapi.answers import ANSWERS
from charlotte.http.openapi.prose import (
    DESCRIPTION,
    ERROR_FIELDS,
    FACTS,
    PARAMETERS,
    RESPONSES,
    STATUS_RESPONSES,
    STREAM,
    SUCCESS,
)
from charlotte.http.openapi.published import (
    CACHE_HEADERS,
    NOT_MODIFIED,
    PAGE_PARAMETER,
    PUBLISHED_ANSWERS,
)
from charlotte.http.routes import ROUTES, STREAM_ROUTE, Route
from charlotte.http.specs import Body, Field

__all__ = ["SHIPPED", "api_codes", "document", "render"]

#: Where the package ships the document.
SHIPPED: Final = Path(__file__).resolve().parents[2] / "schema" / "openapi.v1.json"

_JSON_TYPES: Final = {str: "string", int: "integer", bool: "boolean", list: "array", dict: "object"}

# The statuses a route of each kind can answer whatever it does: a body it
# cannot read, one too large, one not sent as JSON, a failure of the server.
_EVERY_ROUTE: Final = (400, 413, 415, 500)


def api_codes() -> list[str]:
    """Every error code an API body can carry, sorted."""
    # ``invalid_cases`` is the eval's cases file (the command line), never an API body;
    # ``queue_unavailable`` is a sent turn the queue did not take (503).
    refusals = Refused.CODES - {"invalid_cases"}
    return sorted(refusals | PageSessionError.CODES | {"internal", "queue_unavailable"})


def document() -> dict[str, Any]:
    """The OpenAPI document of ``ROUTES`` and ``STREAM_ROUTE``."""
    paths: dict[str, dict[str, Any]] = {}
    for route in ROUTES:
        _item(paths, route.template)[route.method.lower()] = _operation(route)
    method, template = STREAM_ROUTE
    _item(paths, template)[method.lower()] = dict(STREAM)
    return {
        "openapi": "3.1.0",
        "info": {"title": "charlotte", "version": "1", "description": DESCRIPTION},
        "paths": paths,
        "components": {
            "schemas": {
                "Error": _error_schema(),
                "Facts": dict(FACTS),
                **{route.body.name: _body_schema(route.body) for route in ROUTES if route.changes_state},
                **ANSWERS,
                **PUBLISHED_ANSWERS,
            },
            "responses": {
                **{name: _error_response(status, name) for status, name in STATUS_RESPONSES.items()},
                "NotModified": dict(NOT_MODIFIED),
            },
            "parameters": dict([*PARAMETERS.values(), PAGE_PARAMETER]),
        },
    }


def render() -> str:
    """The document as the package ships it: two-space indented JSON, UTF-8 text, one final newline."""
    return json.dumps(document(), indent=2, ensure_ascii=False) + "\n"


def _item(paths: dict[str, dict[str, Any]], template: str) -> dict[str, Any]:
    """The path item of ``template``, its path parameters declared once."""
    if template not in paths:
        named = {**PARAMETERS, "{page}": PAGE_PARAMETER}
        shared = [_ref("parameters", named[part][0]) for part in template.split("/") if part in named]
        paths[template] = {"parameters": shared} if shared else {}
    return paths[template]


def _operation(route: Route) -> dict[str, Any]:
    operation: dict[str, Any] = {"operationId": route.operation_id, "summary": route.summary}
    if route.query is not None:
        operation["parameters"] = [_parameter(field) for field in route.query.fields]
    if route.changes_state:
        operation["requestBody"] = {
            "required": route.takes_body and route.body_required,
            "content": {"application/json": {"schema": _ref("schemas", route.body.name)}},
        }
    success: dict[str, Any] = {
        "description": SUCCESS[route.success],
        "content": {route.media_type.split(";")[0]: {"schema": _ref("schemas", route.answer)}},
    }
    responses: dict[str, Any] = {str(route.success): success}
    if route.conditional:
        operation["parameters"] = [_IF_NONE_MATCH]
        success["headers"] = dict(CACHE_HEADERS)
        responses["304"] = _ref("responses", "NotModified")
    for status in sorted(_statuses(route)):
        responses[str(status)] = _ref("responses", STATUS_RESPONSES[status])
    operation["responses"] = responses
    return operation


_IF_NONE_MATCH: Final = {
    "name": "If-None-Match",
    "in": "header",
    "required": False,
    "description": "an `ETag` of an earlier answer: 304 with no body while it is still current",
    "schema": {"type": "string"},
}


def _statuses(route: Route) -> set[int]:
    """The error statuses ``route`` can answer (``charlotte.http.api``'s order of checks)."""
    statuses = {*_EVERY_ROUTE, *route.refusals}
    if route.needs_user:
        statuses |= {401, 403}  # no user; no tenant or the authorizer said no
    if route.changes_state:
        statuses.add(403)  # cross_site
    if route.names_session:
        statuses.add(404)
    return statuses


def _parameter(field: Field) -> dict[str, Any]:
    parameter: dict[str, Any] = {"name": field.name, "in": "query", "required": field.required}
    if field.description is not None:
        parameter["description"] = field.description
    parameter["schema"] = _schema(field, described=False)
    return parameter


def _body_schema(body: Body) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object"}
    if body.fields:
        schema["properties"] = {field.name: _schema(field) for field in body.fields}
        required = [field.name for field in body.fields if field.required]
        if required:
            schema["required"] = required
    else:
        schema["maxProperties"] = 0
    schema["additionalProperties"] = False
    if body.description is not None:
        schema["description"] = body.description
    return schema


def _schema(field: Field, *, described: bool = True) -> dict[str, Any]:
    """The JSON schema of one field's value (its prose too, unless the parameter carries it)."""
    if field.ref is not None:
        return _ref("schemas", field.ref)
    schema: dict[str, Any] = {"type": _JSON_TYPES[field.kind]}
    bounds = {
        "minItems": field.min_items,
        "maxItems": field.max_items,
        "items": field.items,
        "minLength": field.min_length,
        "maxLength": field.max_length,
        "pattern": field.pattern,
        "minimum": field.minimum,
        "maximum": field.maximum,
        "default": field.default,
        "description": field.description if described else None,
    }
    schema.update({key: value for key, value in bounds.items() if value is not None})
    return schema


def _error_schema() -> dict[str, Any]:
    fields = {**ERROR_FIELDS, "code": {**ERROR_FIELDS["code"], "enum": api_codes()}}
    error = {
        "type": "object",
        "properties": fields,
        "required": ["code", "message"],
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {"error": error},
        "required": ["error"],
        "additionalProperties": False,
        "description": "Every error answer.",
    }


def _error_response(status: int, name: str) -> dict[str, Any]:
    response: dict[str, Any] = {
        "description": RESPONSES[name],
        "content": {"application/json": {"schema": _ref("schemas", "Error")}},
    }
    if status == 500:
        correlation = {"description": "correlation id of the log entry", "schema": {"type": "string"}}
        response["headers"] = {"X-Correlation-Id": correlation}
    return response


def _ref(kind: str, name: str) -> dict[str, str]:
    return {"$ref": f"#/components/{kind}/{name}"}
