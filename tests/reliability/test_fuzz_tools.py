"""Hostile tool calls through the real ``PageTools.call``: only coded results, nothing stored on refusal.

``tests/unit/tools/test_arguments.py`` fuzzes the argument parser alone; here
random JSON, huge and deeply nested values and unicode tricks in ids, hrefs,
props and style strings go through the whole call (binding, parser, tool,
Workspace, database) on a plain and an approve-on-save session, and every
refusal must leave the draft, the open change set and the event log as they were.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.reliability.test_fuzz_api import hostile_ops, ids, storable_ids, tricky_text, values
from tests.support.soak import show
from tests.support.units import call_tool

from charlotte.drafts.change_sets import ChangeSets
from charlotte.drafts.workspace import Workspace
from charlotte.errors import MESSAGES
from charlotte.page.session import PageSession
from charlotte.storage import (
    DatabaseEventLog,
    SessionRecord,
    SessionStore,
    transaction,
)
from charlotte.tools import TOOL_NAMES, PageTools, ToolBinding, is_error

HERO: Final = [
    {"t": "insert_node", "node": {"id": "hero", "type": "section", "parent": None}},
    {"t": "insert_node", "node": {"id": "title", "type": "heading", "parent": "hero", "props": {"content": "Rosa's Bakery", "level": 1}}},
]

SETTINGS: Final = settings(
    max_examples=200,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)

calls: Counter[str] = Counter()


@dataclass(frozen=True)
class Bench:
    """The tools, their change sets and two bound sessions (plain, approve-on-save)."""

    engine: sa.Engine
    workspace: Workspace
    tools: PageTools
    change_sets: ChangeSets
    sessions: tuple[SessionRecord, SessionRecord]

    def binding(self, which: int) -> ToolBinding:
        s = self.sessions[which]
        return ToolBinding.for_session(s.id, s.tenant, s.page)

    def state(self, which: int) -> tuple[Any, ...]:
        """Draft (with revision), open change set and event count of one session."""
        session = self.sessions[which]
        with self.workspace.units.read(session.id, session.tenant) as unit:
            draft = self.workspace.load_draft(unit)
            view = self.change_sets.view(unit)
        events = DatabaseEventLog().read(self.engine, session.id, 0, 10_000)
        return draft, view, len(events)


@pytest.fixture(scope="module")
def bench(sqlite_engine_module: sa.Engine, request: pytest.FixtureRequest) -> Iterator[Bench]:
    workspace = Workspace(sqlite_engine_module)
    change_sets = ChangeSets(workspace)
    tools = PageTools(workspace, change_sets=change_sets)
    made = []
    for page, approve in (("home", False), ("about", True)):
        with transaction(sqlite_engine_module) as conn:
            made.append(SessionStore().create(conn, tenant="acme", page=page, created_by="ann", approve_on_save=approve))
    bench = Bench(sqlite_engine_module, workspace, tools, change_sets, (made[0], made[1]))
    for which in (0, 1):
        result = call_tool(tools, "cms_apply", {"basedOn": 0, "ops": HERO}, bench.binding(which))
        assert not is_error(result), result
    yield bench
    show(request, f"fuzz tools: {sum(calls.values())} calls, {dict(sorted(calls.items()))}")


@pytest.fixture(scope="module")
def sqlite_engine_module(tmp_path_factory: pytest.TempPathFactory) -> Iterator[sa.Engine]:
    from tests.support.databases import sqlite_engine_at

    from charlotte.storage import create_tables

    engine = sqlite_engine_at(tmp_path_factory.mktemp("fuzz-tools") / "tools.db")
    create_tables(engine)
    yield engine
    engine.dispose()


def checked_call(bench: Bench, which: int, name: object, arguments: object, binding: ToolBinding | None = None) -> dict[str, Any]:
    """One call; its result is JSON and, when refused, coded with the fixed message; nothing stored."""
    before = bench.state(which)
    result = call_tool(bench.tools, name, arguments, binding or bench.binding(which))
    json.dumps(result)
    if is_error(result):
        calls["refused:" + result["error"]["code"]] += 1
        assert result["error"]["message"] == MESSAGES[result["error"]["code"]]
        assert bench.state(which) == before
    else:
        calls["ok"] += 1
        assert isinstance(result["revision"], int)
        PageSession(bench.state(which)[1][0])
    return result


tool_names = st.sampled_from(TOOL_NAMES)
keys = st.sampled_from(["basedOn", "ops", "id", "ids", "depth", "text", "type", "limit", "revision", "checks", "summary", "query", "node"]) | tricky_text
random_arguments = st.dictionaries(keys, values | ids, max_size=4) | values


@SETTINGS
@given(name=tool_names | tricky_text, arguments=random_arguments, which=st.integers(0, 1))
def test_random_arguments_to_every_tool_get_coded_results(bench: Bench, name: Any, arguments: Any, which: int) -> None:
    checked_call(bench, which, name, arguments)


@SETTINGS
@given(ops=st.lists(hostile_ops(), min_size=1, max_size=4), which=st.integers(0, 1), as_text=st.booleans())
def test_hostile_ops_through_cms_apply_store_nothing_when_refused(
    bench: Bench, ops: list[dict[str, Any]], which: int, as_text: bool
) -> None:
    revision = call_tool(bench.tools, "cms_outline", {}, bench.binding(which))["revision"]
    arguments: Any = {"basedOn": revision, "ops": ops}
    # A model may send its arguments as JSON text; it must be judged the same way.
    checked_call(bench, which, "cms_apply", json.dumps(arguments) if as_text else arguments)


@SETTINGS
# Bindings come from stored sessions, never from a model; forged ones (lone
# surrogates included) are refused.
@given(session_id=storable_ids, tenant=storable_ids, page=storable_ids, scope=storable_ids | st.none(), name=tool_names)
def test_forged_bindings_are_refused(bench: Bench, session_id: Any, tenant: Any, page: Any, scope: Any, name: str) -> None:
    real = bench.sessions[0]
    sid = session_id if isinstance(session_id, str) else real.id
    binding = ToolBinding(
        sid,
        tenant if isinstance(tenant, str) else real.tenant,
        page if isinstance(page, str) else real.page,
        scope if isinstance(scope, str) else f"charlotte:{sid}",
    )
    genuine = {bench.binding(0), bench.binding(1)}

    result = checked_call(bench, 0, name, {}, binding)

    if binding not in genuine:
        assert is_error(result) and result["error"]["code"] in {"forbidden", "not_found"}


@pytest.mark.parametrize(
    "arguments",
    [
        {"basedOn": 2, "ops": [{"t": "set_node_props", "id": "title", "patch": {"content": "x"}}] * 5_000},
        {"basedOn": 2, "ops": [{"t": "set_node_props", "id": "title", "patch": {"content": "x" * 2_000_000}}]},
        {"basedOn": 2, "ops": [{"t": "set_node_props", "id": "title", "patch": {"content": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}}]},
        {"basedOn": 10**30, "ops": []},
        {"basedOn": 2, "ops": [{"t": "insert_node", "node": {"id": "a\x00b", "type": "text", "parent": None}}]},
        {"basedOn": 2, "ops": [{"t": "insert_node", "node": {"id": "\ud800", "type": "text", "parent": None}}]},
        {"basedOn": 2, "ops": [{"t": "set_node_props", "id": "title", "patch": {"href": "java\u200bscript:alert(1)"}}]},
        {"basedOn": 2, "ops": [{"t": "set_style", "id": "hero", "breakpoint": "base", "patch": {"background": "url(javascript:alert(1))"}}]},
        "[" * 10_000,
        '{"basedOn": 2, "ops": [' + "[" * 5_000 + "]" * 5_000 + "]}",
    ],
    ids=["many-ops", "huge-string", "deep-props", "huge-revision", "nul-id", "surrogate-id", "zero-width-href", "css-url", "deep-text", "deep-ops-text"],
)
def test_extreme_apply_arguments_are_refused_and_store_nothing(bench: Bench, arguments: Any) -> None:
    result = checked_call(bench, 0, "cms_apply", arguments)

    assert is_error(result)
