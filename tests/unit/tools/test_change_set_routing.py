"""PageTools in an approve_on_save session: writes and reads go to the open change set."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa
from tests.support.change_sets import open_change_set
from tests.support.databases import new_session
from tests.support.tools_contract import heading, section, text

from charlotte.drafts.change_sets import ChangeSets
from charlotte.drafts.workspace import SiteLinks, Workspace
from charlotte.events import EventTypes
from charlotte.page.assets import InMemoryAssetLibrary
from charlotte.storage import DatabaseEventLog, SessionRecord
from charlotte.tools import PageTools, ToolBinding, is_error


@pytest.fixture
def ws(sqlite_engine: sa.Engine) -> Workspace:
    return Workspace(
        sqlite_engine,
        assets=InMemoryAssetLibrary({"logo": "/media/logo.png"}),
        links=SiteLinks("https://rose.test", ()),
    )


@pytest.fixture
def change_sets(ws: Workspace) -> ChangeSets:
    return ChangeSets(ws)


@pytest.fixture
def tools(ws: Workspace, change_sets: ChangeSets) -> PageTools:
    return PageTools(ws, change_sets=change_sets)


def _session(engine: sa.Engine, *, approve_on_save: bool) -> SessionRecord:
    return new_session(engine, "t1", "home", created_by="ann", approve_on_save=approve_on_save)


@pytest.fixture
def session(sqlite_engine: sa.Engine, ws: Workspace) -> SessionRecord:
    """An approve_on_save session whose draft holds a hero with a heading (revision 2)."""
    record = _session(sqlite_engine, approve_on_save=True)
    ops = [section("hero"), heading("title", "hero", "Sourdough")]
    ws.human_edit(record.id, record.tenant, ops, based_on=0, user="ann")
    return record


@pytest.fixture
def binding(session: SessionRecord) -> ToolBinding:
    return ToolBinding.for_session(session.id, session.tenant, session.page)


def _props(id: str, words: str) -> dict[str, Any]:
    return {"t": "set_node_props", "id": id, "patch": {"content": words}}


def test_apply_writes_the_set_and_every_read_sees_the_working_copy(
    tools: PageTools, ws: Workspace, change_sets: ChangeSets, session: SessionRecord, binding: ToolBinding
) -> None:
    draft = ws.draft(session.id, session.tenant)
    ops = [_props("title", "Rye loaves"), text("intro", "hero", "Lorem ipsum dolor")]
    assert tools.call("cms_apply", {"basedOn": 2, "ops": ops}, binding) == {
        "revision": 4,
        "applied": 2,
        "notices": [],
    }
    assert ws.draft(session.id, session.tenant) == draft
    got = tools.call("cms_get", {}, binding)
    assert got["revision"] == 4 and got["notices"] == []
    assert {node["id"] for node in got["page"]["nodes"]} == {"hero", "title", "intro"}
    outline = tools.call("cms_outline", {}, binding)
    assert outline["revision"] == 4 and '"Rye loaves"' in outline["outline"]
    found = tools.call("cms_find", {"text": "rye"}, binding)
    assert [m["id"] for m in found["matches"]] == ["title"]
    check = tools.call("cms_check", {"checks": ["copy"]}, binding)
    assert check["revision"] == 4
    assert any(f["node"] == "intro" for f in check["findings"])  # lorem ipsum lives only in the set
    changes = tools.call("cms_changes_since", {"revision": 2}, binding)
    assert [(c["revision"], c["actor"]) for c in changes["changes"]] == [(3, "agent"), (4, "agent")]
    assert tools.call("cms_apply", {"basedOn": 4, "ops": [_props("title", "Spelt")]}, binding)["revision"] == 5
    change_set = open_change_set(change_sets, session.id, session.tenant)
    assert change_set is not None and change_set.op_count == 3


def test_approval_reaches_the_agent_once_on_its_next_get(
    tools: PageTools, change_sets: ChangeSets, session: SessionRecord, binding: ToolBinding
) -> None:
    tools.call("cms_apply", {"basedOn": 2, "ops": [_props("title", "Rye")]}, binding)
    resolution = change_sets.approve(session.id, session.tenant, "ann")
    got = tools.call("cms_get", {}, binding)
    assert got["revision"] == 3
    assert [(n["kind"], n["proposal_id"], n["status"]) for n in got["notices"]] == [
        ("change_set", resolution.change_set_id, "approved")
    ]
    assert tools.call("cms_get", {}, binding)["notices"] == []
    # Revisions continue: the next write opens a new set on the approved draft.
    assert tools.call("cms_apply", {"basedOn": 3, "ops": [section("more")]}, binding) == {
        "revision": 4,
        "applied": 1,
        "notices": [],
    }


# Valid arguments for each of the nine tools once the approval below is in (draft at 3).
_NEXT_CALLS = [
    ("cms_get", {}),
    ("cms_outline", {}),
    ("cms_types", {}),
    ("cms_find", {"text": "rye"}),
    ("cms_facts", {}),
    ("cms_apply", {"basedOn": 3, "ops": [section("more")]}),
    ("cms_apply", {"basedOn": 1, "ops": [section("more")]}),  # a failed write
    ("cms_changes_since", {"revision": 2}),
    ("cms_changes_since", {"revision": 3}),  # the approval on an unchanged draft keeps it
    ("cms_check", {}),
    ("cms_ready", {"summary": "Done"}),
    ("cms_get", {"node": "nope"}),  # a failed read
]


@pytest.mark.parametrize(("name", "arguments"), _NEXT_CALLS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(_NEXT_CALLS)])
def test_the_agents_next_call_whatever_it_is_carries_the_notice_once(
    tools: PageTools, change_sets: ChangeSets, session: SessionRecord, binding: ToolBinding, name: str, arguments: dict[str, Any]
) -> None:
    tools.call("cms_apply", {"basedOn": 2, "ops": [_props("title", "Rye")]}, binding)
    resolution = change_sets.approve(session.id, session.tenant, "ann")
    result = tools.call(name, arguments, binding)
    assert [(n["proposal_id"], n["status"]) for n in result["notices"]] == [(resolution.change_set_id, "approved")]
    again = tools.call(name, arguments, binding)
    assert again.get("notices", []) == []


def _nothing_before(_conn: sa.Connection) -> None:
    pass


# With a `before` hook (the runner's calls) a cms_apply runs inside the call's
# own write transaction, notices included (taken in it, not in a second write
# transaction that would wait for the first).
@pytest.mark.parametrize("before", [None, _nothing_before], ids=["own_transaction", "runners_transaction"])
def test_a_conflict_reaches_the_agent_once_even_on_a_failed_apply(
    tools: PageTools,
    ws: Workspace,
    change_sets: ChangeSets,
    session: SessionRecord,
    binding: ToolBinding,
    sqlite_engine: sa.Engine,
    before: Callable[[sa.Connection], None] | None,
) -> None:
    tools.call("cms_apply", {"basedOn": 2, "ops": [_props("title", "Rye")]}, binding, before=before)
    ws.human_edit(
        session.id, session.tenant, [{"t": "remove_node", "id": "title"}], based_on=2, user="ann"
    )
    assert change_sets.approve(session.id, session.tenant, "ann").status == "conflicted"
    # The agent still believes in revision 3; the draft is at 3 too, but without "title".
    failed = tools.call("cms_apply", {"basedOn": 3, "ops": [_props("title", "Spelt")]}, binding, before=before)
    assert is_error(failed) and failed["error"]["code"] == "node_not_found"
    assert [(n["status"], n["code"], n["at"]) for n in failed["notices"]] == [
        ("conflicted", "node_not_found", 0)
    ]
    types = [e.type for e in DatabaseEventLog().read(sqlite_engine, session.id)]
    assert types[-1] == EventTypes.PROPOSAL_CONFLICTED
    again = tools.call("cms_apply", {"basedOn": 3, "ops": [section("more")]}, binding, before=before)
    assert again == {"revision": 4, "applied": 1, "notices": []}
    assert tools.call("cms_get", {}, binding, before=before)["notices"] == []


def test_sessions_without_approve_on_save_write_the_draft(
    tools: PageTools, ws: Workspace, change_sets: ChangeSets, sqlite_engine: sa.Engine
) -> None:
    record = _session(sqlite_engine, approve_on_save=False)
    plain = ToolBinding.for_session(record.id, record.tenant, record.page)
    assert tools.call("cms_apply", {"basedOn": 0, "ops": [section("hero")]}, plain)["revision"] == 1
    assert ws.draft(record.id, record.tenant)[1] == 1
    assert open_change_set(change_sets, record.id, record.tenant) is None
    assert tools.call("cms_get", {}, plain)["notices"] == []
