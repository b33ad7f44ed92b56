"""NUL characters on PostgreSQL, whose text columns cannot hold one: a coded refusal, never a 500.

Through the real ``Api`` and through the Python API, on a charlotte whose
database is PostgreSQL (a schema of its own). Each refusal names the field
and stores nothing; the session stays usable. Needs
``CHARLOTTE_TEST_DATABASE_URL`` (skipped with the reason otherwise).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from tests.support.app_harness import AppHarness
from tests.support.databases import named_postgres_schema, postgres_url

from charlotte.errors import MESSAGES, Refused
from charlotte.http.api import Response
from charlotte.http.asgi import create_app
from charlotte.storage import read_connection
from charlotte.storage.tables import sessions as sessions_table

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppHarness]:
    with named_postgres_schema(postgres_url(), "charlotte_nul") as (schema, engine):
        engine.dispose()
        harness = AppHarness(
            Path(tmp_path_factory.mktemp("nul")) / "unused.db",
            database_url=postgres_url(),
            database_schema=schema,
        )
        try:
            yield harness
        finally:
            harness.close()


def rows(app: AppHarness) -> int:
    with read_connection(app.charlotte.engine) as conn:
        return len(conn.execute(sessions_table.select()).all())


def assert_refused(response: Response, status: int, code: str, field: str | None) -> None:
    assert response.status == status, response.json
    error = response.json["error"]
    assert (error["code"], error["message"], error.get("field")) == (code, MESSAGES[code], field)


def last_seq(app: AppHarness, session_id: str) -> int:
    seq: int = app.call("GET", f"/sessions/{session_id}").json["session"]["last_seq"]
    return seq


@pytest.mark.parametrize(
    ("field", "body"),
    [
        ("page", {"page": "ho\x00me", "brief": "A page"}),
        ("brief", {"page": "home", "brief": "A\x00page"}),
        ("facts", {"page": "home", "brief": "A page", "facts": {"pho\x00ne": "555"}}),
        ("facts", {"page": "home", "brief": "A page", "facts": {"phone": "5\x0055"}}),
    ],
    ids=["page", "brief", "fact-name", "fact-value"],
)
def test_a_nul_in_a_session_opening_is_400_naming_the_field(app: AppHarness, field: str, body: dict[str, Any]) -> None:
    before = rows(app)

    # A page key has a shape of its own (charlotte.access.PAGE_KEY): a NUL is outside it.
    code = "invalid_page_key" if field == "page" else "invalid_request"
    assert_refused(app.call("POST", "/sessions", body), 400, code, field)
    assert rows(app) == before


def test_a_nul_in_a_turn_message_is_400_and_the_session_stays_usable(app: AppHarness) -> None:
    session_id = app.open(page="nul-message")
    before = last_seq(app, session_id)

    response = app.call("POST", f"/sessions/{session_id}/turns", {"message": "Make it\x00 red"})

    assert_refused(response, 400, "invalid_request", "message")
    assert last_seq(app, session_id) == before
    assert app.run_turn(session_id).status == 202
    assert app.call("GET", f"/sessions/{session_id}/events").status == 200


def test_a_nul_in_a_session_id_is_404_on_every_route_and_the_stream(app: AppHarness) -> None:
    session_id = app.open(page="nul-path")
    for method, path in (("GET", "/sessions/a\x00b"), ("GET", f"/sessions/{session_id}\x00/events"),
                         ("POST", f"/sessions/{session_id}\x00/publish")):  # fmt: skip
        assert_refused(app.call(method, path), 404, "not_found", None)
    assert app.charlotte.find("a\x00b", "acme", user="ann") is None
    app.charlotte.resolve_user_using(lambda request: "ann").resolve_tenant_using(lambda request: "acme")
    with TestClient(create_app(app.charlotte), raise_server_exceptions=False) as client:
        for path in (f"/sessions/{session_id}%00/stream?limit=1", f"/sessions/{session_id}%00/draft"):
            assert client.get(path).status_code == 404, path


def test_a_nul_in_the_hosts_user_or_tenant_is_refused(app: AppHarness) -> None:
    session_id = app.open(page="nul-host")
    before = last_seq(app, session_id)

    sent = app.call("POST", f"/sessions/{session_id}/turns", {"message": "Hi"}, user="ann\x00")
    assert_refused(sent, 400, "invalid_request", "user")
    assert_refused(app.call("GET", f"/sessions/{session_id}", tenant="ac\x00me"), 404, "not_found", None)
    opened = app.call("POST", "/sessions", {"page": "x", "brief": "y"}, tenant="ac\x00me")
    assert_refused(opened, 400, "invalid_request", "tenant")
    assert last_seq(app, session_id) == before


def test_the_python_api_refuses_a_nul_with_a_code(app: AppHarness) -> None:
    session_id = app.open(page="nul-python")
    handle = app.charlotte.find(session_id, "acme", user="ann")
    assert handle is not None

    with pytest.raises(Refused) as sent:
        handle.send("Make it\x00 red")
    assert (sent.value.code, sent.value.detail) == ("invalid_request", {"field": "message"})
    opening = app.charlotte.for_user("ann").tenant("acme").page("a\x00").brief("A page")
    with pytest.raises(Refused) as opened:
        opening.open()
    assert (opened.value.code, opened.value.detail) == ("invalid_page_key", {"field": "page"})
    assert handle.send("Make it red")["status"] in {"queued", "running", "finished", "failed"}
