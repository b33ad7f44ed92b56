"""The page repository contract on PostgreSQL (needs CHARLOTTE_TEST_DATABASE_URL)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from tests.support.pages_contract import PageRepositoryContract


@pytest.mark.postgres
class TestDatabasePageRepositoryOnPostgres(PageRepositoryContract):
    @pytest.fixture
    def engine(self, postgres_engine: sa.Engine) -> sa.Engine:
        return postgres_engine
