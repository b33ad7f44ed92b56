"""The outside-agent contract on PostgreSQL (needs CHARLOTTE_TEST_DATABASE_URL)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.support.app_harness import AppHarness
from tests.support.databases import named_postgres_schema, postgres_url
from tests.support.outside_agent_contract import OutsideAgentContract


@pytest.mark.postgres
class TestOutsideAgentOnPostgres(OutsideAgentContract):
    @pytest.fixture
    def app(self, tmp_path: Path) -> Iterator[AppHarness]:
        with named_postgres_schema(postgres_url(), "charlotte_outside") as (schema, engine):
            engine.dispose()
            harness = AppHarness(tmp_path / "unused.db", database_url=postgres_url(), database_schema=schema)
            try:
                yield harness
            finally:
                harness.close()
