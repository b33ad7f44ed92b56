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
    "restore": {"revision": 0, "basedOn": 2},
    "reset": {"basedOn": 2},
    "reject_nodes": {"nodes": ["hero"]},
    "undo_edit": {"from": 1, "to": 1},
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
        "approve", "reject", "publish", "published", "undo_turn", "history", "restore", "reset",
        "publish_preview", "reject_nodes", "undo_edit", "palette", "palette_section",
    }


def _snapshot(app: AppHarness, session_id: str) -> str:
    handle = app.charlotte.find(session_id, "acme", user="ann")
    assert handle is not None
    status = handle.status()
    status.pop("updated_at")
    return json.dumps(
        [status, handle.events(0, 1000), handle.messages(), handle.draft(), handle.change_set(),
         handle.published(), handle.history(), handle.publish_preview()],
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
        turn_id = app.charlotte.find(session_id, "acme", user="ann").messages()[-1]["turn_id"]  # type: ignore[union-attr]
        path = route.template.replace("{id}", session_id).replace("{turn_id}", turn_id)
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


def test_the_session_list_shows_only_the_requests_tenant(owned: tuple[AppHarness, list[str]]) -> None:
    app, (plain, gated) = owned
    assert [row["id"] for row in app.call("GET", "/sessions", query={"page": "home"}).json["sessions"]] == [plain]
    assert [row["id"] for row in app.call("GET", "/sessions", query={"page": "about"}).json["sessions"]] == [gated]
    for tenant in ("globex", "ACME", "acme "):
        for page in ("home", "about"):
            listed = app.call("GET", "/sessions", query={"page": page}, tenant=tenant)
            assert listed.status == 200 and listed.json == {"sessions": [], "next_before": None}
        # Another tenant's session id as the cursor names nothing either.
        assert app.call("GET", "/sessions", query={"page": "home", "before": plain}, tenant=tenant).json["sessions"] == []


def test_find_returns_none_for_another_tenant(owned: tuple[AppHarness, list[str]]) -> None:
    app, session_ids = owned
    for session_id in session_ids:
        assert app.charlotte.find(session_id, "globex", user="ann") is None
        assert app.charlotte.find(session_id, "acme", user="ann") is not None
