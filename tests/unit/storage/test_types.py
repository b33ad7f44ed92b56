"""Column types: compact JSON text, aware UTC datetimes, on SQLite."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
import sqlalchemy as sa

from charlotte.storage import StorageError, transaction
from charlotte.storage.tables import sessions
from charlotte.storage.types import dumps


def _session_row(**overrides: object) -> dict[str, object]:
    now = datetime.now(UTC)
    row: dict[str, object] = {
        "id": "s1",
        "tenant": "t",
        "page": "p",
        "created_by": "u",
        "created_at": now,
        "updated_at": now,
    }
    row.update(overrides)
    return row


def test_json_is_stored_compact_and_read_back_as_data(sqlite_engine: sa.Engine) -> None:
    facts = {"hours": ["Mon-Fri 7-18 \u00e9t\u00e9"], "price": 4.5, "nested": {"ok": True}}
    with transaction(sqlite_engine) as conn:
        conn.execute(sessions.insert(), _session_row(facts=facts))
        raw = conn.exec_driver_sql("SELECT facts FROM charlotte_sessions").scalar_one()
        loaded = conn.execute(sa.select(sessions.c.facts)).scalar_one()

    assert raw == dumps(facts)
    assert ", " not in raw and ": " not in raw
    assert loaded == facts


@pytest.mark.parametrize("value", [float("nan"), float("inf"), object()])
def test_a_value_that_is_not_json_is_refused(sqlite_engine: sa.Engine, value: object) -> None:
    with pytest.raises(StorageError) as raised, transaction(sqlite_engine) as conn:
        conn.execute(sessions.insert(), _session_row(facts={"x": value}))
    assert raised.value.code == "invalid_value"


def test_datetimes_are_stored_in_utc_and_read_back_aware(sqlite_engine: sa.Engine) -> None:
    zurich = datetime(2025, 6, 1, 14, 30, 15, 123456, tzinfo=timezone(timedelta(hours=2)))
    with transaction(sqlite_engine) as conn:
        conn.execute(sessions.insert(), _session_row(created_at=zurich))
        loaded = conn.execute(sa.select(sessions.c.created_at)).scalar_one()

    assert loaded == zurich
    assert loaded.tzinfo is UTC
    assert loaded.hour == 12


def test_a_naive_datetime_is_refused(sqlite_engine: sa.Engine) -> None:
    with pytest.raises(StorageError) as raised, transaction(sqlite_engine) as conn:
        conn.execute(sessions.insert(), _session_row(created_at=datetime(2025, 1, 1)))
    assert raised.value.code == "invalid_value"
