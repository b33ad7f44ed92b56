"""The person's words as evidence on PostgreSQL (needs CHARLOTTE_TEST_DATABASE_URL)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from tests.support.person_said_contract import PersonSaidContract


@pytest.mark.postgres
class TestPersonSaidOnPostgres(PersonSaidContract):
    @pytest.fixture
    def engine(self, postgres_engine: sa.Engine) -> sa.Engine:
        return postgres_engine
