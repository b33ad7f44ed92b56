"""A model stream that goes silent (keep-alives only) or never finishes cannot hold a turn.

A real ``Charlotte`` (thread queue, SQLite) runs its turns through the
OpenAI-compatible model client against a loopback server
(``tests/support/model_server.py``) that speaks the Chat Completions
streaming wire format. A silent stream sends one chunk and then only
``: ping`` comments; a trickling one sends a little text for ever. Each
test checks: the turn ends as asked (``turn.stopped``, ``run.failed``
``model_timeout`` or ``turn_timeout``) in bounded time, every event is
schema-valid and holds no exception text, the server saw the client hang up,
and the session takes a new turn that finishes.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest
from tests.support.model_server import SILENT, TRICKLE, ModelServer, model_server
from tests.support.waiting import wait_until
from tests.support.wire_harness import events, turn_status

from charlotte.app import Charlotte
from charlotte.events import EventTypes
from charlotte.session import CharlotteSession
from charlotte.settings import Settings

WAIT: Final = 20.0
#: What no event may contain: the words of a cancelled or failed model call.
@pytest.fixture
def server() -> Iterator[ModelServer]:
    with model_server() as running:
        yield running


def charlotte_on(tmp_path: Path, server: ModelServer, **timeouts: float) -> Charlotte:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'silent.db'}",
        queue="thread",
        model=server.model(),
        heartbeat_seconds=0.2,
        heartbeat_timeout_seconds=30.0,
        **timeouts,  # type: ignore[arg-type]
    )
    charlotte = Charlotte(settings)
    charlotte.migrate()
    return charlotte


def open_session(charlotte: Charlotte) -> CharlotteSession:
    return charlotte.for_user("ann").tenant("acme").page("home").brief("A landing page for Rosa's Bakery").open()


def takes_a_new_turn(charlotte: Charlotte, session: CharlotteSession) -> None:
    again = session.send("Now just say done")
    assert wait_until(lambda: turn_status(charlotte, again["id"]), WAIT, "the next turn") == "finished"
    kind, payload = events(charlotte, session)[-1]
    assert (kind, payload["turn_id"], payload["ready"]) == (EventTypes.TURN_FINISHED, again["id"], False)


def test_stop_ends_a_turn_whose_model_went_silent_within_two_seconds(
    tmp_path: Path, server: ModelServer
) -> None:
    charlotte = charlotte_on(tmp_path, server)
    try:
        session = open_session(charlotte)
        turn = session.send(f"{SILENT}: build the page")
        assert server.went_quiet.wait(WAIT)
        # The model is quiet; give the turn a moment in which nothing arrives.
        threading.Event().wait(0.5)
        assert turn_status(charlotte, turn["id"]) is None

        asked = time.monotonic()
        assert session.stop()["stop_requested"] is True
        status = wait_until(lambda: turn_status(charlotte, turn["id"]), 5.0, "the stop")
        took = time.monotonic() - asked

        assert status == "stopped"
        assert took < 2.0, f"stop took {took:.2f}s"
        print(f"\nstop of a silent turn took {took * 1000:.0f} ms")
        log = events(charlotte, session)
        assert log[-1] == (EventTypes.TURN_STOPPED, {"turn_id": turn["id"]})
        assert EventTypes.RUN_FAILED not in [t for t, _ in log]
        assert session.status()["status"] == "idle"
        assert server.hung_up.wait(5.0), "the model connection stayed open after the stop"
        takes_a_new_turn(charlotte, session)
    finally:
        charlotte.close()


def test_a_silent_model_fails_the_turn_model_timeout(tmp_path: Path, server: ModelServer) -> None:
    charlotte = charlotte_on(tmp_path, server, model_idle_timeout_seconds=1.0)
    try:
        session = open_session(charlotte)
        started = time.monotonic()
        turn = session.send(f"{SILENT}: build the page")

        status = wait_until(lambda: turn_status(charlotte, turn["id"]), 10.0, "the idle timeout")
        took = time.monotonic() - started

        assert status == "failed"
        assert 1.0 <= took < 5.0, took
        record = charlotte.turns.get(turn["id"])
        assert record is not None and record.error_code == "model_timeout"
        assert events(charlotte, session)[-1] == (EventTypes.RUN_FAILED, {"turn_id": turn["id"], "code": "model_timeout"})
        assert server.hung_up.wait(5.0)
        takes_a_new_turn(charlotte, session)
    finally:
        charlotte.close()


def test_a_model_that_never_finishes_fails_the_turn_turn_timeout(
    tmp_path: Path, server: ModelServer
) -> None:
    # The trickle never goes quiet for long: only the whole-turn bound can end it.
    charlotte = charlotte_on(tmp_path, server, model_idle_timeout_seconds=1.0, turn_timeout_seconds=2.0)
    try:
        session = open_session(charlotte)
        started = time.monotonic()
        turn = session.send(f"{TRICKLE}: build the page")

        status = wait_until(lambda: turn_status(charlotte, turn["id"]), 10.0, "the turn timeout")
        took = time.monotonic() - started

        assert status == "failed"
        assert 2.0 <= took < 6.0, took
        record = charlotte.turns.get(turn["id"])
        assert record is not None and record.error_code == "turn_timeout"
        log = events(charlotte, session)
        assert log[-1] == (EventTypes.RUN_FAILED, {"turn_id": turn["id"], "code": "turn_timeout"})
        assert EventTypes.TEXT_DELTA in [t for t, _ in log]  # it was talking all along
        assert server.hung_up.wait(5.0)
        takes_a_new_turn(charlotte, session)
    finally:
        charlotte.close()
