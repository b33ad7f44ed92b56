"""The event contract: EventTypes.ALL, the JSON Schema, the fixture and docs/events.md agree.

Adding an event type means updating all four; this module fails until they
agree and every example validates.
"""

from __future__ import annotations

import copy
import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from charlotte.events import (
    AGENT_ACTOR,
    Event,
    EventTypes,
    event_schema,
    format_at,
    schema_errors,
)

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "events.v1.json"
DOCS = ROOT / "docs" / "events.md"


def _examples() -> list[dict[str, Any]]:
    examples: list[dict[str, Any]] = json.loads(FIXTURE.read_text("utf-8"))
    return examples


def _definitions() -> dict[str, dict[str, Any]]:
    definitions: dict[str, dict[str, Any]] = event_schema()["$defs"]
    return definitions


def _doc_sections() -> dict[str, str]:
    """``## `type``` heading → the section's text, from docs/events.md."""
    text = DOCS.read_text("utf-8")
    parts = re.split(r"^## `([^`]+)`\s*$", text, flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def _doc_fields(section: str) -> list[str]:
    return re.findall(r"^\| `([^`]+)` \|", section, flags=re.MULTILINE)


# -- the four places agree -------------------------------------------------


def test_event_types_all_lists_every_constant_once() -> None:
    constants = [
        value
        for name, value in vars(EventTypes).items()
        if name.isupper() and isinstance(value, str)
    ]

    assert len(EventTypes.ALL) == len(set(EventTypes.ALL))
    assert sorted(constants) == sorted(EventTypes.ALL)
    assert all(re.fullmatch(r"[a-z]+\.[a-z]+", t) for t in EventTypes.ALL)


def test_schema_is_valid_draft_2020_12() -> None:
    schema = event_schema()

    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_schema_has_one_definition_per_type() -> None:
    schema = event_schema()
    dispatch = {
        rule["if"]["properties"]["type"]["const"]: rule["then"]["properties"]["payload"]["$ref"]
        for rule in schema["allOf"]
    }

    assert list(_definitions()) == list(EventTypes.ALL)
    assert schema["properties"]["type"]["enum"] == list(EventTypes.ALL)
    assert dispatch == {t: f"#/$defs/{t}" for t in EventTypes.ALL}


def test_fixture_has_one_example_per_type() -> None:
    assert [example["type"] for example in _examples()] == list(EventTypes.ALL)


def test_docs_have_one_section_per_type_listing_its_payload_fields() -> None:
    sections = _doc_sections()

    assert list(sections) == list(EventTypes.ALL)
    for type, section in sections.items():
        assert _doc_fields(section) == list(_definitions()[type]["properties"]), type
        when = section.strip().split("\n\n")[0]
        assert len(when) > 20 and not when.startswith("|"), f"{type}: say when it is written"


# -- payloads are closed, required and typed -------------------------------


def test_every_payload_definition_is_closed_and_typed() -> None:
    for type, definition in _definitions().items():
        properties = definition["properties"]
        conditional = set(definition.get("then", {}).get("required", []))

        assert definition["type"] == "object", type
        assert definition["additionalProperties"] is False, type
        assert all("type" in spec for spec in properties.values()), type
        assert set(definition["required"]) | conditional == set(properties), type


def test_every_example_validates() -> None:
    assert {example["type"]: schema_errors(example) for example in _examples()} == {
        t: [] for t in EventTypes.ALL
    }


def _wrong_value(spec: dict[str, Any]) -> object:
    """A value of a JSON type ``spec`` does not allow."""
    allowed = spec["type"] if isinstance(spec["type"], list) else [spec["type"]]
    return 12.5 if "number" not in allowed and "integer" not in allowed else "not a number"


@pytest.mark.parametrize("type", EventTypes.ALL)
def test_payload_mistakes_are_rejected(type: str) -> None:
    example = next(e for e in _examples() if e["type"] == type)
    definition = _definitions()[type]

    extra = copy.deepcopy(example)
    extra["payload"]["unexpected"] = 1
    assert schema_errors(extra), f"{type}: extra field accepted"

    for field in definition["required"]:
        missing = copy.deepcopy(example)
        del missing["payload"][field]
        assert schema_errors(missing), f"{type}: missing {field} accepted"

    for field, spec in definition["properties"].items():
        if field not in example["payload"]:
            continue
        wrong = copy.deepcopy(example)
        wrong["payload"][field] = _wrong_value(spec)
        assert schema_errors(wrong), f"{type}: wrong type for {field} accepted"


def test_tool_result_carries_a_code_exactly_when_it_is_an_error() -> None:
    ok = next(e for e in _examples() if e["type"] == EventTypes.TOOL_RESULT)
    failed = copy.deepcopy(ok)
    failed["payload"].update(is_error=True, code="stale_revision")
    failed_without_code = copy.deepcopy(ok)
    failed_without_code["payload"]["is_error"] = True
    ok_with_code = copy.deepcopy(ok)
    ok_with_code["payload"]["code"] = "stale_revision"

    assert schema_errors(ok) == []
    assert schema_errors(failed) == []
    assert schema_errors(failed_without_code) != []
    assert schema_errors(ok_with_code) != []


def test_run_failed_carries_a_code_never_a_message() -> None:
    failed = next(e for e in _examples() if e["type"] == EventTypes.RUN_FAILED)
    with_message = copy.deepcopy(failed)
    with_message["payload"]["message"] = "boom"
    prose_code = copy.deepcopy(failed)
    prose_code["payload"]["code"] = "Connection refused by 10.0.0.1"

    assert schema_errors(with_message) != []
    assert schema_errors(prose_code) != []


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("at", "2025-03-14T09:26:01+00:00"),
        ("at", "yesterday"),
        ("seq", 0),
        ("type", "page.deleted"),
        ("actor", ""),
        ("extra", 1),
    ],
)
def test_envelope_mistakes_are_rejected(field: str, value: object) -> None:
    envelope = copy.deepcopy(_examples()[0])
    envelope[field] = value

    assert schema_errors(envelope) != []


# -- the Python envelope ---------------------------------------------------


def test_event_to_json_is_the_envelope() -> None:
    for example in _examples():
        event = Event(**example)

        assert json.loads(event.to_json()) == example
        assert event.to_dict() == example
        assert schema_errors(event) == []


def test_format_at_is_utc_with_microseconds_and_z() -> None:
    at = format_at(datetime(2025, 3, 14, 9, 26, 1, 5, tzinfo=UTC))

    assert at == "2025-03-14T09:26:01.000005Z"
    with pytest.raises(ValueError):
        format_at(datetime(2025, 3, 14))
    assert EventTypes.is_known(EventTypes.TEXT_DELTA) and not EventTypes.is_known("text")
    assert AGENT_ACTOR == "agent"
