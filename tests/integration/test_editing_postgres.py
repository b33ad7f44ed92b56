"""The editing contract on PostgreSQL (needs CHARLOTTE_TEST_DATABASE_URL)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.support.app_harness import AppHarness
from tests.support.databases import named_postgres_schema, postgres_url
from tests.support.editing_contract import EditingContract
from tests.support.hand_edit_contract import HandEditContract
from tests.support.undo_safety_contract import UndoSafetyContract


@pytest.mark.postgres
class TestEditingOnPostgres(EditingContract, HandEditContract, UndoSafetyContract):
    @pytest.fixture
    def app(self, tmp_path: Path) -> Iterator[AppHarness]:
        with named_postgres_schema(postgres_url(), "charlotte_editing") as (schema, engine):
            engine.dispose()
            harness = AppHarness(
                tmp_path / "unused.db", database_url=postgres_url(), database_schema=schema
            )
            try:
                yield harness
            finally:
                harness.close()
