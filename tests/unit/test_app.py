"""``Charlotte``: building, hooks, opening sessions, finding them, queues, and no shared state."""

from __future__ import annotations

import dataclasses
import gc
import subprocess
import sys
import types
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.support.app_harness import WRITE_HERO, AppHarness

from charlotte.access import OpenRequest
from charlotte.app import Charlotte, SessionBuilder
from charlotte.errors import Refused
from charlotte.events import schema_errors
from charlotte.runtime.guide import build_guide
from charlotte.runtime.modes import Mode
from charlotte.runtime.queues import ThreadQueue
from charlotte.runtime.runner import TurnContext
from charlotte.settings import Settings
from charlotte.storage import SessionRecord
from charlotte.storage.tables import sessions
from charlotte.testing import ScriptedModel


@pytest.fixture
def app(tmp_path: Path) -> Iterator[AppHarness]:
    harness = AppHarness(tmp_path / "app.db")
    yield harness
    harness.close()


def _open(charlotte: Charlotte, **overrides: Any) -> Any:
    values: dict[str, Any] = {
        "tenant": "acme", "page": "home", "brief": "A bakery", "facts": {}, "approve_on_save": False,
    }
    values.update(overrides)
    builder = charlotte.for_user(values.pop("user", "ann"))
    for step, value in values.items():
        builder = getattr(builder, step)(value)
    return builder.open()


def _session_count(charlotte: Charlotte) -> int:
    with charlotte.engine.connect() as conn:
        return len(conn.execute(sessions.select()).all())


def test_open_stores_the_session_with_the_guide_hash_and_records_session_opened(app: AppHarness) -> None:
    charlotte = app.charlotte
    handle = _open(charlotte, facts={"phone": "555 0100"}, approve_on_save=True)
    status = handle.status()
    assert status["tenant"] == "acme" and status["page"] == "home" and status["status"] == "idle"
    assert status["facts"] == {"phone": "555 0100"} and status["approve_on_save"] is True
    assert status["created_by"] == "ann" and status["revision"] == 0
    [opened] = handle.events()
    assert opened["type"] == "session.opened" and opened["actor"] == "ann"
    text, guide_hash = charlotte.guide()
    assert opened["payload"] == {
        "page": "home", "mode": "charlotte_builder", "approve_on_save": True, "guide_hash": guide_hash,
    }
    assert guide_hash in charlotte.modes.resolve("charlotte_builder", build_guide(charlotte.settings.brand_rules)).prompt
    assert schema_errors({"session_id": handle.id, **opened}) == []
    assert "How to build this page" in text


@pytest.mark.parametrize(
    "overrides",
    [
        {"tenant": ""}, {"tenant": None}, {"tenant": "t" * 129}, {"tenant": 5},
        {"page": ""}, {"page": "p" * 201}, {"page": "   "}, {"page": None},
        {"brief": ""}, {"brief": "b" * 20_001}, {"brief": None},
        {"facts": ["a"]}, {"facts": {"a": 1}}, {"facts": {"": "x"}},
        {"facts": {f"k{i}": "v" for i in range(101)}},
        {"approve_on_save": "yes"}, {"mode": ""}, {"mode": "not_registered"},
        {"user": ""}, {"user": "agent"}, {"user": object()},
    ],
)
def test_open_refuses_invalid_input_and_stores_nothing(app: AppHarness, overrides: dict[str, Any]) -> None:
    with pytest.raises(Refused) as refused:
        _open(app.charlotte, **overrides)
    page_key = isinstance(overrides.get("page"), str)
    assert refused.value.code == ("invalid_page_key" if page_key else "invalid_request")
    assert _session_count(app.charlotte) == 0


def test_open_accepts_the_bounds(app: AppHarness) -> None:
    handle = _open(
        app.charlotte, page="p" * 200, brief="b" * 20_000, facts={f"k{i}": "v" for i in range(100)}
    )
    assert handle.status()["page"] == "p" * 200


def test_the_builder_holds_each_opening_value_typed_under_its_step_name() -> None:
    # One private field per fluent step, named after it and typed as the step takes it:
    # no field typed `object`, none renamed to dodge a method name.
    # The builder names the instance it opens on only for the type checker (no import cycle).
    hints = typing.get_type_hints(SessionBuilder, localns={"Charlotte": Charlotte})
    steps = [name for name, member in vars(SessionBuilder).items() if callable(member) and not name.startswith("_")]
    assert sorted(steps) == ["approve_on_save", "brief", "facts", "mode", "open", "page", "tenant"]
    fields = {f.name for f in dataclasses.fields(SessionBuilder)}
    assert fields == {"_charlotte", "_user"} | {f"_{step}" for step in steps if step != "open"}
    assert [name for name, hint in hints.items() if hint is object] == ["_user"]
    for step in steps:
        if step != "open":
            taken = typing.get_type_hints(getattr(SessionBuilder, step))
            value = next(hint for name, hint in taken.items() if name != "return")
            assert hints[f"_{step}"] in (value, value | None), step


def test_open_asks_the_authorizer_with_what_would_be_opened(app: AppHarness) -> None:
    asked: list[tuple[Any, str, Any]] = []

    def authorize(user: Any, ability: str, session: Any) -> bool:
        asked.append((user, ability, session))
        return False

    app.charlotte.authorize_using(authorize)
    with pytest.raises(Refused) as refused:
        _open(app.charlotte, facts={"a": "b"})
    assert refused.value.code == "forbidden"
    assert asked == [("ann", "open", OpenRequest("acme", "home", "A bakery", {"a": "b"}, False, "charlotte_builder"))]
    assert _session_count(app.charlotte) == 0


def test_the_default_authorizer_allows_any_resolved_user_and_no_one_else(app: AppHarness) -> None:
    assert app.charlotte.allows("ann", "publish", _record())
    assert app.charlotte.allows({"id": 1}, "open", _record())
    assert not app.charlotte.allows(None, "view", _record())
    with pytest.raises(Refused) as refused:
        _open(app.charlotte, user=None)
    assert refused.value.code == "unauthorized"
    # Only True is a yes: a truthy non-bool from a host hook is not.
    app.charlotte.authorize_using(lambda user, ability, session: "yes")
    assert not app.charlotte.allows("ann", "view", _record())
    with pytest.raises(ValueError):
        app.charlotte.allows("ann", "delete", _record())


def _record() -> SessionRecord:
    from datetime import UTC, datetime

    now = datetime.now(UTC)
    return SessionRecord("s", "acme", "home", "", {}, "idle", False, None, "charlotte_builder",
                         False, "ann", now, now, 0)


def test_hooks_chain_and_resolve_from_the_request(app: AppHarness) -> None:
    charlotte = app.charlotte
    assert charlotte.resolve_user({"u": "ann"}) is None
    assert charlotte.resolve_tenant({"t": "acme"}) is None
    same = (
        charlotte.resolve_user_using(lambda request: request["u"])
        .resolve_tenant_using(lambda request: request["t"])
        .authorize_using(lambda user, ability, session: True)
    )
    assert same is charlotte
    assert charlotte.resolve_user({"u": "ann", "t": "acme"}) == "ann"
    assert charlotte.resolve_tenant({"u": "ann", "t": "acme"}) == "acme"
    for bad in ("", 7, "t" * 129, None):
        assert charlotte.resolve_tenant({"t": bad}) is None
    with pytest.raises(TypeError):
        charlotte.authorize_using("yes")  # type: ignore[arg-type]


def test_find_is_none_for_unknown_ids_and_other_tenants(app: AppHarness) -> None:
    handle = _open(app.charlotte)
    assert app.charlotte.find(handle.id, "acme") is not None
    for session_id, tenant in ((handle.id, "globex"), ("nope", "acme"), ("", "acme"), ("x" * 65, "acme"), (handle.id, "")):
        assert app.charlotte.find(session_id, tenant) is None


def test_two_instances_on_different_databases_do_not_see_each_other(tmp_path: Path) -> None:
    first = AppHarness(tmp_path / "one.db")
    second = AppHarness(tmp_path / "two.db")
    try:
        one = _open(first.charlotte)
        first.charlotte.modes.register("quiet", lambda guide: Mode("quiet", f"quiet {guide.hash}"))
        assert second.charlotte.find(one.id, "acme") is None
        assert first.charlotte.find(one.id, "acme") is not None
        assert "quiet" not in second.charlotte.modes.names()
        with pytest.raises(Refused):
            _open(second.charlotte, mode="quiet")
        assert _open(first.charlotte, mode="quiet").status()["mode"] == "quiet"
    finally:
        first.close()
        second.close()


def test_a_session_opened_under_another_guide_is_refused_at_its_next_turn(tmp_path: Path) -> None:
    path = tmp_path / "guide.db"
    before = AppHarness(path)
    handle = _open(before.charlotte)
    opened_with = before.charlotte.guide()[1]
    before.close()
    after = Charlotte(
        Settings(database_url=f"sqlite:///{path}", queue="inline", brand_rules="Say Rosa's, always."),
        model_factory=lambda: ScriptedModel(list(WRITE_HERO)),
    )
    try:
        assert after.guide()[1] != opened_with
        moved = after.find(handle.id, "acme", user="ann")
        assert moved is not None
        assert moved.send("Build it")["error_code"] == "guide_mode_stale"
        assert moved.draft()["revision"] == 0
    finally:
        after.close()


def test_context_using_is_asked_once_per_turn(app: AppHarness) -> None:
    seen: list[str] = []

    class Caps:
        def for_turn(self, session: SessionRecord, turn: Any) -> TurnContext | None:
            seen.append(turn.id)
            return None

    assert app.charlotte.context_using(Caps()) is app.charlotte
    handle = _open(app.charlotte)
    app.script = list(WRITE_HERO)
    turn = handle.send("Build it")
    assert seen == [turn["id"]] and turn["status"] == "finished"
    with pytest.raises(TypeError):
        app.charlotte.context_using(object())  # type: ignore[arg-type]


def test_the_thread_queue_runs_turns_and_close_joins_everything(tmp_path: Path) -> None:
    harness = AppHarness(tmp_path / "thread.db", queue="thread", script=list(WRITE_HERO))
    charlotte = harness.charlotte
    assert isinstance(charlotte.queue, ThreadQueue)
    assert charlotte.sweeper is not None and charlotte.sweeper.running
    handle = _open(charlotte)
    handle.send("Build it")
    charlotte.close()  # drains the queue: the turn has ended when it returns
    assert not charlotte.sweeper.running
    reopened = AppHarness(tmp_path / "thread.db")
    try:
        again = reopened.charlotte.find(handle.id, "acme", user="ann")
        assert again is not None
        assert [e["type"] for e in again.events(0, 1000)][-1] == "turn.finished"
        assert again.draft()["revision"] == 2
    finally:
        reopened.close()
    charlotte.close()  # twice is fine


def test_the_inline_queue_has_no_sweeper_and_close_disposes(app: AppHarness) -> None:
    assert app.charlotte.sweeper is None
    with Charlotte(Settings(database_url=f"sqlite:///{app.path}", queue="inline")) as other:
        assert other.find("nope", "acme") is None


def test_the_celery_queue_is_built_only_when_asked_for(tmp_path: Path) -> None:
    from charlotte.contrib.celery import CeleryQueue

    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'c.db'}", queue="celery", broker_url="redis://127.0.0.1:9/0"
    )
    with Charlotte(settings) as charlotte:
        assert isinstance(charlotte.queue, CeleryQueue)
        assert charlotte.sweeper is None
    script = (
        "import sys; from charlotte.app import Charlotte; from charlotte.settings import Settings;"
        f"Charlotte(Settings(database_url='sqlite:///{tmp_path / 'i.db'}', queue='inline')).close();"
        "assert 'celery' not in sys.modules and 'charlotte.contrib.celery' not in sys.modules;"
        "assert 'starlette' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", script], check=True)


def test_asgi_app_hands_itself_to_the_adapter(app: AppHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[Any] = []
    adapter = types.ModuleType("charlotte.http.asgi")
    adapter.create_app = lambda charlotte: made.append(charlotte) or "the app"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "charlotte.http.asgi", adapter)
    assert app.charlotte.asgi_app() == "the app"
    assert made == [app.charlotte]


def test_migrate_is_idempotent(app: AppHarness) -> None:
    app.charlotte.migrate()
    assert _open(app.charlotte).status()["status"] == "idle"


# -- worker_app: the host's own Charlotte as a Celery worker ------------------------------


def _celery_charlotte(tmp_path: Path, **options: Any) -> Charlotte:
    # Nothing listens on port 9: these tests never reach a broker.
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'worker.db'}", queue="celery", broker_url="redis://127.0.0.1:9/0"
    )
    return Charlotte(settings, **options)


@pytest.mark.parametrize("queue", ["inline", "thread"])
def test_worker_app_needs_the_celery_queue(tmp_path: Path, queue: str) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'q.db'}", queue=queue, broker_url="redis://h/0")
    with Charlotte(settings) as charlotte, pytest.raises(ValueError, match=r"settings\.queue"):
        charlotte.worker_app()


def test_a_celery_charlotte_needs_a_broker_url(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'b.db'}", queue="celery", broker_url=None)
    with pytest.raises(ValueError, match="broker_url"):
        Charlotte(settings)


def test_worker_app_starts_one_sweeper_and_close_stops_it(tmp_path: Path) -> None:
    charlotte = _celery_charlotte(tmp_path)
    charlotte.migrate()
    assert charlotte.sweeper is None  # a Celery web process does not sweep

    app = charlotte.worker_app()
    sweeper = charlotte.sweeper
    assert sweeper is not None and sweeper.running
    assert charlotte.worker_app() is app and charlotte.sweeper is sweeper  # once, even if called twice
    charlotte.migrate()  # _start after worker_app starts nothing more

    charlotte.close()
    assert not sweeper.running
    with pytest.raises(RuntimeError):
        charlotte.worker_app()


def test_the_worker_apps_task_runs_this_instances_runner(tmp_path: Path) -> None:
    from charlotte.contrib.celery import TASK_NAME
    from charlotte.runtime import InlineQueue, Turns

    class OverBudget:
        def for_turn(self, session: SessionRecord, turn: Any) -> TurnContext | None:
            raise Refused("usage_limit")

    charlotte = _celery_charlotte(tmp_path, model_factory=lambda: ScriptedModel(list(WRITE_HERO)))
    charlotte.migrate()
    charlotte.context_using(OverBudget())
    handle = _open(charlotte)
    # Queued without the (absent) broker; the task is then run here, as a worker would.
    turn = Turns(charlotte.engine, InlineQueue(lambda _turn_id: None)).send(handle.id, "acme", "Build it", "ann")
    try:
        charlotte.worker_app().tasks[TASK_NAME].run(turn.id)
        events = handle.events(0, 1000)
    finally:
        charlotte.close()
    assert [(e["type"], e["payload"]) for e in events][-1] == (
        "run.failed",
        {"turn_id": turn.id, "code": "usage_limit"},
    )


def test_a_pool_process_drops_the_connections_it_inherited(tmp_path: Path) -> None:
    from celery.signals import worker_process_init

    gc.collect()  # earlier tests' instances go first: count only this one's receiver
    receivers = len(worker_process_init.receivers)
    worker, bystander = _celery_charlotte(tmp_path), AppHarness(tmp_path / "other.db").charlotte
    try:
        worker.migrate()
        worker.worker_app()
        pools = worker.engine.pool, bystander.engine.pool
        # What a prefork pool sends in each process it forks.
        worker_process_init.send(sender="charlotte-test@localhost")
        assert worker.engine.pool is not pools[0]
        assert bystander.engine.pool is pools[1]
    finally:
        worker.close()
        bystander.close()
    # The process-wide signal holds no Charlotte alive: its receiver goes with it.
    del worker
    gc.collect()
    assert len(worker_process_init.receivers) == receivers
