"""``Direct``: a hot statement run straight on the transaction's DBAPI cursor.

Every tool call of a turn runs the same handful of statements (its stop
flag, its session row, the draft, the session's seq bump and its events),
each cheap on SQLite. Through ``Connection.execute`` SQLAlchemy's own work
per statement (the execution context, parameter processing, the result
object) costs about as much as the statement, and a turn runs many of them
(the figures: ``docs/performance.md``, "Figures by part", ``storage/_direct.py``).

Private to ``storage/``: each store builds its hot statements as ``Direct``
and runs them through it (``engine.py`` begins SQLite's transactions with
``begin_with``); nothing outside the package sees it. The plain path is
``Connection.execute`` of the same statement, and
``tests/unit/storage/test_direct.py`` compares the two on SQLite and
PostgreSQL (rows, values and the errors raised).

A ``Direct`` is one SQLAlchemy statement, compiled once per dialect, run on
the DBAPI cursor of the connection's open transaction, with exactly the
conversions ``Connection.execute`` would apply: every bind parameter through
its type's bind processor for that dialect, every returned column through
its result processor. The statement stays defined by the table objects; only
how it is sent changes. What it may not use is refused when it is first
compiled: a parameter the caller does not bind (a Python-side column
default), an expanding ``IN`` list, a literal rendered at execution.

The standard path is kept where it matters:

- a connection with statement or error listeners (``before_cursor_execute``,
  ``after_cursor_execute``, ``handle_error``: instrumentation, a test that
  counts or fails statements) runs the statement through
  ``Connection.execute``, so every listener sees every statement;
- so does a connection with a ``schema_translate_map`` (the compiled SQL
  names the tables as they are), and one outside a transaction (the direct
  path never begins one).

A driver error leaves as the ``sqlalchemy.exc.DBAPIError`` subclass
``Connection.execute`` would raise, a value that cannot be bound as a
``StatementError``, so callers translate them inside ``translated()`` as
they always did. A lost connection is invalidated (only that one: the pool's
other connections are checked by ``pool_pre_ping`` on PostgreSQL).

>>> BUMP = Direct(sa.update(sessions).where(...).values(...).returning(...))  # doctest: +SKIP
>>> row = BUMP.first(conn, {"bump_session_id": session_id, ...})             # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy import exc as sa_exc
from sqlalchemy.sql.compiler import SQLCompiler

__all__ = ["Direct", "begin_with", "one_of", "run_driver_sql"]

_Process = Callable[[Any], Any]


@dataclass(frozen=True, slots=True)
class _Compiled:
    """One statement as one dialect's driver runs it."""

    sql: str
    #: Parameter names in the driver's order (a positional paramstyle), else None (by name).
    order: tuple[str, ...] | None
    #: The values the statement itself holds (a literal in a comparison), by parameter name.
    fixed: Mapping[str, Any]
    #: The parameters the caller must bind.
    needed: frozenset[str]
    #: Bind processors by parameter name (only the parameters that have one).
    binds: tuple[tuple[str, _Process], ...]
    #: One result processor (or None) per returned column.
    results: tuple[_Process | None, ...]


class Direct:
    """One statement run on the DBAPI cursor of the caller's transaction (see the module docstring).

    Thread-safe: the per-dialect compilations are computed once and only read after.
    """

    __slots__ = ("_compiled", "statement")

    def __init__(self, statement: sa.Executable) -> None:
        self.statement = statement
        self._compiled: dict[tuple[str, str], _Compiled] = {}

    def first(self, conn: sa.Connection, params: Mapping[str, Any]) -> tuple[Any, ...] | None:
        """The first returned row (values converted), or None; the rest is discarded."""
        rows = self._run(conn, [params], many=False, fetch=1)
        return rows[0] if rows else None

    def all(self, conn: sa.Connection, params: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        """Every returned row (values converted)."""
        return self._run(conn, [params], many=False, fetch=None)

    def run(self, conn: sa.Connection, params: Mapping[str, Any]) -> None:
        """Run it once, for its effect."""
        self._run(conn, [params], many=False, fetch=0)

    def run_many(self, conn: sa.Connection, params: Sequence[Mapping[str, Any]]) -> None:
        """Run it once per parameter set, in one driver call (``executemany``)."""
        if params:
            self._run(conn, params, many=len(params) > 1, fetch=0)

    def driver_form(self, dialect: sa.Dialect) -> tuple[str, tuple[str, ...] | None]:
        """The SQL as ``dialect``'s driver runs it, and its parameter names in order (None: by name).

        For a caller that prepares many rows itself (processed, laid out in
        that order) and sends them with ``run_driver_sql``.
        """
        compiled = self._for(dialect)
        return compiled.sql, compiled.order

    # -- internals -----------------------------------------------------------------

    def _run(
        self, conn: sa.Connection, params: Sequence[Mapping[str, Any]], *, many: bool, fetch: int | None
    ) -> list[tuple[Any, ...]]:
        compiled = self._for(conn.dialect)  # compiled (and refused) on whichever path runs it
        if _watched(conn) or not conn.in_transaction():
            return self._standard(conn, params, fetch)
        try:
            values = [_bound(compiled, one) for one in params]
        except (KeyError, TypeError, ValueError) as error:
            # A missing or unconvertible value: what Connection.execute raises for one.
            raise sa_exc.StatementError(str(type(error).__name__), compiled.sql, None, error) from error
        fetched = _on_cursor(conn, compiled.sql, values if many else values[0], many=many, fetch=fetch)
        return [_converted(compiled.results, row) for row in fetched]

    def _standard(
        self, conn: sa.Connection, params: Sequence[Mapping[str, Any]], fetch: int | None
    ) -> list[tuple[Any, ...]]:
        """Through ``Connection.execute``, as every other statement runs."""
        result = conn.execute(self.statement, list(params) if len(params) > 1 else params[0])
        if fetch == 0:
            return []
        rows = result.fetchall() if fetch is None else result.fetchmany(fetch)
        result.close()
        return [tuple(row) for row in rows]

    def _for(self, dialect: sa.Dialect) -> _Compiled:
        key = (dialect.name, dialect.paramstyle)
        found = self._compiled.get(key)
        if found is None:
            found = self._compiled[key] = _compile(self.statement, dialect)
        return found


def one_of(column: sa.ColumnElement[Any], values: Sequence[Any]) -> sa.ColumnElement[bool]:
    """``column IN (values)`` as plain comparisons a ``Direct`` binds (``in_`` expands at execution)."""
    if not values:
        return sa.false()
    return sa.or_(*(column == value for value in values))


def run_driver_sql(conn: sa.Connection, sql: str, rows: Sequence[Any]) -> None:
    """SQL already in the driver's form, ``executemany`` over ``rows``, on the driver's cursor.

    ``Connection.exec_driver_sql`` without its execution context, with the
    same fallback and errors as ``Direct`` (the rows must be what the driver
    takes: processed, in its paramstyle). For the op history's batches.
    """
    if _watched(conn) or not conn.in_transaction():
        if rows:
            conn.exec_driver_sql(sql, list(rows))
        return
    if rows:
        _on_cursor(conn, sql, rows, many=True, fetch=0)


def begin_with(conn: sa.Connection, sql: str) -> None:
    """The ``BEGIN`` a ``begin`` event hook sends (SQLite), on the driver's cursor.

    The transaction is not open yet while the hook runs, so only listeners
    send it the standard way.
    """
    if _watched(conn):
        conn.exec_driver_sql(sql)
    else:
        _on_cursor(conn, sql, None, many=False, fetch=0)


def _on_cursor(
    conn: sa.Connection, sql: str, params: Any, *, many: bool, fetch: int | None
) -> Sequence[Sequence[Any]]:
    """``sql`` on a cursor of the connection's driver: once with ``params`` (None: none), or
    ``executemany`` over them; ``fetch`` rows back (0: none, None: all). Errors as ``_wrapped``."""
    dbapi_connection = conn.connection.dbapi_connection
    if dbapi_connection is None:  # pragma: no cover - an invalidated connection
        raise sa_exc.ResourceClosedError("the connection was invalidated")
    cursor = dbapi_connection.cursor()
    try:
        try:
            if many:
                cursor.executemany(sql, params)
            elif params is None:
                cursor.execute(sql)
            else:
                cursor.execute(sql, params)
            if fetch == 0:
                return ()
            return cursor.fetchall() if fetch is None else cursor.fetchmany(fetch)
        except conn.dialect.loaded_dbapi.Error as error:
            raise _wrapped(conn, error, sql, cursor) from error
    finally:
        cursor.close()


def _compile(statement: sa.Executable, dialect: sa.Dialect) -> _Compiled:
    compiled = statement.compile(dialect=dialect)  # type: ignore[attr-defined]
    assert isinstance(compiled, SQLCompiler)
    if compiled.insert_prefetch or compiled.update_prefetch:
        raise TypeError("a Direct statement binds every value itself (no Python-side column default)")
    if compiled.literal_execute_params or compiled.post_compile_params:
        raise TypeError("a Direct statement has no expanding or literal-execute parameter")
    order = tuple(compiled.positiontup or ()) if compiled.positional else None
    fixed: dict[str, Any] = {}
    needed: set[str] = set()
    binds: list[tuple[str, _Process]] = []
    for bind, name in compiled.bind_names.items():
        if bind.callable is not None:
            raise TypeError("a Direct statement has no parameter computed at execution")
        if bind.required:
            needed.add(name)
        else:
            fixed[name] = bind.value
        process = bind.type.dialect_impl(dialect).bind_processor(dialect)
        if process is not None:
            binds.append((name, process))
    columns = getattr(statement, "exported_columns", ())
    results = tuple(column.type.dialect_impl(dialect).result_processor(dialect, None) for column in columns)
    return _Compiled(compiled.string, order, fixed, frozenset(needed), tuple(binds), results)


def _bound(compiled: _Compiled, params: Mapping[str, Any]) -> Any:
    """The parameters as the driver takes them: processed, in order or by name."""
    if not compiled.needed <= params.keys():
        raise KeyError("a parameter is missing")
    values = {**compiled.fixed, **params}
    for name, process in compiled.binds:
        if name in values:
            values[name] = process(values[name])
    if compiled.order is None:
        return values
    return tuple(values[name] for name in compiled.order)


def _converted(results: tuple[_Process | None, ...], row: Sequence[Any]) -> tuple[Any, ...]:
    return tuple(value if process is None else process(value) for process, value in zip(results, row, strict=True))


def _watched(conn: sa.Connection) -> bool:
    """True when the standard path must run: statement or error listeners, a schema map."""
    dispatch = conn.dispatch
    return (
        bool(dispatch.before_cursor_execute)
        or bool(dispatch.after_cursor_execute)
        or bool(conn.dialect.dispatch.handle_error)
        or "schema_translate_map" in conn.get_execution_options()
    )


def _wrapped(conn: sa.Connection, error: Exception, sql: str, cursor: Any) -> sa_exc.DBAPIError:
    """The driver's error as ``Connection.execute`` raises it; a lost connection is invalidated."""
    dbapi_connection = conn.connection.dbapi_connection
    lost = conn.dialect.is_disconnect(error, dbapi_connection, cursor)  # type: ignore[arg-type]
    if lost:
        conn.invalidate(error)
    wrapped = sa_exc.DBAPIError.instance(
        sql, None, error, conn.dialect.loaded_dbapi.Error, connection_invalidated=lost, dialect=conn.dialect
    )
    assert isinstance(wrapped, sa_exc.DBAPIError)
    return wrapped
