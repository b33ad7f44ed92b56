"""The migrations contract: Alembic builds exactly the schema ``create_tables`` builds.

A subclass provides ``blank_engine_factory``: a callable giving fresh, empty
databases (two per test: one migrated, one created from the tables).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from charlotte.storage import create_tables, current_revision, head_revision, metadata, migrate
from charlotte.storage.migrate import VERSION_TABLE
from charlotte.storage.tables import change_sets, published_pages, sessions

EngineFactory = Callable[[], sa.Engine]


def _schema(engine: sa.Engine) -> dict[str, Any]:
    """Table, column, key and index names of charlotte's tables."""
    inspector = sa.inspect(engine)
    found: dict[str, Any] = {}
    for table in sorted(inspector.get_table_names()):
        if not table.startswith("charlotte_") or table == VERSION_TABLE:
            continue
        found[table] = {
            "columns": [(c["name"], c["nullable"]) for c in inspector.get_columns(table)],
            "primary_key": inspector.get_pk_constraint(table)["constrained_columns"],
            "foreign_keys": sorted(
                (
                    tuple(fk["constrained_columns"]),
                    fk["referred_table"],
                    (fk.get("options") or {}).get("ondelete"),
                )
                for fk in inspector.get_foreign_keys(table)
            ),
            "indexes": sorted(
                (ix["name"], tuple(ix["column_names"]), bool(ix["unique"]))
                for ix in inspector.get_indexes(table)
            ),
            "checks": sorted(str(ck["name"]) for ck in inspector.get_check_constraints(table)),
        }
    return found


class MigrationsContract:
    """Behaviour of ``migrate`` every database must show."""

    def test_migration_builds_the_same_schema_as_create_tables(
        self, blank_engine_factory: EngineFactory
    ) -> None:
        migrated, created = blank_engine_factory(), blank_engine_factory()

        migrate(migrated)
        create_tables(created)

        expected = _schema(created)
        assert set(expected) == {table.name for table in metadata.sorted_tables}
        assert _schema(migrated) == expected

    def test_migrated_schema_has_no_difference_alembic_can_see(
        self, blank_engine_factory: EngineFactory
    ) -> None:
        engine = blank_engine_factory()
        migrate(engine)

        with engine.connect() as conn:
            context = MigrationContext.configure(
                conn, opts={"compare_type": True, "version_table": VERSION_TABLE}
            )
            differences = compare_metadata(context, metadata)

        assert differences == []

    def test_migrate_records_head_in_its_own_version_table_and_is_idempotent(
        self, blank_engine_factory: EngineFactory
    ) -> None:
        engine = blank_engine_factory()
        assert current_revision(engine) is None

        migrate(engine)
        migrate(engine)

        assert current_revision(engine) == head_revision() is not None
        tables = sa.inspect(engine).get_table_names()
        assert VERSION_TABLE in tables
        assert "alembic_version" not in tables

    def test_0002_retires_the_revisions_of_sets_resolved_before_it(
        self, blank_engine_factory: EngineFactory
    ) -> None:
        engine = blank_engine_factory()
        migrate(engine, "0001")
        now = datetime.now(UTC)
        with engine.begin() as conn:
            conn.execute(
                sessions.insert().values(
                    id="s1", tenant="t", page="home", brief="", facts={}, status="idle",
                    stop_requested=False, mode="charlotte_builder", approve_on_save=True,
                    created_by="ann", created_at=now, updated_at=now, last_seq=0,
                )
            )  # fmt: skip
            for id, status, seq in [("open", "open", 9), ("gone", "rejected", 7), ("kept", "approved", 5)]:
                conn.execute(
                    sa.text(
                        "INSERT INTO charlotte_proposals (id, session_id, tenant, page, status, working,"
                        " ops, op_count, notified, created_at) VALUES (:id, 's1', 't', 'home', :status,"
                        " :working, '[]', 2, false, :now)"
                    ),
                    {"id": id, "status": status, "working": json.dumps({"seq": seq, "nodes": {}}), "now": now},
                )
        migrate(engine)
        with engine.connect() as conn:
            found = dict(conn.execute(sa.select(change_sets.c.id, change_sets.c.retired_above)).all())
        # Any resolved set may have been an approval over a person's edit: all are retired.
        assert found == {"open": None, "gone": 5, "kept": 3}

    def test_0006_gives_each_page_published_before_it_its_published_row(
        self, blank_engine_factory: EngineFactory
    ) -> None:
        engine = blank_engine_factory()
        migrate(engine, "0005")
        now = datetime.now(UTC)
        with engine.begin() as conn:
            for page, published, revision in [("home", '{"seq": 4}', 4), ("draft-only", None, None)]:
                conn.execute(
                    sa.text(
                        "INSERT INTO charlotte_pages (tenant, page, draft, revision, published,"
                        " published_revision, updated_at, published_at) VALUES ('t', :page, '{}', 6,"
                        " :published, :revision, :now, :at)"
                    ),
                    {"page": page, "published": published, "revision": revision, "now": now,
                     "at": now if published else None},
                )  # fmt: skip
        migrate(engine)
        with engine.connect() as conn:
            rows = conn.execute(sa.select(published_pages.c.tenant, published_pages.c.page,
                                          published_pages.c.revision)).all()  # fmt: skip
        assert [tuple(row) for row in rows] == [("t", "home", 4)]
