"""The shipped page repository contract on PostgreSQL (needs CHARLOTTE_TEST_DATABASE_URL).

For charlotte's tables, ``InMemoryPageRepository`` and a host's own (``HostPages``).
"""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from tests.support.database_pages import DatabasePageRepositoryContract
from tests.support.host_pages import HostPages, create_host_tables

from charlotte.storage import PageRepository
from charlotte.testing import InMemoryPageRepository
from charlotte.testing.page_repository_contract import PageRepositoryContract


@pytest.mark.postgres
class TestDatabasePageRepositoryOnPostgres(DatabasePageRepositoryContract):
    @pytest.fixture
    def engine(self, postgres_engine: sa.Engine) -> sa.Engine:
        return postgres_engine


@pytest.mark.postgres
class TestInMemoryPageRepositoryOnPostgres(PageRepositoryContract):
    """Its page locks serialise two first writes where PostgreSQL's row lock would."""

    @pytest.fixture
    def engine(self, postgres_engine: sa.Engine) -> sa.Engine:
        return postgres_engine

    @pytest.fixture
    def repository(self) -> PageRepository:
        return InMemoryPageRepository()


@pytest.mark.postgres
class TestHostPagesOnPostgres(PageRepositoryContract):
    keeps_undo = False  # HostPages keeps revision, actor, op and session only

    @pytest.fixture
    def engine(self, postgres_engine: sa.Engine) -> sa.Engine:
        return postgres_engine

    @pytest.fixture
    def repository(self, engine: sa.Engine) -> PageRepository:
        create_host_tables(engine)
        return HostPages()
