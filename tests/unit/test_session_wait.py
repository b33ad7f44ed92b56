"""``CharlotteSession.wait`` / ``wait_async``: return when the turn ends, False at the deadline."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from pydantic_ai.messages import ModelMessage
from pydantic_ai.models.function import AgentInfo, FunctionModel
from tests.support.app_harness import WRITE_HERO, AppHarness

from charlotte import Charlotte, Settings
from charlotte.errors import Refused
from charlotte.session import CharlotteSession
from charlotte.storage import SessionStore, transaction


@pytest.fixture
def app(tmp_path: Path) -> Iterator[AppHarness]:
    harness = AppHarness(tmp_path / "wait.db", queue="thread", script=list(WRITE_HERO))
    yield harness
    harness.close()


def _open(app: AppHarness) -> CharlotteSession:
    return app.charlotte.for_user("ann").tenant("acme").page("home").brief("Bakery").open()


def _held_busy(app: AppHarness, handle: CharlotteSession) -> None:
    # A session a turn holds (no worker will end it): its status as a running turn leaves it.
    with transaction(app.charlotte.engine) as conn:
        SessionStore().update(conn, handle.id, "acme", status="running")


def test_wait_returns_when_the_turn_has_ended(app: AppHarness) -> None:
    handle = _open(app)
    handle.send("Build it")
    assert handle.wait(timeout=60) is True
    assert handle.status()["status"] == "idle"
    assert handle.events(after=0, limit=1000)[-1]["type"] == "turn.finished"
    assert app.charlotte.notifier.subscriber_count() == 0  # the wait's subscription is closed


async def _slow_answer(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str]:
    await asyncio.sleep(0.5)
    yield "Done."


def test_wait_is_woken_when_a_slow_turn_ends(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'slow.db'}", queue="thread")
    with Charlotte(
        settings, model_factory=lambda: FunctionModel(stream_function=_slow_answer)
    ) as charlotte:
        charlotte.migrate()
        handle = charlotte.for_user("ann").tenant("acme").page("home").brief("Bakery").open()
        started = time.monotonic()
        handle.send("Build it")
        assert handle.status()["status"] != "idle"
        assert handle.wait(timeout=60) is True
        assert time.monotonic() - started >= 0.4
        assert handle.status()["status"] == "idle"
        handle.send("Again")
        assert asyncio.run(handle.wait_async(timeout=60)) is True
        assert handle.status()["status"] == "idle"


def test_wait_async_returns_when_the_turn_has_ended(app: AppHarness) -> None:
    handle = _open(app)
    handle.send("Build it")
    assert asyncio.run(handle.wait_async(timeout=60)) is True
    assert handle.status()["status"] == "idle"


def test_an_idle_session_returns_at_once(app: AppHarness) -> None:
    handle = _open(app)
    started = time.monotonic()
    assert handle.wait(timeout=0) is True
    assert asyncio.run(handle.wait_async(timeout=0)) is True
    assert time.monotonic() - started < 1.0


def test_a_turn_that_does_not_end_in_time_is_false_at_the_deadline(app: AppHarness) -> None:
    handle = _open(app)
    _held_busy(app, handle)
    started = time.monotonic()
    assert handle.wait(timeout=0.3) is False
    assert 0.3 <= time.monotonic() - started < 3.0
    started = time.monotonic()
    assert asyncio.run(handle.wait_async(timeout=0.3)) is False
    assert 0.3 <= time.monotonic() - started < 3.0
    assert app.charlotte.notifier.subscriber_count() == 0


@pytest.mark.parametrize("timeout", [-1, float("nan"), float("inf"), True, "5", None, 86_401])
def test_a_timeout_that_is_not_a_bounded_number_is_refused(
    app: AppHarness, timeout: object
) -> None:
    handle = _open(app)
    with pytest.raises(Refused) as raised:
        handle.wait(timeout)  # type: ignore[arg-type]
    assert raised.value.detail == {"field": "timeout"}


def test_wait_needs_view(app: AppHarness) -> None:
    handle = _open(app)
    app.charlotte.authorize_using(lambda user, ability, session: ability != "view")
    with pytest.raises(Refused) as raised:
        handle.wait(timeout=1)
    assert raised.value.code == "forbidden"
