"""A follow-up's writes through a real Agent and the real tools: stale revisions, refusals, honesty.

The agent runs the offline model over the nine real page tools on SQLite; a
hook before each ``cms_apply`` lets a person edit the draft mid-turn.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa
from tests.support.units import call_tool
from tests.unit.offline.agent_harness import Harness, harness_on, tool_exchanges
from tests.unit.sections.briefs import BAKERY

from charlotte.drafts.workspace import SiteLinks, Workspace
from charlotte.offline.follow_up import MAX_STALE
from charlotte.tools import PageTools, ToolBinding, failure

HEADLINE = "Change the hero headline to 'Loaves worth waking for'"


@pytest.fixture
def built(sqlite_engine: sa.Engine) -> Harness:
    ws = Workspace(sqlite_engine, links=SiteLinks("https://site.test"))
    h = harness_on(ws, PageTools(ws), *BAKERY, page="home")
    assert "ready for review" in h.run().output
    h.calls.clear()
    return h


def _person_edits(h: Harness, times: int) -> Callable[[int], None]:
    def edit(n: int) -> None:
        if n <= times:
            h.human_edit(
                [{"t": "set_node_props", "id": "hero-text", "patch": {"content": f"Edit {n}."}}]
            )

    return edit


def test_a_person_editing_mid_turn_is_read_again_and_the_change_retried(built: Harness) -> None:
    built.before_apply = _person_edits(built, 1)

    result = built.run(HEADLINE)

    exchanges = tool_exchanges(result.all_messages())
    applies = [(a, r) for name, a, r in exchanges if name == "cms_apply"]
    assert [r.get("error", {}).get("code") for _a, r in applies] == ["stale_revision", None]
    names = [name for name, _a, _r in exchanges]
    assert names.count("cms_get") == 2
    at = names.index("cms_apply")
    assert names[at + 1] == "cms_get" and names[at + 2] == "cms_apply"
    # The retry is based on the revision the re-read returned.
    assert applies[1][0]["basedOn"] == exchanges[at + 1][2]["revision"]
    nodes = built.doc()["nodes"]
    assert nodes["hero-heading"]["props"]["content"] == "Loaves worth waking for"
    assert nodes["hero-text"]["props"]["content"] == "Edit 1."
    assert names[-1] == "cms_ready" and "ready for review" in result.output


def test_a_page_that_keeps_changing_is_given_up_honestly(built: Harness) -> None:
    built.before_apply = _person_edits(built, 100)

    result = built.run(HEADLINE)

    assert built.calls.count("cms_apply") == MAX_STALE
    assert "cms_ready" not in built.calls
    assert built.doc()["nodes"]["hero-heading"]["props"]["content"] == "Crumb & Co"
    assert "kept changing" in result.output and "ready for review" not in result.output
    assert "Done:" not in result.output


def test_a_change_the_tools_refuse_is_never_claimed(built: Harness) -> None:
    tools = built.tools

    class Refusing:
        def definitions(self) -> Any:
            return tools.definitions()

        def call(self, name: str, args: Any, binding: ToolBinding) -> Any:
            if name == "cms_apply":
                return failure("invalid_props", 0, at="$.ops[0]")
            return call_tool(tools, name, args, binding)

    built.tools = Refusing()  # type: ignore[assignment]
    before = built.doc()

    result = built.run(f"{HEADLINE} and add an FAQ")

    assert built.calls.count("cms_apply") == 2 and "cms_ready" not in built.calls
    assert built.doc() == before
    assert result.output.count("The page refused this change (invalid_props: ") == 2
    assert "Done:" not in result.output and "ready for review" not in result.output
    assert "unchanged" in result.output
