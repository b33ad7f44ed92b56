"""The Workspace contract on SQLite (PostgreSQL: tests/integration/test_workspace_postgres.py)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from tests.support.workspace_contract import WorkspaceContract


class TestWorkspaceOnSqlite(WorkspaceContract):
    @pytest.fixture
    def engine(self, sqlite_engine: sa.Engine) -> sa.Engine:
        return sqlite_engine
