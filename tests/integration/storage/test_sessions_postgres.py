"""The session store contract on PostgreSQL (needs CHARLOTTE_TEST_DATABASE_URL)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from tests.support.sessions_contract import SessionStoreContract


@pytest.mark.postgres
class TestSessionStoreOnPostgres(SessionStoreContract):
    @pytest.fixture
    def engine(self, postgres_engine: sa.Engine) -> sa.Engine:
        return postgres_engine
