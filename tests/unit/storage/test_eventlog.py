"""The event log contract on SQLite (PostgreSQL: tests/integration/storage)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from tests.support.eventlog_contract import EventLogContract


class TestEventLogOnSqlite(EventLogContract):
    # SQLite has one writer at a time; four threads still race for the lock.
    writers = 4
    appends_per_writer = 250

    @pytest.fixture
    def engine(self, sqlite_engine: sa.Engine) -> sa.Engine:
        return sqlite_engine

    @pytest.fixture
    def blank_engine(self, sqlite_blank_engine: sa.Engine) -> sa.Engine:
        return sqlite_blank_engine
