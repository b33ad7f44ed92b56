"""Change sets and the agent's revisions on SQLite (PostgreSQL: tests/integration/test_proposals_postgres.py), and the diff."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from tests.support.change_set_revisions_contract import ChangeSetRevisionsContract
from tests.support.proposals_contract import ProposalsContract

from charlotte.proposal_diff import diff_docs


class TestProposalsOnSqlite(ProposalsContract):
    @pytest.fixture
    def engine(self, sqlite_engine: sa.Engine) -> sa.Engine:
        return sqlite_engine


class TestChangeSetRevisionsOnSqlite(ChangeSetRevisionsContract):
    examples = 100

    @pytest.fixture
    def engine(self, sqlite_engine: sa.Engine) -> sa.Engine:
        return sqlite_engine


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
