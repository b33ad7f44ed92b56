"""The meta's social image on every write path, on SQLite (PostgreSQL: tests/integration/test_meta_assets_postgres.py)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from tests.support.meta_assets_contract import MetaAssetsContract


class TestMetaAssetsOnSqlite(MetaAssetsContract):
    @pytest.fixture
    def engine(self, sqlite_engine: sa.Engine) -> sa.Engine:
        return sqlite_engine
