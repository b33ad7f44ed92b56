"""The ``Turns.redeliver`` contract on PostgreSQL, a fresh schema per test (needs CHARLOTTE_TEST_DATABASE_URL)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from tests.support.redeliver_contract import RedeliverContract

from charlotte.storage import create_tables


@pytest.mark.postgres
class TestRedeliverOnPostgres(RedeliverContract):
    @pytest.fixture
    def engine(self, postgres_blank_engine: sa.Engine) -> sa.Engine:
        create_tables(postgres_blank_engine)
        return postgres_blank_engine
