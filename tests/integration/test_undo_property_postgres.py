"""The undo/redo/reject property on PostgreSQL (needs CHARLOTTE_TEST_DATABASE_URL)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from tests.support.undo_property_contract import UndoPropertyContract


@pytest.mark.postgres
class TestUndoPropertyOnPostgres(UndoPropertyContract):
    @pytest.fixture
    def engine(self, postgres_engine: sa.Engine) -> sa.Engine:
        return postgres_engine
