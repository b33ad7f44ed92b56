"""The outside-agent contract on SQLite (PostgreSQL: ``tests/integration/test_outside_agent_postgres.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.support.app_harness import AppHarness
from tests.support.outside_agent_contract import OutsideAgentContract


class TestOutsideAgentOnSqlite(OutsideAgentContract):
    @pytest.fixture
    def app(self, tmp_path: Path) -> Iterator[AppHarness]:
        harness = AppHarness(tmp_path / "charlotte.db")
        try:
            yield harness
        finally:
            harness.close()
