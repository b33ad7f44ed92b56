"""No partial replay of a change set on PostgreSQL (needs CHARLOTTE_TEST_DATABASE_URL)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from tests.support.approval_replay_contract import ApprovalReplayContract


@pytest.mark.postgres
class TestApprovalReplayOnPostgres(ApprovalReplayContract):
    @pytest.fixture
    def engine(self, postgres_engine: sa.Engine) -> sa.Engine:
        return postgres_engine
