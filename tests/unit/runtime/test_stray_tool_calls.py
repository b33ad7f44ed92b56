"""Calls to names that are no tool, and calls sharing an id, through a real ``Charlotte`` and the scripted model.

Each is a tool call like any other: charlotte's ``unknown_tool`` result the
model reads, one ``tool.called`` and one ``tool.result`` per call, counted
against ``tool_calls_limit``; the turn finishes. No log line holds what the
model chose as it was sent (``tests/unit/runtime/test_wire_tool_calls.py``
plays the same on the providers' wires).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest
from tests.support.scripted_charlotte import (
    FORGED,
    LOOK_ALIKES,
    Maker,
    answered_once,
    no_raw_model_text,
    of_type,
    open_session,
    read_log,
    scripted_charlottes,
)

from charlotte.events import EventTypes
from charlotte.runtime.tool_routing import UNKNOWN_TOOL
from charlotte.testing import ScriptedModel, Text, ToolCall, ToolCalls

HERO: Final = {"t": "insert_node", "node": {"id": "hero", "type": "section", "parent": None}}


@pytest.fixture
def charlotte_for(tmp_path: Path) -> Iterator[Maker]:
    with scripted_charlottes(tmp_path) as make:
        yield make


def test_an_unknown_name_called_again_and_again_is_an_unknown_tool_result_and_the_turn_finishes(
    charlotte_for: Maker, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    model = ScriptedModel([
        ToolCall("cms_publish", {}),
        ToolCall("cms_publish", {}),  # the same name again: past the model library's own budget
        ToolCall(FORGED, {"page": "home"}),
        ToolCall(FORGED, {"page": "home"}),
        ToolCalls(ToolCall(name, {"basedOn": 0, "ops": [HERO]}) for name in LOOK_ALIKES),
        # The hidden tool's own name, with arguments that name a tool: no tool either.
        ToolCall(UNKNOWN_TOOL, {"$tool_name": "cms_apply", "$tool_arguments": {"basedOn": 0, "ops": [HERO]}}),
        Text("There is no publishing tool."),
    ])
    charlotte = charlotte_for(model)
    session = open_session(charlotte)

    turn = session.send("Publish the page")

    assert (turn["status"], turn["error_code"]) == ("finished", None)
    log = read_log(charlotte, session)
    names = ["cms_publish", "cms_publish", FORGED, FORGED, *LOOK_ALIKES, UNKNOWN_TOOL]
    assert answered_once(log) == [(name, "unknown_tool") for name in names]
    assert [p["arguments"] for p in of_type(log, EventTypes.TOOL_CALLED)][2] == {"page": "home"}
    # The model read charlotte's own result, with the page's revision.
    unknown = [r for r in model.tool_results if isinstance(r, dict)]
    assert len(unknown) == len(names)
    assert {json.dumps(r["error"], sort_keys=True) for r in unknown} == {
        json.dumps({"code": "unknown_tool", "message": "There is no tool with that name."}, sort_keys=True)
    }
    assert all(r["revision"] == 0 and r["isError"] is True for r in unknown)
    assert session.draft()["page"]["nodes"] == {}
    assert log[-1][0] == EventTypes.TURN_FINISHED
    no_raw_model_text(caplog.records, FORGED)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


def test_the_hidden_tool_is_never_offered_to_the_model(charlotte_for: Maker) -> None:
    offered: list[list[str]] = []

    class Watching(ScriptedModel):
        def request_stream(self, messages: Any, model_settings: Any, parameters: Any, run_context: Any = None) -> Any:  # type: ignore[override]
            offered.append(sorted(t.name for t in parameters.function_tools))
            return super().request_stream(messages, model_settings, parameters, run_context)

    charlotte = charlotte_for(Watching([ToolCall("cms_publish", {}), Text("Done.")]))
    session = open_session(charlotte)

    assert session.send("Publish")["status"] == "finished"
    assert offered and all(UNKNOWN_TOOL not in names and len(names) == 9 for names in offered)


def test_unknown_names_count_against_the_tool_calls_limit(charlotte_for: Maker) -> None:
    model = ScriptedModel([ToolCall(f"cms_nothing_{n}", {}) for n in range(5)])
    charlotte = charlotte_for(model, tool_calls_limit=3)
    session = open_session(charlotte)

    turn = session.send("Try everything")

    # The fourth call would pass the limit: refused before it ran, never logged as called.
    assert (turn["status"], turn["error_code"]) == ("failed", "usage_limit")
    log = read_log(charlotte, session)
    assert answered_once(log) == [(f"cms_nothing_{n}", "unknown_tool") for n in range(3)]
    assert log[-1] == (EventTypes.RUN_FAILED, {"turn_id": turn["id"], "code": "usage_limit"})


def test_calls_sharing_an_id_each_get_their_own_and_the_turn_finishes(
    charlotte_for: Maker, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    model = ScriptedModel([
        ToolCalls([
            ToolCall("cms_outline", {}, call_id="same"),
            ToolCall("cms_types", {}, call_id="same"),
            ToolCall("cms_publish", {}, call_id="same"),
            ToolCall("cms_facts", {}, call_id="same_2"),  # the id a fresh one would take first
        ]),
        Text("Read the page."),
    ])
    charlotte = charlotte_for(model)
    session = open_session(charlotte)

    turn = session.send("Look around")

    assert (turn["status"], turn["error_code"]) == ("finished", None)
    log = read_log(charlotte, session)
    called = [(p["name"], p["call_id"]) for p in of_type(log, EventTypes.TOOL_CALLED)]
    assert sorted(called) == sorted([
        ("cms_outline", "same"), ("cms_types", "same_3"), ("cms_publish", "same_4"), ("cms_facts", "same_2"),
    ])  # fmt: skip
    assert sorted(answered_once(log)) == sorted([
        ("cms_outline", None), ("cms_types", None), ("cms_publish", "unknown_tool"), ("cms_facts", None),
    ])  # fmt: skip
    assert len(model.tool_results) == 4
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


def test_an_error_the_runner_did_not_expect_is_logged_with_its_message_escaped(
    charlotte_for: Maker, caplog: pytest.LogCaptureFixture
) -> None:
    class Failing(ScriptedModel):
        def request_stream(self, messages: Any, model_settings: Any, parameters: Any, run_context: Any = None) -> Any:  # type: ignore[override]
            # An error quoting what the model sent, as a library's might.
            raise ValueError(f"the model sent {FORGED!s}")

    caplog.set_level(logging.DEBUG)
    charlotte = charlotte_for(Failing([]))
    session = open_session(charlotte)

    turn = session.send("Build it")

    assert (turn["status"], turn["error_code"]) == ("failed", "run_failed")
    [record] = [r for r in caplog.records if r.levelno >= logging.ERROR]
    no_raw_model_text(caplog.records, FORGED)
    shown = record.getMessage()
    assert "ValueError: 'the model sent cms_publish\\nCRITICAL charlotte.runtime.runner: forged line'" in shown
    assert "Traceback (most recent call last):" in shown and "request_stream" in shown
