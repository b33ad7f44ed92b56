"""No partial replay of a change set on SQLite (PostgreSQL: tests/integration/test_approval_replay_postgres.py)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from tests.support.approval_replay_contract import ApprovalReplayContract


class TestApprovalReplayOnSqlite(ApprovalReplayContract):
    @pytest.fixture
    def engine(self, sqlite_engine: sa.Engine) -> sa.Engine:
        return sqlite_engine
