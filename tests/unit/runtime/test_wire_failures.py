"""A provider that refuses, limits, fails, goes silent or cannot be reached ends the turn with a code.

Each test runs against the three loopback wire formats (see
``test_wire_turns.py``) through the real provider classes, with charlotte's
retries set short (``model_retry_seconds=0.05``, ``model_retry_max_seconds=0.3``,
two retries). Every case ends the turn with its code, the session idle and
ready for the next turn; no event holds exception text or the key; no log
record carries a traceback or the provider's words.
"""

from __future__ import annotations

import itertools
import logging
import time
from pathlib import Path

import pytest
from tests.support.loopback_http import Failure, Reply, Silence, refused_url
from tests.support.wire_harness import (
    TEST_KEY,
    WIRES,
    Wire,
    clean,
    events,
    on_wire,
    open_session,
    run_turn,
    settings_for,
    turn_status,
    wait_for_end,
)

from charlotte.app import Charlotte
from charlotte.events import EventTypes

wires = pytest.mark.parametrize("wire", WIRES, ids=[w.name for w in WIRES])


def _quiet_logs(caplog: pytest.LogCaptureFixture) -> None:
    """No record with a traceback; none of charlotte's with the provider's or the client's words."""
    for record in caplog.records:
        assert record.exc_info is None, record.getMessage()
        if record.name.startswith("charlotte"):
            assert clean(record.getMessage()) == [], record.getMessage()


def _ends_with(
    charlotte: Charlotte, session_events: list[tuple[str, dict[str, object]]], code: str
) -> None:
    turn_id = [p["turn_id"] for t, p in session_events if t == EventTypes.TURN_QUEUED][-1]
    assert session_events[-1] == (EventTypes.RUN_FAILED, {"turn_id": turn_id, "code": code})


def _gaps(peer_times: list[float]) -> list[float]:
    return [later - earlier for earlier, later in itertools.pairwise(peer_times)]


@wires
def test_a_refused_key_is_model_auth_failed_at_once(
    tmp_path: Path, wire: Wire, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    with on_wire(tmp_path, wire) as (peer, charlotte):
        peer.play(Failure(401))
        session = open_session(charlotte)

        assert run_turn(charlotte, session, "Build the page") == ("failed", "model_auth_failed")

        _ends_with(charlotte, events(charlotte, session), "model_auth_failed")
        assert len(peer.requests) == 1  # a wrong key is not retried
        assert session.status()["status"] == "idle"
        _quiet_logs(caplog)
        assert run_turn(charlotte, session, "Try again")[0] == "finished"


@wires
def test_429_is_retried_honouring_retry_after_up_to_the_cap_then_model_rate_limited(
    tmp_path: Path, wire: Wire, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    with on_wire(tmp_path, wire) as (peer, charlotte):
        # The first asks for 0.2 s, the second for an hour (capped at 0.3 s), the third is the last word.
        peer.play(
            Failure(429, "rate_limit", {"Retry-After": "0.2"}),
            Failure(429, "rate_limit", {"Retry-After": "3600"}),
            Failure(429, "rate_limit", {"Retry-After": "1"}),
        )
        session = open_session(charlotte)
        started = time.monotonic()

        assert run_turn(charlotte, session, "Build the page") == ("failed", "model_rate_limited")

        took = time.monotonic() - started
        assert len(peer.requests) == 3  # the first try and two retries, no more
        first, second = _gaps([r.at for r in peer.requests])
        assert 0.2 <= first < 0.6, first  # asked for (the backoff alone would be 0.05 s)
        assert 0.3 <= second < 1.0, second  # an hour asked, the cap waited
        assert took < 3.0, took
        _ends_with(charlotte, events(charlotte, session), "model_rate_limited")
        _quiet_logs(caplog)


@wires
def test_5xx_is_retried_with_backoff_and_a_later_answer_wins(tmp_path: Path, wire: Wire) -> None:
    with on_wire(tmp_path, wire) as (peer, charlotte):
        peer.play(Failure(503), Failure(500), Reply.of_text("Built it."))
        session = open_session(charlotte)

        assert run_turn(charlotte, session, "Build the page") == ("finished", None)

        assert len(peer.requests) == 3
        first, second = _gaps([r.at for r in peer.requests])
        # 0.05 s, then doubled.
        assert 0.05 <= first < 0.5 and 0.1 <= second < 0.6, (first, second)
        assert peer.requests[0].body == peer.requests[2].body  # the same request each time


@wires
def test_5xx_after_the_retries_is_model_unavailable(
    tmp_path: Path, wire: Wire, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    with on_wire(tmp_path, wire) as (peer, charlotte):
        # Anthropic's "overloaded" is its own status, 529.
        peer.play(Failure(502), Failure(529 if wire.name == "anthropic" else 503), Failure(500))
        session = open_session(charlotte)

        assert run_turn(charlotte, session, "Build the page") == ("failed", "model_unavailable")

        assert len(peer.requests) == 3
        _ends_with(charlotte, events(charlotte, session), "model_unavailable")
        assert session.status()["status"] == "idle"
        _quiet_logs(caplog)


@wires
def test_an_error_inside_an_open_stream_ends_the_turn_with_its_code(
    tmp_path: Path, wire: Wire, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    with on_wire(tmp_path, wire) as (peer, charlotte):
        # Anthropic's overloaded_error (529), OpenAI's server_error (500), sent after the 200.
        peer.play(Failure(529 if wire.name == "anthropic" else 500, in_stream=True))
        session = open_session(charlotte)

        assert run_turn(charlotte, session, "Build the page") == ("failed", "model_unavailable")

        _ends_with(charlotte, events(charlotte, session), "model_unavailable")
        assert session.status()["status"] == "idle"
        _quiet_logs(caplog)


@wires
def test_a_refused_connection_is_model_unavailable_without_a_traceback(
    tmp_path: Path, wire: Wire, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    url = refused_url() if wire.with_v1 else refused_url().removesuffix("/v1")
    charlotte = Charlotte(settings_for(tmp_path, wire.model, url))
    try:
        charlotte.migrate()
        session = open_session(charlotte)
        started = time.monotonic()

        assert run_turn(charlotte, session, "Build the page") == ("failed", "model_unavailable")

        assert time.monotonic() - started < 5.0
        _ends_with(charlotte, events(charlotte, session), "model_unavailable")
        assert session.status()["status"] == "idle"
        _quiet_logs(caplog)
    finally:
        charlotte.close()


@wires
def test_a_stream_that_goes_silent_is_model_timeout(tmp_path: Path, wire: Wire) -> None:
    with on_wire(tmp_path, wire, model_idle_timeout_seconds=1.0) as (peer, charlotte):
        peer.play(Silence("Working on it"))
        session = open_session(charlotte)
        started = time.monotonic()

        assert run_turn(charlotte, session, "Build the page") == ("failed", "model_timeout")

        assert 1.0 <= time.monotonic() - started < 5.0
        _ends_with(charlotte, events(charlotte, session), "model_timeout")
        assert peer.hung_up.wait(5.0), "the model connection stayed open"
        assert run_turn(charlotte, session, "Try again")[0] == "finished"


@wires
def test_a_stop_while_the_model_streams_ends_the_turn_stopped_and_hangs_up(
    tmp_path: Path, wire: Wire
) -> None:
    with on_wire(tmp_path, wire) as (peer, charlotte):
        peer.play(Silence("Working on it"))
        session = open_session(charlotte)
        turn = session.send("Build the page")
        assert peer.went_quiet.wait(10.0)
        time.sleep(0.3)
        assert turn_status(charlotte, turn["id"]) is None

        asked = time.monotonic()
        assert session.stop()["stop_requested"] is True
        assert wait_for_end(charlotte, turn["id"], 5.0) == "stopped"

        assert time.monotonic() - asked < 2.0
        log = events(charlotte, session)
        assert log[-1] == (EventTypes.TURN_STOPPED, {"turn_id": turn["id"]})
        assert EventTypes.RUN_FAILED not in [t for t, _ in log]
        assert peer.hung_up.wait(5.0), "the model connection stayed open after the stop"
        assert session.status()["status"] == "idle"


def test_a_stop_during_a_retry_wait_ends_the_turn_at_once(tmp_path: Path) -> None:
    with on_wire(tmp_path, WIRES[0], model_retry_max_seconds=30.0) as (peer, charlotte):
        peer.play(Failure(503, headers={"Retry-After": "30"}))
        session = open_session(charlotte)
        turn = session.send("Build the page")
        deadline = time.monotonic() + 10.0
        while not peer.requests and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.2)  # the transport is waiting its 30 s now

        asked = time.monotonic()
        session.stop()
        assert wait_for_end(charlotte, turn["id"], 5.0) == "stopped"

        assert time.monotonic() - asked < 2.0
        assert len(peer.requests) == 1


def test_an_unknown_model_path_is_model_rejected(tmp_path: Path) -> None:
    # A base URL that lacks /v1 (or a model the provider does not serve) answers 404.
    with on_wire(tmp_path, WIRES[0]) as (peer, charlotte):
        peer.play(Failure(404))
        session = open_session(charlotte)

        assert run_turn(charlotte, session, "Build the page") == ("failed", "model_rejected")
        assert len(peer.requests) == 1


def test_the_key_reaches_the_provider_in_its_header_and_nowhere_else(tmp_path: Path) -> None:
    for wire in WIRES:
        (tmp_path / wire.name).mkdir()
        with on_wire(tmp_path / wire.name, wire) as (peer, charlotte):
            session = open_session(charlotte)
            assert run_turn(charlotte, session, "Hello")[0] == "finished"
            headers = peer.requests[0].headers
            # Anthropic documents x-api-key; its client sends the key as a bearer token too.
            sent = headers.get("x-api-key") or headers.get("authorization", "").removeprefix(
                "Bearer "
            )
            assert sent == TEST_KEY
            assert "sk-loopback" not in repr(charlotte.settings)
            events(charlotte, session)  # no event holds it
