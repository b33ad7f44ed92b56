"""schemathesis against the OpenAPI document, through the Starlette app in process: no 500s.

Requests are generated from ``GET /openapi.json`` for every documented
operation (valid and invalid inputs alike) and sent to the real app, whose
host callbacks accept a user and a tenant from headers. Kept bounded in time:
a few examples per operation. The endless live stream is left to the stream
tests (an in-process client cannot read it to its end).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.applications import Starlette
from starlette.requests import Request
from tests.support.app_harness import AppHarness

from charlotte.http.asgi import create_app
from charlotte.runtime.notifier import Notifier

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

HEADERS = {"X-User": "ann", "X-Tenant": "acme"}
#: Every POST is sent as JSON, bodiless ones too (the cross-site rule; charlotte.http.csrf).
JSON: Final = {"Content-Type": "application/json"}
EXAMPLES = 40


def _header(request: Any, name: str) -> str | None:
    assert isinstance(request, Request)
    return request.headers.get(name)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Starlette, str]]:
    harness = AppHarness(Path(tmp_path_factory.mktemp("schemathesis")) / "api.db")
    charlotte = harness.charlotte
    charlotte.resolve_user_using(lambda request: _header(request, "x-user"))
    charlotte.resolve_tenant_using(lambda request: _header(request, "x-tenant"))
    notifier = Notifier(charlotte.engine)
    # Half the generated requests name this real session instead of a random id.
    session_id = harness.open()
    try:
        yield create_app(charlotte, notifier=notifier, heartbeat_seconds=0.05), session_id
    finally:
        notifier.close()
        harness.close()


def _operations(app: Starlette) -> list[Any]:
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    found = []
    for result in schema.get_all_operations():
        operation = result.ok()
        if not operation.path.endswith("/stream"):
            found.append(operation)
    return found


def test_the_document_covers_every_route_of_the_app(served: tuple[Starlette, str]) -> None:
    app, _session_id = served
    labels = {f"{operation.method.upper()} {operation.path}" for operation in _operations(app)}
    assert "POST /sessions" in labels
    assert "POST /sessions/{id}/edits" in labels
    assert len(labels) >= 12


def test_no_generated_request_gets_a_500(served: tuple[Starlette, str]) -> None:
    app, session_id = served
    failures: list[str] = []
    calls: list[int] = []
    for operation in _operations(app):
        strategy = operation.as_strategy()

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(case=strategy, signed_in=st.booleans(), real_session=st.booleans())
        def check(case: Any, signed_in: bool, real_session: bool) -> None:
            if real_session and case.path_parameters and "id" in case.path_parameters:
                case.path_parameters["id"] = session_id
            response = case.call(headers={**HEADERS, **JSON} if signed_in else JSON)
            calls.append(response.status_code)
            if response.status_code >= 500:
                failures.append(f"{case.method} {case.formatted_path} -> {response.status_code}")

        check()
    assert failures == []
    # The requests reached the routes: some succeeded, some were refused.
    assert any(status < 300 for status in calls)
    assert any(400 <= status < 500 for status in calls)
