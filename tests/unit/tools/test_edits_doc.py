"""``docs/edits.md`` cannot drift from the op schemas: every op, its fields, a working example each."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from tests.support.app_harness import AppHarness

from charlotte.errors import MESSAGES, PageSessionError
from charlotte.http.api import STATUS_OF
from charlotte.page.node_types import NodeTypes
from charlotte.tools.op_schemas import OP_NAMES, op_defs

DOC = Path(__file__).resolve().parents[3] / "docs" / "edits.md"
_JSON = re.compile(r"```json\n(.*?)```", re.S)
_ROW = re.compile(r"^\| `(\w+)` \| (required|optional) \|", re.M)
_CODE_ROW = re.compile(r"^\| `(\w+)` \| (\d{3}) \| (.+) \|$", re.M)


def _text() -> str:
    return DOC.read_text(encoding="utf-8")


def _sections() -> dict[str, str]:
    """Each ``### `op` `` section of "The ops", by op."""
    ops = _text().split("## The ops", 1)[1].split("\n## ", 1)[0]
    parts = re.split(r"^### `(\w+)`$", ops, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def _schema(t: str) -> dict[str, Any]:
    defs = op_defs(NodeTypes.allowed())
    return {**defs[f"op_{t}"], "$defs": defs}


def _example(section: str) -> dict[str, Any]:
    blocks = _JSON.findall(section)
    assert len(blocks) == 1, "one example per op"
    example: dict[str, Any] = json.loads(blocks[0])
    return example


def test_every_op_is_documented_once_in_the_schemas_order() -> None:
    assert tuple(_sections()) == OP_NAMES


@pytest.mark.parametrize("t", OP_NAMES)
def test_each_op_lists_exactly_its_fields(t: str) -> None:
    schema = _schema(t)
    listed = dict(_ROW.findall(_sections()[t]))
    fields = set(schema["properties"]) - {"t"}
    assert set(listed) == fields
    required = set(schema.get("required", ())) - {"t"}
    assert {name for name, need in listed.items() if need == "required"} == required


@pytest.mark.parametrize("t", OP_NAMES)
def test_each_example_validates_against_its_op_schema(t: str) -> None:
    example = _example(_sections()[t])
    assert example["t"] == t
    Draft202012Validator(_schema(t)).validate(example)


@pytest.fixture
def app(tmp_path: Path) -> Iterator[AppHarness]:
    harness = AppHarness(tmp_path / "edits.db")
    yield harness
    harness.close()


def _setup() -> dict[str, Any]:
    page = _text().split("## The page the examples run on", 1)[1].split("\n## ", 1)[0]
    (block,) = _JSON.findall(page)
    body: dict[str, Any] = json.loads(block)
    return body


def test_every_example_applies_through_the_edits_route(app: AppHarness) -> None:
    setup = _setup()
    for t, section in _sections().items():
        session_id = app.open(page=f"edits-{t.replace('_', '-')}")
        built = app.call("POST", f"/sessions/{session_id}/edits", setup)
        assert built.status == 200, built.json
        revision = built.json["revision"]
        edited = app.call(
            "POST",
            f"/sessions/{session_id}/edits",
            {"basedOn": revision, "ops": [_example(section)]},
        )
        assert edited.status == 200, (t, edited.json)
        assert edited.json["revision"] == revision + 1 and edited.json["applied"] == 1


def test_the_error_table_is_the_error_table() -> None:
    errors = _text().split("## Errors", 1)[1]
    rows = _CODE_ROW.findall(errors)
    assert rows, "the errors table is gone"
    for code, status, message in rows:
        assert MESSAGES[code] == message, code
        assert STATUS_OF.get(code, 422) == int(status), code
    listed = {code for code, _status, _message in rows}
    # Every page-document code an edit can answer (invalid_state is a 500, history_truncated a read's).
    assert PageSessionError.CODES - {"invalid_state", "history_truncated"} <= listed
