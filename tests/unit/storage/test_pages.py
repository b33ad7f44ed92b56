"""The page repository contract on SQLite (PostgreSQL: tests/integration/storage)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from tests.support.pages_contract import PageRepositoryContract


class TestDatabasePageRepositoryOnSqlite(PageRepositoryContract):
    @pytest.fixture
    def engine(self, sqlite_engine: sa.Engine) -> sa.Engine:
        return sqlite_engine
