"""The unit of work: one transaction, its session row, its events appended once, hooks after commit."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from tests.support.databases import new_session

from charlotte.errors import Refused, StorageError
from charlotte.events import EventTypes, NewEvent
from charlotte.storage import DatabaseEventLog, Units


def _delta(text: str) -> NewEvent:
    return NewEvent(EventTypes.TEXT_DELTA, {"text": text}, "agent")


class UnitOfWorkContract:
    """Subclassed per backend with an ``engine`` fixture."""

    def log(self, engine: sa.Engine, session_id: str) -> list[tuple[int, str]]:
        return [(e.seq, e.payload["text"]) for e in DatabaseEventLog().read(engine, session_id, 0, 100)]

    def test_the_events_of_a_unit_are_appended_in_order_with_its_commit(self, engine: sa.Engine) -> None:
        session = new_session(engine)
        hooks: list[list[tuple[int, str]]] = []
        units = Units(engine)
        with units.write(session.id, session.tenant) as unit:
            assert unit.session.id == session.id and unit.writes
            unit.emit(_delta("a"), _delta("b"))
            unit.after_commit(lambda: hooks.append(self.log(engine, session.id)))
            unit.emit(_delta("c"))
            assert [e.payload["text"] for e in unit.pending] == ["a", "b", "c"]
            assert self.log(engine, session.id) == []  # nothing before the commit
            assert hooks == []
        # The hook ran once, after the commit: it saw the events.
        assert hooks == [[(1, "a"), (2, "b"), (3, "c")]]

    def test_a_unit_that_raises_appends_nothing_and_runs_no_hook(self, engine: sa.Engine) -> None:
        session = new_session(engine)
        ran: list[int] = []
        with pytest.raises(Refused), Units(engine).write(session.id, session.tenant) as unit:
            unit.emit(_delta("lost"))
            unit.after_commit(lambda: ran.append(1))
            raise Refused("busy")
        assert self.log(engine, session.id) == [] and ran == []

    def test_another_tenants_or_a_missing_session_is_not_found(self, engine: sa.Engine) -> None:
        session = new_session(engine)
        units = Units(engine)
        for session_id, tenant in ((session.id, "tenant-other"), ("0" * 32, session.tenant)):
            for opener in (units.write, units.read):
                with pytest.raises(Refused) as missing, opener(session_id, tenant):
                    pass
                assert missing.value.code == "not_found"
        with pytest.raises(StorageError) as unknown, units.recording("0" * 32, session.tenant) as unit:
            unit.emit(_delta("x"))
        assert unknown.value.code == "not_found"

    def test_a_read_unit_or_one_on_no_session_records_nothing(self, engine: sa.Engine) -> None:
        session = new_session(engine)
        units = Units(engine)
        with units.read(session.id, session.tenant) as unit:
            assert not unit.writes and unit.session.id == session.id
            with pytest.raises(RuntimeError):
                unit.emit(_delta("x"))
        with units.write(None, session.tenant) as unit:
            with pytest.raises(RuntimeError):
                unit.emit(_delta("x"))
            with pytest.raises(RuntimeError):
                unit.session  # noqa: B018
        assert self.log(engine, session.id) == []

    def test_a_unit_that_creates_its_session_adopts_it_once(self, engine: sa.Engine) -> None:
        units = Units(engine)
        made: dict[str, Any] = {}
        with units.write(None, "tenant-a") as unit:
            record = units.sessions.create(
                unit.conn, tenant="tenant-a", page="home", created_by="ann", brief="", facts={},
                mode="build", approve_on_save=False, guide_hash="h",
            )  # fmt: skip
            unit.adopt(record)
            with pytest.raises(RuntimeError):
                unit.adopt(record)
            unit.emit(_delta("opened"))
            made["id"] = record.id
        assert self.log(engine, made["id"]) == [(1, "opened")]
