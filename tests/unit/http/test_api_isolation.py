"""Tenant isolation: every session route, given another tenant's session id, is 404 and nothing else."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from tests.support.app_harness import AppHarness

from charlotte.http.api import error_body
from charlotte.http.routes import ROUTES

#: A body that would succeed for the owner, per session route.
BODIES: dict[str, Any] = {
    "send": {"message": "Show me everything"},
    "edit": {"basedOn": 2, "ops": [{"t": "remove_node", "id": "hero"}]},
}
SESSION_ROUTES = [route for route in ROUTES if "{id}" in route.template]


@pytest.fixture(scope="module")
def owned(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[AppHarness, list[str]]]:
    app = AppHarness(tmp_path_factory.mktemp("isolation") / "api.db")
    plain = app.open(tenant="acme")
    app.run_turn(plain)
    assert app.call("POST", f"/sessions/{plain}/publish").status == 200
    gated = app.open(tenant="acme", approve_on_save=True, page="about")
    app.run_turn(gated)
    yield app, [plain, gated]
    app.close()


def test_the_table_covers_every_session_route() -> None:
    assert {route.action for route in SESSION_ROUTES} == {
        "status", "send", "stop", "events", "messages", "draft", "edit", "change_set",
        "approve", "reject", "publish", "published",
    }


def _snapshot(app: AppHarness, session_id: str) -> str:
    handle = app.charlotte.find(session_id, "acme", user="ann")
    assert handle is not None
    status = handle.status()
    status.pop("updated_at")
    return json.dumps(
        [status, handle.events(0, 1000), handle.messages(), handle.draft(), handle.change_set(),
         handle.published()],
        sort_keys=True,
    )


@pytest.mark.parametrize("route", SESSION_ROUTES, ids=lambda r: f"{r.method} {r.template}")
@pytest.mark.parametrize("tenant", ["globex", "ACME", "acme "])
def test_another_tenants_session_is_not_found(
    owned: tuple[AppHarness, list[str]], route: Any, tenant: str
) -> None:
    app, session_ids = owned
    for session_id in session_ids:
        before = _snapshot(app, session_id)
        path = route.template.replace("{id}", session_id)
        response = app.call(
            route.method, path, BODIES.get(route.action), query={"after": "0"}, tenant=tenant
        )
        assert response.status == 404
        assert response.json == error_body("not_found")
        assert response.headers == {}
        assert _snapshot(app, session_id) == before


def test_the_owner_still_sees_everything(owned: tuple[AppHarness, list[str]]) -> None:
    # The same calls succeed for the owning tenant: the 404s above are about the tenant.
    app, (plain, gated) = owned
    assert app.call("GET", f"/sessions/{plain}/published").status == 200
    assert app.call("GET", f"/sessions/{gated}/change-set").json["change_set"] is not None


def test_find_returns_none_for_another_tenant(owned: tuple[AppHarness, list[str]]) -> None:
    app, session_ids = owned
    for session_id in session_ids:
        assert app.charlotte.find(session_id, "globex", user="ann") is None
        assert app.charlotte.find(session_id, "acme", user="ann") is not None
