"""The conversation contract, run against every database (subclass per backend).

Real turns through ``TurnRunner`` (real tools, the inline queue, a scripted
model that keeps what it was sent). A subclass provides ``engine`` (tables
created).
"""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from pydantic_ai.messages import (
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelRequest,
    ModelResponse,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models import Model
from tests.support.conversation_model import SeeingModel, recall
from tests.support.runner_harness import HERO, Harness, apply_step, based_on_last

from charlotte.errors import StorageError
from charlotte.events import EventTypes, utc_now
from charlotte.runtime.conversation import load_messages
from charlotte.runtime.turns import Turns
from charlotte.settings import Settings
from charlotte.storage import (
    ConversationRow,
    ConversationStore,
    SessionRecord,
    read_connection,
    transaction,
)
from charlotte.storage.conversation import MAX_REPLY
from charlotte.storage.tables import conversation
from charlotte.testing import Text, ToolCall


class _Seeing(Harness):
    """The runner harness with models that keep what they were sent."""

    def _model(self) -> Model:
        model = SeeingModel(list(self.script), final_text="Added a hero with the bakery's name.")
        self.models.append(model)
        return model

    @property
    def seen(self) -> list[ModelMessage]:
        """What the last turn's first model request held."""
        model = self.models[-1]
        assert isinstance(model, SeeingModel)
        return model.seen[0]


def rows(engine: sa.Engine, session: SessionRecord, limit: int = 100) -> list[ConversationRow]:
    with read_connection(engine) as conn:
        return ConversationStore().recent(conn, session.id, session.tenant, limit)


def _tool_returns(messages: list[ModelMessage]) -> list[ToolReturnPart]:
    return [
        p
        for m in messages
        if isinstance(m, ModelRequest)
        for p in m.parts
        if isinstance(p, ToolReturnPart)
    ]


class ConversationContract:
    """What every database must show of the conversation."""

    @pytest.fixture
    def harness(self, engine: sa.Engine) -> _Seeing:
        return _Seeing(engine)

    def test_a_finished_turn_keeps_its_row_with_its_end_event(self, harness: _Seeing) -> None:
        s = harness.open()
        harness.send(
            s, [ToolCall("cms_apply", apply_step(HERO)), ToolCall("cms_outline", {})], "Add a hero"
        )

        (row,) = rows(harness.engine, s)
        finished = [e for e in harness.events(s) if e.type == EventTypes.TURN_FINISHED]
        assert row.seq == finished[-1].seq and row.status == "finished"
        assert (row.message, row.reply) == ("Add a hero", "Added a hero with the bakery's name.")
        assert row.record == {
            "tools": {"cms_apply": 1, "cms_outline": 1},
            "node_ids": ["hero", "title"],
            "nodes_changed": 2,
            "revision": 2,
            "ended": "finished",
            "ready": False,
            "code": None,
        }
        messages = load_messages(row.messages)
        assert messages is not None
        assert recall(messages)["asked"] == ["Add a hero"]
        assert all(m.instructions is None for m in messages if isinstance(m, ModelRequest))

    def test_the_next_turn_is_given_the_earlier_turns(self, harness: _Seeing) -> None:
        s = harness.open()
        harness.send(s, [ToolCall("cms_apply", apply_step(HERO))], "Add a hero")
        harness.send(s, [], "Now make it warmer")

        seen = recall(harness.seen)
        assert seen["asked"] == ["Add a hero", "Now make it warmer"]
        assert seen["said"] == ["Added a hero with the bakery's name."]
        # The first turn went whole: its tool result too.
        assert [r.tool_name for r in _tool_returns(harness.seen)] == ["cms_apply"]

    def test_a_tool_result_the_budget_cannot_hold_is_not_given(self, engine: sa.Engine) -> None:
        harness = _Seeing(
            engine, settings=Settings(queue="inline", heartbeat_seconds=0.2, history_chars=2_000)
        )
        s = harness.open()
        harness.send(
            s, [ToolCall("cms_apply", apply_step(HERO)), ToolCall("cms_outline", {})], "Add a hero"
        )
        (row,) = rows(engine, s)
        assert row.messages is not None and len(row.messages) > 2_000
        harness.send(s, [], "Go on")

        assert _tool_returns(harness.seen) == []
        said = recall(harness.seen)["said"]
        assert "cms_apply (1), cms_outline (1)" in said[0] and "page at revision 2" in said[0]

    def test_a_turn_stopped_midway_leaves_a_record_and_the_next_turn_runs(
        self, harness: _Seeing
    ) -> None:
        s = harness.open()

        def stop_then_apply(results: list[Any]) -> dict[str, Any]:
            harness.turns.stop(s.id, s.tenant, "ann")
            return {"basedOn": based_on_last(results), "ops": HERO}

        harness.send(
            s, [ToolCall("cms_facts", {}), ToolCall("cms_apply", stop_then_apply)], "Build it"
        )
        assert harness.types(s)[-1] == EventTypes.TURN_STOPPED
        harness.send(s, [], "Go on")

        assert harness.types(s)[-1] == EventTypes.TURN_FINISHED
        stopped, finished = rows(harness.engine, s)
        assert (stopped.status, stopped.messages) == ("stopped", None)
        assert stopped.record["tools"] == {"cms_facts": 1} and stopped.record["ended"] == "stopped"
        seen = recall(harness.seen)
        assert seen["asked"] == ["Build it", "Go on"]
        assert "stopped by the person" in seen["said"][0] and "cms_facts (1)" in seen["said"][0]
        assert _tool_returns(harness.seen) == []  # the unanswered call is not in the history
        assert finished.status == "finished"

    def test_every_end_leaves_a_row_the_runner_or_not(
        self, harness: _Seeing, engine: sa.Engine
    ) -> None:
        s = harness.open()
        # Turns no runner takes: a queued turn stopped before it ran, a running one swept.
        queued = Turns(engine, _Hold())
        turn = queued.send(s.id, s.tenant, "Wait", "ann")
        assert queued.stop(s.id, s.tenant, "ann")
        lost = queued.send(s.id, s.tenant, "Lost", "ann")
        assert queued.claim(lost.id) is not None
        with transaction(engine) as conn:
            conn.execute(
                sa.text("UPDATE charlotte_turns SET heartbeat_at = :at"),
                {"at": utc_now().replace(year=2000)},
            )
        assert queued.sweep() == [lost.id]

        stopped, swept = rows(engine, s)
        assert (stopped.turn_id, stopped.status, stopped.message) == (turn.id, "stopped", "Wait")
        assert (swept.turn_id, swept.status, swept.record["code"]) == (
            lost.id,
            "failed",
            "worker_lost",
        )
        assert [r.seq for r in (stopped, swept)] == [
            e.seq
            for e in harness.events(s)
            if e.type in (EventTypes.TURN_STOPPED, EventTypes.RUN_FAILED)
        ]

    def test_the_row_commits_with_the_end_event_or_neither_does(
        self, harness: _Seeing, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        s = harness.open()

        def refuse(*_args: Any, **_kwargs: Any) -> None:
            raise StorageError("unavailable")

        monkeypatch.setattr(ConversationStore, "insert", refuse)
        with pytest.raises(StorageError):
            harness.send(s, [Text("hello")])
        monkeypatch.undo()

        assert EventTypes.TURN_FINISHED not in harness.types(s)
        assert rows(harness.engine, s) == []
        (turn,) = [
            e.payload["turn_id"] for e in harness.events(s) if e.type == EventTypes.TURN_STARTED
        ]
        found = harness.turns.get(turn)
        assert found is not None and found.status == "running"  # the end rolled back with its row

    def test_damaged_rows_become_their_compact_record(
        self, harness: _Seeing, engine: sa.Engine
    ) -> None:
        s = harness.open()
        harness.send(s, [ToolCall("cms_apply", apply_step(HERO))], "Add a hero")
        harness.send(s, [], "Second")
        with transaction(engine) as conn:
            conn.execute(
                sa.update(conversation)
                .where(conversation.c.message == "Add a hero")
                .values(messages='[{"kind": "nonsense"}]', record="{not json")
            )
            conn.execute(
                sa.update(conversation)
                .where(conversation.c.message == "Second")
                .values(messages="\x01garbage")
            )
        harness.send(s, [], "Third")

        assert harness.types(s)[-1] == EventTypes.TURN_FINISHED
        seen = recall(harness.seen)
        assert seen["asked"] == ["Add a hero", "Second", "Third"]
        assert _tool_returns(harness.seen) == []
        assert rows(engine, s)[0].record == {}

    def test_a_stored_dangling_tool_call_never_reaches_the_model_library(
        self, harness: _Seeing, engine: sa.Engine
    ) -> None:
        s = harness.open()
        harness.send(s, [], "First")
        dangling = [
            ModelRequest(parts=[UserPromptPart("First")]),
            ModelResponse(
                parts=[ToolCallPart("cms_apply", {"basedOn": 0, "ops": []}, tool_call_id="open")]
            ),
        ]
        with transaction(engine) as conn:
            conn.execute(
                sa.update(conversation)
                .where(conversation.c.session_id == s.id)
                .values(messages=ModelMessagesTypeAdapter.dump_json(dangling).decode())
            )
        harness.send(s, [], "Second")

        # The model library refuses a new prompt after an unanswered call; the record stood in.
        assert harness.types(s)[-1] == EventTypes.TURN_FINISHED
        assert recall(harness.seen)["asked"] == ["First", "Second"]

    def test_a_reply_is_kept_storable_and_bounded(self, harness: _Seeing) -> None:
        s = harness.open()
        harness.send(s, [Text("nul\x00 and lone \ud800 " + "x" * (MAX_REPLY + 10))])

        (row,) = rows(harness.engine, s)
        assert row.status == "finished" and len(row.reply) == MAX_REPLY
        assert row.reply.startswith("nul\ufffd and lone \ufffd ")
        assert (
            row.messages is None
        )  # the model library cannot write a lone surrogate: the record stands in

    def test_recent_is_newest_first_bounded_and_per_tenant(
        self, harness: _Seeing, engine: sa.Engine
    ) -> None:
        s, other = harness.open(), harness.open()
        for n in range(5):
            harness.send(s, [Text(f"reply {n}")], f"message {n}")
        harness.send(other, [Text("elsewhere")], "other")

        with read_connection(engine) as conn:
            store = ConversationStore()
            newest = store.recent(conn, s.id, s.tenant, 2)
            older = store.recent(conn, s.id, s.tenant, 2, before=newest[0].seq)
            bare = store.recent(conn, s.id, s.tenant, 1, with_messages=False)
            assert store.recent(conn, s.id, other.tenant, 10) == []
            assert store.recent(conn, s.id, s.tenant, 0) == []
            capped = store.recent(conn, s.id, s.tenant, 5, messages_up_to=10)
            kept = store.recent(conn, s.id, s.tenant, 5, messages_up_to=10_000_000)
        assert [r.messages for r in capped] == [None] * 5
        assert all(r.messages for r in kept)
        assert [r.message for r in newest] == ["message 3", "message 4"]
        assert [r.message for r in older] == ["message 1", "message 2"]
        assert bare[0].messages is None and bare[0].reply == "reply 4"


class _Hold:
    """A queue that takes turns and runs none (they stay queued)."""

    def enqueue(self, turn_id: str) -> None:
        return None
