"""The published pages' store on PostgreSQL (needs CHARLOTTE_TEST_DATABASE_URL)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from tests.support.published_pages_contract import PublishedPageStoreContract


@pytest.mark.postgres
class TestPublishedPageStoreOnPostgres(PublishedPageStoreContract):
    @pytest.fixture
    def engine(self, postgres_engine: sa.Engine) -> sa.Engine:
        return postgres_engine
