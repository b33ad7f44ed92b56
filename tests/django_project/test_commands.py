"""``manage.py charlotte_migrate`` and ``manage.py charlotte_worker``, as an operator runs them.

The worker test runs the commands in subprocesses with ``worker_settings.py``:
Django's tables and charlotte's in one PostgreSQL database, each in a schema
of its own, turns through Redis (``CHARLOTTE_TEST_REDIS_URL``, a database
number of this test's own so its default queue meets no other test's
messages). Skipped with the reason without PostgreSQL or Redis; CI has both.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from django.conf import settings as django_settings
from django.core.management import CommandError, call_command
from django.test import override_settings
from tests.support.celery_harness import Worker, redis_url, wait_until
from tests.support.databases import postgres_url

from charlotte.app import Charlotte
from charlotte.contrib.django.permissions import PERMISSIONS
from charlotte.events import EventTypes
from charlotte.settings import Settings
from charlotte.storage import open_engine

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = "tests.django_project.worker_settings"


@pytest.fixture
def schemas() -> Iterator[tuple[str, str]]:
    """Two schema names no other run uses: Django's (made here) and charlotte's; both dropped after."""
    tag = uuid.uuid4().hex[:10]
    django_schema, charlotte_schema = f"django_test_{tag}", f"charlotte_dj_{tag}"
    admin = open_engine(postgres_url())
    with admin.begin() as conn:
        conn.exec_driver_sql(f'CREATE SCHEMA "{django_schema}"')
    try:
        yield django_schema, charlotte_schema
    finally:
        with admin.begin() as conn:
            for name in (django_schema, charlotte_schema):
                conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
        admin.dispose()


def _tables(schema: str) -> set[str]:
    engine = open_engine(postgres_url())
    try:
        return set(sa.inspect(engine).get_table_names(schema=schema))
    finally:
        engine.dispose()


def _permissions(schema: str) -> set[str]:
    engine = open_engine(postgres_url())
    query = sa.text(
        f'SELECT p.codename FROM "{schema}".auth_permission p'
        f' JOIN "{schema}".django_content_type c ON c.id = p.content_type_id'
        " WHERE c.app_label = 'charlotte'"
    )
    try:
        with engine.connect() as conn:
            return set(conn.execute(query).scalars())
    finally:
        engine.dispose()


@pytest.mark.postgres
def test_charlotte_migrate_creates_charlottes_tables_in_its_own_schema(
    schemas: tuple[str, str],
) -> None:
    _, schema = schemas
    out = io.StringIO()
    with override_settings(CHARLOTTE={"database_url": postgres_url(), "database_schema": schema}):
        call_command("charlotte_migrate", stdout=out)
        call_command("charlotte_migrate", stdout=io.StringIO())  # again: nothing to do, no error
    assert out.getvalue().startswith("charlotte tables at revision ")
    assert {"charlotte_sessions", "charlotte_events", "charlotte_turns"} <= _tables(schema)


def test_charlotte_worker_needs_the_celery_queue() -> None:
    with pytest.raises(CommandError, match="celery"):
        call_command("charlotte_worker")  # the test project's queue is inline


def _broker() -> str:
    url = redis_url()
    base = url.rsplit("/", 1)[0] if url.count("/") > 2 else url
    return f"{base}/12"


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.timeout(240)
def test_charlotte_worker_runs_a_turn_sent_by_the_web_side_with_django_in_the_same_database(
    tmp_path: Path, schemas: tuple[str, str]
) -> None:
    database, broker = postgres_url(), _broker()
    django_schema, charlotte_schema = schemas
    url = sa.engine.make_url(database)
    env = {
        **os.environ,
        "CHARLOTTE_DJANGO_TEST_STATE": str(django_settings.STATE),
        "CHARLOTTE_DJANGO_PG_NAME": url.database or "",
        "CHARLOTTE_DJANGO_PG_USER": url.username or "",
        "CHARLOTTE_DJANGO_PG_PASSWORD": url.password or "",
        "CHARLOTTE_DJANGO_PG_HOST": url.host or "",
        "CHARLOTTE_DJANGO_PG_PORT": str(url.port or 5432),
        "CHARLOTTE_DJANGO_PG_SCHEMA": django_schema,
        "CHARLOTTE_DJANGO_DATABASE_URL": database,
        "CHARLOTTE_DJANGO_SCHEMA": charlotte_schema,
        "CHARLOTTE_DJANGO_BROKER_URL": broker,
    }
    manage = [sys.executable, "-m", "django"]
    for command in ("migrate", "charlotte_migrate"):
        done = subprocess.run(
            [*manage, command, f"--settings={SETTINGS}"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
    # One PostgreSQL database, two schemas: Django's tables in one, charlotte's in the other.
    assert {"auth_user", "auth_permission"} <= _tables(django_schema)
    assert "charlotte_sessions" in _tables(charlotte_schema)
    assert not {t for t in _tables(django_schema) if t.startswith("charlotte_")}
    assert _permissions(django_schema) == {codename for codename, _ in PERMISSIONS.values()}

    log = tmp_path / "worker.log"
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [*manage, "charlotte_worker", f"--settings={SETTINGS}", "--pool=solo", "--concurrency=1"],
            cwd=ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
        )  # fmt: skip
    worker = Worker(process, log)
    web = Charlotte(
        Settings(
            database_url=database,
            database_schema=charlotte_schema,
            queue="celery",
            broker_url=broker,
        )
    )
    try:
        handle = (
            web.for_user("ann").tenant("acme").page("home")
            .brief("A landing page for Rosa's Bakery: menu and contact.")
            .facts({"name": "Rosa's Bakery"}).open()
        )  # fmt: skip
        assert handle.send("Build it")["status"] == "queued"

        def types() -> list[str]:
            return [event["type"] for event in handle.events(0, 1000)]

        wait_until(lambda: EventTypes.TURN_FINISHED in types(), 120, "the turn to finish", worker)
        assert EventTypes.PAGE_CHANGED in types()
        assert "Rosa" in handle.draft()["html"]
    finally:
        worker.end()
        web.close()
