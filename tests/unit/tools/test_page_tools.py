"""The PageTools contract on SQLite (PostgreSQL: tests/integration/test_tools_postgres.py)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from tests.support.tools_contract import ToolsContract


class TestPageToolsOnSqlite(ToolsContract):
    @pytest.fixture
    def engine(self, sqlite_engine: sa.Engine) -> sa.Engine:
        return sqlite_engine
