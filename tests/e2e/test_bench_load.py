"""The load test's harness itself, at a tiny size: every person's path ends clean.

``bench/load.py`` is a benchmark (figures, not pass/fail); this only checks
that its people still walk the whole path (open, stream, three turns, a hand
edit, approve, publish) with no error and no seq gap, and that it ends every
process it starts, so ``make bench`` keeps measuring what it says.
"""

from __future__ import annotations

import os

import pytest
from bench import load

pytestmark = pytest.mark.timeout(180)


def test_the_embedded_path_under_a_few_people() -> None:
    before = set(load.descendants(os.getpid()))
    found = load.measure(4, "embedded")
    assert found["errors"] == 0, found["error_samples"]
    assert found["seq_gaps"] == 0 and found["turns"] == 12
    assert set(found["routes_ms"]) >= {"POST /sessions", "POST /sessions/{id}/turns",
                                        "POST /sessions/{id}/edits", "POST /change-set/approve",
                                        "POST /sessions/{id}/publish"}  # fmt: skip
    assert found["stream_ms"]["p95"] is not None
    assert set(load.descendants(os.getpid())) <= before  # the server is gone


@pytest.mark.postgres
@pytest.mark.redis
def test_the_postgres_and_celery_path_under_a_few_people() -> None:
    if not os.environ.get("CHARLOTTE_TEST_DATABASE_URL") or not os.environ.get("CHARLOTTE_TEST_REDIS_URL"):
        pytest.skip("needs CHARLOTTE_TEST_DATABASE_URL and CHARLOTTE_TEST_REDIS_URL")
    before = set(load.descendants(os.getpid()))
    found = load.measure(4, "pg", workers=1, broker_db=11)  # not the benchmark's own
    assert found["errors"] == 0, found["error_samples"]
    assert found["seq_gaps"] == 0 and found["turns"] == 12
    assert found["db_connections_peak"] > 0
    assert set(load.descendants(os.getpid())) <= before  # the server and the worker are gone
