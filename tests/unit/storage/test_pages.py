"""The shipped page repository contract on SQLite for charlotte's tables (PostgreSQL: tests/integration/storage)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from tests.support.database_pages import DatabasePageRepositoryContract

from charlotte.storage import DatabasePageRepository, OpEntry, transaction
from charlotte.storage.tables import page_ops


class TestDatabasePageRepositoryOnSqlite(DatabasePageRepositoryContract):
    @pytest.fixture
    def engine(self, sqlite_engine: sa.Engine) -> sa.Engine:
        return sqlite_engine


def test_an_op_row_holds_what_the_column_types_would_write(sqlite_engine: sa.Engine) -> None:
    at = datetime(2025, 6, 1, 12, 30, 15, 123456, tzinfo=UTC)
    op, inverse = {"t": "set_meta", "patch": {"title": "Café “x” 🍞"}}, [{"t": "set_meta", "patch": {}}]
    with transaction(sqlite_engine) as conn:
        DatabasePageRepository().append_ops(conn, "t", "ours", [OpEntry(1, "agent", op, None, None, None, inverse, at)])
        conn.execute(page_ops.insert().values(tenant="t", page="core", revision=1, actor="agent", op=op, inverse=inverse, at=at))
        raw = sa.select(*(sa.type_coerce(page_ops.c[name], sa.Text) for name in ("op", "inverse", "at")))
        ours = conn.execute(raw.where(page_ops.c.page == "ours")).one()
        core = conn.execute(raw.where(page_ops.c.page == "core")).one()
    assert ours == core
