"""Cross-site request forgery through the real ASGI app: another site's page cannot write.

A page on another site can make a signed-in person's browser POST here with
their cookies, but without a preflight only as a CORS "simple request": no
body, or a ``text/plain``, form or multipart one. Every state-changing route
(taken from the router, not copied) must refuse those with 415, empty bodies
included, and refuse what a browser marks as cross-site (``Origin``,
``Sec-Fetch-Site``) with 403 ``cross_site`` unless the host trusts the
origin; and a refused request changes nothing. Reads stay open: another
site's page cannot read their answers.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import pytest
from starlette.requests import Request
from starlette.testclient import TestClient
from tests.support.app_harness import AppHarness
from tests.support.runner_harness import apply_step

from charlotte.errors import MESSAGES
from charlotte.http.asgi import create_app
from charlotte.http.routes import ROUTES, Route
from charlotte.storage import read_connection
from charlotte.storage.tables import sessions as sessions_table
from charlotte.testing import ToolCall

#: The TestClient's own origin (``Host: testserver`` over http).
OWN_ORIGIN: Final = "http://testserver"
TRUSTED: Final = "https://admin.example"
HEADERS: Final = {"X-User": "ann", "X-Tenant": "acme"}
JSON: Final = "application/json"
WRITES: Final = [route for route in ROUTES if route.changes_state]
READS: Final = [route for route in ROUTES if not route.changes_state]

#: The media types a page on another site can send without a preflight (None: no header).
SIMPLE_TYPES: Final = [None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]


def _header(request: Request, name: str) -> str | None:
    return request.headers.get(name)


@dataclass
class Site:
    """A charlotte behind its Starlette app, trusting ``TRUSTED``, and a client on it."""

    harness: AppHarness
    client: TestClient

    def gated_session(self) -> str:
        """A session with an open change set after one finished turn: every write has work to do."""
        session_id = self.harness.open(approve_on_save=True, page=f"p{len(self.sessions())}")
        assert self.harness.run_turn(session_id).status == 202
        # A draft with content (an empty page is never published), then a set open again.
        assert self.harness.call("POST", f"/sessions/{session_id}/change-set/approve").status == 200
        title = {"t": "set_meta", "patch": {"title": "Rosa"}}
        assert self.harness.run_turn(session_id, (ToolCall("cms_apply", apply_step([title])),)).status == 202
        assert self.harness.call("GET", f"/sessions/{session_id}/change-set").json["change_set"] is not None
        # A person's own edit of the draft too: what edits/undo takes back.
        revision = self.harness.call("GET", f"/sessions/{session_id}").json["session"]["revision"]
        describe = {"t": "set_style", "id": "hero", "breakpoint": "base", "patch": {"color": "#222222"}}
        edited = self.harness.call("POST", f"/sessions/{session_id}/edits", {"basedOn": revision, "ops": [describe]})
        assert edited.status == 200, edited.json
        return session_id

    def sessions(self) -> list[Any]:
        with read_connection(self.harness.charlotte.engine) as conn:
            return list(conn.execute(sessions_table.select().order_by(sessions_table.c.id)).all())

    def state(self, session_id: str) -> tuple[Any, ...]:
        """Everything a write could change: sessions, the session's log, draft, change set, published copy."""
        call = self.harness.call
        status = call("GET", f"/sessions/{session_id}").json["session"]
        events = call("GET", f"/sessions/{session_id}/events", query={"limit": "1000"}).json["events"]
        change_set = call("GET", f"/sessions/{session_id}/change-set").json
        published = call("GET", f"/sessions/{session_id}/published")
        return (
            self.sessions(), status["revision"], status["status"], status["stop_requested"],
            [e["seq"] for e in events], change_set, published.status,
        )  # fmt: skip

    def request(self, route: Route, session_id: str, body: bytes, headers: dict[str, str]) -> Any:
        turns = self.harness.call("GET", f"/sessions/{session_id}/messages").json["turns"]
        page = self.harness.call("GET", f"/sessions/{session_id}").json["session"]["page"]
        path = route.template.replace("{id}", session_id).replace("{turn_id}", turns[-1]["turn_id"])
        path = path.replace("{page}", page)  # the published page's routes: the session's page
        query = {"list_sessions": {"page": "p0"}, "palette_section": {"kind": "gallery"}}.get(route.action)
        return self.client.request(
            route.method, path, content=body, headers={**HEADERS, **headers}, params=query
        )


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    harness = AppHarness(Path(tmp_path_factory.mktemp("cross-site")) / "app.db", trusted_origins=(TRUSTED,))
    harness.charlotte.resolve_user_using(lambda r: _header(r, "x-user"))
    harness.charlotte.resolve_tenant_using(lambda r: _header(r, "x-tenant"))
    with TestClient(create_app(harness.charlotte), raise_server_exceptions=False) as client:
        yield Site(harness, client)
    harness.close()


def valid_body(route: Route, site: Site, session_id: str) -> bytes:
    """A body the route accepts from a same-origin JSON client (empty for bodiless routes)."""
    if route.action == "open_session":
        return json.dumps({"page": "forged", "brief": "A page"}).encode()
    if route.action == "send":
        return json.dumps({"message": "Make it red"}).encode()
    if route.action == "edit":
        revision = site.harness.call("GET", f"/sessions/{session_id}").json["session"]["revision"]
        op = {"t": "set_meta", "patch": {"title": "Forged"}}
        return json.dumps({"basedOn": revision, "ops": [op]}).encode()
    revision = site.harness.call("GET", f"/sessions/{session_id}").json["session"]["revision"]
    if route.action == "restore":
        return json.dumps({"revision": 0, "basedOn": revision}).encode()
    if route.action == "reset":
        assert site.harness.call("POST", f"/sessions/{session_id}/publish").status == 200
        return json.dumps({"basedOn": revision}).encode()
    if route.action == "reject_nodes":
        return json.dumps({"nodes": ["#meta"]}).encode()
    if route.action == "undo_edit":
        groups = site.harness.call("GET", f"/sessions/{session_id}/history").json["groups"]
        mine = next(g for g in groups if g["kind"] == "person")
        return json.dumps({"from": mine["first_revision"], "to": mine["last_revision"]}).encode()
    assert not route.takes_body or not route.body_required, f"no valid body for {route}"
    return b""


def assert_error(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json() == {"error": {"code": code, "message": MESSAGES[code]}}


def test_the_writes_are_every_post_of_the_router() -> None:
    assert {route.method for route in WRITES} == {"POST"}
    assert {"approve", "reject", "publish", "stop", "send", "edit", "open_session"} <= {r.action for r in WRITES}


@pytest.mark.parametrize("content_type", SIMPLE_TYPES, ids=lambda t: str(t).split(";")[0])
@pytest.mark.parametrize("route", WRITES, ids=lambda r: r.action)
def test_a_bodiless_simple_request_is_415_and_changes_nothing(site: Site, route: Route, content_type: str | None) -> None:
    session_id = site.gated_session()
    before = site.state(session_id)
    headers = {} if content_type is None else {"Content-Type": content_type}

    response = site.request(route, session_id, b"", headers)

    assert_error(response, 415, "unsupported_media_type")
    assert site.state(session_id) == before


@pytest.mark.parametrize("content_type", SIMPLE_TYPES, ids=lambda t: str(t).split(";")[0])
@pytest.mark.parametrize("route", WRITES, ids=lambda r: r.action)
def test_a_json_text_sent_as_a_simple_type_is_415_and_changes_nothing(
    site: Site, route: Route, content_type: str | None
) -> None:
    # The classic trick: a form or text/plain body that happens to read as JSON.
    session_id = site.gated_session()
    body = valid_body(route, site, session_id) or b"{}"
    before = site.state(session_id)
    headers = {} if content_type is None else {"Content-Type": content_type}

    response = site.request(route, session_id, body, headers)

    assert_error(response, 415, "unsupported_media_type")
    assert site.state(session_id) == before


CROSS_SITE: Final = [
    {"Origin": "https://evil.example"},
    {"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"},
    {"Origin": "null"},
    {"Origin": "http://testserver.evil.example"},
    {"Origin": "https://testserver"},  # another scheme is another origin
    {"Origin": "https://admin.example.evil"},
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},
    {"Origin": OWN_ORIGIN, "Sec-Fetch-Site": "cross-site"},
    {"Origin": "not an origin"},
]


@pytest.mark.parametrize("headers", CROSS_SITE, ids=lambda h: "+".join(f"{k}={v}" for k, v in h.items()))
@pytest.mark.parametrize("route", WRITES, ids=lambda r: r.action)
def test_a_write_a_browser_sent_from_another_site_is_403_and_changes_nothing(
    site: Site, route: Route, headers: dict[str, str]
) -> None:
    session_id = site.gated_session()
    body = valid_body(route, site, session_id)
    before = site.state(session_id)

    response = site.request(route, session_id, body, {"Content-Type": JSON, **headers})

    assert_error(response, 403, "cross_site")
    assert site.state(session_id) == before


SAME_SITE_OR_TRUSTED: Final = [
    {},
    {"Origin": OWN_ORIGIN},
    {"Origin": OWN_ORIGIN, "Sec-Fetch-Site": "same-origin"},
    {"Sec-Fetch-Site": "same-origin"},
    {"Sec-Fetch-Site": "none"},
    {"Origin": TRUSTED, "Sec-Fetch-Site": "cross-site"},
    {"Origin": "https://ADMIN.example:443", "Sec-Fetch-Site": "same-site"},
    # Behind a proxy that ends TLS the server sees http and another Host; the
    # browser still says the page is its own.
    {"Origin": "https://cms.example", "Sec-Fetch-Site": "same-origin"},
]


@pytest.mark.parametrize("headers", SAME_SITE_OR_TRUSTED, ids=lambda h: "+".join(f"{k}={v}" for k, v in h.items()) or "none")
@pytest.mark.parametrize("route", WRITES, ids=lambda r: r.action)
def test_a_json_write_from_the_own_origin_or_a_trusted_one_is_served(
    site: Site, route: Route, headers: dict[str, str]
) -> None:
    session_id = site.gated_session()
    body = valid_body(route, site, session_id)

    response = site.request(route, session_id, body, {"Content-Type": JSON, **headers})

    assert response.status_code == route.success, response.text


@pytest.mark.parametrize("route", READS, ids=lambda r: r.action)
def test_reads_answer_whatever_the_origin(site: Site, route: Route) -> None:
    session_id = site.gated_session()
    site.harness.call("POST", f"/sessions/{session_id}/publish")
    headers = {"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}

    response = site.request(route, session_id, b"", headers)

    assert response.status_code == route.success, response.text
