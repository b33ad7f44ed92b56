"""The change-set contracts on PostgreSQL (needs CHARLOTTE_TEST_DATABASE_URL)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from tests.support.change_set_revisions_contract import ChangeSetRevisionsContract
from tests.support.proposals_contract import ProposalsContract


@pytest.mark.postgres
class TestProposalsOnPostgres(ProposalsContract):
    @pytest.fixture
    def engine(self, postgres_engine: sa.Engine) -> sa.Engine:
        return postgres_engine


@pytest.mark.postgres
class TestChangeSetRevisionsOnPostgres(ChangeSetRevisionsContract):
    examples = 30

    @pytest.fixture
    def engine(self, postgres_engine: sa.Engine) -> sa.Engine:
        return postgres_engine
