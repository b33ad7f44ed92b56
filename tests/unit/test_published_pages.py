"""The published page by its key through ``Charlotte``, on SQLite (the contract; PostgreSQL: tests/integration)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.support.published_pages_contract import PublishedPagesContract

from charlotte import Settings


class TestPublishedPagesOnSqlite(PublishedPagesContract):
    @pytest.fixture
    def settings(self, tmp_path: Path) -> Settings:
        return Settings(database_url=f"sqlite:///{tmp_path}/published.db", queue="inline")
