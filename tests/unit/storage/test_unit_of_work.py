"""The unit of work on SQLite."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from tests.support.unit_of_work_contract import UnitOfWorkContract


class TestUnitOfWorkOnSqlite(UnitOfWorkContract):
    @pytest.fixture
    def engine(self, sqlite_engine: sa.Engine) -> sa.Engine:
        return sqlite_engine
