"""A turn sent while the Celery broker is down: 503 ``queue_unavailable`` over HTTP, the session idle.

A real ``Charlotte`` with ``queue="celery"`` whose broker URL names a loopback
port that refuses every connection (``refusing_broker``), behind the real
Starlette app; on a SQLite file and on PostgreSQL (a schema of its own, when
``CHARLOTTE_TEST_DATABASE_URL`` is set). The Django adapter's answer is
``tests/django_project/test_api.py``'s.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.requests import Request
from starlette.testclient import TestClient
from tests.support.app_harness import AppHarness
from tests.support.celery_harness import refusing_broker
from tests.support.databases import POSTGRES_ENV, named_postgres_schema

from charlotte.http.api import error_body
from charlotte.http.asgi import create_app

pytestmark = pytest.mark.timeout(120)

HEADERS = {"X-User": "ann", "X-Tenant": "acme"}


@pytest.fixture(params=["sqlite", "postgresql"])
def harness(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[AppHarness]:
    with refusing_broker() as broker:
        if request.param == "sqlite":
            made = AppHarness(tmp_path / "charlotte.db", queue="celery", broker_url=broker)
            try:
                yield made
            finally:
                made.charlotte.close()
            return
        url = os.environ.get(POSTGRES_ENV, "").strip()
        if not url:
            pytest.skip(f"{POSTGRES_ENV} is not set: PostgreSQL variant skipped")
        with named_postgres_schema(url, "charlotte_broker_down") as (schema, _engine):
            made = AppHarness(
                tmp_path / "unused.db",
                queue="celery",
                broker_url=broker,
                database_url=url,
                database_schema=schema,
            )
            try:
                yield made
            finally:
                made.charlotte.close()


def _served(harness: AppHarness) -> TestClient:
    charlotte = harness.charlotte

    def user(request: Request) -> str | None:
        return request.headers.get("x-user")

    def tenant(request: Request) -> str | None:
        return request.headers.get("x-tenant")

    charlotte.resolve_user_using(user)
    charlotte.resolve_tenant_using(tenant)
    return TestClient(create_app(charlotte), raise_server_exceptions=False)


def test_a_turn_sent_while_the_broker_is_down_is_503_queue_unavailable(
    harness: AppHarness,
) -> None:
    client = _served(harness)
    opened = client.post("/sessions", json={"page": "home", "brief": "A bakery"}, headers=HEADERS)
    assert opened.status_code == 201, opened.text
    sid = opened.json()["session"]["id"]

    sent = client.post(f"/sessions/{sid}/turns", json={"message": "Build it"}, headers=HEADERS)

    assert sent.status_code == 503, sent.text
    assert sent.json() == error_body("queue_unavailable")
    assert "127.0.0.1" not in sent.text and "X-Correlation-Id" not in sent.headers
    # The turn ended failed with that code, and the session takes the next one.
    events = client.get(f"/sessions/{sid}/events", headers=HEADERS).json()["events"]
    queued = [e["payload"]["turn_id"] for e in events if e["type"] == "turn.queued"]
    assert [e["payload"] for e in events if e["type"] == "run.failed"] == [
        {"turn_id": queued[-1], "code": "queue_unavailable"}
    ]
    status = client.get(f"/sessions/{sid}", headers=HEADERS).json()["session"]["status"]
    assert status == "idle"
    again = client.post(f"/sessions/{sid}/turns", json={"message": "Again"}, headers=HEADERS)
    assert again.status_code == 503 and again.json() == error_body("queue_unavailable")
