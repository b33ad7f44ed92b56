"""Lone surrogates and damaged rows through the public surface: the log stays readable, no stream stalls.

A Python string (and JSON's ``\\uD800`` escape) can hold a lone surrogate,
which is no Unicode text. Model text and tool arguments holding one are
recorded with U+FFFD; a row an older version stored with the escape, or one
damaged by hand, still answers ``GET /events`` with 200 and streams, with the
events around it; and a damaged session never stops another session's live
stream. The damaged-row contract also runs here on SQLite (PostgreSQL:
``tests/integration/test_surrogates_postgres.py``).
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Final

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.requests import Request
from starlette.testclient import TestClient
from tests.support.app_harness import AppHarness
from tests.support.damaged_log_contract import (
    DAMAGES,
    SQLITE_DAMAGES,
    DamagedLogContract,
    append_text,
    insert_damaged,
    last_seq,
    ticked,
)
from tests.support.databases import new_session
from tests.support.runner_harness import HERO
from tests.support.units import call_tool
from tests.support.waiting import eventually

from charlotte.drafts.workspace import Workspace
from charlotte.http.asgi import create_app
from charlotte.runtime.notifier import Notifier
from charlotte.storage import DatabaseEventLog, SessionRecord
from charlotte.testing import Finish, Step, ToolCall
from charlotte.tools import PageTools, ToolBinding, is_error

pytestmark = pytest.mark.timeout(120)

HEADERS: Final = {"X-User": "ann", "X-Tenant": "acme"}
#: How long a live stream may take to deliver what was committed.
DEADLINE: Final = 15.0


class TestDamagedLogOnSqlite(DamagedLogContract):
    damages: ClassVar[tuple[str, ...]] = SQLITE_DAMAGES

    @pytest.fixture
    def engine(self, sqlite_engine: sa.Engine) -> sa.Engine:
        return sqlite_engine


@dataclass
class Served:
    """A ``Charlotte`` with a scripted model, its ASGI app, notifier and client."""

    harness: AppHarness
    notifier: Notifier
    client: TestClient

    @property
    def engine(self) -> sa.Engine:
        return self.harness.charlotte.engine

    def open(self) -> str:
        response = self.client.post("/sessions", json={"page": "home", "brief": "A bakery"}, headers=HEADERS)
        assert response.status_code == 201, response.text
        session_id: str = response.json()["session"]["id"]
        return session_id

    def turn(self, session_id: str, script: tuple[Step, ...]) -> None:
        """One inline turn playing ``script`` (it has ended on return)."""
        self.harness.script = list(script)
        response = self.client.post(f"/sessions/{session_id}/turns", json={"message": "Build it"}, headers=HEADERS)
        assert response.status_code == 202, response.text

    def events(self, session_id: str) -> list[dict[str, Any]]:
        """``GET /events`` through the ASGI app: must be 200."""
        response = self.client.get(f"/sessions/{session_id}/events", params={"limit": "1000"}, headers=HEADERS)
        assert response.status_code == 200, response.text
        found: list[dict[str, Any]] = response.json()["events"]
        return found

    def stream(self, session_id: str, until: int, after: int = 0) -> list[dict[str, Any] | None]:
        """The bounded stream's events in order (None for a comment frame standing in for one)."""
        response = self.client.get(f"/sessions/{session_id}/stream?after={after}&until={until}", headers=HEADERS)
        assert response.status_code == 200, response.text
        return _frames(response.content)


def _frames(body: bytes) -> list[dict[str, Any] | None]:
    text = body.decode("utf-8")  # the stream is UTF-8: every frame encoded
    found: list[dict[str, Any] | None] = []
    for block in text.split("\n\n")[:-1]:
        if block == ": heartbeat":
            continue
        match = re.fullmatch(r"id: (\d+)\nevent: ([^\r\n]*)\ndata: ([^\r\n]*)", block)
        if match is None:
            assert re.fullmatch(r": event \d+ cannot be framed", block), block
            found.append(None)
            continue
        event: dict[str, Any] = json.loads(match.group(3))
        assert (str(event["seq"]), event["type"]) == match.group(1, 2)
        found.append(event)
    return found


def _user(request: Request) -> str | None:
    return request.headers.get("x-user")


def _tenant(request: Request) -> str | None:
    return request.headers.get("x-tenant")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    harness = AppHarness(tmp_path / "surrogates.db")
    harness.charlotte.resolve_user_using(_user).resolve_tenant_using(_tenant)
    notifier = Notifier(harness.charlotte.engine, interval=0.02)
    app = create_app(harness.charlotte, heartbeat_seconds=0.05, notifier=notifier)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield Served(harness, notifier, client)
        # Closing the notifier ends every stream still open (a failing test's).
        notifier.close()
    harness.close()


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


# The model's text and tool arguments hold lone surrogates (and a pair split
# into its halves, as a UTF-16 source could send it). The model library
# refuses arguments that are not Unicode; the recorder logs the call anyway.
POISONED_TURN: Final[tuple[Step, ...]] = (
    ToolCall("cms_find", {"text": "Ro\ud800sa"}),
    ToolCall("cms_outline", {"dep\udfffth": "\ud83d\ude00"}),
    Finish("stop", "Done \ud800 here"),
)


def test_a_turn_with_lone_surrogates_reads_and_streams_with_replacement_characters(served: Served) -> None:
    session_id = served.open()
    served.turn(session_id, POISONED_TURN)

    found = served.events(session_id)

    types = [event["type"] for event in found]
    assert types.count("tool.called") == 2 and "text.delta" in types and types[-1] == "turn.finished"
    called = [event["payload"] for event in found if event["type"] == "tool.called"]
    assert called[0]["arguments"] == {"text": "Ro\ufffdsa"}
    assert called[1]["arguments"] == {"dep\ufffdth": "\U0001f600"}
    text = "".join(event["payload"]["text"] for event in found if event["type"] == "text.delta")
    assert text == "Done \ufffd here"
    for string in _strings(found):
        string.encode("utf-8")  # every string is Unicode
    # The stream delivers every event, from the first seq on.
    streamed = served.stream(session_id, until=found[-1]["seq"])
    assert streamed == found


# Any code point, lone surrogates and NUL included (st.text() would leave surrogates out).
MODEL_TEXT: Final = st.lists(
    st.characters() | st.characters(categories=["Cs"]) | st.just("\x00"), max_size=60
).map("".join)


def _turn_leaves_every_event_readable(served: Served, text: str, arguments: dict[str, str]) -> None:
    session_id = served.open()
    started = time.monotonic()
    served.turn(session_id, (ToolCall("cms_find", arguments), Finish("stop", text)))

    found = served.events(session_id)

    assert time.monotonic() - started < DEADLINE
    assert found[-1]["type"] == "turn.finished", found[-1]["type"]
    for string in _strings(found):
        string.encode("utf-8")
    assert len(served.stream(session_id, until=found[-1]["seq"])) == len(found)


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(text=MODEL_TEXT, arguments=st.dictionaries(MODEL_TEXT, MODEL_TEXT, max_size=3))
def test_any_model_text_and_tool_arguments_leave_every_event_readable(
    served: Served, text: str, arguments: dict[str, str]
) -> None:
    _turn_leaves_every_event_readable(served, text, arguments)


def test_a_megabyte_of_model_text_and_arguments_with_a_lone_surrogate_stays_readable(served: Served) -> None:
    big = "x" * 1_000_000 + "\ud800"
    _turn_leaves_every_event_readable(served, big, {"text": big})


def test_every_damaged_row_answers_events_with_200_and_streams_with_its_neighbours(served: Served) -> None:
    session_id = served.open()
    earlier = served.events(session_id)
    for name in SQLITE_DAMAGES:
        insert_damaged(served.engine, session_id, DAMAGES[name])
    later = append_text(served.engine, session_id, "later")

    found = served.events(session_id)

    assert found[: len(earlier)] == earlier
    assert found[-1]["seq"] == later and found[-1]["payload"] == {"text": "later"}
    by_seq = {event["seq"]: event for event in found}
    assert len(by_seq) == later  # every integer seq, the damaged ones included
    assert by_seq[len(earlier) + 1]["payload"] == {"text": "a\ufffdb"}
    streamed = served.stream(session_id, until=later)
    comments = [name for name in SQLITE_DAMAGES if name == "forging-type"]
    assert [event for event in streamed if event is not None] == [
        event for event in found if "\n" not in event["type"]
    ]
    assert streamed.count(None) == len(comments)


def test_a_poisoned_row_stalls_neither_another_sessions_live_stream_nor_its_own(served: Served) -> None:
    # The notifier lists sessions in id order on SQLite: the poisoned one goes
    # first, so a tick that stopped at its failure cannot serve the other by luck.
    poisoned, other = sorted([served.open(), served.open()])
    served.turn(poisoned, POISONED_TURN)
    start_poisoned, start_other = last_seq(served.engine, poisoned), last_seq(served.engine, other)
    # Both streams follow live, from their current end, until two more events arrive.
    results: dict[str, list[dict[str, Any] | None]] = {}

    def follow(session_id: str, after: int) -> None:
        results[session_id] = served.stream(session_id, until=after + 2, after=after)

    readers = [
        threading.Thread(target=follow, args=(poisoned, start_poisoned), daemon=True),
        threading.Thread(target=follow, args=(other, start_other), daemon=True),
    ]
    for reader in readers:
        reader.start()
    eventually(lambda: served.notifier.subscriber_count() == 2)
    ticked(served.notifier)  # both followed live, as on a server running for a while

    # An older version's write: the escape of a lone surrogate in the payload.
    insert_damaged(served.engine, poisoned, DAMAGES["surrogate-escape"])
    append_text(served.engine, poisoned, "after the poison")
    append_text(served.engine, other, "one")
    append_text(served.engine, other, "two")
    for reader in readers:
        reader.join(DEADLINE)

    assert other in results, "the other session's live stream stalled"
    assert [event["payload"] for event in results[other] if event] == [{"text": "one"}, {"text": "two"}]
    assert poisoned in results, "the poisoned session's live stream stalled"
    assert [event["payload"] for event in results[poisoned] if event] == [{"text": "a\ufffdb"}, {"text": "after the poison"}]
    # A reader that joins later gets the whole log, the earlier seqs included.
    replay = served.stream(poisoned, until=start_poisoned + 2)
    assert [event["seq"] for event in replay if event] == list(range(1, start_poisoned + 3))


def test_page_text_with_a_lone_surrogate_from_the_model_is_refused_and_stores_nothing(sqlite_engine: sa.Engine) -> None:
    # A provider may hand the tools decoded arguments (a dict), which the
    # model library does not check for lone surrogates: the tools must.
    workspace = Workspace(sqlite_engine)
    tools = PageTools(workspace)
    session = new_session(sqlite_engine)
    binding = ToolBinding.for_session(session.id, session.tenant, session.page)
    ops = json.loads(json.dumps(HERO).replace("Rosa", "Ro\\ud800sa"))
    before = _stored(sqlite_engine, workspace, session)

    result = call_tool(tools, "cms_apply", {"basedOn": 0, "ops": ops}, binding)

    assert is_error(result)
    assert result["error"]["code"] == "invalid_arguments"
    assert result["error"]["path"] == "$.arguments.ops[1].node.props.content"
    assert (result["error"]["expected"], result["error"]["got"]) == ("Unicode text", "a lone surrogate")
    assert _stored(sqlite_engine, workspace, session) == before
    # The same text as JSON from the model, and in a key, alike.
    as_text = call_tool(tools, "cms_apply", json.dumps({"basedOn": 0, "ops": ops}), binding)
    assert is_error(as_text) and as_text["error"]["path"] == "$.arguments.ops[1].node.props.content"
    in_key = call_tool(tools, "cms_find", {"te\udfffxt": "x"}, binding)
    assert is_error(in_key) and in_key["error"]["code"] == "invalid_arguments"
    assert _stored(sqlite_engine, workspace, session) == before


def _stored(engine: sa.Engine, workspace: Workspace, session: SessionRecord) -> tuple[Any, ...]:
    """The session's draft (with revision) and event count."""
    with workspace.units.read(session.id, session.tenant) as unit:
        draft = workspace.load_draft(unit)
    return draft, len(DatabaseEventLog().read(engine, session.id, 0, 1000))
