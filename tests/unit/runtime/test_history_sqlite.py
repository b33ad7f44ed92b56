"""The conversation contract on SQLite (PostgreSQL: tests/integration/test_history_postgres.py)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from tests.support.history_contract import HistoryContract


class TestHistoryOnSqlite(HistoryContract):
    @pytest.fixture
    def engine(self, sqlite_engine: sa.Engine) -> sa.Engine:
        return sqlite_engine
