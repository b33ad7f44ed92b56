"""The unit of work on PostgreSQL (needs CHARLOTTE_TEST_DATABASE_URL)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from tests.support.unit_of_work_contract import UnitOfWorkContract


@pytest.mark.postgres
class TestUnitOfWorkOnPostgres(UnitOfWorkContract):
    @pytest.fixture
    def engine(self, postgres_engine: sa.Engine) -> sa.Engine:
        return postgres_engine
