"""``migrate``: bring a database to charlotte's newest schema (Alembic, no alembic.ini).

>>> migrate("sqlite:///charlotte.db")        # doctest: +SKIP

The migrations ship inside the package (``charlotte/storage/migrations``) and
record their state in ``charlotte_alembic_version``, so charlotte's history
never mixes with the host's own Alembic history.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Final

import sqlalchemy as sa

from charlotte.storage._translate import translated
from charlotte.storage.engine import engine_schema, open_engine, quoted_identifier

if TYPE_CHECKING:
    from alembic.config import Config

# Alembic (and Mako and Pygments under it) is imported by the functions that
# use it: about a tenth of a second that ``import charlotte`` need not pay.

__all__ = ["VERSION_TABLE", "current_revision", "head_revision", "migrate"]

#: Alembic's version table for charlotte's migrations.
VERSION_TABLE: Final = "charlotte_alembic_version"

_SCRIPTS: Final = Path(__file__).with_name("migrations")

# Any fixed 64-bit number: PostgreSQL advisory lock that makes two processes
# migrating at once run one after the other.
_MIGRATION_LOCK: Final = 0x63686172_6C6F7474


def _config() -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(_SCRIPTS))
    return config


def migrate(target: str | sa.URL | sa.Engine, revision: str = "head") -> None:
    """Upgrade the database at ``target`` (URL or engine) to ``revision`` (default: newest)."""
    from alembic import command

    engine = target if isinstance(target, sa.Engine) else open_engine(target)
    try:
        config = _config()
        with translated(), engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                conn.execute(sa.select(sa.func.pg_advisory_xact_lock(_MIGRATION_LOCK)))
                schema = engine_schema(engine)
                if schema is not None:
                    # The engine's search_path names it; the tables go there.
                    conn.exec_driver_sql(f"CREATE SCHEMA IF NOT EXISTS {quoted_identifier(schema)}")
            config.attributes["connection"] = conn
            command.upgrade(config, revision)
    finally:
        if engine is not target:
            engine.dispose()


def current_revision(engine: sa.Engine) -> str | None:
    """The revision the database is at, or None when charlotte never migrated it."""
    from alembic.runtime.migration import MigrationContext

    with translated(), engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"version_table": VERSION_TABLE})
        return context.get_current_revision()


def head_revision() -> str | None:
    """The newest revision shipped with this version of charlotte."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(_config()).get_current_head()
