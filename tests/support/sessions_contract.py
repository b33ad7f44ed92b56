"""The session store contract, run against every database (subclass per backend).

A subclass provides ``engine`` (tables created; may be shared by the module).
"""

from __future__ import annotations

from datetime import UTC

import pytest
import sqlalchemy as sa
from tests.support.databases import unique

from charlotte.errors import StorageError
from charlotte.storage import SessionStore, transaction
from charlotte.storage.tables import sessions


class SessionStoreContract:
    """Behaviour every database must show for ``SessionStore``."""

    def test_create_then_get_returns_the_stored_session(self, engine: sa.Engine) -> None:
        store = SessionStore()
        with transaction(engine) as conn:
            created = store.create(
                conn,
                tenant="tenant-a",
                page="home",
                created_by="user-1",
                brief="A bakery, warm tone",
                facts={"phone": "+41 44 123 45 67", "hours": ["Mon-Fri 7-18"]},
                approve_on_save=True,
                guide_hash="sha256:abc",
            )
        with transaction(engine) as conn:
            loaded = store.get(conn, created.id, "tenant-a")

        assert loaded == created
        assert loaded is not None
        assert (loaded.status, loaded.stop_requested, loaded.last_seq, loaded.busy) == (
            "idle",
            False,
            0,
            False,
        )
        assert loaded.mode == "charlotte_builder"
        assert loaded.created_at.tzinfo is UTC

    def test_another_tenant_sees_no_session(self, engine: sa.Engine) -> None:
        store = SessionStore()
        with transaction(engine) as conn:
            created = store.create(conn, tenant="tenant-a", page="home", created_by="u")

        with transaction(engine) as conn:
            assert store.get(conn, created.id, "tenant-b") is None
            assert store.lock(conn, created.id, "tenant-b") is None
            assert not store.update(conn, created.id, "tenant-b", status="queued")
            assert store.get(conn, "missing", "tenant-a") is None

    def test_last_seqs_reads_every_existing_id_in_any_tenant(self, engine: sa.Engine) -> None:
        store = SessionStore()
        with transaction(engine) as conn:
            made = [store.create(conn, tenant=f"tenant-{i % 3}", page="home", created_by="u") for i in range(520)]
            conn.execute(sa.update(sessions).where(sessions.c.id == made[0].id).values(last_seq=7))
        ids = [record.id for record in made]

        with transaction(engine) as conn:
            # More ids than one IN list holds, and ids that name no session.
            found = store.last_seqs(conn, [*ids, "missing", unique("gone")])
            assert store.last_seqs(conn, []) == {}

        assert found == {made[0].id: 7, **{record.id: 0 for record in made[1:]}}

    def test_lock_returns_the_row_inside_a_write_transaction(self, engine: sa.Engine) -> None:
        store = SessionStore()
        with transaction(engine) as conn:
            created = store.create(conn, tenant="tenant-a", page="home", created_by="u")
        with transaction(engine) as conn:
            locked = store.lock(conn, created.id, "tenant-a")
        assert locked is not None and locked.id == created.id

    def test_update_changes_status_flags_and_guide_hash(self, engine: sa.Engine) -> None:
        store = SessionStore()
        with transaction(engine) as conn:
            created = store.create(conn, tenant="tenant-a", page="home", created_by="u")

        with transaction(engine) as conn:
            assert store.update(
                conn, created.id, "tenant-a", status="running", stop_requested=True, guide_hash="h2"
            )
        with transaction(engine) as conn:
            loaded = store.get(conn, created.id, "tenant-a")

        assert loaded is not None
        assert (loaded.status, loaded.stop_requested, loaded.guide_hash, loaded.busy) == (
            "running",
            True,
            "h2",
            True,
        )
        assert loaded.updated_at >= created.updated_at

    def test_update_with_expect_status_is_a_compare_and_set(self, engine: sa.Engine) -> None:
        store = SessionStore()
        with transaction(engine) as conn:
            created = store.create(conn, tenant="tenant-a", page="home", created_by="u")

        with transaction(engine) as conn:
            first = store.update(
                conn, created.id, "tenant-a", status="queued", expect_status=["idle"]
            )
            second = store.update(
                conn, created.id, "tenant-a", status="queued", expect_status=["idle"]
            )

        assert (first, second) == (True, False)

    def test_an_unknown_status_is_refused(self, engine: sa.Engine) -> None:
        store = SessionStore()
        with transaction(engine) as conn:
            created = store.create(conn, tenant="tenant-a", page="home", created_by="u")

        with pytest.raises(StorageError) as raised, transaction(engine) as conn:
            store.update(conn, created.id, "tenant-a", status="paused")
        assert raised.value.code == "invalid_value"

        # The CHECK constraint is the backstop for writes that bypass the store.
        with pytest.raises(StorageError) as raised, transaction(engine) as conn:
            conn.execute(
                sa.update(sessions).where(sessions.c.id == created.id).values(status="paused")
            )
        assert raised.value.code == "integrity"

    def test_a_duplicate_id_is_a_conflict(self, engine: sa.Engine) -> None:
        store = SessionStore()
        session_id = unique("session")
        with transaction(engine) as conn:
            store.create(
                conn, tenant="tenant-a", page="home", created_by="u", session_id=session_id
            )

        with pytest.raises(StorageError) as raised, transaction(engine) as conn:
            store.create(
                conn, tenant="tenant-a", page="home", created_by="u", session_id=session_id
            )
        assert raised.value.code == "conflict"
