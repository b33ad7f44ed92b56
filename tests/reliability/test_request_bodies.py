"""Sloppy and hostile request bodies on every route of the router: refused, coded, nothing stored.

A key named twice, a key the route does not know, a lone surrogate anywhere
(body, path, query): each is a coded 400 (404 for a path), on every route
(taken from ``ROUTES``, not copied), and stores nothing. NUL characters,
which only PostgreSQL cannot store, are in
``tests/integration/test_request_text_postgres.py``. ``publish`` takes
an optional ``revision``: the draft revision the person reviewed, published
only while the draft is still there (409 ``stale_revision`` otherwise), and
nothing else (``dryRun`` is no field of it).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest
from tests.support.app_harness import AppHarness
from tests.support.runner_harness import apply_step

from charlotte.errors import MESSAGES, PageSessionError, Refused
from charlotte.http.api import JSON_REQUEST, Response
from charlotte.http.routes import ROUTES, Route
from charlotte.storage import read_connection
from charlotte.storage.tables import sessions as sessions_table
from charlotte.testing import ToolCall

SET_TITLE: Final = {"t": "set_meta", "patch": {"title": "Hello"}}


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppHarness]:
    harness = AppHarness(Path(tmp_path_factory.mktemp("bodies")) / "app.db")
    yield harness
    harness.close()


def gated(app: AppHarness) -> str:
    """A published session with an open change set after a finished turn: every route has an answer."""
    session_id = app.open(approve_on_save=True, page=f"p{session_rows(app)}")
    assert app.run_turn(session_id).status == 202
    # An empty page is never published: the first change set's page is.
    assert app.call("POST", f"/sessions/{session_id}/change-set/approve").status == 200
    assert app.call("POST", f"/sessions/{session_id}/publish").status == 200
    assert app.run_turn(session_id, (ToolCall("cms_apply", apply_step([SET_TITLE])),)).status == 202
    own_edit(app, session_id)
    return session_id


DESCRIBE: Final = {"t": "set_style", "id": "hero", "breakpoint": "base", "patch": {"color": "#222222"}}


def own_edit(app: AppHarness, session_id: str) -> None:
    """A person's own edit of the draft: what ``edits/undo`` takes back."""
    revision = app.call("GET", f"/sessions/{session_id}").json["session"]["revision"]
    edited = app.call("POST", f"/sessions/{session_id}/edits", {"basedOn": revision, "ops": [DESCRIBE]})
    assert edited.status == 200, edited.json


def own_range(app: AppHarness, session_id: str) -> dict[str, int]:
    """The newest person's write of the session, as ``edits/undo`` names it (read only)."""
    groups = app.call("GET", f"/sessions/{session_id}/history").json["groups"]
    mine = next(g for g in groups if g["kind"] == "person")
    return {"from": mine["first_revision"], "to": mine["last_revision"]}


def session_rows(app: AppHarness) -> int:
    with read_connection(app.charlotte.engine) as conn:
        return len(conn.execute(sessions_table.select()).all())


def state(app: AppHarness, session_id: str) -> tuple[Any, ...]:
    status = app.call("GET", f"/sessions/{session_id}").json["session"]
    change_set = app.call("GET", f"/sessions/{session_id}/change-set").json
    return session_rows(app), status["revision"], status["last_seq"], change_set, app.call(
        "GET", f"/sessions/{session_id}/published"
    ).json


def fields_of(route: Route, app: AppHarness, session_id: str) -> dict[str, Any]:
    """The fields of a body the route accepts ({} for routes without fields)."""
    if route.action == "open_session":
        return {"page": f"q{session_rows(app)}", "brief": "A page"}
    if route.action == "send":
        return {"message": "Make it red"}
    revision = app.call("GET", f"/sessions/{session_id}").json["session"]["revision"]
    if route.action == "edit":
        return {"basedOn": revision, "ops": [SET_TITLE]}
    if route.action == "restore":
        return {"revision": 0, "basedOn": revision}
    if route.action == "reset":
        return {"basedOn": revision}
    if route.action == "reject_nodes":
        return {"nodes": ["#meta"]}  # the open set's SET_TITLE
    if route.action == "undo_edit":
        return own_range(app, session_id)
    assert not route.takes_body or not route.body_required, f"no fields for {route}"
    return {}


def path_of(app: AppHarness, route: Route, session_id: str) -> str:
    """The route's path for ``session_id`` (and its last turn, for ``{turn_id}``)."""
    turns = app.call("GET", f"/sessions/{session_id}/messages").json["turns"] if "{turn_id}" in route.template else []
    turn_id = turns[-1]["turn_id"] if turns else "none"
    page = app.call("GET", f"/sessions/{session_id}").json["session"]["page"] if "{page}" in route.template else ""
    return route.template.replace("{id}", session_id).replace("{turn_id}", turn_id).replace("{page}", page)


#: The routes that need a query: the session list names its page, a palette section its kind.
QUERIES: Final = {"list_sessions": {"page": "p0"}, "palette_section": {"kind": "gallery"}}


def call(app: AppHarness, route: Route, session_id: str, body: bytes, **kwargs: Any) -> Response:
    query = kwargs.pop("query", None) or QUERIES.get(route.action)
    return app.call(route.method, path_of(app, route, session_id), body, query=query, **kwargs)


def assert_error(response: Response, status: int, code: str, field: str | None = None) -> None:
    assert response.status == status, response.json
    error = response.json["error"]
    assert error["code"] == code and error["message"] == MESSAGES[code]
    assert error.get("field") == field


def test_a_valid_body_is_served_on_every_route(app: AppHarness) -> None:
    # The baseline of the refusals below: the same bodies without the defect.
    for route in ROUTES:
        session_id = gated(app)
        fields = fields_of(route, app, session_id)
        body = json.dumps(fields).encode() if fields else b""
        assert call(app, route, session_id, body).status == route.success, route


@pytest.mark.parametrize("route", ROUTES, ids=lambda r: r.action)
def test_an_unknown_body_field_is_400_naming_it_on_every_route(app: AppHarness, route: Route) -> None:
    session_id = gated(app)
    before = state(app, session_id)
    body = json.dumps({**fields_of(route, app, session_id), "dryRun": True}).encode()

    response = call(app, route, session_id, body)

    assert_error(response, 400, "invalid_request", "dryRun")
    assert state(app, session_id) == before


@pytest.mark.parametrize("route", ROUTES, ids=lambda r: r.action)
def test_a_key_named_twice_is_400_on_every_route(app: AppHarness, route: Route) -> None:
    session_id = gated(app)
    before = state(app, session_id)
    fields = fields_of(route, app, session_id) or {"revision": 0}
    text = json.dumps(fields)
    first = next(iter(fields))
    # The key again, last: last-one-wins would act on a value a proxy or log never checked.
    body = (text[:-1] + f", {json.dumps(first)}: {json.dumps(fields[first])}}}").encode()

    response = call(app, route, session_id, body)

    assert_error(response, 400, "invalid_json")
    assert state(app, session_id) == before


def test_a_key_named_twice_inside_an_op_is_400(app: AppHarness) -> None:
    session_id = app.open(page="nested-twice")
    before = state(app, session_id)
    body = b'{"basedOn": 0, "ops": [{"t": "set_meta", "patch": {"title": "A", "title": "B"}}]}'

    assert_error(app.call("POST", f"/sessions/{session_id}/edits", body), 400, "invalid_json")
    assert state(app, session_id) == before


@pytest.mark.parametrize("route", ROUTES, ids=lambda r: r.action)
@pytest.mark.parametrize("where", ["value", "key"])
def test_a_lone_surrogate_anywhere_in_a_body_is_400_on_every_route(app: AppHarness, route: Route, where: str) -> None:
    session_id = gated(app)
    before = state(app, session_id)
    fields = fields_of(route, app, session_id)
    if where == "key":
        fields["\ud800"] = 1
    elif any(isinstance(value, str) or name == "ops" for name, value in fields.items()):
        name = next(name for name, value in fields.items() if isinstance(value, str) or name == "ops")
        fields[name] = "a\ud800" if name != "ops" else [{**SET_TITLE, "patch": {"title": "a\udfff"}}]
    else:
        fields["revision"] = "\udfff"
    body = json.dumps(fields).encode()  # JSON escapes: b"\\ud800"
    assert b"\\ud" in body

    assert_error(call(app, route, session_id, body), 400, "invalid_json")
    assert state(app, session_id) == before


@pytest.mark.parametrize("route", [r for r in ROUTES if "{id}" in r.template], ids=lambda r: r.action)
@pytest.mark.parametrize("bad", ["\ud800", "\x00"], ids=["surrogate", "nul"])
def test_a_lone_surrogate_or_nul_in_a_path_is_404_on_every_route(app: AppHarness, route: Route, bad: str) -> None:
    session_id = gated(app)
    before = state(app, session_id)
    fields = fields_of(route, app, session_id)
    path = path_of(app, route, session_id).replace(session_id, session_id + bad)

    response = app.call(route.method, path, json.dumps(fields).encode() if fields else b"")

    assert_error(response, 404, "not_found")
    assert state(app, session_id) == before


@pytest.mark.parametrize("name", ["after", "limit"])
@pytest.mark.parametrize("bad", ["1\ud800", "1\x00", "\udfff"])
def test_a_lone_surrogate_or_nul_in_a_query_is_400_naming_it(app: AppHarness, name: str, bad: str) -> None:
    session_id = app.open(page=f"query-{name}-{len(bad)}-{ord(bad[-1])}")

    response = app.call("GET", f"/sessions/{session_id}/events", query={name: bad})

    assert_error(response, 400, "invalid_request", name)


# -- publish: exactly what the person reviewed -------------------------------------------------


def published(app: AppHarness, session_id: str) -> Response:
    return app.call("GET", f"/sessions/{session_id}/published")


def test_publish_with_the_current_revision_publishes_it(app: AppHarness) -> None:
    session_id = app.open(page="publish-current")
    app.run_turn(session_id)
    revision = app.call("GET", f"/sessions/{session_id}/draft").json["revision"]
    assert revision > 0

    response = app.call("POST", f"/sessions/{session_id}/publish", {"revision": revision})

    assert (response.status, response.json) == (200, {"revision": revision})
    assert published(app, session_id).json["revision"] == revision


def test_publish_of_a_draft_that_moved_on_is_409_stale_revision_and_publishes_nothing(app: AppHarness) -> None:
    session_id = app.open(page="publish-stale")
    app.run_turn(session_id)
    reviewed = app.call("GET", f"/sessions/{session_id}/draft").json["revision"]
    # Someone else's edit lands while the person looks at ``reviewed``.
    edit = app.call("POST", f"/sessions/{session_id}/edits", {"basedOn": reviewed, "ops": [SET_TITLE]})
    assert edit.status == 200
    before = state(app, session_id)

    response = app.call("POST", f"/sessions/{session_id}/publish", {"revision": reviewed})

    assert response.status == 409, response.json
    assert response.json["error"] == {
        "code": "stale_revision", "message": MESSAGES["stale_revision"], "revision": edit.json["revision"],
    }  # fmt: skip
    assert_error(published(app, session_id), 404, "not_found")
    assert state(app, session_id) == before


def test_publish_with_a_dry_run_flag_is_400_and_publishes_nothing(app: AppHarness) -> None:
    session_id = app.open(page="publish-dry-run")
    app.run_turn(session_id)

    response = app.call("POST", f"/sessions/{session_id}/publish", {"revision": 999, "dryRun": True})

    assert_error(response, 400, "invalid_request", "dryRun")
    assert_error(published(app, session_id), 404, "not_found")
    assert app.call("POST", f"/sessions/{session_id}/publish", {"revision": 999}).status == 409
    assert_error(published(app, session_id), 404, "not_found")


@pytest.mark.parametrize("revision", [-1, "1", True, 1.5, None, [1]])
def test_publish_with_a_revision_that_is_not_a_count_is_400(app: AppHarness, revision: Any) -> None:
    session_id = app.open(page=f"publish-bad-{session_rows(app)}")

    response = app.call("POST", f"/sessions/{session_id}/publish", {"revision": revision})

    assert_error(response, 400, "invalid_request", "revision")
    assert_error(published(app, session_id), 404, "not_found")


def test_publish_without_a_revision_still_publishes_the_draft(app: AppHarness) -> None:
    session_id = app.open(page="publish-bare")
    app.run_turn(session_id)
    for body in (None, {}):
        assert app.call("POST", f"/sessions/{session_id}/publish", body).status == 200


def test_the_python_api_takes_the_revision_precondition_too(app: AppHarness) -> None:
    session_id = app.open(page="publish-python")
    app.run_turn(session_id)
    handle = app.charlotte.find(session_id, "acme", user="ann")
    assert handle is not None
    current = handle.draft()["revision"]

    with pytest.raises(PageSessionError) as stale:
        handle.publish(revision=current - 1)
    assert stale.value.code == "stale_revision"
    assert handle.published() is None
    with pytest.raises(Refused) as bad:
        handle.publish(revision=True)
    assert (bad.value.code, bad.value.detail) == ("invalid_request", {"field": "revision"})
    assert handle.publish(revision=current) == {"revision": current}


def test_the_harness_sends_json() -> None:
    # Every call above goes through ``Api.handle`` as a same-origin JSON client.
    assert JSON_REQUEST.content_type == "application/json" and JSON_REQUEST.origin is None


@pytest.mark.parametrize("bad", ["\x00", "\ud800", "\udfff"], ids=["nul", "high", "low"])
def test_the_python_api_refuses_text_no_column_can_hold_naming_the_field(app: AppHarness, bad: str) -> None:
    handle = app.charlotte.find(app.open(page=f"python-{ord(bad)}"), "acme", user="ann")
    assert handle is not None
    with pytest.raises(Refused) as sent:
        handle.send(f"Make it{bad} red")
    assert (sent.value.code, sent.value.detail) == ("invalid_request", {"field": "message"})
    opening = app.charlotte.for_user("ann").tenant("acme")
    cases = {
        "page": opening.page(f"a{bad}").brief("A page"),
        "brief": opening.page("b").brief(f"A {bad}page"),
        "facts": opening.page("c").brief("A page").facts({"phone": f"0113{bad}"}),
    }
    for field, builder in cases.items():
        with pytest.raises(Refused) as opened:
            builder.open()
        # A page key has a shape of its own (charlotte.access.PAGE_KEY).
        code = "invalid_page_key" if field == "page" else "invalid_request"
        assert (opened.value.code, opened.value.detail) == (code, {"field": field})
