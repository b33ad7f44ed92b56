"""One open change set per session, enforced by the index, on PostgreSQL (needs CHARLOTTE_TEST_DATABASE_URL)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import sqlalchemy as sa
from tests.support.open_change_set_index_contract import OpenChangeSetIndexContract


@pytest.mark.postgres
class TestOpenChangeSetIndexOnPostgres(OpenChangeSetIndexContract):
    @pytest.fixture
    def blank_engine_factory(
        self, postgres_blank_engine_factory: Callable[[], sa.Engine]
    ) -> Callable[[], sa.Engine]:
        return postgres_blank_engine_factory
