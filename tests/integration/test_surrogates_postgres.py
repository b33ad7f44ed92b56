"""Damaged event rows on PostgreSQL: what its columns can hold (needs CHARLOTTE_TEST_DATABASE_URL).

PostgreSQL text is always valid UTF-8 without NUL, so a lone surrogate can only
be stored as JSON's ``\\uD800`` escape (what older versions wrote); its
timestamps also reach year 294276 and infinity, which Python cannot hold.
"""

from __future__ import annotations

from typing import ClassVar

import pytest
import sqlalchemy as sa
from tests.support.damaged_log_contract import POSTGRES_DAMAGES, DamagedLogContract


@pytest.mark.postgres
class TestDamagedLogOnPostgres(DamagedLogContract):
    damages: ClassVar[tuple[str, ...]] = POSTGRES_DAMAGES

    @pytest.fixture
    def engine(self, postgres_engine: sa.Engine) -> sa.Engine:
        return postgres_engine
