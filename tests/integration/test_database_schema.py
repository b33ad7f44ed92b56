"""``Settings.database_schema``: a host keeps charlotte's tables in a PostgreSQL schema of its own."""

from __future__ import annotations

import subprocess
import sys
import uuid
from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from tests.support.databases import postgres_url

from charlotte.app import Charlotte
from charlotte.events import EventTypes
from charlotte.settings import Settings
from charlotte.storage import open_engine


def _tables(admin: sa.Engine, schema: str) -> set[str]:
    query = sa.text("SELECT table_name FROM information_schema.tables WHERE table_schema = :schema")
    with admin.connect() as conn:
        return {row[0] for row in conn.execute(query, {"schema": schema})}


@pytest.fixture
def schema() -> Iterator[tuple[str, str, sa.Engine]]:
    """(url, a schema name nobody created yet, an admin engine); the schema is dropped afterwards."""
    url = postgres_url()
    name = f"charlotte_host_{uuid.uuid4().hex[:10]}"
    admin = open_engine(url)
    try:
        yield url, name, admin
    finally:
        with admin.begin() as conn:
            conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
        admin.dispose()


def test_migrate_creates_the_schema_and_a_session_lives_in_it(schema: tuple[str, str, sa.Engine]) -> None:
    url, name, admin = schema
    charlotte = Charlotte(Settings(database_url=url, database_schema=name, queue="inline"))
    try:
        charlotte.migrate()
        charlotte.migrate()  # a second run finds everything in place
        assert {"charlotte_sessions", "charlotte_events", "charlotte_pages"} <= _tables(admin, name)
        handle = charlotte.for_user("editor-ann").tenant("acme").page("home").brief("A bakery").open()
        handle.send("Build the page")  # the offline model, inline
        assert handle.events(after=0)[-1]["type"] == EventTypes.TURN_FINISHED
        assert handle.draft()["revision"] > 0
    finally:
        charlotte.close()
    with admin.connect() as conn:
        stored = conn.execute(sa.text(f'SELECT count(*) FROM "{name}".charlotte_sessions')).scalar()
    assert stored == 1


def test_the_cli_migrates_into_the_schema_from_the_environment(schema: tuple[str, str, sa.Engine]) -> None:
    url, name, admin = schema
    env = {"CHARLOTTE_DATABASE_URL": url, "CHARLOTTE_DATABASE_SCHEMA": name, "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-m", "charlotte.cli", "migrate"], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "charlotte tables at revision" in done.stdout
    assert "charlotte_turns" in _tables(admin, name)
