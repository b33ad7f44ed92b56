"""The Workspace contract on PostgreSQL (needs CHARLOTTE_TEST_DATABASE_URL)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from tests.support.workspace_contract import WorkspaceContract


@pytest.mark.postgres
class TestWorkspaceOnPostgres(WorkspaceContract):
    @pytest.fixture
    def engine(self, postgres_engine: sa.Engine) -> sa.Engine:
        return postgres_engine
