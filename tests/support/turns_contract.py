"""The ``Turns`` contract, run against every database (subclass per backend).

A subclass provides ``engine`` (tables created; may be shared by the module).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from tests.support.databases import new_session, unique

from charlotte.errors import Refused
from charlotte.events import Event, EventTypes, schema_errors, utc_now
from charlotte.runtime import InlineQueue, Turns
from charlotte.runtime.turns import MAX_MESSAGE
from charlotte.storage import DatabaseEventLog, SessionRecord, SessionStore, TurnRecord, transaction
from charlotte.storage.tables import turns as turns_table

TENANT = "tenant-a"


class _Recorder:
    """Collects delivered turn ids (the queue's callable)."""

    def __init__(self) -> None:
        self.delivered: list[str] = []
        self._lock = threading.Lock()

    def __call__(self, turn_id: str) -> None:
        with self._lock:
            self.delivered.append(turn_id)


def _session(engine: sa.Engine, session_id: str) -> SessionRecord:
    with transaction(engine) as conn:
        found = SessionStore().get(conn, session_id, TENANT)
    assert found is not None
    return found


def _events(engine: sa.Engine, session_id: str) -> list[Event]:
    return DatabaseEventLog().read(engine, session_id)


def _types(engine: sa.Engine, session_id: str) -> list[str]:
    return [e.type for e in _events(engine, session_id)]


def _run_all(workers: int, job: Callable[[int], Any]) -> list[Any]:
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(job, n) for n in range(workers)]
        return [future.result(timeout=120) for future in futures]


class TurnsContract:
    """Behaviour every database must show for ``Turns``."""

    @pytest.fixture
    def recorder(self) -> _Recorder:
        return _Recorder()

    @pytest.fixture
    def turns(self, engine: sa.Engine, recorder: _Recorder) -> Turns:
        return Turns(engine, InlineQueue(recorder), heartbeat_timeout=timedelta(seconds=30))

    @pytest.fixture
    def session_id(self, engine: sa.Engine) -> str:
        return new_session(engine, tenant=TENANT, page=unique("page")).id

    def _check_log(self, engine: sa.Engine, session_id: str) -> list[Event]:
        read = _events(engine, session_id)
        assert [e.seq for e in read] == list(range(1, len(read) + 1))
        assert [schema_errors(e) for e in read] == [[] for _ in read]
        return read

    # -- send -----------------------------------------------------------------------

    def test_send_queues_the_turn_and_then_hands_it_to_the_queue(
        self, engine: sa.Engine, turns: Turns, recorder: _Recorder, session_id: str
    ) -> None:
        turn = turns.send(session_id, TENANT, "Build a bakery page", "user-1")

        assert isinstance(turn, TurnRecord)
        assert (turn.status, turn.session_id, turn.user, turn.message) == (
            "queued",
            session_id,
            "user-1",
            "Build a bakery page",
        )
        assert turns.get(turn.id) == turn
        assert recorder.delivered == [turn.id]
        assert _session(engine, session_id).status == "queued"
        [event] = self._check_log(engine, session_id)
        assert (event.type, dict(event.payload), event.actor) == (
            EventTypes.TURN_QUEUED,
            {"turn_id": turn.id, "message": "Build a bakery page"},
            "user-1",
        )

    def test_the_queue_sees_the_committed_turn(self, engine: sa.Engine, session_id: str) -> None:
        seen: list[str | None] = []

        def run(turn_id: str) -> None:
            # Another connection: only a committed turn is visible there.
            found = Turns(engine, InlineQueue(lambda _: None)).get(turn_id)
            seen.append(None if found is None else found.status)

        Turns(engine, InlineQueue(run)).send(session_id, TENANT, "Hi", "user-1")
        assert seen == ["queued"]

    def test_a_queue_that_refuses_the_turn_does_not_leave_the_session_busy(
        self, engine: sa.Engine, session_id: str
    ) -> None:
        class BrokerDown(Exception):
            code = "queue_unavailable"

        def refuse(_turn_id: str) -> None:
            raise BrokerDown

        with pytest.raises(BrokerDown):
            Turns(engine, InlineQueue(refuse)).send(session_id, TENANT, "Hi", "user-1")
        assert _session(engine, session_id).status == "idle"
        failed = [e.payload for e in _events(engine, session_id) if e.type == EventTypes.RUN_FAILED]
        queued = [e.payload["turn_id"] for e in _events(engine, session_id) if e.type == EventTypes.TURN_QUEUED]
        assert failed == [{"turn_id": queued[-1], "code": "queue_unavailable"}]
        # The session takes a new turn.
        Turns(engine, InlineQueue(lambda _: None)).send(session_id, TENANT, "Again", "user-1")

    def test_send_refuses_busy_while_a_turn_is_queued_or_running(
        self, engine: sa.Engine, turns: Turns, recorder: _Recorder, session_id: str
    ) -> None:
        first = turns.send(session_id, TENANT, "one", "user-1")
        with pytest.raises(Refused) as queued:
            turns.send(session_id, TENANT, "two", "user-1")
        assert turns.claim(first.id) is not None
        with pytest.raises(Refused) as running:
            turns.send(session_id, TENANT, "three", "user-1")

        assert (queued.value.reason, running.value.reason) == ("busy", "busy")
        assert recorder.delivered == [first.id]
        assert _types(engine, session_id) == [EventTypes.TURN_QUEUED, EventTypes.TURN_STARTED]

    def test_the_active_turn_index_is_the_backstop_for_busy(
        self, engine: sa.Engine, turns: Turns, session_id: str
    ) -> None:
        first = turns.send(session_id, TENANT, "one", "user-1")
        # A session wrongly left idle beside a queued turn: the index still refuses.
        with transaction(engine) as conn:
            SessionStore().update(conn, session_id, TENANT, status="idle")

        with pytest.raises(Refused) as refused:
            turns.send(session_id, TENANT, "two", "user-1")

        assert refused.value.reason == "busy"
        assert _types(engine, session_id) == [EventTypes.TURN_QUEUED]
        with transaction(engine) as conn:
            ids = conn.execute(
                sa.select(turns_table.c.id).where(turns_table.c.session_id == session_id)
            ).scalars()
            assert list(ids) == [first.id]

    def test_send_refuses_a_missing_or_foreign_session(
        self, engine: sa.Engine, turns: Turns, recorder: _Recorder, session_id: str
    ) -> None:
        for sid, tenant in ((session_id, "tenant-b"), (unique("missing"), TENANT)):
            with pytest.raises(Refused) as refused:
                turns.send(sid, tenant, "Hi", "user-1")
            assert refused.value.reason == "not_found"
        assert recorder.delivered == []
        assert _session(engine, session_id).status == "idle"

    @pytest.mark.parametrize("message", ["", "x" * (MAX_MESSAGE + 1)])
    def test_send_refuses_a_message_out_of_bounds(
        self, engine: sa.Engine, turns: Turns, session_id: str, message: str
    ) -> None:
        with pytest.raises(Refused) as refused:
            turns.send(session_id, TENANT, message, "user-1")
        assert refused.value.reason == "invalid_request"
        assert _types(engine, session_id) == []

    def test_send_takes_a_message_of_the_largest_size(
        self, engine: sa.Engine, turns: Turns, session_id: str
    ) -> None:
        turns.send(session_id, TENANT, "x" * MAX_MESSAGE, "user-1")
        self._check_log(engine, session_id)

    def test_concurrent_sends_queue_exactly_one_turn(
        self, engine: sa.Engine, turns: Turns, recorder: _Recorder, session_id: str
    ) -> None:
        senders = 6
        start = threading.Barrier(senders)

        def send(number: int) -> str:
            start.wait(timeout=60)
            try:
                return turns.send(session_id, TENANT, f"message {number}", "user-1").id
            except Refused as refused:
                return refused.reason

        outcomes = _run_all(senders, send)

        assert sorted(outcomes).count("busy") == senders - 1
        [winner] = [o for o in outcomes if o != "busy"]
        assert recorder.delivered == [winner]
        [event] = self._check_log(engine, session_id)
        assert event.payload["turn_id"] == winner

    # -- claim ----------------------------------------------------------------------

    def test_claim_starts_the_turn_once(
        self, engine: sa.Engine, turns: Turns, session_id: str
    ) -> None:
        turn = turns.send(session_id, TENANT, "Hi", "user-1")

        claimed = turns.claim(turn.id)
        again = turns.claim(turn.id)

        assert claimed is not None and again is None
        assert claimed.status == "running"
        assert claimed.started_at is not None and claimed.heartbeat_at is not None
        assert _session(engine, session_id).status == "running"
        read = self._check_log(engine, session_id)
        assert [(e.type, dict(e.payload)) for e in read][1:] == [
            (EventTypes.TURN_STARTED, {"turn_id": turn.id})
        ]
        assert turns.claim(unique("missing")) is None

    def test_concurrent_claims_run_the_turn_once(
        self, engine: sa.Engine, turns: Turns, session_id: str
    ) -> None:
        turn = turns.send(session_id, TENANT, "Hi", "user-1")
        workers = 6
        start = threading.Barrier(workers)

        def claim(_: int) -> TurnRecord | None:
            start.wait(timeout=60)
            return turns.claim(turn.id)

        claimed = [c for c in _run_all(workers, claim) if c is not None]

        assert len(claimed) == 1
        assert _types(engine, session_id) == [EventTypes.TURN_QUEUED, EventTypes.TURN_STARTED]
        self._check_log(engine, session_id)

    # -- stop -----------------------------------------------------------------------

    def test_stop_is_a_no_op_on_an_idle_session(
        self, engine: sa.Engine, turns: Turns, session_id: str
    ) -> None:
        assert turns.stop(session_id, TENANT, "user-1") is False
        assert not _session(engine, session_id).stop_requested
        with pytest.raises(Refused) as refused:
            turns.stop(session_id, "tenant-b", "user-1")
        assert refused.value.reason == "not_found"

    def test_stop_a_running_turn_sets_the_flag_and_stopping(
        self, engine: sa.Engine, turns: Turns, session_id: str
    ) -> None:
        turn = turns.send(session_id, TENANT, "Hi", "user-1")
        turns.claim(turn.id)
        assert not turns.should_stop(turn.id)

        assert turns.stop(session_id, TENANT, "user-1") is True

        session = _session(engine, session_id)
        assert (session.status, session.stop_requested) == ("stopping", True)
        assert turns.should_stop(turn.id)
        assert turns.stopped(turn.id) is True
        session = _session(engine, session_id)
        assert (session.status, session.stop_requested) == ("idle", False)
        assert turns.stop(session_id, TENANT, "user-1") is False
        ended = turns.get(turn.id)
        assert ended is not None and ended.status == "stopped" and ended.finished_at is not None
        read = self._check_log(engine, session_id)
        assert [(e.type, dict(e.payload)) for e in read][-1] == (
            EventTypes.TURN_STOPPED,
            {"turn_id": turn.id},
        )

    def test_stop_a_queued_turn_ends_it_at_once_and_it_is_never_claimed(
        self, engine: sa.Engine, turns: Turns, session_id: str
    ) -> None:
        turn = turns.send(session_id, TENANT, "Hi", "user-1")

        assert turns.stop(session_id, TENANT, "user-1") is True

        session = _session(engine, session_id)
        assert (session.status, session.stop_requested) == ("idle", False)
        ended = turns.get(turn.id)
        assert ended is not None and (ended.status, ended.started_at) == ("stopped", None)
        read = self._check_log(engine, session_id)
        assert [(e.type, dict(e.payload), e.actor) for e in read][-1] == (
            EventTypes.TURN_STOPPED,
            {"turn_id": turn.id},
            "user-1",
        )
        assert turns.claim(turn.id) is None
        assert turns.should_stop(turn.id)
        assert turns.stop(session_id, TENANT, "user-1") is False
        turns.send(session_id, TENANT, "again", "user-1")

    def test_a_stop_racing_the_claim_of_a_queued_turn_leaves_one_consistent_end(
        self, engine: sa.Engine, turns: Turns, session_id: str
    ) -> None:
        turn = turns.send(session_id, TENANT, "Hi", "user-1")
        start = threading.Barrier(2)

        def race(number: int) -> object:
            start.wait(timeout=60)
            if number == 0:
                return turns.stop(session_id, TENANT, "user-1")
            return turns.claim(turn.id)

        stopped, claimed = _run_all(2, race)

        assert stopped is True
        after, session = turns.get(turn.id), _session(engine, session_id)
        assert after is not None
        if claimed is None:  # the stop came first: the turn never started
            assert (after.status, session.status, session.stop_requested) == ("stopped", "idle", False)
        else:  # the claim came first: the running turn sees the flag
            assert (after.status, session.status, session.stop_requested) == ("running", "stopping", True)
            assert turns.should_stop(turn.id)
        self._check_log(engine, session_id)

    # -- ending ---------------------------------------------------------------------

    def test_finish_records_ready_and_frees_the_session(
        self, engine: sa.Engine, turns: Turns, session_id: str
    ) -> None:
        turn = turns.send(session_id, TENANT, "Hi", "user-1")
        turns.claim(turn.id)

        usage = {"input_tokens": 1200, "output_tokens": 80, "requests": 2}
        assert turns.finish(turn.id, ready=True, usage=usage) is True

        ended = turns.get(turn.id)
        assert ended is not None and (ended.status, ended.ready) == ("finished", True)
        assert _session(engine, session_id).status == "idle"
        read = self._check_log(engine, session_id)
        assert [(e.type, dict(e.payload)) for e in read][-1] == (
            EventTypes.TURN_FINISHED,
            {"turn_id": turn.id, "ready": True, "usage": usage},
        )
        assert turns.should_stop(turn.id)

    def test_fail_records_the_code_only(
        self, engine: sa.Engine, turns: Turns, session_id: str
    ) -> None:
        turn = turns.send(session_id, TENANT, "Hi", "user-1")
        turns.claim(turn.id)

        assert turns.fail(turn.id, "output_limit") is True

        ended = turns.get(turn.id)
        assert ended is not None and (ended.status, ended.error_code) == ("failed", "output_limit")
        assert _session(engine, session_id).status == "idle"
        read = self._check_log(engine, session_id)
        assert [(e.type, dict(e.payload)) for e in read][-1] == (
            EventTypes.RUN_FAILED,
            {"turn_id": turn.id, "code": "output_limit"},
        )

    def test_fail_with_a_message_instead_of_a_code_records_run_failed(
        self, engine: sa.Engine, turns: Turns, session_id: str
    ) -> None:
        turn = turns.send(session_id, TENANT, "Hi", "user-1")
        turns.claim(turn.id)

        turns.fail(turn.id, "Connection refused: secret-host:5432")

        read = self._check_log(engine, session_id)
        assert dict(read[-1].payload) == {"turn_id": turn.id, "code": "run_failed"}

    @pytest.mark.parametrize("end", ["finish", "stopped", "fail"])
    def test_ending_an_ended_turn_changes_nothing(
        self, engine: sa.Engine, turns: Turns, session_id: str, end: str
    ) -> None:
        turn = turns.send(session_id, TENANT, "Hi", "user-1")
        turns.claim(turn.id)
        enders: dict[str, Callable[[], bool]] = {
            "finish": lambda: turns.finish(turn.id, ready=False),
            "stopped": lambda: turns.stopped(turn.id),
            "fail": lambda: turns.fail(turn.id, "usage_limit"),
        }
        assert enders[end]() is True
        before = turns.get(turn.id)
        count = len(_events(engine, session_id))

        assert [ender() for ender in enders.values()] == [False, False, False]
        assert turns.claim(turn.id) is None
        assert turns.heartbeat(turn.id) is False

        assert turns.get(turn.id) == before
        assert len(_events(engine, session_id)) == count
        self._check_log(engine, session_id)

    def test_after_a_turn_ends_a_new_send_works(
        self, engine: sa.Engine, turns: Turns, session_id: str
    ) -> None:
        first = turns.send(session_id, TENANT, "one", "user-1")
        turns.claim(first.id)
        turns.finish(first.id, ready=False)

        second = turns.send(session_id, TENANT, "two", "user-1")

        assert second.id != first.id
        assert _types(engine, session_id) == [
            EventTypes.TURN_QUEUED,
            EventTypes.TURN_STARTED,
            EventTypes.TURN_FINISHED,
            EventTypes.TURN_QUEUED,
        ]
        self._check_log(engine, session_id)

    # -- heartbeat and sweeper ---------------------------------------------------------

    def test_sweep_fails_a_turn_with_a_stale_heartbeat_and_frees_the_session(
        self, engine: sa.Engine, turns: Turns, session_id: str
    ) -> None:
        turn = turns.send(session_id, TENANT, "Hi", "user-1")
        turns.claim(turn.id)
        later = utc_now() + timedelta(seconds=31)

        swept = turns.sweep(now=later)

        assert turn.id in swept
        ended = turns.get(turn.id)
        assert ended is not None and (ended.status, ended.error_code) == ("failed", "worker_lost")
        assert _session(engine, session_id).status == "idle"
        assert turn.id not in turns.sweep(now=later)
        assert turns.claim(turn.id) is None
        assert turns.should_stop(turn.id)
        second = turns.send(session_id, TENANT, "again", "user-1")
        read = self._check_log(engine, session_id)
        assert [(e.type, dict(e.payload)) for e in read] == [
            (EventTypes.TURN_QUEUED, {"turn_id": turn.id, "message": "Hi"}),
            (EventTypes.TURN_STARTED, {"turn_id": turn.id}),
            (EventTypes.RUN_FAILED, {"turn_id": turn.id, "code": "worker_lost"}),
            (EventTypes.TURN_QUEUED, {"turn_id": second.id, "message": "again"}),
        ]

    def test_sweep_leaves_fresh_and_queued_turns_alone(
        self, engine: sa.Engine, turns: Turns, session_id: str
    ) -> None:
        turn = turns.send(session_id, TENANT, "Hi", "user-1")
        other = new_session(engine, tenant=TENANT, page=unique("page")).id
        queued = turns.send(other, TENANT, "Hi", "user-1")
        turns.claim(turn.id)
        now = utc_now()

        swept = turns.sweep(now=now + timedelta(seconds=29))

        assert turn.id not in swept and queued.id not in swept
        assert _types(engine, session_id) == [EventTypes.TURN_QUEUED, EventTypes.TURN_STARTED]
        current = turns.get(queued.id)
        assert current is not None and current.status == "queued"

    def test_a_heartbeat_keeps_a_turn_from_being_swept(
        self, engine: sa.Engine, turns: Turns, session_id: str
    ) -> None:
        turn = turns.send(session_id, TENANT, "Hi", "user-1")
        turns.claim(turn.id)
        # The worker was quiet for an hour...
        with transaction(engine) as conn:
            conn.execute(
                sa.update(turns_table)
                .where(turns_table.c.id == turn.id)
                .values(heartbeat_at=utc_now() - timedelta(hours=1))
            )

        # ...and then beat again before the sweeper came.
        assert turns.heartbeat(turn.id) is True

        assert turn.id not in turns.sweep()
        current = turns.get(turn.id)
        assert current is not None and current.status == "running"
