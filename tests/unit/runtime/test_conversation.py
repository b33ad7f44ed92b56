"""The conversation's budget: newest turns whole, older ones compact, nothing that does not fit."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from pydantic_ai.messages import (
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from tests.support.conversation_model import recall

from charlotte.events import utc_now
from charlotte.runtime.conversation import (
    COMPACT_REPLY_CHARS,
    MAX_RECORD_NODES,
    TurnWork,
    build_conversation,
    compact_messages,
    dump_messages,
    load_messages,
)
from charlotte.settings import Settings
from charlotte.storage import ConversationRow

RECORD = {"tools": {"cms_apply": 2}, "node_ids": ["hero"], "nodes_changed": 1, "revision": 4,
          "ended": "finished", "ready": True, "code": None}  # fmt: skip


def _whole(n: int, result: Any = None) -> list[ModelMessage]:
    """A finished turn: the person's request, a tool call, its result, the reply."""
    return [
        ModelRequest(parts=[UserPromptPart(f"ask {n}")], instructions="the builder's long guide"),
        ModelResponse(parts=[ToolCallPart("cms_outline", {}, tool_call_id=f"c{n}")]),
        ModelRequest(
            parts=[ToolReturnPart("cms_outline", result or {"revision": n}, tool_call_id=f"c{n}")]
        ),
        ModelResponse(parts=[TextPart(f"reply {n}")]),
    ]


def _row(n: int, *, messages: list[ModelMessage] | None = None, status: str = "finished",
         stored: str | None = None, record: dict[str, Any] | None = None) -> ConversationRow:  # fmt: skip
    at = utc_now() + timedelta(seconds=n)
    text = (
        stored
        if stored is not None
        else dump_messages(messages if messages is not None else _whole(n))
    )
    return ConversationRow(
        turn_id=f"t{n}", session_id="s", tenant="acme", seq=10 * n, status=status,
        message=f"ask {n}", reply=f"reply {n}", messages=text if status == "finished" else None,
        record=dict(RECORD if record is None else record), asked_at=at, created_at=at,
    )  # fmt: skip


def _has_tool_result(messages: list[ModelMessage]) -> bool:
    return any(
        isinstance(p, ToolReturnPart)
        for m in messages
        if isinstance(m, ModelRequest)
        for p in m.parts
    )


def test_every_turn_whole_when_the_budget_holds_them() -> None:
    rows = [_row(n) for n in range(3)]
    history = build_conversation(rows, turns=20, chars=60_000)
    expected = [m for n in range(3) for m in load_messages(rows[n].messages) or []]
    assert history == expected and len(history) == 12
    # Stored without the guide: every run sends its own instructions.
    assert all(m.instructions is None for m in history if isinstance(m, ModelRequest))


def test_newest_whole_older_compact_when_the_budget_is_short() -> None:
    # Whole turns bigger than two compact ones, so a third never squeezes in.
    rows = [_row(n, messages=_whole(n, result={"outline": "x" * 3_000})) for n in range(4)]
    one = len(rows[3].messages or "")
    compact = len(ModelMessagesTypeAdapter.dump_json(compact_messages(rows[0])))
    history = build_conversation(rows, turns=20, chars=2 * one + 2 * compact + 10)
    # Two compact (older) turns, then the two newest whole.
    assert len(history) == 2 + 2 + 4 + 4
    assert not _has_tool_result(history[:4]) and _has_tool_result(history[4:])
    assert recall(history)["asked"] == ["ask 0", "ask 1", "ask 2", "ask 3"]
    assert "cms_apply (2)" in recall(history[:2])["said"][0]
    assert "page at revision 4" in recall(history[:2])["said"][0]


def test_once_a_turn_is_compact_every_older_one_is_too() -> None:
    small, big = _row(0), _row(1, messages=_whole(1, result={"page": "x" * 5_000}))
    newest = _row(2)
    budget = len(newest.messages or "") + len(small.messages or "") + 1_000
    history = build_conversation([small, big, newest], turns=20, chars=budget)
    # The big turn does not fit whole: it and the small older one go compact.
    assert len(history) == 2 + 2 + 4
    assert not _has_tool_result(history[:4])


def test_a_huge_tool_result_never_goes_in() -> None:
    huge = _row(0, messages=_whole(0, result={"page": "x" * 100_000}))
    history = build_conversation([huge], turns=20, chars=60_000)
    assert len(history) == 2 and not _has_tool_result(history)
    assert len(ModelMessagesTypeAdapter.dump_json(history)) < 60_000
    assert recall(history)["asked"] == ["ask 0"]


def test_what_does_not_fit_even_compact_is_left_out_oldest_first() -> None:
    rows = [_row(n) for n in range(3)]
    compact = len(ModelMessagesTypeAdapter.dump_json(compact_messages(rows[2])))
    history = build_conversation(rows, turns=20, chars=compact + 5)
    assert recall(history)["asked"] == ["ask 2"]
    assert build_conversation(rows, turns=20, chars=10) == []


def test_history_turns_bounds_the_count_and_zero_means_none() -> None:
    rows = [_row(n) for n in range(5)]
    assert recall(build_conversation(rows, turns=2, chars=60_000))["asked"] == ["ask 3", "ask 4"]
    assert build_conversation(rows, turns=0, chars=60_000) == []
    assert build_conversation([], turns=20, chars=60_000) == []


def test_stopped_and_failed_turns_are_compact_and_say_how_they_ended() -> None:
    stopped = _row(0, status="stopped", record={"tools": {"cms_facts": 1}, "ended": "stopped"})
    failed = _row(1, status="failed", record={"ended": "failed", "code": "model_timeout"})
    newest = _row(2)
    history = build_conversation([stopped, failed, newest], turns=20, chars=60_000)
    said = recall(history)["said"]
    assert "stopped by the person" in said[0] and "cms_facts (1)" in said[0]
    assert "failed (model_timeout)" in said[1]
    # A compact stopped turn does not end whole mode: the newest still goes whole.
    assert _has_tool_result(history[4:])


@pytest.mark.parametrize(
    "stored",
    [
        "",
        "not json",
        '[{"kind": "nonsense"}]',
        json.dumps(
            [{"kind": "response", "parts": [{"part_kind": "text", "content": "no request"}]}]
        ),
    ],
)
def test_a_row_that_cannot_be_read_becomes_its_compact_record(stored: str) -> None:
    history = build_conversation([_row(0, stored=stored)], turns=20, chars=60_000)
    assert len(history) == 2 and recall(history)["asked"] == ["ask 0"]


def test_a_dangling_tool_call_is_never_handed_on() -> None:
    dangling = [
        ModelRequest(parts=[UserPromptPart("ask 0")]),
        ModelResponse(parts=[ToolCallPart("cms_apply", {}, tool_call_id="open")]),
    ]
    # Stored raw (not through dump_messages): read back, it is not a whole turn.
    raw = ModelMessagesTypeAdapter.dump_json(dangling).decode()
    assert load_messages(raw) is None
    assert not any(
        isinstance(p, ToolCallPart)
        for m in build_conversation([_row(0, stored=raw)], turns=20, chars=60_000)
        for p in getattr(m, "parts", [])
    )
    # What the runner stores is repaired first: the call gets its synthesised return.
    repaired = load_messages(dump_messages([*dangling, ModelRequest(parts=[UserPromptPart("go on")]),
                                            ModelResponse(parts=[TextPart("ok")])]))  # fmt: skip
    assert repaired is not None and _has_tool_result(repaired)


def test_a_compact_reply_is_bounded() -> None:
    row = _row(0)
    long = ConversationRow(
        **{**{f: getattr(row, f) for f in row.__dataclass_fields__}, "reply": "y" * 50_000}
    )
    (_, response) = compact_messages(long)
    assert isinstance(response, ModelResponse)
    text = response.parts[0]
    assert isinstance(text, TextPart) and len(text.content) < COMPACT_REPLY_CHARS + 500


def test_turn_work_counts_tools_nodes_and_the_revision() -> None:
    work = TurnWork()
    ops = [{"t": "insert_node", "node": {"id": f"n{i}"}} for i in range(MAX_RECORD_NODES + 5)]
    work.note("cms_outline", {}, {"revision": 3})
    work.note("cms_apply", {"ops": ops}, {"revision": 4})
    work.note(
        "cms_apply", {"ops": [{"t": "remove_node", "id": "gone"}]}, {"isError": True, "revision": 4}
    )
    work.note("cms_apply", {"ops": [{"t": "set_node_props", "id": "n0"}]}, {"revision": 5})
    record = work.record()
    assert record["tools"] == {"cms_outline": 1, "cms_apply": 3}
    assert (
        record["nodes_changed"] == MAX_RECORD_NODES + 5
        and len(record["node_ids"]) == MAX_RECORD_NODES
    )
    assert "gone" not in record["node_ids"] and record["revision"] == 5


@pytest.mark.parametrize("field", ["history_turns", "history_chars"])
@pytest.mark.parametrize("value", [-1, 1.5, "20", True])
def test_settings_refuse_a_bad_budget(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=field):
        Settings(**{field: value})  # type: ignore[arg-type]


def test_settings_default_budget() -> None:
    settings = Settings()
    assert (settings.history_turns, settings.history_chars) == (20, 60_000)
    assert Settings(history_turns=0, history_chars=0).history_turns == 0
