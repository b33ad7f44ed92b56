"""Change sets on SQLite (PostgreSQL: tests/integration/test_proposals_postgres.py), the diff, the replay bound."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from tests.support.proposals_contract import ProposalsContract

from charlotte.page.errors import PageSessionError
from charlotte.page.model import empty_doc
from charlotte.page.node_types import MAX_OPS_PER_APPLY
from charlotte.page.session import PageSession
from charlotte.proposal_diff import diff_docs


class TestProposalsOnSqlite(ProposalsContract):
    @pytest.fixture
    def engine(self, sqlite_engine: sa.Engine) -> sa.Engine:
        return sqlite_engine


def _meta_ops(count: int) -> list[dict[str, Any]]:
    return [{"t": "set_meta", "patch": {"title": f"T{i}"}} for i in range(count)]


def test_apply_refuses_more_than_the_agent_bound_unless_a_replay_raises_it() -> None:
    page = PageSession(empty_doc("p"))
    with pytest.raises(PageSessionError) as over:
        page.apply(_meta_ops(MAX_OPS_PER_APPLY + 1), based_on=0, actor="agent")
    assert over.value.code == "limit_exceeded"
    assert page.apply(_meta_ops(1_000), based_on=0, actor="agent", max_ops=1_000).revision == 1_000
    with pytest.raises(PageSessionError) as over_replay:
        page.apply(_meta_ops(1_001), based_on=1_000, actor="agent", max_ops=1_000)
    assert over_replay.value.code == "limit_exceeded"
    assert page.revision == 1_000


def _node(id: str, parent: str | None = None, **extra: Any) -> dict[str, Any]:
    return {"id": id, "type": "text", "parent": parent, "order": "a", "props": {}, "style": {"base": {}}, **extra}


def test_diff_names_props_style_keys_and_other_fields() -> None:
    draft = {"meta": {"title": "A"}, "theme": {}, "nodes": {
        "same": _node("same"),
        "gone": _node("gone"),
        "edited": _node("edited", props={"content": "Hi", "keep": 1}, style={"base": {"color": "#000"}}),
    }}  # fmt: skip
    working = {"meta": {"title": "B"}, "theme": {}, "nodes": {
        "same": _node("same"),
        "new": _node("new"),
        "edited": _node("edited", parent="same", props={"keep": 1, "level": 2},
                        style={"base": {"color": "#111"}, "md": {"gap": 4}}),
    }}  # fmt: skip
    diff = diff_docs(draft, working)
    assert diff.to_json() == {
        "added": ["new"],
        "removed": ["gone"],
        "changed": [
            {"id": "edited", "props": ["content", "level"], "style": ["base.color", "md.gap"], "fields": ["parent"]}
        ],
        "meta": True,
        "theme": False,
    }
    assert not diff.empty
    assert diff_docs(working, working).empty
