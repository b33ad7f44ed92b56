"""The event log contract, run against every database (subclass per backend).

A subclass provides two fixtures: ``engine`` (tables created; may be shared by
the module, so every test makes its own session) and ``blank_engine`` (a fresh
database of its own without tables), and sizes the concurrency test.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, ClassVar

import pytest
import sqlalchemy as sa
from tests.support.databases import new_session

from charlotte.errors import StorageError
from charlotte.events import AGENT_ACTOR, EventTypes, NewEvent, schema_errors
from charlotte.storage import DatabaseEventLog, SessionStore, create_tables, transaction
from charlotte.storage.tables import events, sessions

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "events.v1.json"


class _Rollback(Exception):
    """Raised inside a transaction to roll it back on purpose."""


def _delta(text: str) -> dict[str, Any]:
    return {"text": text}


def _append_committed(engine: sa.Engine, session_id: str, text: str) -> int:
    with transaction(engine) as conn:
        return DatabaseEventLog().append(
            conn, session_id, EventTypes.TEXT_DELTA, _delta(text), actor=AGENT_ACTOR
        )


def _append_rolled_back(engine: sa.Engine, session_id: str, text: str) -> None:
    try:
        with transaction(engine) as conn:
            DatabaseEventLog().append(
                conn, session_id, EventTypes.TEXT_DELTA, _delta(text), actor=AGENT_ACTOR
            )
            raise _Rollback
    except _Rollback:
        pass


def _last_seq(engine: sa.Engine, session_id: str) -> int:
    with engine.connect() as conn:
        value = conn.execute(
            sa.select(sessions.c.last_seq).where(sessions.c.id == session_id)
        ).scalar_one()
    return int(value)


def _driver_error_types() -> tuple[type[BaseException], ...]:
    found: list[type[BaseException]] = [sqlite3.Error, sa.exc.SQLAlchemyError]
    try:
        import psycopg
    except ImportError:  # the postgres extra is optional
        pass
    else:
        found.append(psycopg.Error)
    return tuple(found)


class EventLogContract:
    """Behaviour every ``DatabaseEventLog`` backend must show."""

    writers: ClassVar[int]
    appends_per_writer: ClassVar[int]

    def test_append_returns_consecutive_seqs_from_one(self, engine: sa.Engine) -> None:
        session_id = new_session(engine).id

        seqs = [_append_committed(engine, session_id, f"t{i}") for i in range(3)]

        assert seqs == [1, 2, 3]
        assert _last_seq(engine, session_id) == 3

    def test_seqs_are_per_session(self, engine: sa.Engine) -> None:
        first, second = new_session(engine).id, new_session(engine).id

        _append_committed(engine, first, "a")
        _append_committed(engine, first, "b")

        assert _append_committed(engine, second, "c") == 1

    def test_read_returns_envelopes_in_seq_order(self, engine: sa.Engine) -> None:
        session = new_session(engine, tenant="tenant-read")
        with transaction(engine) as conn:
            log = DatabaseEventLog()
            log.append(
                conn,
                session.id,
                EventTypes.TURN_QUEUED,
                {"turn_id": "t1", "message": "Hi"},
                actor="user-9",
            )
            log.append(conn, session.id, EventTypes.TEXT_DELTA, _delta("Hello"), actor=AGENT_ACTOR)

        read = DatabaseEventLog().read(engine, session.id)

        assert [(e.seq, e.type, e.actor) for e in read] == [
            (1, EventTypes.TURN_QUEUED, "user-9"),
            (2, EventTypes.TEXT_DELTA, AGENT_ACTOR),
        ]
        assert read[1].payload == {"text": "Hello"}
        assert all(e.session_id == session.id for e in read)
        assert all(schema_errors(e) == [] for e in read)

    def test_read_pages_with_after_seq_and_limit(self, engine: sa.Engine) -> None:
        session_id = new_session(engine).id
        with transaction(engine) as conn:
            DatabaseEventLog().append_many(
                conn,
                session_id,
                [NewEvent(EventTypes.TEXT_DELTA, _delta(str(i)), AGENT_ACTOR) for i in range(10)],
            )
        log = DatabaseEventLog()

        pages: list[list[int]] = []
        after = 0
        while batch := log.read(engine, session_id, after_seq=after, limit=4):
            pages.append([e.seq for e in batch])
            after = batch[-1].seq

        assert pages == [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10]]
        assert [e.payload["text"] for e in log.read(engine, session_id, after_seq=7)] == [
            "7",
            "8",
            "9",
        ]

    def test_read_inside_an_open_transaction_sees_its_own_appends(self, engine: sa.Engine) -> None:
        session_id = new_session(engine).id
        with transaction(engine) as conn:
            DatabaseEventLog().append(
                conn, session_id, EventTypes.TEXT_DELTA, _delta("x"), actor=AGENT_ACTOR
            )

            assert [e.seq for e in DatabaseEventLog().read(conn, session_id)] == [1]

    def test_read_refuses_a_limit_out_of_bounds(self, engine: sa.Engine) -> None:
        with pytest.raises(ValueError):
            DatabaseEventLog().read(engine, "any", limit=0)

    def test_rolled_back_transaction_leaves_no_event_and_uses_no_seq(
        self, engine: sa.Engine
    ) -> None:
        session_id = new_session(engine).id
        _append_committed(engine, session_id, "kept")

        _append_rolled_back(engine, session_id, "dropped")

        assert [e.payload["text"] for e in DatabaseEventLog().read(engine, session_id)] == ["kept"]
        assert _last_seq(engine, session_id) == 1
        assert _append_committed(engine, session_id, "next") == 2

    def test_append_many_writes_consecutive_seqs_in_order(self, engine: sa.Engine) -> None:
        session_id = new_session(engine).id
        _append_committed(engine, session_id, "first")
        batch = [
            NewEvent(EventTypes.RUN_STARTED, {"turn_id": "t", "run": 1}, AGENT_ACTOR),
            NewEvent(EventTypes.TEXT_DELTA, _delta("a"), AGENT_ACTOR),
            NewEvent(
                EventTypes.RUN_FINISHED, {"turn_id": "t", "run": 1, "reason": "stop"}, AGENT_ACTOR
            ),
        ]

        with transaction(engine) as conn:
            seqs = DatabaseEventLog().append_many(conn, session_id, batch)

        assert seqs == [2, 3, 4]
        read = DatabaseEventLog().read(engine, session_id, after_seq=1)
        assert [e.type for e in read] == [new.type for new in batch]
        with transaction(engine) as conn:
            assert DatabaseEventLog().append_many(conn, session_id, []) == []
        assert _last_seq(engine, session_id) == 4

    def test_append_to_an_unknown_session_is_not_found(self, engine: sa.Engine) -> None:
        with pytest.raises(StorageError) as raised, transaction(engine) as conn:
            DatabaseEventLog().append(
                conn, "no-such-session", EventTypes.TEXT_DELTA, _delta("x"), actor=AGENT_ACTOR
            )

        assert raised.value.code == "not_found"

    def test_tenant_isolation_on_append_and_read(self, engine: sa.Engine) -> None:
        session = new_session(engine, tenant="tenant-own")
        _append_committed(engine, session.id, "mine")

        with pytest.raises(StorageError) as raised, transaction(engine) as conn:
            DatabaseEventLog().append(
                conn,
                session.id,
                EventTypes.TEXT_DELTA,
                _delta("x"),
                actor=AGENT_ACTOR,
                tenant="tenant-other",
            )

        assert raised.value.code == "not_found"
        assert DatabaseEventLog().read(engine, session.id, tenant="tenant-other") == []
        assert len(DatabaseEventLog().read(engine, session.id, tenant="tenant-own")) == 1
        with engine.connect() as conn:
            tenants = (
                conn.execute(sa.select(events.c.tenant).where(events.c.session_id == session.id))
                .scalars()
                .all()
            )
        assert tenants == ["tenant-own"]

    def test_unknown_event_type_is_refused_and_writes_nothing(self, engine: sa.Engine) -> None:
        session_id = new_session(engine).id

        with pytest.raises(StorageError) as raised, transaction(engine) as conn:
            DatabaseEventLog().append(conn, session_id, "page.deleted", {}, actor=AGENT_ACTOR)

        assert raised.value.code == "unknown_event_type"
        assert _last_seq(engine, session_id) == 0

    def test_payload_that_is_not_json_is_invalid_value(self, engine: sa.Engine) -> None:
        session_id = new_session(engine).id

        with pytest.raises(StorageError) as raised, transaction(engine) as conn:
            DatabaseEventLog().append(
                conn, session_id, EventTypes.TEXT_DELTA, {"text": float("nan")}, actor=AGENT_ACTOR
            )

        assert raised.value.code == "invalid_value"
        assert DatabaseEventLog().read(engine, session_id) == []

    def test_direct_duplicate_insert_fails_with_storage_error(self, engine: sa.Engine) -> None:
        session = new_session(engine)
        _append_committed(engine, session.id, "one")
        duplicate = {
            "session_id": session.id,
            "seq": 1,
            "tenant": session.tenant,
            "type": EventTypes.TEXT_DELTA,
            "at": session.created_at,
            "actor": AGENT_ACTOR,
            "payload": _delta("dup"),
        }

        with pytest.raises(StorageError) as raised, transaction(engine) as conn:
            conn.execute(events.insert(), duplicate)

        assert raised.value.code == "conflict"

    def test_unique_seq_backstop_when_the_counter_is_wrong(self, engine: sa.Engine) -> None:
        session_id = new_session(engine).id
        _append_committed(engine, session_id, "one")
        _append_committed(engine, session_id, "two")
        with transaction(engine) as conn:
            conn.execute(sa.update(sessions).where(sessions.c.id == session_id).values(last_seq=1))

        with pytest.raises(StorageError) as raised:
            _append_committed(engine, session_id, "would duplicate seq 2")

        assert raised.value.code == "conflict"
        assert [e.payload["text"] for e in DatabaseEventLog().read(engine, session_id)] == [
            "one",
            "two",
        ]

    def test_driver_errors_do_not_escape_the_storage_package(self, blank_engine: sa.Engine) -> None:
        create_tables(blank_engine)
        with transaction(blank_engine) as conn:
            session_id = SessionStore().create(conn, tenant="t", page="p", created_by="u").id
            conn.execute(sa.text("DROP TABLE charlotte_events"))

        # A driver error escaping would fail this test by propagating.
        with pytest.raises(StorageError) as raised, transaction(blank_engine) as conn:
            DatabaseEventLog().append(
                conn, session_id, EventTypes.TEXT_DELTA, _delta("x"), actor=AGENT_ACTOR
            )

        error = raised.value
        assert not isinstance(error, _driver_error_types())
        assert type(error).__module__.startswith("charlotte.")
        assert error.code == "storage_error"
        assert str(error) == "storage_error"
        assert error.args == ("storage_error",)
        assert "charlotte_events" not in repr(error)

    def test_every_fixture_event_round_trips_and_matches_the_schema(
        self, engine: sa.Engine
    ) -> None:
        examples = json.loads(FIXTURE.read_text("utf-8"))
        session_id = new_session(engine).id
        with transaction(engine) as conn:
            DatabaseEventLog().append_many(
                conn, session_id, [NewEvent(e["type"], e["payload"], e["actor"]) for e in examples]
            )

        read = DatabaseEventLog().read(engine, session_id)

        assert [(e.type, dict(e.payload), e.actor) for e in read] == [
            (e["type"], e["payload"], e["actor"]) for e in examples
        ]
        assert [schema_errors(e) for e in read] == [[] for _ in examples]

    def test_concurrent_writers_keep_seq_gap_free(self, engine: sa.Engine) -> None:
        session_id = new_session(engine).id
        writers, per_writer = self.writers, self.appends_per_writer
        start = threading.Barrier(writers)

        def writer(number: int) -> None:
            start.wait(timeout=60)
            for i in range(per_writer):
                _append_committed(engine, session_id, f"{number}:{i}")
                if i % 50 == 0:
                    # Rolled-back appends racing the committed ones use up no seq.
                    _append_rolled_back(engine, session_id, f"{number}:rolled-back:{i}")

        _run_all(writers, writer)

        total = writers * per_writer
        read = DatabaseEventLog().read(engine, session_id, limit=total)
        assert [e.seq for e in read] == list(range(1, total + 1))
        assert _last_seq(engine, session_id) == total
        by_writer: dict[str, list[int]] = {}
        for e in read:
            number, _, index = e.payload["text"].partition(":")
            assert "rolled-back" not in index
            by_writer.setdefault(number, []).append(int(index))
        assert by_writer == {str(n): list(range(per_writer)) for n in range(writers)}


def _run_all(workers: int, job: Callable[[int], None]) -> None:
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(job, n) for n in range(workers)]
        for future in futures:
            future.result(timeout=300)
