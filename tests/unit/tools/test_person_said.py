"""The person's words as evidence on SQLite (PostgreSQL: tests/integration/test_person_said_postgres.py)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from tests.support.person_said_contract import PersonSaidContract


class TestPersonSaidOnSqlite(PersonSaidContract):
    @pytest.fixture
    def engine(self, sqlite_engine: sa.Engine) -> sa.Engine:
        return sqlite_engine
