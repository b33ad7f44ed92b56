"""The unique index behind "one open change set per session", run against every database.

``ChangeSets`` looks for the open set before it opens one, under the session
row's lock; the partial unique index ``ux_charlotte_proposals_open_session``
is what makes a second open set impossible whatever the code does. These tests
write the rows directly, beside every code path, on a schema built by
``create_tables`` and on one built by the migrations (the migrations contract
compares index names and columns, not the index's ``WHERE``).

A subclass provides ``blank_engine_factory`` (fresh, empty databases).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa
from tests.support.databases import unshared_session

from charlotte.errors import StorageError
from charlotte.events import utc_now
from charlotte.storage import SessionRecord, create_tables, migrate, transaction
from charlotte.storage.change_sets import ChangeSetStore
from charlotte.storage.tables import CHANGE_SET_STATUSES, change_sets

EngineFactory = Callable[[], sa.Engine]


def change_set_row(session: SessionRecord, status: str = "open") -> dict[str, Any]:
    """A complete ``charlotte_proposals`` row for ``session``."""
    return {
        "id": uuid.uuid4().hex,
        "session_id": session.id,
        "tenant": session.tenant,
        "page": session.page,
        "status": status,
        "working": {"meta": {}, "theme": {}, "nodes": {}},
        "ops": [],
        "op_count": 0,
        "notified": False,
        "created_at": utc_now(),
    }


class OpenChangeSetIndexContract:
    """At most one open change set per session, enforced by the database."""

    @pytest.fixture
    def blank_engine_factory(self) -> EngineFactory:  # pragma: no cover - overridden per backend
        raise NotImplementedError

    @pytest.fixture(params=["create_tables", "migrate"])
    def engine(self, request: pytest.FixtureRequest, blank_engine_factory: EngineFactory) -> sa.Engine:
        engine = blank_engine_factory()
        if request.param == "migrate":
            migrate(engine)
        else:
            create_tables(engine)
        return engine

    @pytest.fixture
    def session(self, engine: sa.Engine) -> SessionRecord:
        return unshared_session(engine, approve_on_save=True)

    def insert(self, engine: sa.Engine, row: dict[str, Any]) -> None:
        with engine.begin() as conn:
            conn.execute(sa.insert(change_sets).values(**row))

    def statuses(self, engine: sa.Engine, session: SessionRecord) -> list[str]:
        with engine.connect() as conn:
            found = conn.execute(
                sa.select(change_sets.c.status).where(change_sets.c.session_id == session.id)
            ).scalars()
            return sorted(found)

    def test_a_second_open_change_set_for_a_session_is_refused(
        self, engine: sa.Engine, session: SessionRecord
    ) -> None:
        self.insert(engine, change_set_row(session))
        with pytest.raises(sa.exc.IntegrityError):
            self.insert(engine, change_set_row(session))
        assert self.statuses(engine, session) == ["open"]

    def test_through_charlotte_the_second_open_change_set_is_a_storage_conflict(
        self, engine: sa.Engine, session: SessionRecord
    ) -> None:
        with transaction(engine) as conn:
            ChangeSetStore().insert_open(conn, session, {"meta": {}, "theme": {}, "nodes": {}}, [])
        with pytest.raises(StorageError) as refused, transaction(engine) as conn:
            ChangeSetStore().insert_open(conn, session, {"meta": {}, "theme": {}, "nodes": {}}, [])
        assert refused.value.code == "conflict"
        assert self.statuses(engine, session) == ["open"]

    def test_reopening_a_resolved_change_set_beside_an_open_one_is_refused(
        self, engine: sa.Engine, session: SessionRecord
    ) -> None:
        resolved = change_set_row(session, "rejected")
        self.insert(engine, resolved)
        self.insert(engine, change_set_row(session))
        with pytest.raises(sa.exc.IntegrityError), engine.begin() as conn:
            conn.execute(
                sa.update(change_sets).where(change_sets.c.id == resolved["id"]).values(status="open")
            )
        assert self.statuses(engine, session) == ["open", "rejected"]

    def test_resolved_change_sets_and_other_sessions_do_not_count(
        self, engine: sa.Engine, session: SessionRecord
    ) -> None:
        # The index is partial: any number of resolved sets, then one open set.
        for status in CHANGE_SET_STATUSES:
            if status != "open":
                self.insert(engine, change_set_row(session, status))
                self.insert(engine, change_set_row(session, status))
        self.insert(engine, change_set_row(session))
        other = unshared_session(engine, approve_on_save=True)
        self.insert(engine, change_set_row(other))
        assert self.statuses(engine, session) == sorted(
            [s for s in CHANGE_SET_STATUSES if s != "open"] * 2 + ["open"]
        )
        assert self.statuses(engine, other) == ["open"]
