"""The event log contract on PostgreSQL (needs CHARLOTTE_TEST_DATABASE_URL)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from tests.support.eventlog_contract import EventLogContract


@pytest.mark.postgres
class TestEventLogOnPostgres(EventLogContract):
    writers = 8
    appends_per_writer = 500

    @pytest.fixture
    def engine(self, postgres_engine: sa.Engine) -> sa.Engine:
        return postgres_engine

    @pytest.fixture
    def blank_engine(self, postgres_blank_engine: sa.Engine) -> sa.Engine:
        return postgres_blank_engine
