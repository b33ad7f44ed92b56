"""Random methods, paths, queries, bytes and JSON into the API: only coded answers, never a 500."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support.app_harness import AppHarness

from charlotte.errors import MESSAGES
from charlotte.http.csrf import JSON_REQUEST, Envelope
from charlotte.http.routes import ROUTES
from charlotte.page.op_table import OP_TYPES

EXPECTED_STATUSES = {200, 201, 202, 400, 401, 403, 404, 405, 409, 413, 415, 422}

header_values = st.none() | st.text(max_size=40) | st.sampled_from(
    ["application/json", "text/plain", "https://evil.example", "null", "cross-site", "same-origin", "http://testserver"]
)
envelopes = st.just(JSON_REQUEST) | st.builds(
    Envelope, header_values, header_values, header_values, header_values
)


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[AppHarness, list[str]]]:
    harness = AppHarness(tmp_path_factory.mktemp("fuzz") / "api.db")
    sessions = [harness.open(), harness.open(approve_on_save=True, page="about")]
    harness.run_turn(sessions[1])
    yield harness, sessions
    harness.close()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)

ops = st.lists(
    st.fixed_dictionaries(
        {"t": st.sampled_from(sorted(OP_TYPES)) | st.text(max_size=5)},
        optional={
            "id": st.sampled_from(["hero", "title", "x", ""]) | json_values,
            "node": st.fixed_dictionaries(
                {"id": st.text(max_size=6), "type": st.sampled_from(["section", "text", "link", "image", "heading"])},
                optional={"parent": st.none() | st.just("hero"), "props": json_values, "style": json_values},
            ),
            "patch": json_values,
            "breakpoint": st.sampled_from(["base", "md", "x"]),
            "parent": st.none() | st.text(max_size=4),
            "order": json_values,
        },
    ),
    max_size=4,
)

shaped_bodies = st.fixed_dictionaries(
    {},
    optional={
        "page": st.text(max_size=210) | json_values,
        "brief": st.text(max_size=30) | json_values,
        "facts": st.dictionaries(st.text(max_size=5), st.text(max_size=5) | json_values, max_size=3)
        | json_values,
        "approve_on_save": st.booleans() | json_values,
        "message": st.text(max_size=30) | json_values,
        "basedOn": st.integers(min_value=-2, max_value=5) | json_values,
        "ops": ops | json_values,
    },
)

bodies = st.one_of(
    st.binary(max_size=300),
    json_values.map(lambda v: json.dumps(v).encode()),
    shaped_bodies.map(lambda v: json.dumps(v).encode()),
)

# Weighted towards a real user and the owning tenant, so most requests reach the handlers.
users = st.sampled_from(["ann"] * 12 + [None, "agent", "", 7, {"id": "bo"}, {"name": "no id"}])
tenants = st.sampled_from(["acme"] * 16 + [None, "globex", "", "t" * 200, "acme "])
queries = st.dictionaries(
    st.sampled_from(["after", "limit", "x"]),
    st.text(max_size=12) | st.integers(-5, 2000).map(str),
    max_size=3,
)


@st.composite
def requests(draw: st.DrawFn, session_ids: list[str]) -> tuple[str, str]:
    """``(method, path)``: mostly real routes on real sessions (so handlers run), sometimes anything."""
    route = draw(st.sampled_from(ROUTES))
    method = route.method if draw(st.integers(0, 9)) < 8 else draw(st.sampled_from(["GET", "POST", "PUT", "get", ""]))
    template = route.template
    real = draw(st.integers(0, 9)) < 8
    session_id = draw(st.sampled_from(session_ids) if real else st.text(max_size=70))
    path = template.replace("{id}", session_id)
    mutation = draw(st.integers(0, 9))
    if mutation == 8:
        path += "/" + draw(st.text(max_size=5))
    elif mutation == 9:
        path = draw(st.text(max_size=40))
    return method, path


def _check(response: Any) -> None:
    assert response.status in EXPECTED_STATUSES, response
    assert isinstance(response.json, dict)
    json.dumps(response.json)
    if response.status >= 400:
        assert set(response.json) == {"error"}
        error = response.json["error"]
        assert error["message"] == MESSAGES[error["code"]]
        assert set(error) <= {"code", "message", "revision", "at", "field", "allow"}


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_random_requests_get_coded_answers(app: tuple[AppHarness, list[str]], data: st.DataObject) -> None:
    harness, session_ids = app
    method, path = data.draw(requests(session_ids))
    response = harness.api.handle(
        method, path, data.draw(queries), data.draw(bodies), data.draw(users), data.draw(tenants),
        envelope=data.draw(envelopes),
    )
    _check(response)


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(body=shaped_bodies, route=st.sampled_from([r for r in ROUTES if r.method == "POST"]))
def test_shaped_bodies_on_real_sessions_get_coded_answers(
    app: tuple[AppHarness, list[str]], body: dict[str, Any], route: Any
) -> None:
    harness, session_ids = app
    for session_id in session_ids:
        path = route.template.replace("{id}", session_id)
        _check(harness.call("POST", path, body))
