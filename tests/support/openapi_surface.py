"""What an OpenAPI document publishes: operations, parameters, request bodies, responses, error codes.

``surface(document)`` reduces a document to that contract, with every ``$ref``
of a parameter or a request body resolved, so two documents that publish the
same thing compare equal however they spell it. The fixture
``tests/fixtures/openapi_surface.v1.json`` is the surface of the hand-kept document
the generated one replaced: what it published must stay published.
"""

from __future__ import annotations

from typing import Any

METHODS = ("get", "post", "put", "delete", "patch", "head", "options")


def surface(document: dict[str, Any]) -> dict[str, Any]:
    """The published contract of ``document`` as plain JSON."""
    operations: dict[str, Any] = {}
    for path, item in document["paths"].items():
        shared = item.get("parameters", [])
        for method in METHODS:
            if method not in item:
                continue
            operation = item[method]
            parameters = {}
            for parameter in [*shared, *operation.get("parameters", [])]:
                resolved = _resolve(document, parameter)
                parameters[f"{resolved['in']} {resolved['name']}"] = {
                    "required": resolved.get("required", False),
                    "schema": resolved.get("schema"),
                }
            body = operation.get("requestBody")
            operations[f"{method.upper()} {path}"] = {
                "operationId": operation.get("operationId"),
                "parameters": parameters,
                "requestBody": None
                if body is None
                else {
                    "required": body.get("required", False),
                    "schema": _resolve(document, body["content"]["application/json"]["schema"]),
                },
                "responses": {code: _named(answer) for code, answer in operation["responses"].items()},
            }
    error = document["components"]["schemas"]["Error"]["properties"]["error"]
    return {"operations": operations, "error_codes": sorted(error["properties"]["code"]["enum"])}


def _named(answer: dict[str, Any]) -> str:
    """A response by what it refers to: a shared response, or its body's schema."""
    if "$ref" in answer:
        return str(answer["$ref"])
    content = answer["content"]
    media = next(iter(content))
    schema = content[media]["schema"]
    return f"{media} {schema.get('$ref', schema.get('type'))}"


def _resolve(document: dict[str, Any], value: Any) -> Any:
    if isinstance(value, list):
        return [_resolve(document, item) for item in value]
    if not isinstance(value, dict):
        return value
    if "$ref" in value:
        target: Any = document
        for part in value["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        rest = {key: item for key, item in value.items() if key != "$ref"}
        return {**_resolve(document, target), **_resolve(document, rest)}
    return {key: _resolve(document, item) for key, item in value.items()}
