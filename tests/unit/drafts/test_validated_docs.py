"""The workspace skips re-validating drafts it stored itself, and only those."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa
from tests.support.databases import new_session
from tests.support.host_pages import HostPages, create_host_tables
from tests.support.units import in_unit

import charlotte.page.session as session_module
from charlotte.drafts.workspace import Workspace
from charlotte.errors import PageSessionError
from charlotte.page.model import empty_doc
from charlotte.page.node_types import NodeTypes
from charlotte.page.session import PageSession, ValidatedDocs
from charlotte.storage import DatabasePageRepository, PageRepository, transaction
from charlotte.storage.tables import pages


def _section(id: str) -> list[dict[str, Any]]:
    return [{"t": "insert_node", "node": {"id": id, "type": "section", "parent": None}}]


@pytest.fixture
def full_checks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts whole-document validations (``check_doc`` as PageSession calls it)."""
    calls: list[int] = []
    real = session_module.check_doc

    def counting(doc: object, types: NodeTypes) -> tuple[str, ...]:
        calls.append(1)
        return real(doc, types)

    monkeypatch.setattr(session_module, "check_doc", counting)
    return calls


def test_a_draft_the_workspace_stored_is_not_validated_again(
    sqlite_engine: sa.Engine, full_checks: list[int]
) -> None:
    session = new_session(sqlite_engine)
    ws = Workspace(sqlite_engine)
    in_unit(ws, session.id, session.tenant).agent_apply(_section("a"), based_on=0)
    assert len(full_checks) == 1  # the empty page it started from
    in_unit(ws, session.id, session.tenant).agent_apply(_section("b"), based_on=1)
    in_unit(ws, session.id, session.tenant).agent_apply(_section("c"), based_on=2)
    assert len(full_checks) == 1
    assert set(in_unit(ws, session.id, session.tenant).draft()[0]["nodes"]) == {"a", "b", "c"}


def test_a_stored_draft_changed_behind_charlottes_back_is_validated_and_refused(
    sqlite_engine: sa.Engine, full_checks: list[int]
) -> None:
    session = new_session(sqlite_engine)
    ws = Workspace(sqlite_engine)
    in_unit(ws, session.id, session.tenant).agent_apply(_section("a"), based_on=0)
    doc, revision = in_unit(ws, session.id, session.tenant).draft()
    doc["nodes"]["a"]["type"] = "no-such-type"  # same revision, corrupt content
    with transaction(sqlite_engine) as conn:
        conn.execute(sa.update(pages).where(pages.c.page == session.page).values(draft=doc))
    checked = len(full_checks)
    with pytest.raises(PageSessionError) as raised:
        in_unit(ws, session.id, session.tenant).agent_apply(_section("b"), based_on=revision)
    assert raised.value.code == "invalid_state"
    assert len(full_checks) == checked + 1


@pytest.mark.parametrize("make", [HostPages, DatabasePageRepository], ids=["host", "charlottes_class"])
def test_a_repository_the_host_passes_is_validated_on_every_write(
    sqlite_engine: sa.Engine, full_checks: list[int], make: Callable[[], PageRepository]
) -> None:
    # Whatever its class: only the workspace's own repository is trusted not to change drafts.
    create_host_tables(sqlite_engine)
    session = new_session(sqlite_engine)
    ws = Workspace(sqlite_engine, pages=make())
    for revision, id in enumerate("abc"):
        in_unit(ws, session.id, session.tenant).agent_apply(_section(id), based_on=revision)
    assert len(full_checks) == 3


def test_the_memo_vouches_only_for_equal_content_and_stays_bounded() -> None:
    types = NodeTypes.allowed()
    memo = ValidatedDocs(types, limit=2)
    page = PageSession(empty_doc("home"), node_types=types, validated=memo, key="k1")
    assert memo.breakpoints("k1", empty_doc("home")) == frozenset(page.doc["breakpoints"])
    other = empty_doc("home")
    other["meta"]["title"] = "Changed"
    assert memo.breakpoints("k1", other) is None
    assert memo.breakpoints("k2", empty_doc("home")) is None
    PageSession(empty_doc("a"), node_types=types, validated=memo, key="k2")
    PageSession(empty_doc("b"), node_types=types, validated=memo, key="k3")
    assert len(memo) == 2
    assert memo.breakpoints("k1", empty_doc("home")) is None  # the oldest went first


def test_a_memo_for_another_catalogue_is_not_used(full_checks: list[int]) -> None:
    allowed = NodeTypes.allowed()
    memo = ValidatedDocs(allowed)
    other = NodeTypes(t for t in (allowed.get(name) for name in allowed.names()) if t is not None)
    PageSession(empty_doc("home"), node_types=NodeTypes.allowed(), validated=memo, key="k")
    PageSession(empty_doc("home"), node_types=other, validated=memo, key="k")
    assert len(full_checks) == 2
