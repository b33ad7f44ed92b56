"""Column types: compact JSON text, aware UTC datetimes, on SQLite."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone

import pytest
import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st

from charlotte.errors import StorageError
from charlotte.storage import transaction
from charlotte.storage._json_stream import extend_array, loads_each, loads_each_text
from charlotte.storage.tables import sessions
from charlotte.storage.types import dumps, dumps_reusing, loads


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


# Text that is Unicode (no lone surrogate), any other character included.
_TEXT = st.text(st.characters(exclude_categories=("Cs",)))
_NAMES = st.text(st.characters(exclude_categories=("Cs",)), max_size=6)
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | _TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_NAMES, inner, max_size=4),
    max_leaves=20,
)


@given(value=_JSON)
def test_dumps_writes_what_json_dumps_writes(value: object) -> None:
    assert dumps(value) == json.dumps(value, separators=(",", ":"), allow_nan=False)


@given(
    top=st.dictionaries(_NAMES, _JSON, max_size=4),
    nodes=st.dictionaries(_NAMES, _JSON, max_size=6),
    kept=st.sets(_NAMES),
)
def test_dumps_reusing_writes_what_dumps_writes(
    top: dict[str, object], nodes: dict[str, object], kept: set[str]
) -> None:
    doc = {**top, "nodes": nodes}
    first, held = dumps_reusing(doc, "nodes", None)
    assert first == dumps(doc) and set(held) == set(nodes)
    # Kept members are the same objects; the others are equal copies or new values.
    changed = {
        name: (item if name in kept else json.loads(json.dumps(item)))
        for name, item in {**nodes, **{name: [1] for name in kept - set(nodes)}}.items()
    }
    second, _ = dumps_reusing({**doc, "nodes": changed}, "nodes", held)
    assert second == dumps({**doc, "nodes": changed})


def test_dumps_reusing_refuses_what_dumps_refuses() -> None:
    cyclic: dict[str, object] = {"id": "a"}
    cyclic["self"] = cyclic
    for node, error in ((float("nan"), ValueError), (object(), TypeError), (cyclic, ValueError)):
        with pytest.raises(error):
            dumps_reusing({"seq": 1, "nodes": {"a": node}}, "nodes", None)
    with pytest.raises(ValueError):
        dumps_reusing({"seq": 1, "nodes": {"a": "\udfff"}}, "nodes", None)
    # Names json.dumps would convert (not text) are left to it.
    assert dumps_reusing({"nodes": {1: "x"}}, "nodes", None)[0] == '{"nodes":{"1":"x"}}'
    assert dumps_reusing({"nodes": [1]}, "nodes", None)[0] == '{"nodes":[1]}'


@given(values=st.lists(_JSON, max_size=6), spaced=st.booleans())
def test_loads_each_yields_what_loads_reads(values: list[object], spaced: bool) -> None:
    text = json.dumps(values, indent=1 if spaced else None)
    assert list(loads_each(text)) == loads(text)
    assert list(loads_each(" \n" + text + "\t ")) == values


@st.composite
def _near_arrays(draw: st.DrawFn) -> str:
    """Stored array texts, and texts a character or two away from one (most are not JSON)."""
    values = draw(st.lists(_JSON | st.sampled_from([float("nan"), float("inf")]), max_size=4))
    text = json.dumps(values, indent=draw(st.sampled_from([None, 1])))
    if draw(st.booleans()):
        text = draw(st.sampled_from(["", " ", "\n", "\t", "\ufeff"])) + text + draw(
            st.sampled_from(["", " ", "\r\n", "x", "]", ",", "[]"])
        )
    for _ in range(draw(st.integers(0, 2))):
        at = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, 2))
        text = text[:at] + draw(st.sampled_from(["", ",", "]", "[", "{", '"', "1", " ", "\\ud800"])) + text[at + cut :]
    return text


def _plain(text: str, *, allow_nan: bool) -> str:
    """What the plain path makes of ``text``: ``loads`` of the whole text, or its refusal."""
    try:
        value = loads(text, allow_nan=allow_nan)
    except ValueError:
        return "ValueError"
    return repr(value) if type(value) is list else "ValueError"  # repr: NaN equals NaN


def _streamed(values: Iterator[object]) -> str:
    try:
        return repr(list(values))
    except ValueError:
        return "ValueError"


@settings(max_examples=500)
@given(text=_near_arrays() | st.text(alphabet=' []{},:"0123456789.eE+-ntrufalsNIiy\\', max_size=16))
def test_the_streamed_decoder_reads_and_refuses_exactly_what_loads_does(text: str) -> None:
    # The plain path is json.loads of the whole text (``types.loads``): the same
    # values in the same order, and ValueError for every text that is not a JSON array.
    assert _streamed(loads_each(text)) == _plain(text, allow_nan=True)
    strict = _plain(text, allow_nan=False)
    assert _streamed(value for value, _ in loads_each_text(text)) == strict
    if strict != "ValueError":
        for value, own in loads_each_text(text):
            assert own is None or repr(loads(own)) == repr(value)


def test_loads_each_decodes_one_value_at_a_time() -> None:
    # The values are decoded as they are taken: what follows a bad value is never read.
    values = loads_each('[{"a":1},{"b":2},{"c":')
    assert next(values) == {"a": 1}
    assert next(values) == {"b": 2}
    with pytest.raises(ValueError):
        next(values)


@pytest.mark.parametrize(
    "text",
    ["", "{}", '"[1]"', "[", "]", "[1", "[1,]", "[,1]", "[1 2]", "[1]]", "[1] x", "[]x", "[1,,2]", "nul"],
)
def test_loads_each_refuses_what_is_not_a_json_array(text: str) -> None:
    with pytest.raises(ValueError):
        list(loads_each(text))


def test_loads_each_repairs_a_lone_surrogate_as_loads_does() -> None:
    text = '[{"t":"a"},{"t":"x\\ud800y"}]'
    assert list(loads_each(text)) == loads(text) == [{"t": "a"}, {"t": "x\ufffdy"}]
    with pytest.raises(ValueError):
        list(loads_each('{"t":"\\ud800"}'))


@given(values=st.lists(_JSON, max_size=6), spaced=st.booleans())
def test_loads_each_text_gives_each_value_with_its_own_text(values: list[object], spaced: bool) -> None:
    text = json.dumps(values, indent=1) if spaced else dumps(values)
    pairs = list(loads_each_text(" " + text))
    assert [value for value, _text in pairs] == values
    # Each text is the element as written: it reads back as the value (as dumps wrote it, compact).
    assert all(piece is not None and loads(piece) == value for value, piece in pairs)
    if not spaced:
        assert [piece for _value, piece in pairs] == [dumps(value) for value in values]


@pytest.mark.parametrize("text", ["[1,NaN]", '[{"a":Infinity}]', "[-Infinity]", "[1", "{}"])
def test_loads_each_text_refuses_nan_and_what_is_not_an_array(text: str) -> None:
    with pytest.raises(ValueError):
        list(loads_each_text(text))


def test_loads_each_text_gives_no_text_for_a_repaired_lone_surrogate() -> None:
    text = '[{"t":"a"},{"t":"x\\ud800y"}]'
    assert list(loads_each_text(text)) == [({"t": "a"}, None), ({"t": "x\ufffdy"}, None)]


@given(first=st.lists(_JSON, max_size=5), more=st.lists(_JSON, max_size=5))
def test_extend_array_writes_what_dumps_writes_for_both_lists(
    first: list[object], more: list[object]
) -> None:
    assert extend_array(dumps(first), more) == dumps(first + more)
    assert loads(extend_array(" " + json.dumps(first, indent=1) + "\n", more)) == first + more


@pytest.mark.parametrize("text", ["", "{}", "1", "[1", "1]", '"[]"'])
def test_extend_array_refuses_a_text_that_is_not_an_array(text: str) -> None:
    with pytest.raises(ValueError):
        extend_array(text, [1])


def test_extend_array_refuses_what_dumps_refuses() -> None:
    with pytest.raises(ValueError):
        extend_array("[1]", [float("nan")])
    with pytest.raises(TypeError):
        extend_array("[]", [object()])
