"""Column types: compact JSON text, aware UTC datetimes, on SQLite."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone

import pytest
import sqlalchemy as sa

from charlotte.errors import StorageError
from charlotte.storage import transaction
from charlotte.storage.tables import sessions
from charlotte.storage.types import dumps, loads


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


@pytest.mark.parametrize("facts", [{"x": "a\ud800"}, {"k\udfff": "v"}, {"deep": [[["\udc00"]]]}])
def test_a_json_value_holding_a_lone_surrogate_is_refused_like_in_a_text_column(
    sqlite_engine: sa.Engine, facts: dict[str, object]
) -> None:
    with pytest.raises(StorageError) as raised, transaction(sqlite_engine) as conn:
        conn.execute(sessions.insert(), _session_row(facts=facts))
    assert raised.value.code == "invalid_value"
    with pytest.raises(ValueError):
        dumps(facts)


def test_valid_text_that_looks_like_an_escape_is_stored_as_it_is() -> None:
    # An emoji is escaped as a surrogate pair; a literal backslash-u is no escape.
    value = {"emoji": "🍞 \U00010000", "literal": "\\ud800 \\\\udfff", "pair": "\ud83d\ude00"}
    text = dumps(value)
    assert json.loads(text) == {**value, "pair": "\U0001f600"}
    assert loads(text) == json.loads(text)


def test_a_lone_surrogate_escape_an_older_version_stored_reads_as_a_replacement_character(
    sqlite_engine: sa.Engine,
) -> None:
    stored = '{"x":"a\\ud800b","k\\uDFFF":"v","pair":"\\ud83d\\ude00","literal":"\\\\ud800"}'
    with transaction(sqlite_engine) as conn:
        conn.execute(sessions.insert(), _session_row())
        conn.exec_driver_sql("UPDATE charlotte_sessions SET facts = ?", (stored,))
        loaded = conn.execute(sa.select(sessions.c.facts)).scalar_one()
        # Saved again as read: Unicode now, so the write is not refused.
        conn.execute(sa.update(sessions).values(facts=loaded))

    assert loaded == {"x": "a\ufffdb", "k\ufffd": "v", "pair": "\U0001f600", "literal": "\\ud800"}


def test_loads_can_refuse_nan() -> None:
    assert loads('{"n":NaN}')["n"] != loads('{"n":NaN}')["n"]  # NaN, as json.loads reads it
    with pytest.raises(ValueError):
        loads('{"n":NaN}', allow_nan=False)
