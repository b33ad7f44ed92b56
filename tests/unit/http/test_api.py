"""The HTTP API through its real router: every route's success and each error status."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.support.app_harness import WRITE_HERO, AppHarness

from charlotte.errors import MESSAGES, Refused
from charlotte.http.api import JSON_REQUEST, Api, Response
from charlotte.http.routes import ROUTES
from charlotte.page.css import emit_css

TITLE_ID = "title"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[AppHarness]:
    harness = AppHarness(tmp_path / "api.db")
    yield harness
    harness.close()


def assert_error(response: Response, status: int, code: str) -> dict[str, Any]:
    assert response.status == status, response.json
    error: dict[str, Any] = response.json["error"]
    assert error["code"] == code
    assert error["message"] == MESSAGES[code]
    assert set(response.json) == {"error"}
    return error


# -- POST /sessions -------------------------------------------------------------------


def test_open_session_answers_201_with_the_session(app: AppHarness) -> None:
    response = app.call(
        "POST", "/sessions", {"page": "home", "brief": "Bakery", "facts": {"phone": "555"}}
    )
    assert response.status == 201
    session = response.json["session"]
    assert session["tenant"] == "acme" and session["page"] == "home"
    assert session["status"] == "idle" and session["revision"] == 0
    assert session["facts"] == {"phone": "555"} and session["approve_on_save"] is False


@pytest.mark.parametrize(
    "body",
    [
        {"brief": "b"},
        {"page": 5, "brief": "b"},
        {"page": "home", "brief": ""},
        {"page": "home", "brief": "b" * 20_001},
        {"page": "home", "brief": "b", "facts": {"k": 1}},
        {"page": "home", "brief": "b", "facts": {f"k{i}": "v" for i in range(101)}},
        {"page": "home", "brief": "b", "facts": ["x"]},
        {"page": "home", "brief": "b", "approve_on_save": "yes"},
        {"page": "home", "brief": "b", "tenant": "other"},
        ["page"],
    ],
)
def test_open_session_refuses_bad_bodies_with_400(app: AppHarness, body: Any) -> None:
    assert_error(app.call("POST", "/sessions", body), 400, "invalid_request")


def test_open_session_refuses_bytes_that_are_not_json(app: AppHarness) -> None:
    for raw in (b"{", b"\xff\xfe", b'{"page": NaN}', b"[" * 10_000 + b"]" * 10_000):
        assert_error(app.call("POST", "/sessions", raw), 400, "invalid_json")


def test_bodies_nested_deeper_than_64_are_invalid_json(app: AppHarness) -> None:
    assert_error(app.call("POST", "/sessions", b"[" * 65 + b"]" * 65), 400, "invalid_json")
    assert_error(app.call("POST", "/sessions", b"[" * 64 + b"]" * 64), 400, "invalid_request")


def test_open_session_needs_a_user_a_tenant_and_the_open_ability(app: AppHarness) -> None:
    body = {"page": "home", "brief": "b"}
    assert_error(app.call("POST", "/sessions", body, user=None), 401, "unauthorized")
    assert_error(app.call("POST", "/sessions", body, tenant=None), 403, "forbidden")
    app.charlotte.authorize_using(lambda user, ability, session: ability != "open")
    assert_error(app.call("POST", "/sessions", body), 403, "forbidden")


def test_a_body_over_the_limit_is_413(app: AppHarness) -> None:
    api = Api(app.charlotte, max_body=100)
    response = api.handle("POST", "/sessions", {}, b" " * 101, "ann", "acme", envelope=JSON_REQUEST)
    assert_error(response, 413, "body_too_large")
    assert_error(app.call("POST", "/sessions", b" " * (256 * 1024 + 1)), 413, "body_too_large")


# -- routing ---------------------------------------------------------------------------


def test_unknown_routes_are_404_and_wrong_methods_405(app: AppHarness) -> None:
    for path in ("/", "/nope", "/sessions/", "/sessions/x/nope", "sessions", "/sessions//draft"):
        assert_error(app.call("GET", path), 404, "not_found")
    response = app.call("DELETE", "/sessions/abc")
    assert_error(response, 405, "method_not_allowed")
    assert response.headers["Allow"] == "GET"
    assert response.json["error"]["allow"] == "GET"
    # ``/sessions`` lists a page's sessions (GET) and opens one (POST): both in Allow.
    listed = app.call("DELETE", "/sessions")
    assert_error(listed, 405, "method_not_allowed")
    assert listed.headers["Allow"] == listed.json["error"]["allow"] == "GET, POST"
    assert "Allow header" in listed.json["error"]["message"]
    undo = app.call("GET", "/sessions/abc/turns/t1/undo")
    assert_error(undo, 405, "method_not_allowed")
    assert undo.headers["Allow"] == "POST"


def test_openapi_json_is_served_without_a_user(app: AppHarness) -> None:
    response = app.call("GET", "/openapi.json", user=None, tenant=None)
    assert response.status == 200
    assert response.json["openapi"].startswith("3.1")


# -- GET /sessions/{id} ----------------------------------------------------------------


def test_get_session_and_its_errors(app: AppHarness) -> None:
    sid = app.open()
    response = app.call("GET", f"/sessions/{sid}")
    assert response.status == 200 and response.json["session"]["id"] == sid
    assert_error(app.call("GET", f"/sessions/{sid}", user=None), 401, "unauthorized")
    assert_error(app.call("GET", "/sessions/unknown"), 404, "not_found")
    assert_error(app.call("GET", f"/sessions/{sid}", tenant="other"), 404, "not_found")
    app.charlotte.authorize_using(lambda user, ability, session: ability != "view")
    assert_error(app.call("GET", f"/sessions/{sid}"), 403, "forbidden")


# -- POST /sessions/{id}/turns ---------------------------------------------------------


def test_send_answers_202_with_the_turn(app: AppHarness) -> None:
    sid = app.open()
    response = app.run_turn(sid)
    assert response.status == 202
    turn = response.json["turn"]
    assert turn["session_id"] == sid and turn["status"] == "finished"
    assert app.call("GET", f"/sessions/{sid}/draft").json["revision"] == 2


def test_send_refuses_bad_messages_and_busy_sessions(app: AppHarness) -> None:
    sid = app.open()
    path = f"/sessions/{sid}/turns"
    for body in ({}, {"message": 3}, {"message": ""}, {"message": "x" * 20_001}, {"message": "a", "x": 1}):
        assert_error(app.call("POST", path, body), 400, "invalid_request")
    assert_error(app.call("POST", path, b"nope"), 400, "invalid_json")
    # A queue that never runs what it gets leaves the turn queued: the session is busy.
    app.charlotte.turns._queue = _Parked()  # type: ignore[assignment]
    assert app.call("POST", path, {"message": "first"}).json["turn"]["status"] == "queued"
    assert_error(app.call("POST", path, {"message": "second"}), 409, "busy")
    app.charlotte.authorize_using(lambda user, ability, session: ability != "send")
    assert_error(app.call("POST", path, {"message": "x"}), 403, "forbidden")


class _Parked:
    def __init__(self) -> None:
        self.ids: list[str] = []

    def enqueue(self, turn_id: str) -> None:
        self.ids.append(turn_id)


# -- POST /sessions/{id}/stop ----------------------------------------------------------


def test_stop_answers_whether_a_stop_was_requested(app: AppHarness) -> None:
    sid = app.open()
    response = app.call("POST", f"/sessions/{sid}/stop")
    assert response.status == 200 and response.json == {"stop_requested": False, "status": "idle"}
    app.charlotte.turns._queue = _Parked()  # type: ignore[assignment]
    app.call("POST", f"/sessions/{sid}/turns", {"message": "go"})
    response = app.call("POST", f"/sessions/{sid}/stop", {})
    # A queued turn never started: it ends at once and the session is free.
    assert response.json == {"stop_requested": True, "status": "idle"}
    assert app.call("GET", f"/sessions/{sid}").json["session"]["stop_requested"] is False
    assert_error(app.call("POST", f"/sessions/{sid}/stop", b"[1]"), 400, "invalid_request")
    assert_error(app.call("POST", f"/sessions/{sid}/stop", b"{"), 400, "invalid_json")
    app.charlotte.authorize_using(lambda user, ability, session: ability != "stop")
    assert_error(app.call("POST", f"/sessions/{sid}/stop"), 403, "forbidden")


# -- GET /sessions/{id}/events ---------------------------------------------------------


def test_events_pages_by_seq(app: AppHarness) -> None:
    sid = app.open()
    app.run_turn(sid)
    first = app.call("GET", f"/sessions/{sid}/events", query={"limit": "2"})
    assert first.status == 200
    events = first.json["events"]
    assert [e["seq"] for e in events] == [1, 2] and events[0]["type"] == "session.opened"
    assert set(events[0]) == {"seq", "type", "at", "actor", "payload"}
    assert first.json["next_after"] == 2
    rest = app.call("GET", f"/sessions/{sid}/events", query={"after": "2", "limit": "1000"})
    assert rest.json["events"][0]["seq"] == 3
    assert rest.json["events"][-1]["type"] == "turn.finished"
    empty = app.call("GET", f"/sessions/{sid}/events", query={"after": "999"})
    assert empty.json == {"events": [], "next_after": 999}


@pytest.mark.parametrize(
    "query", [{"after": "-1"}, {"after": "x"}, {"limit": "0"}, {"limit": "1001"}, {"limit": "1e3"}]
)
def test_events_refuse_bad_queries(app: AppHarness, query: dict[str, str]) -> None:
    sid = app.open()
    assert_error(app.call("GET", f"/sessions/{sid}/events", query=query), 400, "invalid_request")


# -- GET /sessions/{id}/draft ----------------------------------------------------------


def test_draft_carries_the_document_and_its_html(app: AppHarness) -> None:
    sid = app.open()
    empty = app.call("GET", f"/sessions/{sid}/draft")
    assert empty.status == 200 and empty.json["revision"] == 0 and empty.json["html"] == ""
    app.run_turn(sid)
    draft = app.call("GET", f"/sessions/{sid}/draft").json
    assert set(draft) == {"revision", "page", "html", "css"}
    assert TITLE_ID in draft["page"]["nodes"]
    # The preview styles the page exactly as a publish would.
    assert draft["css"] == emit_css(draft["page"])
    assert "<h1>Rosa&#39;s Bakery</h1>" in draft["html"]


# -- POST /sessions/{id}/edits ---------------------------------------------------------


def test_human_edit_then_stale_revision_carries_the_current_revision(app: AppHarness) -> None:
    sid = app.open()
    app.run_turn(sid)
    op = {"t": "set_node_props", "id": TITLE_ID, "patch": {"content": "Rosa's"}}
    response = app.call("POST", f"/sessions/{sid}/edits", {"basedOn": 2, "ops": [op]})
    assert response.status == 200
    assert response.json == {"revision": 3, "applied": 1, "node_ids": [TITLE_ID]}
    stale = app.call("POST", f"/sessions/{sid}/edits", {"basedOn": 2, "ops": [op]})
    assert assert_error(stale, 409, "stale_revision")["revision"] == 3
    events = app.call("GET", f"/sessions/{sid}/events", query={"after": "0", "limit": "1000"})
    assert events.json["events"][-1] == {**events.json["events"][-1], "type": "page.changed", "actor": "ann"}


def test_edit_refusals(app: AppHarness) -> None:
    sid = app.open()
    path = f"/sessions/{sid}/edits"
    for body in ({"ops": []}, {"basedOn": "0", "ops": []}, {"basedOn": True, "ops": []},
                 {"basedOn": -1, "ops": []}, {"basedOn": 0, "ops": {}}):
        assert_error(app.call("POST", path, body), 400, "invalid_request")
    missing = app.call("POST", path, {"basedOn": 0, "ops": [{"t": "remove_node", "id": "nope"}]})
    assert assert_error(missing, 422, "node_not_found")["at"] == 0
    link = {"id": "l", "type": "link", "parent": None, "props": {"href": "javascript:alert(1)", "content": "x"}}
    assert_error(app.call("POST", path, {"basedOn": 0, "ops": [{"t": "insert_node", "node": link}]}), 422, "unsafe_link")
    app.charlotte.authorize_using(lambda user, ability, session: ability != "edit")
    assert_error(app.call("POST", path, {"basedOn": 0, "ops": []}), 403, "forbidden")


def test_an_edit_by_a_user_named_agent_is_refused(app: AppHarness) -> None:
    sid = app.open()
    response = app.call("POST", f"/sessions/{sid}/edits", {"basedOn": 0, "ops": []}, user="agent")
    assert_error(response, 400, "invalid_request")


# -- change sets -----------------------------------------------------------------------


def test_change_set_view_and_approve(app: AppHarness) -> None:
    sid = app.open(approve_on_save=True)
    assert app.call("GET", f"/sessions/{sid}/change-set").json == {"change_set": None}
    assert_error(app.call("POST", f"/sessions/{sid}/change-set/approve"), 409, "no_open_change_set")
    app.run_turn(sid)
    assert app.call("GET", f"/sessions/{sid}/draft").json["revision"] == 0
    change_set = app.call("GET", f"/sessions/{sid}/change-set").json["change_set"]
    assert change_set["ops"] == 2 and change_set["revision"] == 2
    assert change_set["diff"]["added"] == ["hero", TITLE_ID]
    assert "Rosa&#39;s Bakery" in change_set["html"]
    assert set(change_set["page"]["nodes"]) == {"hero", TITLE_ID}  # the working copy itself
    response = app.call("POST", f"/sessions/{sid}/change-set/approve")
    assert response.status == 200
    assert response.json["resolution"] == {"id": change_set["id"], "status": "approved", "ops": 2, "revision": 2}
    assert app.call("GET", f"/sessions/{sid}/draft").json["revision"] == 2


def test_change_set_reject_and_its_ability(app: AppHarness) -> None:
    sid = app.open(approve_on_save=True)
    app.run_turn(sid)
    app.charlotte.authorize_using(lambda user, ability, session: ability != "approve")
    assert_error(app.call("POST", f"/sessions/{sid}/change-set/reject"), 403, "forbidden")
    assert_error(app.call("POST", f"/sessions/{sid}/change-set/approve"), 403, "forbidden")
    app.charlotte.authorize_using(lambda user, ability, session: True)
    response = app.call("POST", f"/sessions/{sid}/change-set/reject")
    assert response.status == 200 and response.json["resolution"]["status"] == "rejected"
    assert_error(app.call("POST", f"/sessions/{sid}/change-set/reject"), 409, "no_open_change_set")
    assert app.call("GET", f"/sessions/{sid}/draft").json["revision"] == 0


# -- publish ---------------------------------------------------------------------------


def test_publish_then_published(app: AppHarness) -> None:
    sid = app.open()
    assert_error(app.call("GET", f"/sessions/{sid}/published"), 404, "not_found")
    app.run_turn(sid)
    response = app.call("POST", f"/sessions/{sid}/publish")
    assert response.status == 200 and response.json == {"revision": 2}
    published = app.call("GET", f"/sessions/{sid}/published")
    assert published.status == 200
    assert published.json["page"]["nodes"][TITLE_ID]["props"]["content"] == "Rosa's Bakery"
    assert "<h1>" in published.json["html"]
    app.charlotte.authorize_using(lambda user, ability, session: ability != "publish")
    assert_error(app.call("POST", f"/sessions/{sid}/publish"), 403, "forbidden")


def test_a_style_that_fetches_is_a_422_policy_refusal(app: AppHarness) -> None:
    sid = app.open()
    section = {"id": "s", "type": "section", "parent": None}
    style = {"t": "set_style", "id": "s", "breakpoint": "base", "patch": {"background": "url(https://x.example/a.png)"}}
    response = app.call("POST", f"/sessions/{sid}/edits", {"basedOn": 0, "ops": [{"t": "insert_node", "node": section}, style]})
    assert_error(response, 422, "css_fetch")
    assert app.call("GET", f"/sessions/{sid}/draft").json["revision"] == 0


class _Library:
    """An asset library the test can empty."""

    def __init__(self) -> None:
        self.urls = {"logo": "/media/logo.png"}

    def exists(self, asset_id: str) -> bool:
        return asset_id in self.urls

    def url(self, asset_id: str) -> str:
        return self.urls[asset_id]


def test_publish_refuses_an_image_the_asset_library_dropped(tmp_path: Path) -> None:
    library = _Library()
    app = AppHarness(tmp_path / "assets.db", assets=library)
    sid = app.open()
    image = {"id": "img", "type": "image", "parent": None, "props": {"asset": "logo", "alt": "Logo"}}
    response = app.call("POST", f"/sessions/{sid}/edits", {"basedOn": 0, "ops": [{"t": "insert_node", "node": image}]})
    assert response.status == 200, response.json
    assert 'src="/media/logo.png"' in app.call("GET", f"/sessions/{sid}/draft").json["html"]
    library.urls.clear()
    assert_error(app.call("POST", f"/sessions/{sid}/publish"), 422, "authored_asset")
    assert_error(app.call("GET", f"/sessions/{sid}/published"), 404, "not_found")
    app.close()


# -- failures never leak -----------------------------------------------------------------


def test_an_unexpected_exception_is_500_internal_with_a_logged_correlation_id(
    app: AppHarness, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    sid = app.open()
    secret = "password=hunter2 token=sk-live-0123456789"

    def explode(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError(secret)

    monkeypatch.setattr(app.charlotte.workspace, "draft", explode)
    with caplog.at_level(logging.ERROR, logger="charlotte.http.api"):
        response = app.call("GET", f"/sessions/{sid}/draft")
    assert_error(response, 500, "internal")
    assert secret not in repr(response)
    assert "hunter2" not in repr(response.json) and "hunter2" not in repr(response.headers)
    correlation = response.headers["X-Correlation-Id"]
    assert any(correlation in record.getMessage() for record in caplog.records)


@pytest.mark.parametrize("route", [r for r in ROUTES if r.needs_user], ids=lambda r: f"{r.method} {r.template}")
def test_no_route_lets_an_exception_message_out(
    app: AppHarness, monkeypatch: pytest.MonkeyPatch, route: Any
) -> None:
    secret = "DSN=postgresql://admin:s3cr3t@db.internal/prod"

    def explode(*_args: object, **_kwargs: object) -> None:
        raise ValueError(secret)

    app.open(page="p")  # a row for the session list to ask the authorizer about
    monkeypatch.setattr(app.charlotte, "find", explode)
    monkeypatch.setattr(app.charlotte, "for_user", explode)
    monkeypatch.setattr(app.charlotte, "allows", explode)
    body = {"page": "p", "brief": "b"} if route.action == "open_session" else None
    path = route.template.replace("{id}", "abc").replace("{turn_id}", "t1")
    response = app.call(route.method, path, body, query={"page": "p"})
    assert_error(response, 500, "internal")
    assert "s3cr3t" not in repr(response)


def test_a_corrupt_stored_page_is_500_internal(app: AppHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    from charlotte.errors import PageSessionError

    sid = app.open()

    def corrupt(*_args: object, **_kwargs: object) -> None:
        raise PageSessionError("invalid_state", detail="nodes")

    monkeypatch.setattr(app.charlotte.workspace, "human_edit", corrupt)
    response = app.call("POST", f"/sessions/{sid}/edits", {"basedOn": 0, "ops": []})
    assert_error(response, 500, "internal")
    assert "X-Correlation-Id" in response.headers


def test_a_held_handle_sees_the_stored_status(app: AppHarness) -> None:
    sid = app.open()
    handle = app.charlotte.find(sid, "acme", user="ann")
    assert handle is not None
    app.charlotte.turns._queue = _Parked()  # type: ignore[assignment]
    app.call("POST", f"/sessions/{sid}/turns", {"message": "go"})
    assert handle.status()["status"] == "queued"
    with pytest.raises(Refused) as refused:
        handle.send("again")
    assert refused.value.code == "busy"


def test_write_hero_script_is_what_the_tests_assume() -> None:
    assert len(WRITE_HERO) == 1
