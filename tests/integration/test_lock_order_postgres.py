"""Writers meeting on one session lock its rows in one order: the session row first (PostgreSQL).

The agent's ``cms_apply`` runs inside the call's transaction, which may
already hold the session row (here ``before`` takes it with an event; the
write itself takes it first); a person's edit locks the page row and then
needs the session row for its own event. Were the edit to take
the page row first, the two would deadlock, and PostgreSQL would abort one of
them. This test makes the edit start exactly while the agent's call holds the
session row, and waits until PostgreSQL shows the edit blocked, before the
agent goes on to its write.
"""

from __future__ import annotations

import threading

import pytest
import sqlalchemy as sa
from tests.support.databases import new_session, unique
from tests.support.tools_contract import section
from tests.support.units import call_tool, in_unit
from tests.support.waiting import wait_until

from charlotte.drafts.workspace import Workspace
from charlotte.errors import CharlotteError
from charlotte.storage import UnitOfWork
from charlotte.tools import PageTools, ToolBinding, is_error

pytestmark = pytest.mark.postgres


def _blocked_backends(engine: sa.Engine) -> int:
    with engine.connect() as conn:
        query = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
        return int(conn.exec_driver_sql(query).scalar_one())


def _wait_until_blocked(engine: sa.Engine, timeout: float = 10.0) -> None:
    wait_until(
        lambda: _blocked_backends(engine) > 0,
        timeout,
        "the person's edit to wait for a lock",
        every=0.01,
    )


def test_a_persons_edit_during_the_agents_write_waits_instead_of_deadlocking(
    postgres_engine: sa.Engine,
) -> None:
    engine = postgres_engine
    session = new_session(engine, page=unique("home"))
    ws = Workspace(engine)
    tools = PageTools(ws)
    binding = ToolBinding.for_session(session.id, session.tenant, session.page)
    in_unit(ws, session.id, session.tenant).human_edit([section("hero")], based_on=0, user="ann")

    person: dict[str, object] = {}

    def edit() -> None:
        retitle = [
            {"t": "set_style", "id": "hero", "breakpoint": "base", "patch": {"opacity": 0.5}}
        ]
        try:
            in_unit(ws, session.id, session.tenant).human_edit(retitle, based_on=1, user="ann")
            person["result"] = "applied"
        except CharlotteError as error:
            person["result"] = error.code

    editor = threading.Thread(target=edit)

    def stop(unit: UnitOfWork) -> None:
        # Inside the call's unit, which locked the session row when it opened.
        editor.start()
        _wait_until_blocked(engine)

    result = call_tool(tools, "cms_apply", {"basedOn": 1, "ops": [section("more")]}, binding, stop=stop)
    editor.join(timeout=30)
    assert not editor.is_alive()
    assert not is_error(result), result
    assert result["revision"] == 2
    # The edit waited for the agent's commit, then found its revision stale: no deadlock.
    assert person == {"result": "stale_revision"}


def test_two_first_writes_to_one_page_end_in_a_stale_revision_not_a_storage_conflict(
    postgres_engine: sa.Engine,
) -> None:
    engine = postgres_engine
    page = unique("fresh")
    first, second = (
        new_session(engine, page=page),
        new_session(engine, page=page),
    )  # two sessions, one page
    ws = Workspace(engine)
    other: dict[str, object] = {}

    def edit() -> None:
        try:
            in_unit(ws, second.id, second.tenant).human_edit([section("theirs")], based_on=0, user="bob")
            other["result"] = "applied"
        except CharlotteError as error:
            other["result"] = error.code

    editor = threading.Thread(target=edit)
    # The agent's first write to the never-written page, still uncommitted while the person's starts.
    with ws.units.write(first.id, first.tenant) as unit:
        written = ws.agent_apply(unit, [section("ours")], based_on=0)
        editor.start()
        _wait_until_blocked(engine)
    editor.join(timeout=30)
    assert not editor.is_alive()
    assert written.revision == 1
    assert other == {"result": "stale_revision"}
    doc, revision = in_unit(ws, first.id, first.tenant).draft()
    assert revision == 1 and set(doc["nodes"]) == {"ours"}
