"""The published pages' store on SQLite (PostgreSQL: tests/integration/storage)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from tests.support.published_pages_contract import PublishedPageStoreContract


class TestPublishedPageStoreOnSqlite(PublishedPageStoreContract):
    @pytest.fixture
    def engine(self, sqlite_engine: sa.Engine) -> sa.Engine:
        return sqlite_engine
