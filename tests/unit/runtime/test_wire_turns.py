"""Turns against loopback servers speaking the three providers' wire formats, through the real provider classes.

Each test runs for OpenAI Chat Completions (``openai:``), the OpenAI
Responses API (``openai-responses:``) and Anthropic Messages
(``anthropic:``), with ``Settings.model_base_url`` pointing the provider's
own client at the peer (``tests/support/wire_*.py``). The peer plays the
replies a test scripts — tool-call arguments in many chunks, several calls in
one response, a cut-off reply, malformed arguments — and records every
request, so a test reads what the provider client really sent.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

import pytest
from tests.support.loopback_http import Call, Reply
from tests.support.wire_harness import WIRES, Wire, events, of_type, on_wire, open_session, run_turn

from charlotte.events import EventTypes
from charlotte.runtime.runner import CONTINUATION

HERO: Final = {"t": "insert_node", "node": {"id": "hero", "type": "section", "parent": None}}
TITLE: Final = {
    "t": "insert_node",
    "node": {
        "id": "title",
        "type": "heading",
        "parent": "hero",
        "props": {"content": "Rosa's Bakery", "level": 1},
    },
}
APPLY: Final = {"basedOn": 0, "ops": [HERO, TITLE]}

wires = pytest.mark.parametrize("wire", WIRES, ids=[w.name for w in WIRES])


def _sent(body: dict[str, Any]) -> str:
    return json.dumps(body)


@wires
def test_a_turn_builds_a_page_from_chunked_and_parallel_tool_calls(
    tmp_path: Path, wire: Wire
) -> None:
    with on_wire(tmp_path, wire, telemetry=True) as (peer, charlotte):
        peer.play(
            # Two calls in one response, the second's arguments in 25 pieces.
            Reply.of_calls(
                Call.of("cms_outline", {}, 3),
                Call.of("cms_apply", APPLY, 25),
                input_tokens=120,
                output_tokens=40,
            ),
            Reply.of_calls(
                Call.of("cms_ready", {"summary": "A hero with the bakery's name."}, 6),
                input_tokens=300,
                output_tokens=9,
            ),
            Reply.of_text(
                "I built the hero section.", text_chunks=5, input_tokens=410, output_tokens=7
            ),
        )
        session = open_session(charlotte)

        status, code = run_turn(charlotte, session, "Build the page")

        assert (status, code) == ("finished", None)
        assert list(session.draft()["page"]["nodes"]) == ["hero", "title"]
        log = events(charlotte, session)
        called = {p["name"]: p["arguments"] for p in of_type(log, EventTypes.TOOL_CALLED)}
        assert called == {
            "cms_outline": {},
            "cms_apply": APPLY,
            "cms_ready": {"summary": "A hero with the bakery's name."},
        }
        assert [p["is_error"] for p in of_type(log, EventTypes.TOOL_RESULT)] == [
            False,
            False,
            False,
        ]
        assert (
            "".join(p["text"] for p in of_type(log, EventTypes.TEXT_DELTA))
            == "I built the hero section."
        )
        usage = {"input_tokens": 830, "output_tokens": 56, "requests": 3}
        assert log[-1] == (
            EventTypes.TURN_FINISHED,
            {"turn_id": log[-1][1]["turn_id"], "ready": True, "usage": usage},
        )
        observed = of_type(log, EventTypes.USAGE_OBSERVED)
        assert [{k: o[k] for k in usage} for o in observed] == [usage]
        # The requests went where the wire format says, streamed, and each
        # answer after a tool call carried the calls' results back.
        assert [r.path for r in peer.requests] == [peer.path] * 3
        assert all(r.body["stream"] is True for r in peer.requests)
        ids = {p["name"]: p["call_id"] for p in of_type(log, EventTypes.TOOL_CALLED)}
        results = peer.tool_results(peer.requests[1].body)
        assert sorted(results) == sorted([ids["cms_outline"], ids["cms_apply"]])
        assert json.loads(results[ids["cms_apply"]])["revision"] == 2
        assert (
            json.loads(peer.tool_results(peer.requests[2].body)[ids["cms_ready"]])["ready"] is True
        )
        assert session.status()["status"] == "idle"


@wires
def test_a_reply_cut_off_by_the_output_limit_is_continued(tmp_path: Path, wire: Wire) -> None:
    with on_wire(tmp_path, wire) as (peer, charlotte):
        peer.play(Reply.of_text("I will build the", finish="length"), Reply.of_text("Built it."))
        session = open_session(charlotte)

        status, _ = run_turn(charlotte, session, "Build the page")

        assert status == "finished"
        log = events(charlotte, session)
        assert [p["reason"] for p in of_type(log, EventTypes.RUN_FINISHED)] == ["length", "stop"]
        assert len(peer.requests) == 2
        continued = _sent(peer.requests[1].body)
        assert json.dumps(CONTINUATION)[1:-1] in continued
        assert (
            "I will build the" in continued
        )  # the cut-off reply is history the model continues from
        # The turn's usage counts both runs.
        assert log[-1][1]["usage"] == {"input_tokens": 200, "output_tokens": 40, "requests": 2}


@wires
def test_malformed_tool_arguments_come_back_as_an_error_the_model_fixes(
    tmp_path: Path, wire: Wire
) -> None:
    broken = Reply.of_calls(
        Call("cms_apply", '{"basedOn": 0, "ops": [{"t": "insert_node", ', chunks=4)
    )
    with on_wire(tmp_path, wire) as (peer, charlotte):
        # Twice in a row: more than the model library's own retry budget for a tool.
        peer.play(
            broken,
            broken,
            Reply.of_calls(Call.of("cms_apply", {"basedOn": 0, "ops": [HERO]}, 5)),
            Reply.of_text("Fixed it."),
        )
        session = open_session(charlotte)

        status, code = run_turn(charlotte, session, "Build the page")

        assert (status, code) == ("finished", None)
        assert list(session.draft()["page"]["nodes"]) == ["hero"]
        log = events(charlotte, session)
        results = of_type(log, EventTypes.TOOL_RESULT)
        assert [(r["is_error"], r.get("code")) for r in results] == [
            (True, "invalid_arguments")
        ] * 2 + [(False, None)]
        # The model was told, in charlotte's words, what was wrong with its call.
        broken_ids = [p["call_id"] for p in of_type(log, EventTypes.TOOL_CALLED)][:2]
        for request, call_id in zip(peer.requests[1:3], broken_ids, strict=True):
            told = peer.tool_results(request.body)[call_id]
            error = json.loads(told)["error"]
            assert (error["code"], error["path"], error["got"]) == (
                "invalid_arguments",
                "$.arguments",
                "text that is not JSON",
            )
            # ... never the parser's own message.
            assert [w for w in ("EOF", "Invalid JSON", "json_invalid", "column") if w in told] == []


@wires
def test_the_second_turn_sends_the_first_turns_message_and_reply(
    tmp_path: Path, wire: Wire
) -> None:
    with on_wire(tmp_path, wire) as (peer, charlotte):
        peer.play(Reply.of_text("Here is a plan for the bakery page."), Reply.of_text("Done."))
        session = open_session(charlotte)

        assert run_turn(charlotte, session, "Plan the page for Rosa")[0] == "finished"
        assert run_turn(charlotte, session, "Now build it")[0] == "finished"

        second = _sent(peer.requests[1].body)
        assert "Plan the page for Rosa" in second
        assert "Here is a plan for the bakery page." in second
        assert "Now build it" in second
