"""The session store contract on SQLite (PostgreSQL: tests/integration/storage)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from tests.support.sessions_contract import SessionStoreContract


class TestSessionStoreOnSqlite(SessionStoreContract):
    @pytest.fixture
    def engine(self, sqlite_engine: sa.Engine) -> sa.Engine:
        return sqlite_engine
