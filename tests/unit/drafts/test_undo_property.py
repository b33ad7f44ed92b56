"""The undo/redo/reject property on SQLite (PostgreSQL: tests/integration/test_undo_property_postgres.py)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from tests.support.undo_property_contract import UndoPropertyContract


class TestUndoPropertyOnSqlite(UndoPropertyContract):
    @pytest.fixture
    def engine(self, sqlite_engine: sa.Engine) -> sa.Engine:
        return sqlite_engine
