"""Test databases: a temp-file SQLite engine, and PostgreSQL in a throwaway schema.

PostgreSQL comes from ``CHARLOTTE_TEST_DATABASE_URL``; without it the tests that
need it are skipped with a printed reason. Each engine gets a schema of its own
(``search_path``), so test runs sharing one server never see each other's rows.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

import pytest
import sqlalchemy as sa

from charlotte.storage import SessionRecord, SessionStore, open_engine, transaction

POSTGRES_ENV: Final = "CHARLOTTE_TEST_DATABASE_URL"
SKIP_REASON: Final = f"{POSTGRES_ENV} is not set: PostgreSQL tests skipped"


def postgres_url() -> str:
    """The test server's URL, or skip the calling test with the reason."""
    url = os.environ.get(POSTGRES_ENV, "").strip()
    if not url:
        pytest.skip(SKIP_REASON)
    return url


def sqlite_engine_at(path: Path, **options: Any) -> sa.Engine:
    """A charlotte SQLite engine on the file ``path``."""
    return open_engine(f"sqlite:///{path}", **options)


@contextmanager
def postgres_schema(url: str, **options: Any) -> Iterator[sa.Engine]:
    """An engine whose tables live in a fresh schema; the schema is dropped afterwards."""
    with named_postgres_schema(url, "charlotte_test", **options) as (_, engine):
        yield engine


@contextmanager
def named_postgres_schema(
    url: str, prefix: str, **options: Any
) -> Iterator[tuple[str, sa.Engine]]:
    """A fresh schema ``{prefix}_<random>`` and an engine on it; the schema is dropped afterwards."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    admin = open_engine(url)
    try:
        with admin.begin() as conn:
            conn.exec_driver_sql(f'CREATE SCHEMA "{name}"')
        engine = open_engine(url, schema=name, **options)
        try:
            yield name, engine
        finally:
            engine.dispose()
            with admin.begin() as conn:
                conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
    finally:
        admin.dispose()


def new_session(
    engine: sa.Engine,
    tenant: str = "tenant-a",
    page: str = "home",
    *,
    created_by: str = "user-1",
    **fields: Any,
) -> SessionRecord:
    """A committed idle session with a fresh id; ``fields`` go to ``SessionStore.create``."""
    with transaction(engine) as conn:
        return SessionStore().create(
            conn, tenant=tenant, page=page, created_by=created_by, **fields
        )


def unshared_session(engine: sa.Engine, **fields: Any) -> SessionRecord:
    """``new_session`` on a tenant and page no other test uses."""
    return new_session(engine, unique("tenant"), unique("page"), **fields)


def unique(prefix: str) -> str:
    """A name no other test uses (tables may be shared within a module)."""
    return f"{prefix}-{uuid.uuid4().hex[:10]}"
