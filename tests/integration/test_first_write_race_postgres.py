"""Approving the first write to a page while another session writes it for the first time (PostgreSQL).

A page never written has no row to lock. Session A (approve_on_save) holds a
change set on such a page; a person approves it at the very moment session B
writes the page for the first time (a person's edit, or B's agent in a turn).
Whichever inserts the page row first wins; the other sees a stale revision
(B) or replays on B's write (A: approved, or conflicted when both wrote the
same node). Never a storage error, never a lost write: with charlotte's page
tables and with a host's own repository (``HostPages``, no charlotte base class).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from tests.support.databases import named_postgres_schema, postgres_url
from tests.support.host_pages import HostPages, create_host_tables

from charlotte.app import Charlotte
from charlotte.errors import CharlotteError, StorageError
from charlotte.page.session import PageSession
from charlotte.session import CharlotteSession
from charlotte.settings import Settings
from charlotte.storage import read_connection
from charlotte.storage.tables import page_ops
from charlotte.testing import ScriptedModel, Step, ToolCall

pytestmark = pytest.mark.postgres

RACES = 40


def _section(id: str) -> dict[str, Any]:
    return {"t": "insert_node", "node": {"id": id, "type": "section", "parent": None}}


class _App:
    """A ``Charlotte`` on PostgreSQL whose next turn plays ``script``."""

    def __init__(self, url: str, schema: str, host_pages: HostPages | None = None) -> None:
        self.script: list[Step] = []
        self.host_pages = host_pages
        settings = Settings(database_url=url, database_schema=schema, queue="inline")
        self.charlotte = Charlotte(
            settings,
            page_repository=host_pages,
            model_factory=lambda: ScriptedModel(list(self.script)),
        )
        self.charlotte.migrate()
        if host_pages is not None:
            create_host_tables(self.charlotte.engine)

    def open(self, page: str, user: str, *, approve_on_save: bool) -> CharlotteSession:
        builder = self.charlotte.for_user(user).tenant("acme").page(page).brief("A bakery")
        return builder.approve_on_save(approve_on_save).open()

    def agent_writes(self, handle: CharlotteSession, node: str) -> dict[str, Any]:
        self.script = [ToolCall("cms_apply", {"basedOn": 0, "ops": [_section(node)]})]
        return handle.send("Build it")


@pytest.fixture(scope="module", params=["charlotte_pages", "host_pages"])
def app(request: pytest.FixtureRequest) -> Iterator[_App]:
    with named_postgres_schema(postgres_url(), "charlotte_first_write") as (schema, _engine):
        made = _App(postgres_url(), schema, HostPages() if request.param == "host_pages" else None)
        yield made
        made.charlotte.close()


def _last_apply_result(handle: CharlotteSession) -> str:
    results = [e["payload"] for e in handle.events(0, 100) if e["type"] == "tool.result"]
    assert results and results[-1]["name"] == "cms_apply", results
    return str(results[-1].get("code", "applied"))


def _history(app: _App, page: str) -> list[int]:
    engine = app.charlotte.engine
    if app.host_pages is not None:
        return app.host_pages.history_revisions(engine, "acme", page)
    with read_connection(engine) as conn:
        query = sa.select(page_ops.c.revision).where(page_ops.c.tenant == "acme", page_ops.c.page == page)
        return sorted(conn.execute(query).scalars())


def _race(app: _App, race: int) -> tuple[str, str, str]:
    """One race on a fresh page: A's outcome, B's outcome, and the node B wrote."""
    page = f"fresh-{race}"
    gated = app.open(page, "ann", approve_on_save=True)
    other = app.open(page, "bob", approve_on_save=False)
    assert app.agent_writes(gated, "hero")["status"] == "finished"
    assert gated.change_set() is not None and gated.draft()["revision"] == 0
    # Half the races write the same node: A's replay then conflicts on B's write.
    node = "hero" if race % 2 else "news"
    by_agent = race % 4 >= 2
    if by_agent:
        app.script = [ToolCall("cms_apply", {"basedOn": 0, "ops": [_section(node)]})]

    def approve() -> str:
        return str(gated.approve()["status"])

    def write() -> str:
        if by_agent:
            assert other.send("Build it")["status"] == "finished"
            return _last_apply_result(other)
        other.edit([_section(node)], 0)
        return "applied"

    start = threading.Barrier(2)
    outcomes: dict[str, str] = {}

    def run(name: str, action: Callable[[], str]) -> None:
        start.wait(timeout=30)
        try:
            outcomes[name] = action()
        except StorageError as error:  # the defect: a 500 through the API
            outcomes[name] = f"storage error {error.code}"
        except CharlotteError as error:
            outcomes[name] = error.code

    threads = [threading.Thread(target=run, args=("a", approve)), threading.Thread(target=run, args=("b", write))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    return outcomes["a"], outcomes["b"], node


def test_approving_a_first_write_while_another_session_writes_the_page_first_is_never_a_storage_error(
    app: _App,
) -> None:
    seen: Counter[tuple[str, str]] = Counter()
    for race in range(RACES):
        a, b, node = _race(app, race)
        seen[(a, b)] += 1
        assert a in ("approved", "conflicted") and b in ("applied", "stale_revision"), (race, a, b)
        # A conflicts exactly when B's write came first and holds A's node.
        assert (a == "conflicted") == (b == "applied" and node == "hero"), (race, a, b)
        # Nothing lost, nothing doubled: the draft is what the winners wrote, its history unbroken.
        page = f"fresh-{race}"
        with read_connection(app.charlotte.engine) as conn:
            loaded = app.charlotte.workspace.pages.load_draft(conn, "acme", page)
        assert loaded is not None
        draft, revision = loaded
        winners = ({"hero"} if a == "approved" else set()) | ({node} if b == "applied" else set())
        assert set(draft["nodes"]) == winners, (race, a, b)
        assert _history(app, page) == list(range(1, revision + 1))
        PageSession(draft)  # a valid document
    print(f"\nfirst-write races ({RACES}): {dict(seen)}")
