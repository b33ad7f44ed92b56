"""The shipped OpenAPI document is the one the routes write, and real answers validate against it.

``charlotte.http.openapi`` writes the document from ``ROUTES`` (``python -m
charlotte.http.openapi`` rewrites the shipped file); these tests fail while
the file differs from what the routes write, and when something the
hand-kept document published (``tests/fixtures/openapi_surface.v1.json``)
is no longer published.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator, FormatChecker
from tests.support.app_harness import WRITE_HERO, AppHarness
from tests.support.openapi_surface import surface

from charlotte.errors import MESSAGES, PageSessionError, Refused
from charlotte.http.api import Envelope, Response, openapi_document
from charlotte.http.openapi import document, render
from charlotte.http.routes import ROUTES, STREAM_ROUTE, match

METHODS = {"get", "post", "put", "delete", "patch", "head", "options"}


@pytest.fixture
def app(tmp_path: Path) -> Iterator[AppHarness]:
    harness = AppHarness(tmp_path / "openapi.db")
    yield harness
    harness.close()


def _document() -> dict[str, Any]:
    text = resources.files("charlotte").joinpath("schema/openapi.v1.json").read_text("utf-8")
    document: dict[str, Any] = json.loads(text)
    return document


def _operations(document: dict[str, Any]) -> set[tuple[str, str]]:
    return {
        (method.upper(), path)
        for path, item in document["paths"].items()
        for method in item
        if method in METHODS
    }


FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "openapi_surface.v1.json"


def test_the_shipped_file_is_what_the_routes_write() -> None:
    text = resources.files("charlotte").joinpath("schema/openapi.v1.json").read_text("utf-8")
    # Byte for byte: after a change of a route, a spec or the prose, run
    # ``python -m charlotte.http.openapi`` and commit the file it writes.
    assert text == render()


def test_what_the_hand_kept_document_published_is_still_published() -> None:
    before = json.loads(FIXTURE.read_text(encoding="utf-8"))
    now = surface(document())
    for name, operation in before["operations"].items():
        assert name in now["operations"], name
        current = now["operations"][name]
        assert current["operationId"] == operation["operationId"], name
        for parameter, declared in operation["parameters"].items():
            assert current["parameters"].get(parameter) == declared, (name, parameter)
        assert current["requestBody"] == operation["requestBody"], name
        for status, answer in operation["responses"].items():
            assert current["responses"].get(status) == answer, (name, status)
    assert set(before["error_codes"]) <= set(now["error_codes"])


def test_the_surface_sees_a_dropped_parameter_body_field_status_and_code() -> None:
    # The check above compares surfaces: each kind of loss must show in one.
    shipped = document()
    events = shipped["paths"]["/sessions/{id}/events"]["get"]
    events["parameters"] = events["parameters"][1:]
    del shipped["components"]["schemas"]["EditRequest"]["properties"]["basedOn"]["minimum"]
    del shipped["paths"]["/sessions/{id}/turns"]["post"]["responses"]["503"]
    shipped["components"]["schemas"]["Error"]["properties"]["error"]["properties"]["code"]["enum"].remove("busy")
    before, after = surface(document()), surface(shipped)
    assert before["operations"]["GET /sessions/{id}/events"]["parameters"].keys() - after["operations"][
        "GET /sessions/{id}/events"
    ]["parameters"].keys() == {"query after"}
    edit = "POST /sessions/{id}/edits"
    assert before["operations"][edit]["requestBody"] != after["operations"][edit]["requestBody"]
    assert "503" not in after["operations"]["POST /sessions/{id}/turns"]["responses"]
    assert "busy" not in after["error_codes"]


def test_the_document_lists_exactly_the_routes() -> None:
    routes = {(route.method, route.template) for route in ROUTES} | {STREAM_ROUTE}
    assert _operations(_document()) == routes


def test_each_route_declares_its_success_status() -> None:
    document = _document()
    for route in ROUTES:
        responses = document["paths"][route.template][route.method.lower()]["responses"]
        assert str(route.success) in responses, route
        operation = document["paths"][route.template][route.method.lower()]
        if route.changes_state:
            # Every POST may carry a JSON body (at least ``{}``): it is sent as JSON.
            assert operation["requestBody"]["required"] is (route.takes_body and route.body_required), route
            assert "415" in responses and "403" in responses, route
        else:
            assert "requestBody" not in operation, route
        assert "400" in responses, route


def test_the_document_is_openapi_31_with_valid_schemas() -> None:
    document = _document()
    assert document["openapi"].startswith("3.1.")
    for schema in document["components"]["schemas"].values():
        Draft202012Validator.check_schema(schema)
    error_codes = document["components"]["schemas"]["Error"]["properties"]["error"]["properties"]["code"]["enum"]
    # Every code an API error body can carry, each with its sentence in the one table.
    # ``invalid_cases`` is the eval's cases file (the command line), never an API body.
    api_refusals = Refused.CODES - {"invalid_cases"}
    # ``queue_unavailable``: a sent turn the queue did not take (503).
    assert set(error_codes) == api_refusals | PageSessionError.CODES | {"internal", "queue_unavailable"}
    assert set(error_codes) <= set(MESSAGES)


def test_the_document_is_served_as_shipped(app: AppHarness) -> None:
    assert app.call("GET", "/openapi.json", user=None).json == _document() == openapi_document()


def _declared(document: dict[str, Any], method: str, path: str, status: int) -> dict[str, Any]:
    found = match(method, path)
    assert found is not None and found.route is not None, (method, path)
    operation = document["paths"][found.route.template][method.lower()]
    declared: dict[str, Any] | None = operation["responses"].get(str(status))
    assert declared is not None, f"{method} {found.route.template} does not declare {status}"
    if "$ref" in declared:
        declared = document["components"]["responses"][declared["$ref"].rsplit("/", 1)[1]]
    assert declared is not None
    return declared


def _validate(document: dict[str, Any], method: str, path: str, response: Response) -> None:
    declared = _declared(document, method, path, response.status)
    # Every header an answer carries beyond the content type is declared (ETag, Cache-Control).
    extra = set(response.headers) - {"Content-Type", "Allow", "X-Correlation-Id"}
    assert extra <= set(declared.get("headers", {})), (method, path, response.status, extra)
    if response.status == 304:
        assert "content" not in declared and response.json == {} and response.text is None
        return
    media_type = response.headers.get("Content-Type", "application/json").split(";")[0]
    assert set(declared["content"]) == {media_type}, (method, path, response.status)
    schema = {**declared["content"][media_type]["schema"], "components": document["components"]}
    validator = Draft202012Validator(schema, format_checker=FormatChecker())
    value = response.json if response.text is None else response.text
    errors = [f"{e.json_path}: {e.message}" for e in validator.iter_errors(value)]
    assert not errors, (method, path, response.status, errors)


def test_real_answers_validate_against_the_document(app: AppHarness) -> None:
    document = _document()
    seen: set[tuple[str, str, int]] = set()

    def call(method: str, path: str, body: Any = None, **kwargs: Any) -> Response:
        response = app.call(method, path, body, **kwargs)
        _validate(document, method, path, response)
        found = match(method, path)
        assert found is not None and found.route is not None
        seen.add((method, found.route.template, response.status))
        return response

    call("GET", "/openapi.json", user=None)
    call("POST", "/sessions", {"page": "p", "brief": ""})
    call("POST", "/sessions", b"{")
    call("POST", "/sessions", {"page": "p", "brief": "b"}, user=None)
    call("POST", "/sessions", {"page": "p", "brief": "b"}, tenant=None)
    sid = call("POST", "/sessions", {"page": "home", "brief": "Bakery", "facts": {"phone": "555"}}).json["session"]["id"]
    gated = call("POST", "/sessions", {"page": "about", "brief": "About", "approve_on_save": True}).json["session"]["id"]
    for session_id in (sid, gated):
        base = f"/sessions/{session_id}"
        call("GET", base)
        call("GET", f"{base}/published")
        call("GET", f"{base}/change-set")
        call("POST", f"{base}/change-set/approve")
        call("POST", f"{base}/turns", {"message": ""})
        app.script = list(WRITE_HERO)
        call("POST", f"{base}/turns", {"message": "Build it"})
        call("GET", f"{base}/events", query={"limit": "1000"})
        call("GET", f"{base}/events", query={"limit": "0"})
        call("GET", f"{base}/messages")
        call("GET", f"{base}/messages", query={"limit": "1"})
        call("GET", f"{base}/messages", query={"limit": "101"})
        call("GET", f"{base}/messages", query={"before": "0"})
        call("GET", f"{base}/draft")
        call("POST", f"{base}/stop")
        call("GET", f"{base}/change-set")
    call("POST", f"/sessions/{gated}/change-set/approve")
    reviewed = app.open(approve_on_save=True, page="review")
    app.run_turn(reviewed)
    call("POST", f"/sessions/{reviewed}/change-set/reject-nodes", {"nodes": ["nope"]})
    call("POST", f"/sessions/{reviewed}/change-set/reject-nodes", {"nodes": ["title"]})
    call("GET", f"/sessions/{reviewed}/change-set")
    call("POST", f"/sessions/{reviewed}/change-set/reject-nodes", {"nodes": ["hero"]})
    call("POST", f"/sessions/{reviewed}/change-set/reject-nodes", {"nodes": ["hero"]})
    rejected = app.open(approve_on_save=True, page="contact")
    app.run_turn(rejected)
    call("POST", f"/sessions/{rejected}/change-set/reject")
    call("POST", f"/sessions/{rejected}/change-set/reject")
    call("POST", f"/sessions/{sid}/edits", {"basedOn": 2, "ops": [{"t": "set_node_props", "id": "title", "patch": {"content": "Hi"}}]})
    call("POST", f"/sessions/{sid}/edits", {"basedOn": 2, "ops": []})
    call("POST", f"/sessions/{sid}/edits", {"basedOn": 3, "ops": [{"t": "remove_node", "id": "nope"}]})
    call("POST", f"/sessions/{sid}/publish")
    revision = app.call("GET", f"/sessions/{sid}").json["session"]["revision"]
    call("POST", f"/sessions/{sid}/publish", {"revision": revision + 1})
    call("POST", f"/sessions/{sid}/publish", {"revision": revision})
    call("POST", f"/sessions/{sid}/publish", {"revision": revision, "dryRun": True})
    call("POST", f"/sessions/{sid}/stop", envelope=Envelope("text/plain"))
    call("POST", f"/sessions/{sid}/stop", envelope=Envelope("application/json", origin="https://evil.example"))
    call("POST", f"/sessions/{sid}/stop", {})
    call("GET", f"/sessions/{sid}/published")
    _published_page_calls(app, call)
    _editing_calls(app, call, sid)
    call("GET", "/sessions/unknown/draft")
    call("GET", f"/sessions/{sid}", tenant="globex")
    call("GET", f"/sessions/{sid}", user=None)
    app.charlotte.authorize_using(lambda user, ability, session: False)
    call("GET", f"/sessions/{sid}/draft")
    call("GET", "/pages/home/published")
    call("GET", "/pages/home/published.html", user=None)
    # Every success status of the table was seen and validated.
    assert {(r.method, r.template, r.success) for r in ROUTES} <= seen


def _published_page_calls(app: AppHarness, call: Any) -> None:
    """The published page by its key: 200, 304, 400, 404, JSON and HTML, anonymous too."""
    for path in ("/pages/home/published", "/pages/home/published.html"):
        etag = call("GET", path, user=None).headers["ETag"]
        call("GET", path, envelope=Envelope(if_none_match=etag))
        call("GET", path.replace("home", "never"))
        call("GET", path.replace("home", "-bad"))


def _editing_calls(app: AppHarness, call: Any, sid: str) -> None:
    """History, undo, restore, reset, the publish preview and the session list, answers and refusals."""
    call("GET", "/sessions", query={"page": "home"})
    call("GET", "/sessions", query={"page": "home", "limit": "0"})
    call("GET", "/sessions", query={"page": "home"}, user=None)
    call("GET", f"/sessions/{sid}/history")
    call("GET", f"/sessions/{sid}/history", query={"limit": "101"})
    call("GET", f"/sessions/{sid}/publish-preview")
    turn = app.call("GET", f"/sessions/{sid}/messages").json["turns"][-1]["turn_id"]
    call("POST", f"/sessions/{sid}/turns/{turn}/undo")  # a person retitled it since: conflicted
    call("POST", f"/sessions/{sid}/turns/nope/undo")
    revision = app.call("GET", f"/sessions/{sid}").json["session"]["revision"]
    call("POST", f"/sessions/{sid}/restore", {"revision": 0, "basedOn": revision + 1})
    call("POST", f"/sessions/{sid}/restore", {"revision": 1})
    call("POST", f"/sessions/{sid}/restore", {"revision": revision - 1, "basedOn": revision})
    call("POST", f"/sessions/{sid}/reset", {"basedOn": revision + 1})
    empty = app.open(page="empty")
    call("POST", f"/sessions/{empty}/publish")
    fresh = app.open(page="fresh")
    undone = app.run_turn(fresh).json["turn"]["id"]
    call("POST", f"/sessions/{fresh}/turns/{undone}/undo")
    call("POST", f"/sessions/{fresh}/turns/{undone}/undo")
    call("POST", f"/sessions/{empty}/reset", {"basedOn": 0})
    _hand_editing_calls(app, call, fresh)


def _hand_editing_calls(app: AppHarness, call: Any, sid: str) -> None:
    """Undo/redo of a person's own edit and the palette, answers and refusals."""
    revision = app.call("GET", f"/sessions/{sid}").json["session"]["revision"]
    ops = [{"t": "insert_node", "node": {"id": "note", "type": "section", "parent": None}}]
    written = app.call("POST", f"/sessions/{sid}/edits", {"basedOn": revision, "ops": ops}).json
    call("POST", f"/sessions/{sid}/edits/undo", {"from": written["revision"], "to": written["revision"]})
    call("POST", f"/sessions/{sid}/edits/undo", {"from": 1, "to": 1})  # the agent's: not_own_edit
    call("POST", f"/sessions/{sid}/edits/undo", {"from": 0, "to": 1})
    call("GET", f"/sessions/{sid}/palette")
    call("GET", f"/sessions/{sid}/palette/section", query={"kind": "sonnet"})
    call("GET", f"/sessions/{sid}/palette/section", query={"kind": "testimonials"})
    opened = app.call("POST", "/sessions", {"page": "fed", "brief": "Rosa's Bakery", "facts": {"phone": "+44 113 496 0000"}})
    call("GET", f"/sessions/{opened.json['session']['id']}/palette/section", query={"kind": "contact"})
