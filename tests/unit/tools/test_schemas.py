"""The nine tool definitions: names, closed objects, explicit bounds, valid Draft 2020-12."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from jsonschema import Draft202012Validator

import charlotte.page.integrity as integrity
import charlotte.page.validate as validate
from charlotte.drafts.workspace import Workspace
from charlotte.page.node_types import NodeTypes
from charlotte.page.op_table import OP_TYPES
from charlotte.tools import TOOL_NAMES, PageTools, ToolDefinition, tool_definitions
from charlotte.tools.op_schemas import OP_NAMES, op_defs

NINE = (
    "cms_get",
    "cms_outline",
    "cms_types",
    "cms_find",
    "cms_facts",
    "cms_apply",
    "cms_changes_since",
    "cms_check",
    "cms_ready",
)


@pytest.fixture(scope="module")
def definitions() -> tuple[ToolDefinition, ...]:
    return tool_definitions(NodeTypes.allowed())


def test_the_registry_is_the_nine_tools_and_none_publishes(sqlite_engine: sa.Engine) -> None:
    tools = PageTools(Workspace(sqlite_engine))
    registry = [d.name for d in tools.definitions()]
    assert tuple(registry) == TOOL_NAMES == tools.names == NINE
    for name in registry:
        assert "publish" not in name.lower()


def test_every_schema_is_valid_draft_2020_12(definitions: tuple[ToolDefinition, ...]) -> None:
    for definition in definitions:
        Draft202012Validator.check_schema(definition.parameters_json_schema)
        assert definition.description
        assert definition.to_json()["parameters"] is definition.parameters_json_schema


def test_every_tool_takes_a_closed_object(definitions: tuple[ToolDefinition, ...]) -> None:
    for definition in definitions:
        schema = definition.parameters_json_schema
        assert schema["type"] == "object", definition.name
        assert schema["additionalProperties"] is False, definition.name
        for field in ("tenant", "session_id", "session", "page", "actor", "scope"):
            assert field not in schema["properties"], (definition.name, field)


def _subschemas(schema: Any, where: str) -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(schema, dict):
        yield where, schema
        for key, value in schema.items():
            if key in ("properties", "$defs"):
                for name, sub in value.items():
                    yield from _subschemas(sub, f"{where}.{name}")
            elif key in ("items", "additionalProperties") and isinstance(value, dict):
                yield from _subschemas(value, f"{where}[{key}]")
            elif key in ("anyOf", "oneOf", "allOf"):
                for i, sub in enumerate(value):
                    yield from _subschemas(sub, f"{where}|{i}")


def test_every_object_is_closed_or_a_bounded_map_and_every_value_is_bounded(
    definitions: tuple[ToolDefinition, ...],
) -> None:
    for definition in definitions:
        for where, schema in _subschemas(definition.parameters_json_schema, definition.name):
            kinds = schema.get("type")
            kinds = kinds if isinstance(kinds, list) else [kinds]
            if "object" in kinds and schema.get("additionalProperties") is not False:
                # A map keyed by the author: its size is bounded instead.
                assert "maxProperties" in schema, where
            if "string" in kinds:
                assert "maxLength" in schema, where
            if "array" in kinds:
                assert "maxItems" in schema, where
            if "integer" in kinds or "number" in kinds:
                assert "minimum" in schema and "maximum" in schema, where


def test_every_op_type_has_a_schema_and_restore_ops_are_not_offered(
    definitions: tuple[ToolDefinition, ...],
) -> None:
    assert set(OP_NAMES) == OP_TYPES
    apply = next(d for d in definitions if d.name == "cms_apply").parameters_json_schema
    offered = [alt["$ref"] for alt in apply["properties"]["ops"]["items"]["anyOf"]]
    assert offered == [f"#/$defs/op_{t}" for t in OP_NAMES]
    assert not any("restore" in ref for ref in offered)
    for t in OP_NAMES:
        assert apply["$defs"][f"op_{t}"]["properties"]["t"] == {"const": t}


def test_props_schema_lists_every_catalogue_prop() -> None:
    types = NodeTypes.allowed()
    props = op_defs(types)["props"]["properties"]
    names = {spec.name for t in types.names() for spec in types.get(t).props}  # type: ignore[union-attr]
    assert set(props) == names
    assert props["level"] == {"type": "integer", "minimum": 1, "maximum": 6}


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z][\w-]*", text))


def test_described_vocabularies_match_what_page_session_accepts() -> None:
    # The schema describes drivers, events and handlers in prose (PageSession
    # owns those rules); a change there must show up here.
    defs = op_defs(NodeTypes.allowed())
    animation = defs["animation"]["properties"]
    assert set(animation) == validate._ANIM_KEYS
    assert set(animation["driver"]["description"].split("|")) == validate._DRIVERS
    assert set(defs["action"]["properties"]["on"]["description"].split("|")) == validate._EVENTS
    handler_words = _words(defs["action"]["properties"]["do"]["description"])
    assert set(validate._HANDLERS) <= handler_words
    for fields in validate._HANDLERS.values():
        assert {f.rstrip("?") for f in fields} <= handler_words
    assert set(defs["meta"]["properties"]) == integrity._META_KEYS
