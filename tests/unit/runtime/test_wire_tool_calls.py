"""Calls to names that are no tool, and calls sharing an id, on the three providers' wires.

The real provider classes parse what the loopback peer streams, so the model
library's own handling of unknown names and repeated ids is what charlotte
meets here (``test_stray_tool_calls.py`` plays the same with the scripted
model). The next request shows what the model reads: each call as it made
it, charlotte's ``unknown_tool`` result, every result matched to its call.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any, Final

import pytest
from tests.support.loopback_http import Call, Reply
from tests.support.scripted_charlotte import FORGED, LOOK_ALIKES, answered_once, no_raw_model_text
from tests.support.wire_harness import WIRES, Wire, events, of_type, on_wire, open_session, run_turn

from charlotte.events import EventTypes
from charlotte.runtime.tool_routing import UNKNOWN_TOOL

wires = pytest.mark.parametrize("wire", WIRES, ids=[w.name for w in WIRES])
APPLY: Final = {"basedOn": 0, "ops": [{"t": "insert_node", "node": {"id": "hero", "type": "section", "parent": None}}]}


def _offered(body: dict[str, Any]) -> list[str]:
    """The tool names a request offers (Chat Completions nests them under ``function``)."""
    return sorted(t["function"]["name"] if "function" in t else t["name"] for t in body.get("tools", []))


def _code(result: str) -> object:
    decoded = json.loads(result)
    return decoded["error"]["code"] if decoded.get("isError") else None


@wires
def test_unknown_and_look_alike_names_are_unknown_tool_results_and_the_turn_finishes(
    tmp_path: Path, wire: Wire, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    names = ["cms_publish", *LOOK_ALIKES, "cms_publish", FORGED, FORGED]
    with on_wire(tmp_path, wire) as (peer, charlotte):
        peer.play(
            Reply.of_calls(Call.of("cms_publish", {}), *(Call.of(n, APPLY, 3) for n in LOOK_ALIKES)),
            Reply.of_calls(Call.of("cms_publish", {})),  # again: past the model library's own budget
            Reply.of_calls(Call.of(FORGED, {"page": "home"})),
            Reply.of_calls(Call("cms_publish\nCRITICAL charlotte forged", "{not json", id=None)),
            Reply.of_calls(Call.of(FORGED, {})),
            Reply.of_text("There is no publishing tool."),
        )
        session = open_session(charlotte)

        status, code = run_turn(charlotte, session, "Publish the page")

        assert (status, code) == ("finished", None)
        log = events(charlotte, session)
        calls = answered_once(log)
        assert calls == [(n, "unknown_tool") for n in [*names[:5], "cms_publish\nCRITICAL charlotte forged", FORGED]]
        called = of_type(log, EventTypes.TOOL_CALLED)
        assert [c["arguments"] for c in called][1:3] == [APPLY, APPLY]
        assert called[5]["arguments"] == "{not json"
        assert session.draft()["page"]["nodes"] == {}
        # What the model read: its calls as it made them, charlotte's result for each.
        last = peer.requests[-1].body
        ids = [c["call_id"] for c in called]
        assert peer.tool_calls(last) == [(i, c["name"]) for i, c in zip(ids, called, strict=True)]
        results = peer.tool_results(last)
        assert [_code(results[i]) for i in ids] == ["unknown_tool"] * len(ids)
        assert all(_offered(r.body) == sorted(charlotte.tools.names) for r in peer.requests)
        assert UNKNOWN_TOOL not in json.dumps(peer.bodies())
        no_raw_model_text(caplog.records, FORGED, "cms_publish\nCRITICAL charlotte forged")
        assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


@wires
def test_calls_sharing_an_id_each_get_their_own_result(tmp_path: Path, wire: Wire) -> None:
    with on_wire(tmp_path, wire) as (peer, charlotte):
        peer.play(
            Reply.of_calls(
                Call.of("cms_outline", {}, id="dup"),
                Call.of("cms_apply", APPLY, 4, id="dup"),
                Call.of("cms_publish", {}, id="dup"),
            ),
            Reply.of_text("Added the hero."),
        )
        session = open_session(charlotte)

        status, code = run_turn(charlotte, session, "Add a hero")

        assert (status, code) == ("finished", None)
        log = events(charlotte, session)
        called = of_type(log, EventTypes.TOOL_CALLED)
        assert sorted((c["name"], c["call_id"]) for c in called) == [
            ("cms_apply", "dup_2"), ("cms_outline", "dup"), ("cms_publish", "dup_3"),
        ]  # fmt: skip
        assert sorted(answered_once(log)) == [("cms_apply", None), ("cms_outline", None), ("cms_publish", "unknown_tool")]
        assert list(session.draft()["page"]["nodes"]) == ["hero"]
        # The history sent back names each call by its own id, and each result answers one.
        last = peer.requests[-1].body
        assert peer.tool_calls(last) == [("dup", "cms_outline"), ("dup_2", "cms_apply"), ("dup_3", "cms_publish")]
        results = peer.tool_results(last)
        assert sorted(results) == ["dup", "dup_2", "dup_3"]
        assert json.loads(results["dup_2"])["revision"] == 1
        assert _code(results["dup_3"]) == "unknown_tool"
