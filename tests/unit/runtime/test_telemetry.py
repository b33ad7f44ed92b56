"""UsageTelemetry: usage.observed when enabled, nothing at all when disabled, never raises."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
import sqlalchemy as sa
from pydantic_ai.usage import RunUsage
from tests.support.databases import new_session
from tests.support.handed_log import HandedLog

from charlotte.events import EventTypes, NewEvent, schema_errors
from charlotte.runtime.telemetry import UsageTelemetry
from charlotte.storage import DatabaseEventLog

SECRET = "SECRET-connection-string"


class Untouchable:
    """An object that notes every attribute read (and then fails it)."""

    def __init__(self) -> None:
        self.reads: list[str] = []

    def __getattr__(self, name: str) -> Any:
        # Noted before raising: the telemetry swallows the error, the list remains.
        self.reads.append(name)
        raise RuntimeError(f"read {name}")


class ExplodingLog(DatabaseEventLog):
    """An event log whose appends fail with a message that must not travel."""

    def append_many(
        self,
        conn: sa.Connection,
        session_id: str,
        new_events: Sequence[NewEvent],
        *,
        tenant: str | None = None,
    ) -> list[int]:
        raise RuntimeError(SECRET)


def read(engine: sa.Engine, session_id: str) -> list[Any]:
    return DatabaseEventLog().read(engine, session_id, 0, 100)


def test_enabled_records_usage_observed(sqlite_engine: sa.Engine) -> None:
    session = new_session(sqlite_engine)
    usage = RunUsage(requests=3, input_tokens=1200, output_tokens=345, tool_calls=4)

    UsageTelemetry(True).observe(
        sqlite_engine, session.id, session.tenant, "turn-1", "scripted", usage
    )

    (event,) = read(sqlite_engine, session.id)
    assert event.type == EventTypes.USAGE_OBSERVED
    assert schema_errors(event) == []
    payload: Mapping[str, Any] = event.payload
    assert payload == {
        "turn_id": "turn-1",
        "model": "scripted",
        "requests": 3,
        "input_tokens": 1200,
        "output_tokens": 345,
    }


def test_disabled_does_not_touch_the_usage_or_the_database() -> None:
    telemetry = UsageTelemetry(False)
    assert telemetry.enabled is False
    engine, usage = Untouchable(), Untouchable()
    telemetry.observe(engine, "s", "t", "turn-1", "m", usage)  # type: ignore[arg-type]
    assert engine.reads == [] and usage.reads == []


def test_enabled_does_read_the_usage() -> None:
    # The guard above can fail: enabled, the same call reads the usage (and swallows the error).
    usage = Untouchable()
    UsageTelemetry(True).observe(Untouchable(), "s", "t", "turn-1", "m", usage)  # type: ignore[arg-type]
    assert usage.reads == ["requests"]


def test_failures_are_swallowed_and_logged_without_their_message(
    sqlite_engine: sa.Engine, caplog: pytest.LogCaptureFixture
) -> None:
    session = new_session(sqlite_engine)
    telemetry = UsageTelemetry(True, events=ExplodingLog())

    with caplog.at_level(logging.DEBUG, logger="charlotte.runtime.telemetry"):
        telemetry.observe(
            sqlite_engine, session.id, session.tenant, "turn-1", "m", RunUsage(requests=1)
        )

    assert read(sqlite_engine, session.id) == []
    assert [r.levelno for r in caplog.records] == [logging.DEBUG]
    assert "RuntimeError" in caplog.text
    assert SECRET not in caplog.text


def test_a_broken_usage_object_or_unknown_session_is_swallowed(sqlite_engine: sa.Engine) -> None:
    session = new_session(sqlite_engine)
    telemetry = UsageTelemetry(True)
    telemetry.observe(sqlite_engine, session.id, session.tenant, "turn-1", "m", Untouchable())  # type: ignore[arg-type]
    telemetry.observe(sqlite_engine, "no-such-session", "tenant-a", "turn-1", "m", RunUsage())
    telemetry.observe(sqlite_engine, session.id, "other-tenant", "turn-1", "m", RunUsage())
    assert read(sqlite_engine, session.id) == []


def test_odd_figures_and_names_stay_inside_the_schema(sqlite_engine: sa.Engine) -> None:
    session = new_session(sqlite_engine)
    usage = RunUsage(requests=1, input_tokens=-5, output_tokens=7)
    UsageTelemetry(True).observe(sqlite_engine, session.id, session.tenant, "turn-1", "", usage)
    UsageTelemetry(True).observe(
        sqlite_engine, session.id, session.tenant, "turn-1", "m" * 400, RunUsage()
    )
    first, second = read(sqlite_engine, session.id)
    assert schema_errors(first) == [] and schema_errors(second) == []
    assert first.payload["input_tokens"] == 0
    assert first.payload["model"] == "unknown"
    assert len(second.payload["model"]) == 255


def test_a_model_name_that_is_not_unicode_is_handed_over_repaired(sqlite_engine: sa.Engine) -> None:
    session = new_session(sqlite_engine)
    log = HandedLog()
    UsageTelemetry(True, log).observe(sqlite_engine, session.id, session.tenant, "turn-1", "gpt\ud800", RunUsage())
    assert [p["model"] for p in log.payloads] == ["gpt\ufffd"]
    assert read(sqlite_engine, session.id)[0].payload["model"] == "gpt\ufffd"
