"""``DatabaseEventLog.read_many``: the notifier's one read of every session that advanced."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from tests.support.databases import new_session

from charlotte.events import AGENT_ACTOR, EventTypes
from charlotte.storage import DatabaseEventLog, eventlog, read_connection, transaction
from charlotte.storage.eventlog import READ_MANY_SESSIONS

LOG = DatabaseEventLog()


@pytest.fixture(params=["sqlite", "postgres"])
def engine(request: pytest.FixtureRequest) -> sa.Engine:
    """On SQLite and on PostgreSQL (skipped without a server URL)."""
    found: sa.Engine = request.getfixturevalue(f"{request.param}_engine")
    return found


def _append(engine: sa.Engine, session_id: str, count: int) -> None:
    with transaction(engine) as conn:
        for index in range(count):
            LOG.append(conn, session_id, EventTypes.TEXT_DELTA, {"text": f"t{index}"}, actor=AGENT_ACTOR)


def test_each_session_gets_exactly_its_range_across_statements(engine: sa.Engine) -> None:
    # More sessions than one statement covers: two statements, each session its own range.
    count = READ_MANY_SESSIONS + 5
    sessions = [new_session(engine).id for _ in range(count)]
    for session_id in sessions:
        _append(engine, session_id, 4)
    wanted = {sid: (index % 3, 4 - index % 2) for index, sid in enumerate(sessions)}
    wanted["no-such-session"] = (0, 2)
    with read_connection(engine) as conn:
        found = LOG.read_many(conn, wanted)
    assert set(found) == set(wanted)
    assert found["no-such-session"] == []
    for sid, (after, upto) in wanted.items():
        if sid != "no-such-session":
            assert [event.seq for event in found[sid]] == list(range(after + 1, upto + 1)), sid
            assert all(event.session_id == sid for event in found[sid])


def test_the_statement_is_built_once_per_number_of_sessions(engine: sa.Engine) -> None:
    # The notifier reads every tick: building the statement cost more than running it.
    sessions = [new_session(engine).id for _ in range(3)]
    for session_id in sessions:
        _append(engine, session_id, 3)
    with read_connection(engine) as conn:
        LOG.read_many(conn, {sid: (0, 1) for sid in sessions})
        built = eventlog._read_many_query.cache_info().misses
        later = LOG.read_many(conn, {sid: (1, 3) for sid in sessions})
        assert eventlog._read_many_query.cache_info().misses == built
    assert {sid: [e.seq for e in events] for sid, events in later.items()} == {sid: [2, 3] for sid in sessions}
