"""Shared fixtures: storage engines on SQLite (always) and PostgreSQL (when configured)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

# Shared contract classes live in tests/support: give their asserts pytest's
# detailed failure messages too. Must run before they are imported.
pytest.register_assert_rewrite("tests.support")

import os  # noqa: E402

import sqlalchemy as sa  # noqa: E402
from hypothesis import settings  # noqa: E402
from tests.support.databases import postgres_schema, postgres_url, sqlite_engine_at  # noqa: E402

from charlotte.storage import create_tables  # noqa: E402

# No per-example deadline: a loaded 2-core machine must not fail a property
# on timing. In CI the examples are derandomised, so a run is repeatable and a
# submission never fails on a seed; locally each run explores new examples.
settings.register_profile("dev", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture
def sqlite_blank_engine(tmp_path: Path) -> Iterator[sa.Engine]:
    """A SQLite engine on an empty temp file (no tables)."""
    engine = sqlite_engine_at(tmp_path / "charlotte.db")
    yield engine
    engine.dispose()


@pytest.fixture
def sqlite_engine(sqlite_blank_engine: sa.Engine) -> sa.Engine:
    """A SQLite engine on a temp file with charlotte's tables created."""
    create_tables(sqlite_blank_engine)
    return sqlite_blank_engine


@pytest.fixture
def postgres_blank_engine() -> Iterator[sa.Engine]:
    """A PostgreSQL engine on a fresh, empty schema (skips without a server URL)."""
    with postgres_schema(postgres_url()) as engine:
        yield engine


@pytest.fixture(scope="module")
def postgres_engine() -> Iterator[sa.Engine]:
    """A PostgreSQL engine with charlotte's tables in a schema shared by one test module.

    Tests using it must pick their own session ids and page keys
    (``tests.support.databases.unique``).
    """
    with postgres_schema(postgres_url()) as engine:
        create_tables(engine)
        yield engine


@pytest.fixture
def sqlite_blank_engine_factory(tmp_path: Path) -> Iterator[Callable[[], sa.Engine]]:
    """Makes SQLite engines on fresh, empty temp files."""
    made: list[sa.Engine] = []

    def make() -> sa.Engine:
        made.append(sqlite_engine_at(tmp_path / f"blank-{len(made)}.db"))
        return made[-1]

    yield make
    for engine in made:
        engine.dispose()


@pytest.fixture
def postgres_blank_engine_factory() -> Iterator[Callable[[], sa.Engine]]:
    """Makes PostgreSQL engines on fresh, empty schemas (skips without a server URL)."""
    url = postgres_url()
    with ExitStack() as stack:
        yield lambda: stack.enter_context(postgres_schema(url))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """In CI a skipped test is a failure: CI installs and starts everything the suite needs."""
    outcome = yield
    report = outcome.get_result()
    if os.environ.get("CI") and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.longrepr = f"skipped in CI, where nothing may be: {reason}"
