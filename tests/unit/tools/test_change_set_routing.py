"""PageTools in an approve_on_save session: writes and reads go to the open change set."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from tests.support.change_sets import open_change_set
from tests.support.databases import new_session
from tests.support.tools_contract import heading, section, text
from tests.support.units import call_tool, in_unit

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
    in_unit(ws, record.id, record.tenant).human_edit(ops, based_on=0, user="ann")
    return record


@pytest.fixture
def binding(session: SessionRecord) -> ToolBinding:
    return ToolBinding.for_session(session.id, session.tenant, session.page)


def _props(id: str, words: str) -> dict[str, Any]:
    return {"t": "set_node_props", "id": id, "patch": {"content": words}}


def test_apply_writes_the_set_and_every_read_sees_the_working_copy(
    tools: PageTools, ws: Workspace, change_sets: ChangeSets, session: SessionRecord, binding: ToolBinding
) -> None:
    draft = in_unit(ws, session.id, session.tenant).draft()
    ops = [_props("title", "Rye loaves"), text("intro", "hero", "Lorem ipsum dolor")]
    assert call_tool(tools, "cms_apply", {"basedOn": 2, "ops": ops}, binding) == {
        "revision": 4,
        "applied": 2,
        "notices": [],
    }
    assert in_unit(ws, session.id, session.tenant).draft() == draft
    got = call_tool(tools, "cms_get", {}, binding)
    assert got["revision"] == 4 and got["notices"] == []
    assert {node["id"] for node in got["page"]["nodes"]} == {"hero", "title", "intro"}
    outline = call_tool(tools, "cms_outline", {}, binding)
    assert outline["revision"] == 4 and '"Rye loaves"' in outline["outline"]
    found = call_tool(tools, "cms_find", {"text": "rye"}, binding)
    assert [m["id"] for m in found["matches"]] == ["title"]
    check = call_tool(tools, "cms_check", {"checks": ["copy"]}, binding)
    assert check["revision"] == 4
    assert any(f["node"] == "intro" for f in check["findings"])  # lorem ipsum lives only in the set
    changes = call_tool(tools, "cms_changes_since", {"revision": 2}, binding)
    assert [(c["revision"], c["actor"]) for c in changes["changes"]] == [(3, "agent"), (4, "agent")]
    assert call_tool(tools, "cms_apply", {"basedOn": 4, "ops": [_props("title", "Spelt")]}, binding)["revision"] == 5
    change_set = open_change_set(change_sets, session.id, session.tenant)
    assert change_set is not None and change_set.op_count == 3


def test_approval_reaches_the_agent_once_on_its_next_get(
    tools: PageTools, change_sets: ChangeSets, session: SessionRecord, binding: ToolBinding
) -> None:
    call_tool(tools, "cms_apply", {"basedOn": 2, "ops": [_props("title", "Rye")]}, binding)
    resolution = in_unit(change_sets, session.id, session.tenant).approve("ann")
    got = call_tool(tools, "cms_get", {}, binding)
    assert got["revision"] == 3
    assert [(n["kind"], n["proposal_id"], n["status"]) for n in got["notices"]] == [
        ("change_set", resolution.change_set_id, "approved")
    ]
    assert call_tool(tools, "cms_get", {}, binding)["notices"] == []
    # Revisions continue: the next write opens a new set on the approved draft.
    assert call_tool(tools, "cms_apply", {"basedOn": 3, "ops": [section("more")]}, binding) == {
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
    call_tool(tools, "cms_apply", {"basedOn": 2, "ops": [_props("title", "Rye")]}, binding)
    resolution = in_unit(change_sets, session.id, session.tenant).approve("ann")
    result = call_tool(tools, name, arguments, binding)
    assert [(n["proposal_id"], n["status"]) for n in result["notices"]] == [(resolution.change_set_id, "approved")]
    again = call_tool(tools, name, arguments, binding)
    assert again.get("notices", []) == []


# A call is one unit of work: a conflict's notice taken by a refused write is
# taken in the unit that refuses it, and so reaches the agent with that result.
def test_a_conflict_reaches_the_agent_once_even_on_a_failed_apply(
    tools: PageTools,
    ws: Workspace,
    change_sets: ChangeSets,
    session: SessionRecord,
    binding: ToolBinding,
    sqlite_engine: sa.Engine,
) -> None:
    call_tool(tools, "cms_apply", {"basedOn": 2, "ops": [_props("title", "Rye")]}, binding)
    in_unit(ws, session.id, session.tenant).human_edit([{"t": "remove_node", "id": "title"}], based_on=2, user="ann"
    )
    assert in_unit(change_sets, session.id, session.tenant).approve("ann").status == "conflicted"
    # The agent still believes in revision 3; the draft is at 3 too, but without "title".
    failed = call_tool(tools, "cms_apply", {"basedOn": 3, "ops": [_props("title", "Spelt")]}, binding)
    assert is_error(failed) and failed["error"]["code"] == "node_not_found"
    assert [(n["status"], n["code"], n["at"]) for n in failed["notices"]] == [
        ("conflicted", "node_not_found", 0)
    ]
    types = [e.type for e in DatabaseEventLog().read(sqlite_engine, session.id)]
    assert types[-1] == EventTypes.PROPOSAL_CONFLICTED
    again = call_tool(tools, "cms_apply", {"basedOn": 3, "ops": [section("more")]}, binding)
    assert again == {"revision": 4, "applied": 1, "notices": []}
    assert call_tool(tools, "cms_get", {}, binding)["notices"] == []


def test_sessions_without_approve_on_save_write_the_draft(
    tools: PageTools, ws: Workspace, change_sets: ChangeSets, sqlite_engine: sa.Engine
) -> None:
    record = _session(sqlite_engine, approve_on_save=False)
    plain = ToolBinding.for_session(record.id, record.tenant, record.page)
    assert call_tool(tools, "cms_apply", {"basedOn": 0, "ops": [section("hero")]}, plain)["revision"] == 1
    assert in_unit(ws, record.id, record.tenant).draft()[1] == 1
    assert open_change_set(change_sets, record.id, record.tenant) is None
    assert call_tool(tools, "cms_get", {}, plain)["notices"] == []
