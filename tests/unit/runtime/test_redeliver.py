"""The ``Turns.redeliver`` contract on SQLite (PostgreSQL: tests/integration/test_redeliver_postgres.py)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from tests.support.redeliver_contract import RedeliverContract


class TestRedeliverOnSqlite(RedeliverContract):
    @pytest.fixture
    def engine(self, sqlite_engine: sa.Engine) -> sa.Engine:
        return sqlite_engine
