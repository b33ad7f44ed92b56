"""The migrations contract on SQLite (PostgreSQL: tests/integration/storage)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import sqlalchemy as sa
from tests.support.migrations_contract import MigrationsContract


class TestMigrationsOnSqlite(MigrationsContract):
    @pytest.fixture
    def blank_engine_factory(
        self, sqlite_blank_engine_factory: Callable[[], sa.Engine]
    ) -> Callable[[], sa.Engine]:
        return sqlite_blank_engine_factory
