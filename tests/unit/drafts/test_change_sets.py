"""Change sets and the agent's revisions on SQLite (PostgreSQL: tests/integration/test_change_sets_postgres.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from tests.support.change_set_revisions_contract import ChangeSetRevisionsContract
from tests.support.change_sets_contract import ChangeSetsContract

from charlotte.app import Charlotte
from charlotte.settings import Settings
from charlotte.testing import ScriptedModel, Step, ToolCall


class TestChangeSetsOnSqlite(ChangeSetsContract):
    @pytest.fixture
    def engine(self, sqlite_engine: sa.Engine) -> sa.Engine:
        return sqlite_engine


class TestChangeSetRevisionsOnSqlite(ChangeSetRevisionsContract):
    examples = 100

    @pytest.fixture
    def engine(self, sqlite_engine: sa.Engine) -> sa.Engine:
        return sqlite_engine


def test_through_charlotte_the_agents_next_turn_is_told_and_gets_no_wrong_delta(tmp_path: Path) -> None:
    """The issue's case end to end: a scripted agent, a person's edit and an approval in between."""
    script: list[Step] = []
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'c.db'}", queue="inline")
    charlotte = Charlotte(settings, model_factory=lambda: ScriptedModel(list(script)))
    charlotte.migrate()
    try:
        handle = charlotte.for_user("ann").tenant("acme").page("home").brief("A bakery").approve_on_save(True).open()
        hero = {"t": "insert_node", "node": {"id": "hero", "type": "section", "parent": None}}
        script[:] = [ToolCall("cms_apply", {"basedOn": 0, "ops": [hero]})]
        handle.send("Build it")
        news = {"t": "insert_node", "node": {"id": "news", "type": "section", "parent": None}}
        handle.edit([news], 0)
        assert handle.approve()["revision"] == 2
        results: list[Any] = []

        def after(arguments: dict[str, Any]) -> Callable[[list[Any]], dict[str, Any]]:
            """These arguments, once the previous call's result is kept in ``results``."""

            def arguments_then(earlier: list[Any]) -> dict[str, Any]:
                results.append(earlier[-1])
                return arguments

            return arguments_then

        script[:] = [
            ToolCall("cms_changes_since", {"revision": 1}),  # the working copy's 1, gone
            ToolCall("cms_changes_since", after({"revision": 0})),
            ToolCall("cms_facts", after({})),
        ]
        handle.send("What changed?")
        unknown, delta = results
        assert unknown["error"]["code"] == "revision_unknown" and unknown["revision"] == 2
        assert [n["status"] for n in unknown["notices"]] == ["approved"]
        assert [(c["revision"], c["actor"], c["op"]["node"]["id"]) for c in delta["changes"]] == [
            (1, "human", "news"),
            (2, "agent", "hero"),
        ]
        assert delta["notices"] == []
    finally:
        charlotte.close()
