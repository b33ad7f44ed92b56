"""No exception message reaches an event or a response body.

An exception carrying a secret-looking message (a database URL with a
password) is raised, in turn, inside a tool, a runner step, a route, the
storage layer and the stream recorder. Then every request of a normal
session's life is made through the real ``Api`` and every stored event of
every session is read: the secret appears in none of them, while the failure
itself is visible as a code (``internal``, ``run_failed``, …).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final

import pytest
import sqlalchemy as sa
from tests.support.app_harness import WRITE_HERO, AppHarness
from tests.support.runner_harness import HERO, apply_step

from charlotte.drafts.workspace import Workspace
from charlotte.runtime.recorder import StreamRecorder
from charlotte.session import CharlotteSession
from charlotte.storage import read_connection
from charlotte.storage.tables import events as events_table
from charlotte.testing import ToolCall

SECRET: Final = "postgresql://charlotte:s3cr3t-hunter2@db.internal:5432/prod"
#: What must never show: any recognisable piece of the secret.
PIECES: Final = ("s3cr3t", "hunter2", "db.internal", SECRET)


class Leak(RuntimeError):
    """The exception every layer raises; its message is the secret."""


def raise_secret(*_args: Any, **_kwargs: Any) -> Any:
    raise Leak(SECRET)


@pytest.fixture
def harness(tmp_path: Path) -> Iterator[AppHarness]:
    app = AppHarness(tmp_path / "secrets.db")
    yield app
    app.close()


def all_events(harness: AppHarness) -> list[dict[str, Any]]:
    """Every stored event of every session, as rows."""
    with read_connection(harness.charlotte.engine) as conn:
        return [dict(row._mapping) for row in conn.execute(sa.select(events_table))]


def leaked(texts: list[str]) -> list[str]:
    """The texts that hold a piece of the secret."""
    return [t[:200] for t in texts if any(piece in t for piece in PIECES)]


def life_of_a_session(harness: AppHarness, session_id: str) -> list[Any]:
    """Every route a session's owner uses, once; the responses."""
    calls: list[tuple[str, str, Any]] = [
        ("GET", f"/sessions/{session_id}", None),
        ("POST", f"/sessions/{session_id}/turns", {"message": "Build it"}),
        ("GET", f"/sessions/{session_id}/events", None),
        ("GET", f"/sessions/{session_id}/draft", None),
        ("POST", f"/sessions/{session_id}/edits", {"basedOn": 0, "ops": HERO}),
        ("GET", f"/sessions/{session_id}/change-set", None),
        ("POST", f"/sessions/{session_id}/stop", None),
        ("POST", f"/sessions/{session_id}/publish", None),
        ("GET", f"/sessions/{session_id}/published", None),
        ("POST", "/sessions", {"page": "other", "brief": "b"}),
    ]
    harness.script = list(WRITE_HERO)
    return [harness.call(method, path, body) for method, path, body in calls]


def assert_nothing_leaked(harness: AppHarness, responses: list[Any]) -> None:
    bodies = [json.dumps(r.json) + json.dumps(r.headers) for r in responses]
    stored = [json.dumps(row, default=str) for row in all_events(harness)]
    assert leaked(bodies) == []
    assert leaked(stored) == []


def failed_turn_codes(harness: AppHarness) -> list[str]:
    return [row["payload"]["code"] for row in all_events(harness) if row["type"] == "run.failed"]


def test_the_grep_finds_a_planted_secret() -> None:
    # The check itself can fail: a body or an event holding the message is caught.
    assert leaked([json.dumps({"error": {"message": f"boom: {SECRET}"}})]) != []
    assert leaked([json.dumps({"payload": {"detail": "at db.internal"}})]) != []


def test_a_tool_raising_a_secret_leaks_nothing(harness: AppHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    session_id = harness.open()
    monkeypatch.setattr(Workspace, "agent_apply", raise_secret)

    responses = life_of_a_session(harness, session_id)

    assert "run_failed" in failed_turn_codes(harness)
    assert_nothing_leaked(harness, responses)


def test_a_runner_step_raising_a_secret_leaks_nothing(harness: AppHarness) -> None:
    session_id = harness.open()

    def planning(results: list[Any]) -> dict[str, Any]:
        raise Leak(SECRET)

    harness.script = [ToolCall("cms_apply", apply_step(HERO)), ToolCall("cms_get", planning)]
    responses = [harness.call("POST", f"/sessions/{session_id}/turns", {"message": "Build it"})]

    assert failed_turn_codes(harness) == ["run_failed"]
    assert_nothing_leaked(harness, responses)


@pytest.mark.parametrize("method", ["status", "events", "draft", "edit", "send", "stop", "change_set", "publish", "published"])
def test_a_route_raising_a_secret_answers_internal_and_leaks_nothing(
    harness: AppHarness, monkeypatch: pytest.MonkeyPatch, method: str
) -> None:
    session_id = harness.open()
    monkeypatch.setattr(CharlotteSession, method, raise_secret)

    responses = life_of_a_session(harness, session_id)

    failed = [r.json["error"]["code"] for r in responses if r.status == 500]
    assert failed and set(failed) == {"internal"}
    assert_nothing_leaked(harness, responses)


def test_the_storage_layer_raising_a_secret_leaks_nothing(harness: AppHarness) -> None:
    session_id = harness.open()
    harness.run_turn(session_id)
    engine = harness.charlotte.engine

    def refuse(conn: Any, cursor: Any, statement: str, *_args: Any) -> None:
        # A driver error whose text names the server, as a real one would.
        if "charlotte_pages" in statement:
            raise sa.exc.OperationalError(statement, {}, Leak(SECRET))

    sa.event.listen(engine, "before_cursor_execute", refuse)
    try:
        responses = life_of_a_session(harness, session_id)
    finally:
        sa.event.remove(engine, "before_cursor_execute", refuse)

    assert any(r.status >= 500 for r in responses)
    assert_nothing_leaked(harness, responses)


@pytest.mark.parametrize("step", ["record", "run_started", "run_finished", "_payload"])
def test_the_recorder_raising_a_secret_leaks_nothing(
    harness: AppHarness, monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    session_id = harness.open()
    monkeypatch.setattr(StreamRecorder, step, raise_secret)

    responses = life_of_a_session(harness, session_id)

    assert failed_turn_codes(harness) == ["run_failed"]
    assert_nothing_leaked(harness, responses)


def test_every_layer_at_once_still_leaks_nothing(harness: AppHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    session_id = harness.open()
    patches: list[tuple[type, str, Callable[..., Any]]] = [
        (Workspace, "agent_apply", raise_secret),
        (StreamRecorder, "run_finished", raise_secret),
        (CharlotteSession, "draft", raise_secret),
    ]
    for owner, name, replacement in patches:
        monkeypatch.setattr(owner, name, replacement)

    responses = life_of_a_session(harness, session_id)

    assert any(r.status == 500 for r in responses)
    assert_nothing_leaked(harness, responses)
