"""``Direct`` and ``run_driver_sql``: statements on the driver's cursor, as ``Connection.execute`` runs them.

Every test runs on SQLite and on PostgreSQL (skipped without a server URL).
On PostgreSQL the session's time zone is set away from UTC where rows are
read, so a datetime that reads as UTC went through its result processor.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta, timezone
from typing import Any, Final

import pytest
import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy import exc as sa_exc
from tests.support.databases import new_session, unique

from charlotte.errors import StorageError
from charlotte.events import AGENT_ACTOR, EventTypes, format_at
from charlotte.storage import (
    DatabaseEventLog,
    DatabasePageRepository,
    SessionRecord,
    SessionStore,
    TurnRecord,
    TurnStore,
    eventlog,
    pages,
    sessions,
    transaction,
    turns,
)
from charlotte.storage._direct import Direct, run_driver_sql
from charlotte.storage._translate import translated
from charlotte.storage.tables import events
from charlotte.storage.tables import sessions as sessions_table
from charlotte.storage.tables import turns as turns_table
from charlotte.storage.types import dumps

LOG = DatabaseEventLog()
FACTS = {"name": "Café Zoë", "hours": ["Mon-Fri 9-17", "Sat 10-14"], "seats": 24, "terrace": True}
#: Nine hours east of UTC: a value given in another zone is stored as its UTC instant.
EAST: Final = timezone(timedelta(hours=9))
Rows = list[tuple[Any, ...]]
Params = dict[str, Any]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def engine(request: pytest.FixtureRequest) -> sa.Engine:
    """On SQLite and on PostgreSQL (skipped without a server URL)."""
    found: sa.Engine = request.getfixturevalue(f"{request.param}_engine")
    return found


@contextmanager
def _reading(engine: sa.Engine) -> Iterator[sa.Connection]:
    """A write transaction; on PostgreSQL with the session's time zone five and a half hours off UTC."""
    with transaction(engine) as conn:
        if conn.dialect.name == "postgresql":
            conn.exec_driver_sql("SET LOCAL TIME ZONE 'Asia/Kolkata'")
        yield conn


def _types(rows: Rows) -> list[list[type]]:
    return [[type(value) for value in row] for row in rows]


def _both(conn: sa.Connection, direct: Direct, params: Params) -> Rows:
    """``direct``'s rows, checked equal, value for value and type for type, to ``Connection.execute``'s."""
    ours = direct.all(conn, params)
    standard = [tuple(row) for row in conn.execute(direct.statement, params)]
    assert ours == standard
    assert _types(ours) == _types(standard)
    assert direct.first(conn, params) == (standard[0] if standard else None)
    return ours


def _stored_session(engine: sa.Engine, **fields: Any) -> SessionRecord:
    return new_session(engine, unique("tenant"), unique("page"), **fields)


def _is_utc(value: object) -> bool:
    return isinstance(value, datetime) and value.tzinfo is UTC


def _event_row(session: SessionRecord, seq: int, at: datetime) -> Params:
    """One row as ``eventlog._INSERT`` binds it."""
    return {
        "session_id": session.id,
        "seq": seq,
        "tenant": session.tenant,
        "type": EventTypes.TEXT_DELTA,
        "at": at,
        "actor": AGENT_ACTOR,
        "payload_text": f'{{"text":"row {seq}"}}',
    }


@contextmanager
def _listening(target: sa.Engine | sa.Connection, name: str = "before_cursor_execute") -> Iterator[list[str]]:
    """The SQL of every statement the cursor runs while the block runs, as the listener ``name`` sees it."""
    seen: list[str] = []

    def listener(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(statement)

    event.listen(target, name, listener)
    try:
        yield seen
    finally:
        event.remove(target, name, listener)


def _counting_execute(monkeypatch: pytest.MonkeyPatch) -> list[sa.Executable]:
    """Every statement ``Connection.execute`` is handed from now on (it still runs them)."""
    handed: list[sa.Executable] = []
    execute = sa.Connection.execute

    def counted(self: sa.Connection, statement: Any, *args: Any, **kwargs: Any) -> Any:
        handed.append(statement)
        return execute(self, statement, *args, **kwargs)

    monkeypatch.setattr(sa.Connection, "execute", counted)
    return handed


# -- the rows are the ones Connection.execute returns -------------------------------


@pytest.mark.parametrize("direct", [sessions._SELECT, sessions._SELECT_LOCKED], ids=["get", "lock"])
def test_a_session_row_reads_as_connection_execute_reads_it(engine: sa.Engine, direct: Direct) -> None:
    created = _stored_session(engine, brief="Bakery in Leeds", facts=FACTS, approve_on_save=True)
    with _reading(engine) as conn:
        rows = _both(conn, direct, {"get_id": created.id, "get_tenant": created.tenant})
        assert _both(conn, direct, {"get_id": created.id, "get_tenant": "another"}) == []
    assert [SessionRecord(*row) for row in rows] == [created]
    record = SessionRecord(*rows[0])
    assert record.facts == FACTS and type(record.facts) is dict  # decoded JSON, not its text
    assert record.stop_requested is False and record.approve_on_save is True  # bool, not 0 / 1
    assert _is_utc(record.created_at) and _is_utc(record.updated_at)


def test_the_stop_flag_reads_as_connection_execute_reads_it(engine: sa.Engine) -> None:
    session = _stored_session(engine)
    at = datetime(2025, 3, 4, 5, 6, 7, 891011, tzinfo=UTC)
    turn = TurnRecord(unique("turn"), session.id, session.tenant, "Make it blue", "user-1",
                      "running", False, None, at, at, None, None)  # fmt: skip
    with transaction(engine) as conn:
        TurnStore().insert(conn, turn)
        SessionStore().update(conn, session.id, session.tenant, stop_requested=True)
    with _reading(engine) as conn:
        rows = _both(conn, turns._STOP_FLAG, {"stop_turn_id": turn.id})
        assert _both(conn, turns._STOP_FLAG, {"stop_turn_id": "no-such-turn"}) == []
    assert rows == [("running", True)]
    assert rows[0][1] is True


def test_a_draft_and_a_published_copy_read_as_connection_execute_reads_them(engine: sa.Engine) -> None:
    tenant, page = unique("tenant"), unique("page")
    draft = {"seq": 3, "meta": {"title": "Draft “one” 🍞"}, "nodes": {}}
    published = {"seq": 2, "meta": {"title": "Published"}, "nodes": {}}
    repository = DatabasePageRepository()
    with transaction(engine) as conn:
        repository.save_published(conn, tenant, page, published)
        repository.save_draft(conn, tenant, page, draft)
    with _reading(engine) as conn:
        for direct in (pages._LOAD_DRAFT, pages._LOAD_DRAFT_LOCKED):
            loaded = _both(conn, direct, {"load_tenant": tenant, "load_page": page})
            assert loaded == [(dumps(draft), 3)]  # the stored text: decoded by the caller
            assert _both(conn, direct, {"load_tenant": tenant, "load_page": "other"}) == []
        copy = _both(conn, pages._LOAD_PUBLISHED, {"published_tenant": tenant, "published_page": page})
        assert copy == [(published, 2)]
        assert type(copy[0][0]) is dict


def test_a_page_never_published_has_no_published_row_either_way(engine: sa.Engine) -> None:
    tenant, page = unique("tenant"), unique("page")
    with transaction(engine) as conn:
        DatabasePageRepository().save_draft(conn, tenant, page, {"seq": 1, "nodes": {}})
    with _reading(engine) as conn:
        assert _both(conn, pages._LOAD_PUBLISHED, {"published_tenant": tenant, "published_page": page}) == []


def test_the_seq_bump_returns_what_connection_execute_returns(engine: sa.Engine) -> None:
    # An UPDATE … RETURNING runs once per row: the same bump on two sessions in the same state.
    tenant = unique("tenant")
    ours, standard = new_session(engine, tenant), new_session(engine, tenant)
    at = datetime(2025, 1, 2, 3, 4, 5, 678901, tzinfo=UTC)
    with _reading(engine) as conn:
        for count in (1, 3):
            found = eventlog._BUMP.first(conn, {"bump_session_id": ours.id, "bump_count": count, "bump_at": at})
            wanted = conn.execute(
                eventlog._BUMP.statement, {"bump_session_id": standard.id, "bump_count": count, "bump_at": at}
            ).first()
            assert wanted is not None
            assert found == tuple(wanted) and _types([found]) == _types([tuple(wanted)])
        elsewhere = {"bump_session_id": ours.id, "bump_count": 1, "bump_at": at, "bump_tenant": "another"}
        assert eventlog._BUMP_IN_TENANT.first(conn, elsewhere) is None
        standard_elsewhere = elsewhere | {"bump_session_id": standard.id}
        assert conn.execute(eventlog._BUMP_IN_TENANT.statement, standard_elsewhere).first() is None
        stored = SessionStore().get(conn, ours.id, tenant)
    assert found == (4, tenant)
    assert stored is not None and stored.last_seq == 4 and stored.updated_at == at


def test_bound_values_are_stored_as_connection_execute_stores_them(engine: sa.Engine) -> None:
    # The bind processors: SQLite keeps a UtcDateTime as naive UTC text, whatever zone it was given in.
    tenant = unique("tenant")
    ours, standard = new_session(engine, tenant), new_session(engine, tenant)
    at = datetime(2025, 7, 8, 23, 30, 1, 234567, tzinfo=UTC).astimezone(EAST)
    stored = ("seq", "tenant", "type", "at", "actor", "payload")
    raw = sa.select(*(sa.type_coerce(events.c[name], sa.Text) for name in stored))
    with transaction(engine) as conn:
        eventlog._BUMP.first(conn, {"bump_session_id": ours.id, "bump_count": 2, "bump_at": at})
        conn.execute(eventlog._BUMP.statement, {"bump_session_id": standard.id, "bump_count": 2, "bump_at": at})
        eventlog._INSERT.run_many(conn, [_event_row(ours, 1, at), _event_row(ours, 2, at)])
        conn.execute(eventlog._INSERT.statement, [_event_row(standard, 1, at), _event_row(standard, 2, at)])
        session_at = sa.select(sa.type_coerce(sessions_table.c.updated_at, sa.Text))
        ours_at, standard_at = (
            conn.execute(session_at.where(sessions_table.c.id == session.id)).scalar_one()
            for session in (ours, standard)
        )
        assert ours_at == standard_at
        ours_rows, standard_rows = (
            conn.execute(raw.where(events.c.session_id == session.id).order_by(events.c.seq)).all()
            for session in (ours, standard)
        )
    assert ours_rows == standard_rows
    assert [event.at for event in LOG.read(engine, ours.id)] == [format_at(at)] * 2


@pytest.mark.postgres
def test_one_direct_compiles_for_each_database_it_meets(
    sqlite_engine: sa.Engine, postgres_engine: sa.Engine
) -> None:
    # SQLite binds by position (qmark), psycopg by name: one object serves both, in any order.
    direct = Direct(sessions._SELECTED)
    for engine in (sqlite_engine, postgres_engine, sqlite_engine):
        created = _stored_session(engine, facts=FACTS)
        with _reading(engine) as conn:
            rows = _both(conn, direct, {"get_id": created.id, "get_tenant": created.tenant})
        assert [SessionRecord(*row) for row in rows] == [created]


# -- a driver error leaves as Connection.execute raises it --------------------------


def _insert_error(engine: sa.Engine, insert: Callable[[sa.Connection, list[Params]], None],
                  rows: list[Params]) -> tuple[str, sa_exc.DBAPIError]:  # fmt: skip
    """The code ``insert`` raises inside ``translated()``, and the SQLAlchemy error under it.

    The transaction is rolled back after, and the connection used again.
    """
    with engine.connect() as conn:
        conn.begin()
        with pytest.raises(StorageError) as raised, translated():
            insert(conn, rows)
        conn.rollback()
        assert not conn.in_transaction()
        assert not conn.invalidated
        with conn.begin():
            assert conn.execute(sa.select(sa.literal(1))).scalar_one() == 1
    cause = raised.value.__cause__
    assert isinstance(cause, sa_exc.DBAPIError)
    return raised.value.code, cause


def _executed(conn: sa.Connection, rows: list[Params]) -> None:
    conn.execute(eventlog._INSERT.statement, rows)


@pytest.mark.parametrize("new_seqs", [[1], [2, 1], [2, 3, 1]], ids=["one row", "two rows", "three rows"])
def test_a_duplicate_event_is_the_conflict_connection_execute_raises(
    engine: sa.Engine, new_seqs: list[int]
) -> None:
    session = _stored_session(engine)
    with transaction(engine) as conn:
        LOG.append(conn, session.id, EventTypes.TEXT_DELTA, {"text": "first"}, actor=AGENT_ACTOR)
    at = datetime.now(UTC)
    rows = [_event_row(session, seq, at) for seq in new_seqs]
    ours, ours_error = _insert_error(engine, eventlog._INSERT.run_many, rows)
    standard, standard_error = _insert_error(engine, _executed, rows)
    assert ours == standard == "conflict"
    assert type(ours_error) is type(standard_error) is sa_exc.IntegrityError
    assert type(ours_error.orig) is type(standard_error.orig)  # the driver's own class under it
    assert not ours_error.connection_invalidated
    # Nothing of either attempt stayed, and the log goes on from where it was.
    assert [event.seq for event in LOG.read(engine, session.id)] == [1]
    with transaction(engine) as conn:
        assert LOG.append(conn, session.id, EventTypes.TEXT_DELTA, {"text": "next"}, actor=AGENT_ACTOR) == 2


# -- a connection with statement listeners keeps the standard path ------------------


def _hot_statements(conn: sa.Connection, session: SessionRecord, turn_id: str) -> Rows:
    """Four Direct statements (through ``all``, ``first`` and ``run_many``); the rows they return."""
    at = datetime(2025, 5, 6, 7, 8, 9, 101112, tzinfo=UTC)
    found = sessions._SELECT.all(conn, {"get_id": session.id, "get_tenant": session.tenant})
    flag = turns._STOP_FLAG.first(conn, {"stop_turn_id": turn_id})
    bumped = eventlog._BUMP.first(conn, {"bump_session_id": session.id, "bump_count": 2, "bump_at": at})
    eventlog._INSERT.run_many(conn, [_event_row(session, 1, at), _event_row(session, 2, at)])
    assert flag is not None and bumped is not None
    return [*found, flag, bumped]


def _with_turn(engine: sa.Engine) -> tuple[SessionRecord, str]:
    """A new session with a running turn; the turn's id."""
    session = _stored_session(engine, facts=FACTS)
    at = datetime.now(UTC)
    turn = TurnRecord(unique("turn"), session.id, session.tenant, "Add a menu", "user-1",
                      "running", False, None, at, at, None, None)  # fmt: skip
    with transaction(engine) as conn:
        TurnStore().insert(conn, turn)
    return session, turn.id


@pytest.mark.parametrize("listener", ["before_cursor_execute", "after_cursor_execute"])
@pytest.mark.parametrize("listen_on", ["engine", "connection"])
def test_a_statement_listener_sees_every_direct_statement(
    engine: sa.Engine, listen_on: str, listener: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    (unwatched, unwatched_turn), (watched, watched_turn) = _with_turn(engine), _with_turn(engine)
    handed = _counting_execute(monkeypatch)
    with transaction(engine) as conn:
        plain = _hot_statements(conn, unwatched, unwatched_turn)
    assert handed == []  # the direct path: Connection.execute never saw them
    with engine.connect() as conn:
        with _listening(engine if listen_on == "engine" else conn, listener) as seen, conn.begin():
            listened = _hot_statements(conn, watched, watched_turn)
        hot = [sql for sql in seen if not sql.startswith("BEGIN")]
    assert len(hot) == 4
    standard = (sessions._SELECT, turns._STOP_FLAG, eventlog._BUMP, eventlog._INSERT)
    assert handed == [direct.statement for direct in standard]
    # The same rows either way, type for type (the sessions differ in id and times only).
    assert SessionRecord(*plain[0]) == unwatched and SessionRecord(*listened[0]) == watched
    assert _types(plain) == _types(listened)
    assert plain[1:] == [("running", False), (2, unwatched.tenant)]
    assert listened[1:] == [("running", False), (2, watched.tenant)]
    assert [event.seq for event in LOG.read(engine, watched.id)] == [1, 2]


def test_a_listener_removed_leaves_the_direct_path(engine: sa.Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    session = _stored_session(engine)
    params = {"get_id": session.id, "get_tenant": session.tenant}
    handed = _counting_execute(monkeypatch)
    with _listening(engine) as seen, transaction(engine) as conn:
        watched = sessions._SELECT.first(conn, params)
    assert len(handed) == 1 and any(sql.startswith("SELECT") for sql in seen)
    with transaction(engine) as conn:
        unwatched = sessions._SELECT.first(conn, params)
    assert len(handed) == 1  # the listener is gone: no second call
    assert watched == unwatched and unwatched is not None and SessionRecord(*unwatched) == session


# -- what a Direct statement may not use is refused when first compiled -------------


def _refused_on_first_use(engine: sa.Engine, direct: Direct, params: Params) -> None:
    for _ in range(2):  # refused again, not remembered as compiled
        with transaction(engine) as conn, pytest.raises(TypeError):
            direct.run(conn, params)


def test_a_python_side_column_default_is_refused(engine: sa.Engine) -> None:
    # updated_at has onupdate=utc_now: Connection.execute would compute it in Python.
    session = _stored_session(engine)
    bump = Direct(
        sa.update(sessions_table)
        .where(sessions_table.c.id == sa.bindparam("bump_id"))
        .values(last_seq=sessions_table.c.last_seq + 1)
    )
    _refused_on_first_use(engine, bump, {"bump_id": session.id})
    # brief, facts, status … have Python-side defaults an INSERT would compute.
    insert = Direct(sa.insert(sessions_table).values(
        id=sa.bindparam("new_id"), tenant="t", page="p", created_by="u", last_seq=0,
        created_at=sa.bindparam("new_at", type_=sessions_table.c.created_at.type),
        updated_at=sa.bindparam("new_at_too", type_=sessions_table.c.updated_at.type),
    ))  # fmt: skip
    at = datetime.now(UTC)
    _refused_on_first_use(engine, insert, {"new_id": unique("session"), "new_at": at, "new_at_too": at})
    with transaction(engine) as conn:
        stored = SessionStore().get(conn, session.id, session.tenant)
    assert stored == session  # nothing ran


def test_an_expanding_in_list_is_refused(engine: sa.Engine) -> None:
    session = _stored_session(engine)
    listed = sessions_table.c.id.in_(sa.bindparam("ids", expanding=True))
    ids = Direct(sa.select(sessions_table.c.id).where(listed))
    _refused_on_first_use(engine, ids, {"ids": [session.id]})


def test_a_literal_execute_parameter_is_refused(engine: sa.Engine) -> None:
    rendered = sessions_table.c.id == sa.bindparam("id", literal_execute=True)
    literal = Direct(sa.select(sessions_table.c.id).where(rendered))
    _refused_on_first_use(engine, literal, {"id": "x"})


# -- run_driver_sql ------------------------------------------------------------------


def _driver_form(conn: sa.Connection, rows: Sequence[Params]) -> tuple[str, list[Any]]:
    """``eventlog._INSERT`` as this driver takes it: its SQL, and each row processed, in its paramstyle."""
    compiled = eventlog._INSERT.statement.compile(dialect=conn.dialect)  # type: ignore[attr-defined]
    stored_at = events.c.at.type.dialect_impl(conn.dialect).bind_processor(conn.dialect)
    assert stored_at is not None
    prepared = [dict(row, at=stored_at(row["at"])) for row in rows]
    if compiled.positional:
        return compiled.string, [tuple(row[name] for name in compiled.positiontup) for row in prepared]
    return compiled.string, prepared


def test_run_driver_sql_inserts_every_prepared_row(engine: sa.Engine) -> None:
    session = _stored_session(engine)
    at = datetime(2025, 9, 10, 11, 12, 13, 141516, tzinfo=UTC)
    with transaction(engine) as conn:
        sql, rows = _driver_form(conn, [_event_row(session, seq, at) for seq in (1, 2, 3)])
        run_driver_sql(conn, sql, rows)
        run_driver_sql(conn, sql, [])  # nothing to insert: no driver call
    read = LOG.read(engine, session.id)
    wanted = [(seq, format_at(at), {"text": f"row {seq}"}) for seq in (1, 2, 3)]
    assert [(event.seq, event.at, event.payload) for event in read] == wanted


def test_run_driver_sql_raises_a_constraint_error_as_exec_driver_sql_does(engine: sa.Engine) -> None:
    session = _stored_session(engine)
    at = datetime.now(UTC)
    with transaction(engine) as conn:
        LOG.append(conn, session.id, EventTypes.TEXT_DELTA, {"text": "first"}, actor=AGENT_ACTOR)

    def ours(conn: sa.Connection, rows: list[Params]) -> None:
        run_driver_sql(conn, *_driver_form(conn, rows))

    def standard(conn: sa.Connection, rows: list[Params]) -> None:
        sql, prepared = _driver_form(conn, rows)
        conn.exec_driver_sql(sql, prepared)

    rows = [_event_row(session, 2, at), _event_row(session, 1, at)]
    found, found_error = _insert_error(engine, ours, rows)
    wanted, wanted_error = _insert_error(engine, standard, rows)
    assert found == wanted == "conflict"
    assert type(found_error) is type(wanted_error) is sa_exc.IntegrityError
    assert type(found_error.orig) is type(wanted_error.orig)
    assert [event.seq for event in LOG.read(engine, session.id)] == [1]


def test_run_driver_sql_with_a_listener_goes_through_exec_driver_sql(engine: sa.Engine) -> None:
    session = _stored_session(engine)
    at = datetime.now(UTC)
    with engine.connect() as conn:
        with _listening(conn) as seen, conn.begin():
            sql, rows = _driver_form(conn, [_event_row(session, 1, at), _event_row(session, 2, at)])
            run_driver_sql(conn, sql, rows)
        assert seen.count(sql) == 1  # one executemany
        if engine.dialect.name == "sqlite":
            assert seen[0] == "BEGIN IMMEDIATE"  # the engine's BEGIN is driver SQL too
    assert [event.seq for event in LOG.read(engine, session.id)] == [1, 2]


# -- outside a transaction ------------------------------------------------------------


def test_outside_a_transaction_a_read_begins_one_and_returns_the_row(engine: sa.Engine) -> None:
    session = _stored_session(engine, facts=FACTS)
    with engine.connect() as conn:
        assert not conn.in_transaction()
        row = sessions._SELECT.first(conn, {"get_id": session.id, "get_tenant": session.tenant})
        assert conn.in_transaction()  # autobegun, as Connection.execute does
        conn.rollback()
    assert row is not None and SessionRecord(*row) == session


@pytest.mark.parametrize("end", ["commit", "rollback"])
def test_outside_a_transaction_a_write_is_the_autobegun_transactions(engine: sa.Engine, end: str) -> None:
    # On the cursor SQLite would commit it at once and PostgreSQL's pool would roll it back at close.
    session = _stored_session(engine)
    at = datetime(2025, 2, 3, 4, 5, 6, tzinfo=UTC)
    with engine.connect() as conn:
        bumped = eventlog._BUMP.first(conn, {"bump_session_id": session.id, "bump_count": 5, "bump_at": at})
        assert bumped == (5, session.tenant)
        if end == "commit":
            conn.commit()
        else:
            conn.rollback()
    with transaction(engine) as conn:
        stored = SessionStore().get(conn, session.id, session.tenant)
    assert stored is not None
    assert stored.last_seq == (5 if end == "commit" else 0)


def test_run_driver_sql_outside_a_transaction_is_the_autobegun_transactions(engine: sa.Engine) -> None:
    session = _stored_session(engine)
    at = datetime(2025, 9, 10, 11, 12, 13, tzinfo=UTC)
    with engine.connect() as conn:
        sql, rows = _driver_form(conn, [_event_row(session, 1, at)])
        run_driver_sql(conn, sql, rows)
        assert conn.in_transaction()
        conn.rollback()  # undone: it was never committed behind the connection's back
    assert LOG.read(engine, session.id) == []


# -- a statement's own values, values that cannot be bound, other listeners ----------


def test_a_literal_in_the_statement_is_bound_from_the_statement(engine: sa.Engine) -> None:
    # ``status == "running"`` holds its value; SQLite's LIMIT also renders an OFFSET 0 of its own.
    session, turn = _with_turn(engine)
    running = Direct(
        sa.select(turns_table.c.id)
        .where(turns_table.c.session_id == sa.bindparam("s"), turns_table.c.status == "running")
        .limit(sa.bindparam("n", type_=sa.Integer))
    )
    with _reading(engine) as conn:
        assert _both(conn, running, {"s": session.id, "n": 5}) == [(turn,)]


@pytest.mark.parametrize(
    "params",
    [
        {"bump_session_id": "x", "bump_count": 1},  # no bump_at
        {"bump_session_id": "x", "bump_count": 1, "bump_at": datetime(2025, 1, 1)},  # naive
    ],
    ids=["missing", "naive datetime"],
)
def test_a_value_that_cannot_be_bound_is_invalid_value_as_with_connection_execute(
    engine: sa.Engine, params: Params
) -> None:
    codes: list[str] = []
    for path in ("direct", "standard"):
        with transaction(engine) as conn, pytest.raises(StorageError) as raised, translated():
            if path == "direct":
                eventlog._BUMP.first(conn, params)
            else:
                conn.execute(eventlog._BUMP.statement, params)
        codes.append(raised.value.code)
    assert codes == ["invalid_value", "invalid_value"]


def test_an_error_listener_or_a_schema_map_keeps_the_standard_path(
    engine: sa.Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = _stored_session(engine)
    params = {"get_id": session.id, "get_tenant": session.tenant}
    handed = _counting_execute(monkeypatch)

    def on_error(_context: Any) -> None:
        pass

    event.listen(engine, "handle_error", on_error)
    try:
        with transaction(engine) as conn:
            assert sessions._SELECT.first(conn, params) is not None
    finally:
        event.remove(engine, "handle_error", on_error)
    assert len(handed) == 1
    with engine.connect() as conn:
        mapped = conn.execution_options(schema_translate_map={None: None})
        with mapped.begin():
            assert sessions._SELECT.first(mapped, params) is not None
    assert len(handed) == 2
    with transaction(engine) as conn:
        assert sessions._SELECT.first(conn, params) is not None
    assert len(handed) == 2  # neither: the direct path


def test_a_refused_statement_is_refused_on_the_standard_path_too(engine: sa.Engine) -> None:
    listed = sessions_table.c.id.in_(sa.bindparam("ids", expanding=True))
    ids = Direct(sa.select(sessions_table.c.id).where(listed))
    with _listening(engine), transaction(engine) as conn, pytest.raises(TypeError):
        ids.all(conn, {"ids": ["x"]})
