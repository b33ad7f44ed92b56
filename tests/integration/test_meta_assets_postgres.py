"""The meta's social image on every write path, on PostgreSQL (needs CHARLOTTE_TEST_DATABASE_URL)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from tests.support.meta_assets_contract import MetaAssetsContract


@pytest.mark.postgres
class TestMetaAssetsOnPostgres(MetaAssetsContract):
    @pytest.fixture
    def engine(self, postgres_engine: sa.Engine) -> sa.Engine:
        return postgres_engine
