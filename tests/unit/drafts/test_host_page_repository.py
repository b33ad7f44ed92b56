"""A host's own ``PageRepository`` (no charlotte base class) passes the shipped contract and carries a whole session through ``Charlotte``.

PostgreSQL: the contract in ``tests/integration/storage/test_pages_postgres.py``, two
first writes racing through ``Charlotte`` in ``tests/integration/test_first_write_race_postgres.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from tests.support.host_pages import HostPages, create_host_tables, drafts, published

from charlotte.app import Charlotte
from charlotte.errors import PageSessionError
from charlotte.settings import Settings
from charlotte.storage import DatabasePageRepository, PageRepository, read_connection
from charlotte.storage.tables import page_ops, pages
from charlotte.testing import ScriptedModel, Step, ToolCall
from charlotte.testing.page_repository_contract import PageRepositoryContract


class TestHostPagesPassTheContract(PageRepositoryContract):
    keeps_undo = False  # HostPages keeps revision, actor, op and session only

    @pytest.fixture
    def repository(self, engine: sa.Engine) -> PageRepository:
        create_host_tables(engine)
        return HostPages()


def _section(id: str) -> dict[str, Any]:
    return {"t": "insert_node", "node": {"id": id, "type": "section", "parent": None}}


class _Host:
    """A ``Charlotte`` on SQLite keeping its pages in ``HostPages``; its next turn plays ``script``."""

    def __init__(self, path: Path) -> None:
        self.script: list[Step] = []
        self.pages = HostPages()
        settings = Settings(database_url=f"sqlite:///{path}", queue="inline")
        self.charlotte = Charlotte(
            settings,
            page_repository=self.pages,
            model_factory=lambda: ScriptedModel(list(self.script)),
        )
        self.charlotte.migrate()
        create_host_tables(self.charlotte.engine)

    def rows(self, table: sa.Table, page: str = "home") -> list[tuple[Any, ...]]:
        with read_connection(self.charlotte.engine) as conn:
            return [tuple(row) for row in conn.execute(sa.select(table).where(table.c.page == page))]


@pytest.fixture
def host(tmp_path: Path) -> Iterator[_Host]:
    made = _Host(tmp_path / "host.db")
    yield made
    made.charlotte.close()


def test_the_host_repository_is_not_charlottes() -> None:
    assert not isinstance(HostPages(), DatabasePageRepository)


def test_open_turn_edit_approve_and_publish_all_go_through_the_host_repository(host: _Host) -> None:
    handle = host.charlotte.for_user("ann").tenant("acme").page("home").brief("A bakery").approve_on_save(True).open()
    host.script[:] = [ToolCall("cms_apply", {"basedOn": 0, "ops": [_section("hero")]})]
    assert handle.send("Build it")["status"] == "finished"
    change_set = handle.change_set()
    assert change_set is not None and change_set["diff"]["added"] == ["hero"]
    assert host.rows(drafts) == []  # the agent's write waits in the change set

    assert handle.edit([_section("news")], 0)["revision"] == 1  # the page's first write
    assert host.pages.calls.count("ensure_draft") == 1
    assert handle.approve()["status"] == "approved"
    draft = handle.draft()
    assert draft["revision"] == 2 and set(draft["page"]["nodes"]) == {"news", "hero"}
    assert handle.publish(revision=2) == {"revision": 2}

    found = handle.published()
    assert found is not None and set(found["page"]["nodes"]) == {"news", "hero"}
    assert [row[3] for row in host.rows(drafts)] == [2] and [row[3] for row in host.rows(published)] == [2]
    assert host.pages.history_revisions(host.charlotte.engine, "acme", "home") == [1, 2]
    # charlotte's own page tables hold nothing of it
    assert host.rows(pages) == [] and host.rows(page_ops) == []
    # A site reads it by key: the row in charlotte's table, the copy from the host's.
    page = host.charlotte.published_page("acme", "home")
    assert page is not None and page.revision == 2
    assert 'data-cms="news"' in page.html and 'data-cms="hero"' in page.html
    assert [row["revision"] for row in host.charlotte.published_pages("acme")] == [2]


def test_the_agents_draft_writes_and_changes_since_read_the_host_repository(host: _Host) -> None:
    handle = host.charlotte.for_user("ann").tenant("acme").page("home").brief("A bakery").open()
    host.script[:] = [
        ToolCall("cms_apply", {"basedOn": 0, "ops": [_section("hero")]}),
        ToolCall("cms_apply", {"basedOn": 1, "ops": [_section("news")]}),
        ToolCall("cms_changes_since", {"revision": 0}),
    ]
    assert handle.send("Build it")["status"] == "finished"
    results = [e["payload"] for e in handle.events(0, 100) if e["type"] == "tool.result"]
    assert [r["name"] for r in results] == ["cms_apply", "cms_apply", "cms_changes_since"]
    assert handle.draft()["revision"] == 2
    assert host.pages.history_revisions(host.charlotte.engine, "acme", "home") == [1, 2]
    assert "ops_since" in host.pages.calls


def test_a_stale_first_write_to_the_host_repository_leaves_nothing(host: _Host) -> None:
    handle = host.charlotte.for_user("ann").tenant("acme").page("home").brief("A bakery").open()
    handle.edit([_section("news")], 0)
    with pytest.raises(PageSessionError) as raised:
        handle.edit([_section("hero")], 0)
    assert raised.value.code == "stale_revision"
    assert [row[3] for row in host.rows(drafts)] == [1]
    assert host.pages.history_revisions(host.charlotte.engine, "acme", "home") == [1]
