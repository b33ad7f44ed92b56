"""Alembic environment for charlotte's tables; run through ``charlotte.storage.migrate``.

The caller hands over an open connection inside a transaction
(``config.attributes["connection"]``); there is no offline (SQL script) mode
and no alembic.ini.
"""

from __future__ import annotations

from alembic import context

from charlotte.storage.migrate import VERSION_TABLE
from charlotte.storage.tables import metadata

connection = context.config.attributes.get("connection")
if connection is None or context.is_offline_mode():
    raise RuntimeError("charlotte migrations run through charlotte.storage.migrate()")

context.configure(
    connection=connection,
    target_metadata=metadata,
    version_table=VERSION_TABLE,
    # SQLite cannot ALTER most things; batch mode rebuilds the table instead.
    render_as_batch=True,
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
