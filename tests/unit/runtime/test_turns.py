"""The Turns contract on SQLite (PostgreSQL: tests/integration/test_turns_postgres.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
import sqlalchemy as sa
from tests.support.turns_contract import TurnsContract

from charlotte.runtime import InlineQueue, Turns


class TestTurnsOnSqlite(TurnsContract):
    @pytest.fixture
    def engine(self, sqlite_engine: sa.Engine) -> sa.Engine:
        return sqlite_engine


def test_inline_queue_runs_the_turn_at_once() -> None:
    ran: list[str] = []
    InlineQueue(ran.append).enqueue("t1")
    assert ran == ["t1"]


def test_a_heartbeat_timeout_must_be_positive(sqlite_engine: sa.Engine) -> None:
    with pytest.raises(ValueError):
        Turns(sqlite_engine, InlineQueue(lambda _: None), heartbeat_timeout=timedelta(0))
