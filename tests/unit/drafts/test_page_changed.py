"""``page.changed`` carries the ops a write applied, within a bound."""

from __future__ import annotations

import json

from charlotte.drafts._writes import MAX_APPLIED_CHARS, page_changed
from charlotte.events import Event, schema_errors


def _op(text: str) -> dict[str, object]:
    return {"t": "set_node_props", "id": "hero", "patch": {"content": text}}


def _chars(ops: list[dict[str, object]]) -> int:
    return len(json.dumps(ops, ensure_ascii=False, separators=(",", ":")))


def _valid(payload: dict[str, object]) -> bool:
    event = Event("s", 1, "page.changed", "2025-03-14T09:26:08.535897Z", "ann", payload)
    return schema_errors(event) == []


def test_the_ops_are_carried_up_to_the_bound_and_not_beyond() -> None:
    filler = MAX_APPLIED_CHARS - _chars([_op("")])
    at_bound = [_op("é" * filler)]  # characters, not bytes
    assert _chars(at_bound) == MAX_APPLIED_CHARS

    carried = page_changed(1, 1, ("hero",), "ann", applied=at_bound).payload
    over = page_changed(1, 1, ("hero",), "ann", applied=[_op("é" * (filler + 1))]).payload

    assert carried["applied"] == at_bound and _valid(carried)
    assert "applied" not in over and over["node_ids"] == ["hero"] and _valid(over)


def test_many_small_ops_over_the_bound_are_not_encoded_or_carried() -> None:
    ops = [_op("") for _ in range(MAX_APPLIED_CHARS // 8 + 1)]

    assert "applied" not in page_changed(len(ops), len(ops), ("hero",), "agent", applied=ops).payload


def test_the_copy_names_the_draft_or_the_working_copy() -> None:
    draft = page_changed(3, 1, ("hero",), "agent", applied=[_op("Rye")]).payload
    working = page_changed(3, 1, ("hero",), "agent", working=True, applied=[_op("Rye")]).payload

    assert (draft["copy"], working["copy"]) == ("draft", "working")
    assert _valid(draft) and _valid(working)
