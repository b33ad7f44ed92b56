"""One open change set per session, enforced by the index, on SQLite (PostgreSQL: tests/integration/storage)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import sqlalchemy as sa
from tests.support.open_change_set_index_contract import OpenChangeSetIndexContract


class TestOpenChangeSetIndexOnSqlite(OpenChangeSetIndexContract):
    @pytest.fixture
    def blank_engine_factory(
        self, sqlite_blank_engine_factory: Callable[[], sa.Engine]
    ) -> Callable[[], sa.Engine]:
        return sqlite_blank_engine_factory
