"""The change-set contracts on PostgreSQL (needs CHARLOTTE_TEST_DATABASE_URL)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from tests.support.change_set_revisions_contract import ChangeSetRevisionsContract
from tests.support.change_sets_contract import ChangeSetsContract


@pytest.mark.postgres
class TestChangeSetsOnPostgres(ChangeSetsContract):
    @pytest.fixture
    def engine(self, postgres_engine: sa.Engine) -> sa.Engine:
        return postgres_engine


@pytest.mark.postgres
class TestChangeSetRevisionsOnPostgres(ChangeSetRevisionsContract):
    examples = 30

    @pytest.fixture
    def engine(self, postgres_engine: sa.Engine) -> sa.Engine:
        return postgres_engine
