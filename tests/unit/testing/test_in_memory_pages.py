"""``InMemoryPageRepository``: the shipped contract on SQLite, and a real ``Charlotte`` on it.

PostgreSQL (its page locks under concurrent transactions): ``tests/integration/storage/test_pages_postgres.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from charlotte.app import Charlotte
from charlotte.errors import PageSessionError, StorageError
from charlotte.settings import Settings
from charlotte.storage import PageRepository, read_connection, transaction
from charlotte.storage.tables import page_ops, pages
from charlotte.testing import InMemoryPageRepository
from charlotte.testing.page_repository_contract import PageRepositoryContract


class TestInMemoryPageRepository(PageRepositoryContract):
    @pytest.fixture
    def repository(self) -> PageRepository:
        return InMemoryPageRepository()


def test_nested_savepoints_take_back_what_each_wrote(tmp_path: Path) -> None:
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'nested.db'}")
    repository = InMemoryPageRepository()
    doc = {"id": "home", "seq": 1}
    with engine.begin() as conn:
        with conn.begin_nested():
            repository.save_draft(conn, "t", "a", doc)
            with conn.begin_nested():  # released: its write belongs to the savepoint around it
                repository.save_draft(conn, "t", "b", doc)
            with pytest.raises(LookupError), conn.begin_nested():
                repository.save_draft(conn, "t", "c", doc)
                raise LookupError
        with pytest.raises(LookupError), conn.begin_nested():
            with conn.begin_nested():
                repository.save_draft(conn, "t", "d", doc)
            raise LookupError  # takes back the released inner savepoint's write too
        repository.save_draft(conn, "t", "e", doc)
    with engine.connect() as conn:
        kept = [page for page in "abcde" if repository.load_draft(conn, "t", page) is not None]
    assert kept == ["a", "b", "e"]


def test_a_writer_waiting_too_long_for_a_page_is_database_busy(tmp_path: Path) -> None:
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'busy.db'}")
    repository = InMemoryPageRepository(lock_timeout=0.05)
    with engine.begin() as holder, engine.begin() as waiter:
        repository.load_draft(holder, "t", "home", for_update=True)
        with pytest.raises(StorageError) as raised:
            repository.save_draft(waiter, "t", "home", {"id": "home", "seq": 1})
        assert raised.value.code == "database_busy"
        repository.save_draft(waiter, "t", "other", {"id": "other", "seq": 1})


# -- a real Charlotte keeping its pages in memory ------------------------------------------


class _Host:
    def __init__(self, path: Path) -> None:
        self.pages = InMemoryPageRepository()
        settings = Settings(database_url=f"sqlite:///{path}", queue="inline", model="offline")
        self.charlotte = Charlotte(settings, page_repository=self.pages)
        self.charlotte.migrate()

    def stored(self, page: str = "home") -> tuple[dict[str, Any], int] | None:
        with read_connection(self.charlotte.engine) as conn:
            return self.pages.load_draft(conn, "acme", page)


@pytest.fixture
def host(tmp_path: Path) -> Iterator[_Host]:
    made = _Host(tmp_path / "host.db")
    yield made
    made.charlotte.close()


def _section(id: str) -> dict[str, Any]:
    return {"t": "insert_node", "node": {"id": id, "type": "section", "parent": None}}


def test_the_offline_builder_builds_and_publishes_a_page_held_in_memory(host: _Host) -> None:
    handle = (host.charlotte.for_user("ann").tenant("acme").page("home")
              .brief("A landing page for Rosa's Bakery in Leeds: menu and contact.")
              .facts({"name": "Rosa's Bakery"}).approve_on_save(False).open())  # fmt: skip
    assert handle.send("Build the page")["status"] == "finished"
    draft = handle.draft()
    assert draft["revision"] > 0 and "Rosa" in draft["html"]
    stored = host.stored()
    assert stored is not None and stored[1] == draft["revision"] and stored[0] == draft["page"]
    assert handle.publish(revision=draft["revision"]) == {"revision": draft["revision"]}
    published = handle.published()
    assert published is not None and published["html"] == draft["html"]
    with transaction(host.charlotte.engine) as conn:
        history = host.pages.ops_since(conn, "acme", "home", 0, limit=10_000)
        # charlotte's own page tables hold nothing of it
        assert conn.execute(sa.select(pages)).all() == [] and conn.execute(sa.select(page_ops)).all() == []
    assert history and history[-1].revision == draft["revision"]


def test_a_stale_first_write_rolls_back_the_draft_ensure_draft_made(host: _Host) -> None:
    handle = host.charlotte.for_user("ann").tenant("acme").page("home").brief("A bakery").open()
    with pytest.raises(PageSessionError) as raised:
        handle.edit([_section("hero")], 3)  # ensure_draft wrote the empty draft, then stale_revision
    assert raised.value.code == "stale_revision"
    assert host.stored() is None

    assert handle.edit([_section("hero")], 0)["revision"] == 1
    with pytest.raises(PageSessionError) as raised:
        handle.edit([_section("news")], 0)
    assert raised.value.code == "stale_revision"
    stored = host.stored()
    assert stored is not None and stored[1] == 1 and list(stored[0]["nodes"]) == ["hero"]
