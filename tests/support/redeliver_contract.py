"""The ``Turns.redeliver`` contract (turns left queued), run against every database.

A subclass provides ``engine``: tables created, **fresh for each test**
(``redeliver`` looks at every session's turns, so a shared schema would let
tests see each other's turns).
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
import sqlalchemy as sa
from tests.support.databases import new_session, unique

from charlotte.events import EventTypes, schema_errors, utc_now
from charlotte.runtime import InlineQueue, Turns
from charlotte.storage import DatabaseEventLog, SessionStore, transaction

TENANT = "tenant-a"
TIMEOUT = timedelta(seconds=30)


class _Delivered:
    """The queue's callable: collects the ids it was handed."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self._lock = threading.Lock()

    def __call__(self, turn_id: str) -> None:
        with self._lock:
            self.ids.append(turn_id)


def _refuse(_turn_id: str) -> None:
    raise RuntimeError("broker down at amqp://user:secret@broker.internal")


class RedeliverContract:
    """Behaviour every database must show for turns left queued."""

    @pytest.fixture
    def delivered(self) -> _Delivered:
        return _Delivered()

    @pytest.fixture
    def turns(self, engine: sa.Engine, delivered: _Delivered) -> Turns:
        return Turns(engine, InlineQueue(delivered), heartbeat_timeout=TIMEOUT)

    def _queued(self, engine: sa.Engine) -> tuple[str, str]:
        """A session with a turn committed as queued that no queue holds (its process died)."""
        session_id = new_session(engine, tenant=TENANT, page=unique("page")).id
        turn = Turns(engine, InlineQueue(lambda _: None)).send(session_id, TENANT, "Hi", "user-1")
        return session_id, turn.id

    def test_a_turn_queued_before_the_cutoff_is_handed_over_once_per_interval(
        self, engine: sa.Engine, turns: Turns, delivered: _Delivered
    ) -> None:
        _, turn_id = self._queued(engine)
        start = utc_now()

        assert turns.redeliver() == []  # younger than the heartbeat timeout
        assert turns.redeliver(start) == [turn_id]
        assert turns.redeliver(start) == []  # handed over since that cutoff
        assert turns.redeliver(utc_now()) == [turn_id]  # a later start takes it again
        assert delivered.ids == [turn_id, turn_id]
        stamped = turns.get(turn_id)
        assert stamped is not None and stamped.status == "queued" and stamped.started_at is None

        # A re-delivered turn still runs once.
        assert turns.claim(turn_id) is not None
        assert turns.claim(turn_id) is None
        assert turns.redeliver(utc_now()) == []

    def test_only_queued_turns_are_handed_over(self, engine: sa.Engine, turns: Turns) -> None:
        _, running = self._queued(engine)
        _, finished = self._queued(engine)
        _, queued = self._queued(engine)
        assert turns.claim(running) is not None and turns.claim(finished) is not None
        assert turns.finish(finished, ready=False)

        assert turns.redeliver(utc_now()) == [queued]
        # A re-delivery stamp never makes the sweeper take a queued turn for a dead one.
        assert turns.sweep(now=utc_now() + 2 * TIMEOUT) == [running]
        still = turns.get(queued)
        assert still is not None and still.status == "queued"

    def test_concurrent_processes_hand_a_turn_over_once(self, engine: sa.Engine) -> None:
        _, turn_id = self._queued(engine)
        cutoff = utc_now()
        processes = 6
        queues = [_Delivered() for _ in range(processes)]
        start = threading.Barrier(processes)

        def redeliver(number: int) -> list[str]:
            start.wait(timeout=60)
            return Turns(engine, InlineQueue(queues[number]), heartbeat_timeout=TIMEOUT).redeliver(cutoff)

        with ThreadPoolExecutor(max_workers=processes) as pool:
            handed = [f.result(timeout=120) for f in [pool.submit(redeliver, n) for n in range(processes)]]

        assert sorted(handed) == [[]] * (processes - 1) + [[turn_id]]
        assert sum(len(q.ids) for q in queues) == 1

    def test_a_turn_no_queue_will_take_ends_queue_lost(self, engine: sa.Engine) -> None:
        session_id, turn_id = self._queued(engine)
        refusing = Turns(engine, InlineQueue(_refuse), heartbeat_timeout=TIMEOUT)

        assert refusing.redeliver(utc_now()) == []

        ended = refusing.get(turn_id)
        assert ended is not None and (ended.status, ended.error_code) == ("failed", "queue_lost")
        log = DatabaseEventLog().read(engine, session_id)
        assert [schema_errors(e) for e in log] == [[] for _ in log]
        assert [(e.type, dict(e.payload)) for e in log][-1] == (
            EventTypes.RUN_FAILED,
            {"turn_id": turn_id, "code": "queue_lost"},
        )
        assert "secret" not in repr([e.payload for e in log])
        with transaction(engine) as conn:
            session = SessionStore().get(conn, session_id, TENANT)
        assert session is not None and session.status == "idle"
        Turns(engine, InlineQueue(lambda _: None)).send(session_id, TENANT, "again", "user-1")

    def test_a_turn_claimed_while_its_queue_refused_is_left_running(self, engine: sa.Engine) -> None:
        _, turn_id = self._queued(engine)
        holder: list[Turns] = []

        def claim_then_refuse(delivered_id: str) -> None:
            # Another worker claims it just as this queue refuses it.
            assert holder[0].claim(delivered_id) is not None
            _refuse(delivered_id)

        turns = Turns(engine, InlineQueue(claim_then_refuse), heartbeat_timeout=TIMEOUT)
        holder.append(turns)

        assert turns.redeliver(utc_now()) == []
        still = turns.get(turn_id)
        assert still is not None and still.status == "running"

    def test_a_batch_is_bounded_and_the_next_call_takes_the_rest(
        self, engine: sa.Engine, turns: Turns, delivered: _Delivered
    ) -> None:
        ids = [self._queued(engine)[1] for _ in range(3)]
        cutoff = utc_now()

        assert turns.redeliver(cutoff, limit=2) == ids[:2]  # oldest first
        assert turns.redeliver(cutoff, limit=2) == ids[2:]
        assert turns.redeliver(cutoff, limit=2) == []
        assert delivered.ids == ids
