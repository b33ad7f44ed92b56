"""A page's facts and what people vouched for outlive a session, on SQLite (the contract)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.support.page_facts_contract import PageFactsContract

from charlotte import Settings


class TestPageFactsOnSqlite(PageFactsContract):
    @pytest.fixture
    def settings(self, tmp_path: Path) -> Settings:
        return Settings(database_url=f"sqlite:///{tmp_path}/page.db", queue="inline")
