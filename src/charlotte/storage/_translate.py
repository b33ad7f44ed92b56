"""The one place driver errors are translated into ``charlotte.errors.StorageError``.

Nothing outside ``charlotte.storage`` sees a ``sqlite3``, ``psycopg`` or
SQLAlchemy exception: storage code runs database work inside ``translated()``,
which re-raises them as ``StorageError(code)`` (the original stays reachable as
``__cause__`` for debugging, but its type and text never become ours).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

from sqlalchemy import exc as sa_exc

from charlotte.errors import StorageError

__all__ = ["translate", "translated"]


# PostgreSQL SQLSTATE values (psycopg exposes them as ``.sqlstate``).
_PG_UNIQUE: Final = "23505"
_PG_BUSY: Final = frozenset({"40001", "40P01", "55P03", "57014"})
_SQLITE_UNIQUE: Final = frozenset({"SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY"})


def translate(error: sa_exc.SQLAlchemyError) -> StorageError:
    """The ``StorageError`` for a SQLAlchemy or driver error (not raised)."""
    if isinstance(error, sa_exc.DBAPIError):
        return StorageError(_dbapi_code(error))
    if isinstance(error, sa_exc.StatementError):
        # Raised before the driver saw anything: a bind value failed to convert
        # (e.g. a payload that json.dumps refuses).
        return StorageError("invalid_value")
    return StorageError("storage_error")


def _dbapi_code(error: sa_exc.DBAPIError) -> str:
    original = error.orig
    sqlstate = getattr(original, "sqlstate", None)
    sqlite_name = getattr(original, "sqlite_errorname", None)
    if isinstance(error, sa_exc.IntegrityError):
        if sqlstate == _PG_UNIQUE or sqlite_name in _SQLITE_UNIQUE:
            return "conflict"
        return "integrity"
    if sqlstate in _PG_BUSY:
        return "database_busy"
    if isinstance(sqlite_name, str) and sqlite_name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return "database_busy"
    if error.connection_invalidated or (isinstance(sqlstate, str) and sqlstate.startswith("08")):
        return "unavailable"
    if isinstance(error, sa_exc.OperationalError) and sqlstate is None and sqlite_name is None:
        # psycopg raises OperationalError without a SQLSTATE when it cannot connect.
        return "unavailable"
    if isinstance(error, sa_exc.DataError):
        return "invalid_value"
    return "storage_error"


@contextmanager
def translated() -> Iterator[None]:
    """Run the block; SQLAlchemy and driver errors leave it as ``StorageError``."""
    try:
        yield
    except sa_exc.SQLAlchemyError as error:
        raise translate(error) from error
    except UnicodeEncodeError as error:
        # Text with a lone surrogate cannot be stored by any driver.
        raise StorageError("invalid_value") from error
