"""What ``cms_changes_since`` tells an approve_on_save agent about every revision it was given.

The agent is given a revision with every read and write; a revision names the
page it read then. Whatever a person does meanwhile (edits, approves, rejects),
``cms_changes_since(r)`` must answer either the exact delta (replayed on the
page it read at ``r``, it gives the page it reads now) or ``revision_unknown``;
never a wrong delta. And the agent's next call after a resolution carries its
notice. A subclass provides the ``engine`` fixture (tables created; may be
shared by a module, so every test opens its own session on its own page).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support.change_sets import open_change_set
from tests.support.databases import unshared_session
from tests.support.units import call_tool, in_unit
from tests.support.workspace_contract import heading, section

from charlotte.drafts.change_sets import ChangeSets
from charlotte.drafts.history import op_keys
from charlotte.drafts.review import reject_nodes
from charlotte.drafts.workspace import Workspace
from charlotte.errors import PageSessionError, Refused
from charlotte.page.session import PageSession
from charlotte.storage import SessionRecord
from charlotte.tools import PageTools, ToolBinding, is_error


def props(id: str, text: str) -> dict[str, Any]:
    return {"t": "set_node_props", "id": id, "patch": {"content": text}}


@dataclass
class Agent:
    """The agent's side: every revision it was given, with the page it read at it."""

    tools: PageTools
    change_sets: ChangeSets
    session: SessionRecord
    given: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    @property
    def binding(self) -> ToolBinding:
        return ToolBinding.for_session(self.session.id, self.session.tenant, self.session.page)

    def view(self) -> tuple[dict[str, Any], int]:
        """The page the agent reads now (the open set's working copy, else the draft)."""
        with self.change_sets.workspace.units.read(self.session.id, self.session.tenant) as unit:
            doc, revision = self.change_sets.view(unit)
        return copy.deepcopy(doc), revision

    def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """A tool call; the revision of its result (an error's too) names the page it read."""
        result = call_tool(self.tools, name, arguments, self.binding)
        doc, revision = self.view()
        assert result["revision"] == revision, result
        self.given.append((revision, doc))
        return result

    def changes_since(self, revision: int, read: dict[str, Any]) -> dict[str, Any]:
        """``cms_changes_since(revision)``, checked: the exact delta from ``read``, or ``revision_unknown``."""
        result = self.call("cms_changes_since", {"revision": revision})
        doc, current = self.view()
        if is_error(result):
            assert result["error"]["code"] == "revision_unknown", result
            assert result["revision"] == result["error"]["detail"]["revision"] == current
            return result
        changes = result["changes"]
        assert [c["revision"] for c in changes] == list(range(revision + 1, current + 1)), changes
        page = PageSession(copy.deepcopy(read))
        for change in changes:
            page.apply([change["op"]], based_on=page.revision, actor=change["actor"])
        assert page.doc == doc, f"a wrong delta since {revision}: {changes}"
        return result

    def check_every_revision(self) -> list[tuple[int, dict[str, Any]]]:
        """``changes_since`` for every revision given so far (each page read once), with its result."""
        seen: list[tuple[int, dict[str, Any]]] = []
        for revision, read in list(self.given):
            if (revision, read) not in seen:
                seen.append((revision, read))
        return [(revision, self.changes_since(revision, read)) for revision, read in seen]


def notices(result: dict[str, Any]) -> list[str]:
    return [notice["status"] for notice in result.get("notices", [])]


class ChangeSetRevisionsContract:
    """The agent's revisions across resolutions; subclasses bind ``engine``."""

    #: Hypothesis examples of the property (fewer where each one is slower).
    examples: ClassVar[int] = 60

    @pytest.fixture
    def engine(self) -> sa.Engine:  # pragma: no cover - overridden per backend
        raise NotImplementedError

    @pytest.fixture
    def ws(self, engine: sa.Engine) -> Workspace:
        return Workspace(engine)

    @pytest.fixture
    def change_sets(self, ws: Workspace) -> ChangeSets:
        return ChangeSets(ws)

    @pytest.fixture
    def tools(self, ws: Workspace, change_sets: ChangeSets) -> PageTools:
        return PageTools(ws, change_sets=change_sets)

    @pytest.fixture
    def agent(self, engine: sa.Engine, ws: Workspace, change_sets: ChangeSets, tools: PageTools) -> Agent:
        return self.new_agent(engine, ws, change_sets, tools)

    def new_agent(self, engine: sa.Engine, ws: Workspace, change_sets: ChangeSets, tools: PageTools) -> Agent:
        """A new approve_on_save session whose draft holds a hero and its title (revision 2), read once."""
        record = unshared_session(engine, approve_on_save=True)
        ops = [section("hero"), heading("title", "hero", "Fresh bread")]
        in_unit(ws, record.id, record.tenant).human_edit(ops, based_on=0, user="ann")
        agent = Agent(tools, change_sets, record)
        assert agent.call("cms_get", {})["revision"] == 2
        return agent

    # -- the cases of the issue ------------------------------------------------

    def test_after_an_approval_over_a_persons_edit_no_revision_gives_a_wrong_delta(
        self, agent: Agent, ws: Workspace, change_sets: ChangeSets
    ) -> None:
        s = agent.session
        assert agent.call("cms_apply", {"basedOn": 2, "ops": [props("title", "Rye")]})["revision"] == 3
        in_unit(ws, s.id, s.tenant).human_edit([section("news")], based_on=2, user="ann")
        assert in_unit(change_sets, s.id, s.tenant).approve("ann").revision == 4
        # The working copy's 3 is gone: the draft's 3 is the person's edit, its 4 the replay.
        working = agent.changes_since(3, agent.given[1][1])
        assert working["error"]["code"] == "revision_unknown"
        assert notices(working) == ["approved"]  # the agent's next read says what happened
        before = agent.changes_since(2, agent.given[0][1])
        assert [(c["revision"], c["actor"], c["op"]["t"]) for c in before["changes"]] == [
            (3, "human", "insert_node"),
            (4, "agent", "set_node_props"),
        ]
        assert notices(before) == []
        assert agent.call("cms_get", {})["notices"] == []
        # Revisions given after the approval are the draft's own.
        agent.check_every_revision()
        assert agent.call("cms_apply", {"basedOn": 4, "ops": [section("more")]})["revision"] == 5
        agent.check_every_revision()

    def test_an_approval_on_an_unchanged_draft_keeps_every_revision(
        self, agent: Agent, ws: Workspace, change_sets: ChangeSets
    ) -> None:
        s = agent.session
        agent.call("cms_apply", {"basedOn": 2, "ops": [props("title", "Rye")]})
        agent.call("cms_apply", {"basedOn": 3, "ops": [section("more")]})
        assert in_unit(change_sets, s.id, s.tenant).approve("ann").revision == 4
        results = dict(agent.check_every_revision())
        assert not any(is_error(result) for result in results.values()), results
        assert notices(results[2]) == ["approved"]
        assert [c["revision"] for c in results[3]["changes"]] == [4]

    @pytest.mark.parametrize("decision", ["reject", "conflict"])
    def test_revisions_of_a_dropped_set_are_unknown_even_once_the_draft_reuses_them(
        self, agent: Agent, ws: Workspace, change_sets: ChangeSets, decision: str
    ) -> None:
        s = agent.session
        agent.call("cms_apply", {"basedOn": 2, "ops": [props("title", "Rye")]})
        if decision == "reject":
            assert in_unit(change_sets, s.id, s.tenant).reject("ann").status == "rejected"
            in_unit(ws, s.id, s.tenant).human_edit([section("news")], based_on=2, user="ann")
        else:
            in_unit(ws, s.id, s.tenant).human_edit([{"t": "remove_node", "id": "title"}], based_on=2, user="ann")
            assert in_unit(change_sets, s.id, s.tenant).approve("ann").status == "conflicted"
        # The draft is at 3 now, a page the agent never read as its 3.
        (_, first), (_, working), *_ = agent.check_every_revision()
        assert working["error"]["code"] == "revision_unknown"
        assert notices(first) == ["rejected" if decision == "reject" else "conflicted"]
        assert agent.call("cms_get", {})["revision"] == 3
        agent.check_every_revision()

    def test_a_new_set_after_a_rejection_answers_for_its_own_revisions(
        self, agent: Agent, ws: Workspace, change_sets: ChangeSets
    ) -> None:
        s = agent.session
        for n in range(3):
            agent.call("cms_apply", {"basedOn": 2 + n, "ops": [section(f"old{n}")]})
        in_unit(change_sets, s.id, s.tenant).reject("ann")
        agent.call("cms_get", {})
        for n in range(4):
            agent.call("cms_apply", {"basedOn": 2 + n, "ops": [section(f"new{n}")]})
        results = agent.check_every_revision()
        # 3..5 were the rejected set's too: unknown for both sets; 6 is only the new set's.
        assert [r for r, result in results if is_error(result)] == [3, 4, 5, 3, 4, 5]
        assert [c["revision"] for c in results[0][1]["changes"]] == [3, 4, 5, 6]
        assert results[-1][1]["changes"] == []

    def test_changes_since_keeps_its_other_codes(
        self, agent: Agent, ws: Workspace, change_sets: ChangeSets
    ) -> None:
        s = agent.session
        agent.call("cms_apply", {"basedOn": 2, "ops": [props("title", "Rye")]})
        ahead = agent.call("cms_changes_since", {"revision": 9})
        assert (ahead["error"]["code"], ahead["revision"]) == ("stale_revision", 3)
        in_unit(change_sets, s.id, s.tenant).reject("ann")
        with pytest.raises(PageSessionError) as stale:
            in_unit(change_sets, s.id, s.tenant).changes_since(9)
        assert stale.value.code == "stale_revision"

    # -- any sequence ------------------------------------------------------------

    def test_no_sequence_of_writes_edits_and_decisions_gives_a_wrong_delta(
        self, engine: sa.Engine, ws: Workspace, change_sets: ChangeSets, tools: PageTools
    ) -> None:
        steps = st.lists(
            st.sampled_from(
                ["write", "retitle", "read", "edit", "remove", "approve", "reject", "reject_nodes"]
            ),
            min_size=1,
            max_size=8,
        )

        @settings(
            max_examples=self.examples,
            suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        )
        @given(steps)
        def run(plan: list[str]) -> None:
            agent = self.new_agent(engine, ws, change_sets, tools)
            kept = True  # every resolution so far was an approval on an unchanged draft
            for number, step in enumerate(plan):
                told, keeps = self.play(agent, ws, change_sets, step, number)
                kept = kept and keeps
                results = [result for _revision, result in agent.check_every_revision()]
                assert notices(results[0]) == told, (plan, number)
                assert all(notices(result) == [] for result in results[1:])
                # Unknown only where a set's revisions were dropped; the first read never.
                assert not is_error(results[0]), (plan, number)
                assert kept <= (not any(is_error(result) for result in results)), (plan, number)

        run()

    def play(
        self, agent: Agent, ws: Workspace, change_sets: ChangeSets, step: str, number: int
    ) -> tuple[list[str], bool]:
        """One step of the property: the notice the agent's next call must carry, and
        False when the step dropped the open set's revisions (anything but an approval
        on the draft the set was seeded from)."""
        s = agent.session
        view, revision = agent.view()
        draft, draft_revision = in_unit(ws, s.id, s.tenant).draft()
        change_set = open_change_set(change_sets, s.id, s.tenant)
        if step in ("write", "retitle"):
            retitle = step == "retitle" and "title" in view["nodes"]
            ops = [props("title", f"agent {number}") if retitle else section(f"a{number}")]
            result = agent.call("cms_apply", {"basedOn": revision, "ops": ops})
            assert not is_error(result), result
        elif step == "read":
            agent.call("cms_get", {})
        elif step == "edit":
            in_unit(ws, s.id, s.tenant).human_edit([section(f"p{number}")], based_on=draft_revision, user="ann")
        elif step == "remove" and "title" in draft["nodes"]:
            removal = [{"t": "remove_node", "id": "title"}]
            in_unit(ws, s.id, s.tenant).human_edit(removal, based_on=draft_revision, user="ann")
        elif step == "approve" and change_set is not None:
            status = in_unit(change_sets, s.id, s.tenant).approve("ann").status
            return [status], status == "approved" and draft_revision == change_set.base_revision
        elif step == "reject" and change_set is not None:
            return [in_unit(change_sets, s.id, s.tenant).reject("ann").status], False
        elif step == "reject_nodes" and change_set is not None:
            # A person takes the first op's node out: the set rejected, the rest in a new set.
            nodes = sorted(op_keys(change_set.ops[0]))
            try:
                with change_sets.workspace.units.write(s.id, s.tenant) as unit:
                    reject_nodes(change_sets, unit, nodes, "ann")
            except Refused as refused:
                assert refused.code == "conflicted", refused.code  # the rest no longer applies
                return [], True
            return ["rejected"], False
        return [], True
