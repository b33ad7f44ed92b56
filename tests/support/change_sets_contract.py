"""The ChangeSets (approve_on_save) contract, run against every database (subclass per backend).

A subclass provides the ``engine`` fixture (tables created; may be shared by a
module, so every test opens its own session on its own page).
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
import sqlalchemy as sa
from tests.support.change_sets import open_change_set
from tests.support.databases import unique, unshared_session
from tests.support.units import in_unit
from tests.support.workspace_contract import MutableAssets, heading, link, section

from charlotte.drafts.change_sets import ChangeSets
from charlotte.drafts.workspace import SiteLinks, Workspace
from charlotte.errors import PageSessionError, Refused
from charlotte.events import EventTypes, schema_errors
from charlotte.page.diff import diff_docs
from charlotte.page.session import PageSession
from charlotte.policy import AssetPolicy
from charlotte.storage import (
    DatabaseEventLog,
    DatabasePageRepository,
    SessionRecord,
    read_connection,
    tables,
)
from charlotte.storage.tables import page_ops
from charlotte.storage.tables import pages as pages_table


def props(id: str, text: str) -> dict[str, Any]:
    return {"t": "set_node_props", "id": id, "patch": {"content": text}}


class ChangeSetsContract:
    """Every change-set guarantee; subclasses bind ``engine`` to a database."""

    @pytest.fixture
    def engine(self) -> sa.Engine:  # pragma: no cover - overridden per backend
        raise NotImplementedError

    @pytest.fixture
    def assets(self) -> MutableAssets:
        return MutableAssets({"logo"})

    @pytest.fixture
    def ws(self, engine: sa.Engine, assets: MutableAssets) -> Workspace:
        return Workspace(
            engine,
            assets=assets,
            links=SiteLinks("https://bakery.test", ("https://maps.example.com",)),
        )

    @pytest.fixture
    def change_sets(self, ws: Workspace) -> ChangeSets:
        return ChangeSets(ws)

    @pytest.fixture
    def session(self, engine: sa.Engine, ws: Workspace) -> SessionRecord:
        """An approve_on_save session whose draft holds a section and a heading (revision 2)."""
        record = unshared_session(engine, approve_on_save=True)
        in_unit(ws, record.id, record.tenant).human_edit([section("hero"), heading("title", "hero", "Fresh bread")],
            based_on=0,
            user="ann",
        )
        return record

    # -- helpers ---------------------------------------------------------------

    def events(self, engine: sa.Engine, s: SessionRecord, after: int = 0) -> list[Any]:
        found = DatabaseEventLog().read(engine, s.id, after, 1000)
        for event in found:
            assert schema_errors(event) == [], event
        return found

    def last_seq(self, engine: sa.Engine, s: SessionRecord) -> int:
        found = DatabaseEventLog().read(engine, s.id, 0, 1000)
        return found[-1].seq if found else 0

    def history(self, engine: sa.Engine, s: SessionRecord) -> list[tuple[int, str, str]]:
        with read_connection(engine) as conn:
            rows = conn.execute(
                sa.select(page_ops.c.revision, page_ops.c.actor, page_ops.c.op)
                .where(page_ops.c.tenant == s.tenant, page_ops.c.page == s.page)
                .order_by(page_ops.c.revision)
            ).all()
        return [(rev, actor, op["t"]) for rev, actor, op in rows]

    def statuses(self, engine: sa.Engine, s: SessionRecord) -> list[str]:
        with read_connection(engine) as conn:
            rows = conn.execute(
                sa.select(tables.change_sets.c.status)
                .where(tables.change_sets.c.session_id == s.id)
                .order_by(tables.change_sets.c.created_at)
            ).all()
        return [row.status for row in rows]

    # -- writing into a set ----------------------------------------------------

    def test_agent_ops_go_to_the_working_copy_not_the_draft(
        self, ws: Workspace, change_sets: ChangeSets, engine: sa.Engine, session: SessionRecord
    ) -> None:
        draft_before = in_unit(ws, session.id, session.tenant).draft()
        after = self.last_seq(engine, session)
        written = in_unit(change_sets, session.id, session.tenant).apply_agent_ops([props("title", "Rye"), section("more")], based_on=2
        )
        assert written.revision == 4 and written.node_ids == ("title", "more")
        assert in_unit(ws, session.id, session.tenant).draft() == draft_before
        change_set = open_change_set(change_sets, session.id, session.tenant)
        assert change_set is not None
        assert (change_set.base_revision, change_set.revision, change_set.op_count) == (2, 4, 2)
        assert change_set.working["nodes"]["title"]["props"]["content"] == "Rye"
        assert [op["t"] for op in change_set.ops] == ["set_node_props", "insert_node"]
        events = self.events(engine, session, after)
        assert [(e.type, e.actor, e.payload) for e in events] == [
            (EventTypes.PROPOSAL_OPENED, "agent", {"proposal_id": change_set.id, "base_revision": 2}),
            (
                EventTypes.PAGE_CHANGED,
                "agent",
                {
                    "revision": 4, "actor": "agent", "ops": 2, "node_ids": ["title", "more"],
                    "copy": "working", "applied": written.ops,
                },
            ),
        ]
        # The agent's revisions continue inside the set; the set does not open twice.
        again = in_unit(change_sets, session.id, session.tenant).apply_agent_ops([props("title", "Spelt")], based_on=4)
        assert again.revision == 5
        after_second = open_change_set(change_sets, session.id, session.tenant)
        assert after_second is not None and after_second.id == change_set.id
        assert after_second.op_count == 3
        assert [e.type for e in self.events(engine, session, events[-1].seq)] == [
            EventTypes.PAGE_CHANGED
        ]
        assert self.statuses(engine, session) == ["open"]

    def test_a_failed_first_write_opens_no_set(
        self, change_sets: ChangeSets, engine: sa.Engine, session: SessionRecord
    ) -> None:
        after = self.last_seq(engine, session)
        with pytest.raises(PageSessionError) as stale:
            in_unit(change_sets, session.id, session.tenant).apply_agent_ops([props("title", "x")], based_on=1)
        assert stale.value.code == "stale_revision"
        with pytest.raises(PageSessionError) as missing:
            in_unit(change_sets, session.id, session.tenant).apply_agent_ops([props("nope", "x")], based_on=2)
        assert (missing.value.code, missing.value.at) == ("node_not_found", 0)
        assert open_change_set(change_sets, session.id, session.tenant) is None
        assert self.events(engine, session, after) == []

    def test_policies_guard_the_working_copy(
        self, change_sets: ChangeSets, engine: sa.Engine, session: SessionRecord
    ) -> None:
        in_unit(change_sets, session.id, session.tenant).apply_agent_ops([section("more")], based_on=2)
        before = open_change_set(change_sets, session.id, session.tenant)
        after = self.last_seq(engine, session)
        with pytest.raises(Refused) as external:
            in_unit(change_sets, session.id, session.tenant).apply_agent_ops([link("a", "hero", "https://evil.example/")], based_on=3
            )
        assert external.value.code == "external_link"
        bad = {"t": "set_style", "id": "hero", "breakpoint": "base", "patch": {"background": "url(x)"}}
        with pytest.raises(Refused) as css:
            in_unit(change_sets, session.id, session.tenant).apply_agent_ops([bad], based_on=3)
        assert css.value.code == "css_fetch"
        assert open_change_set(change_sets, session.id, session.tenant) == before
        assert self.events(engine, session, after) == []

    def test_changes_since_reads_the_working_copys_own_history(
        self, ws: Workspace, change_sets: ChangeSets, session: SessionRecord
    ) -> None:
        assert in_unit(change_sets, session.id, session.tenant).changes_since(1) == in_unit(ws, session.id, session.tenant).changes_since(1
        )
        in_unit(change_sets, session.id, session.tenant).apply_agent_ops([props("title", "Rye")], based_on=2)
        # A human edit to the draft meanwhile is not part of the working copy's history.
        in_unit(ws, session.id, session.tenant).human_edit([section("news")], based_on=2, user="ann")
        changes = in_unit(change_sets, session.id, session.tenant).changes_since(0)
        assert [(c["revision"], c["actor"], c["op"]["t"]) for c in changes] == [
            (1, "ann", "insert_node"),
            (2, "ann", "insert_node"),
            (3, "agent", "set_node_props"),
        ]
        assert in_unit(change_sets, session.id, session.tenant).changes_since(2) == changes[2:]
        assert in_unit(change_sets, session.id, session.tenant).changes_since(3) == []
        with pytest.raises(PageSessionError) as stale:
            in_unit(change_sets, session.id, session.tenant).changes_since(4)
        assert stale.value.code == "stale_revision" and stale.value.detail == {"revision": 3}

    # -- approving -------------------------------------------------------------

    def test_approve_without_human_edits_makes_the_draft_the_working_copy(
        self, ws: Workspace, change_sets: ChangeSets, engine: sa.Engine, session: SessionRecord
    ) -> None:
        in_unit(change_sets, session.id, session.tenant).apply_agent_ops([props("title", "Rye"), section("more")], based_on=2
        )
        in_unit(change_sets, session.id, session.tenant).apply_agent_ops([heading("h2", "more", "Hours")], based_on=4)
        change_set = open_change_set(change_sets, session.id, session.tenant)
        assert change_set is not None
        after = self.last_seq(engine, session)
        resolution = in_unit(change_sets, session.id, session.tenant).approve("ann")
        assert (resolution.status, resolution.ops, resolution.revision) == ("approved", 3, 5)
        doc, revision = in_unit(ws, session.id, session.tenant).draft()
        assert revision == 5 and doc == change_set.working
        assert self.history(engine, session)[2:] == [
            (3, "agent", "set_node_props"),
            (4, "agent", "insert_node"),
            (5, "agent", "insert_node"),
        ]
        events = self.events(engine, session, after)
        assert [(e.type, e.actor, e.payload) for e in events] == [
            (
                EventTypes.PAGE_CHANGED,
                "agent",
                # An approval's replay carries no ops: a client reads the draft once.
                {
                    "revision": 5, "actor": "agent", "ops": 3, "node_ids": ["title", "more", "h2"],
                    "copy": "draft",
                },
            ),
            (
                EventTypes.PROPOSAL_APPROVED,
                "ann",
                {"proposal_id": change_set.id, "ops": 3, "revision": 5},
            ),
        ]
        assert open_change_set(change_sets, session.id, session.tenant) is None
        assert self.statuses(engine, session) == ["approved"]
        # The agent's next write opens a new set on the approved draft, revisions unbroken.
        assert in_unit(change_sets, session.id, session.tenant).apply_agent_ops([props("h2", "Open")], based_on=5).revision == 6

    def test_approve_replays_over_unrelated_human_edits(
        self, ws: Workspace, change_sets: ChangeSets, session: SessionRecord
    ) -> None:
        in_unit(change_sets, session.id, session.tenant).apply_agent_ops([props("title", "Rye")], based_on=2)
        in_unit(ws, session.id, session.tenant).human_edit([section("news")], based_on=2, user="ann")
        resolution = in_unit(change_sets, session.id, session.tenant).approve("ann")
        assert (resolution.status, resolution.revision) == ("approved", 4)
        doc, _ = in_unit(ws, session.id, session.tenant).draft()
        assert doc["nodes"]["title"]["props"]["content"] == "Rye"
        assert "news" in doc["nodes"]

    def test_a_human_deletion_conflicts_without_partial_replay_and_the_agent_is_told_once(
        self, ws: Workspace, change_sets: ChangeSets, engine: sa.Engine, session: SessionRecord
    ) -> None:
        in_unit(change_sets, session.id, session.tenant).apply_agent_ops([section("more"), props("title", "Rye"), props("title", "Spelt")],
            based_on=2,
        )
        in_unit(ws, session.id, session.tenant).human_edit([{"t": "remove_node", "id": "title"}], based_on=2, user="ann"
        )
        human = in_unit(ws, session.id, session.tenant).draft()
        history = self.history(engine, session)
        change_set = open_change_set(change_sets, session.id, session.tenant)
        assert change_set is not None
        after = self.last_seq(engine, session)
        resolution = in_unit(change_sets, session.id, session.tenant).approve("bob")
        assert (resolution.status, resolution.code, resolution.at) == ("conflicted", "node_not_found", 1)
        assert resolution.revision == 3
        # Exactly the human's version: op 0 (section "more") applied in memory but was not kept.
        assert in_unit(ws, session.id, session.tenant).draft() == human
        assert self.history(engine, session) == history
        events = self.events(engine, session, after)
        assert [(e.type, e.actor, e.payload) for e in events] == [
            (
                EventTypes.PROPOSAL_CONFLICTED,
                "bob",
                {"proposal_id": change_set.id, "code": "node_not_found", "at": 1},
            )
        ]
        assert self.statuses(engine, session) == ["conflicted"]
        notices = in_unit(change_sets, session.id, session.tenant).pending_notices()
        assert notices == [
            {
                "kind": "change_set",
                "proposal_id": change_set.id,
                "status": "conflicted",
                "ops": 3,
                "message": notices[0]["message"],
                "code": "node_not_found",
                "at": 1,
            }
        ]
        assert in_unit(change_sets, session.id, session.tenant).pending_notices() == []

    def test_a_conflicted_approval_on_a_never_written_page_leaves_it_without_a_row(
        self, engine: sa.Engine, ws: Workspace, change_sets: ChangeSets, assets: MutableAssets
    ) -> None:
        # The approval inserts the page's row before it locks it (a first write);
        # the savepoint around load and replay takes that row back on a conflict.
        fresh = unshared_session(engine, approve_on_save=True)
        image = {
            "t": "insert_node",
            "node": {"id": "img", "type": "image", "parent": "hero", "props": {"asset": "logo", "alt": "Logo"}},
        }
        in_unit(change_sets, fresh.id, fresh.tenant).apply_agent_ops([section("hero"), image], based_on=0)
        assets.ids.clear()  # the host deleted the asset since
        resolution = in_unit(change_sets, fresh.id, fresh.tenant).approve("ann")
        assert (resolution.status, resolution.code) == ("conflicted", "authored_asset")
        with read_connection(engine) as conn:
            rows = conn.execute(
                sa.select(sa.func.count()).select_from(pages_table)
                .where(pages_table.c.tenant == fresh.tenant, pages_table.c.page == fresh.page)
            ).scalar_one()
        assert rows == 0

    def test_replay_applies_todays_asset_and_link_rules(
        self, ws: Workspace, change_sets: ChangeSets, assets: MutableAssets, session: SessionRecord
    ) -> None:
        image = {
            "t": "insert_node",
            "node": {"id": "img", "type": "image", "parent": "hero", "props": {"asset": "logo", "alt": "Logo"}},
        }
        in_unit(change_sets, session.id, session.tenant).apply_agent_ops([props("title", "Rye"), image], based_on=2)
        assets.ids.clear()  # the host deleted the asset since
        resolution = in_unit(change_sets, session.id, session.tenant).approve("ann")
        assert (resolution.status, resolution.code, resolution.at) == ("conflicted", "authored_asset", 1)
        assert in_unit(ws, session.id, session.tenant).draft()[1] == 2

        in_unit(change_sets, session.id, session.tenant).apply_agent_ops([link("map", "hero", "https://maps.example.com/x")], based_on=2
        )
        narrower = SiteLinks("https://bakery.test", ())
        resolution = in_unit(change_sets, session.id, session.tenant).approve("ann", links=narrower)
        assert (resolution.status, resolution.code, resolution.at) == ("conflicted", "external_link", 0)
        assert in_unit(ws, session.id, session.tenant).draft()[1] == 2

    def test_assets_are_checked_on_the_page_the_whole_replay_made(
        self, ws: Workspace, assets: MutableAssets, engine: sa.Engine
    ) -> None:
        # Slices of two ops: the image goes in in the first slice, and is edited in the
        # third (op 5) or removed in the second (op 3). Its asset is gone by the approval.
        change_sets = ChangeSets(ws, chunk=2)
        image = {
            "t": "insert_node",
            "node": {"id": "img", "type": "image", "parent": "hero", "props": {"asset": "logo", "alt": "Logo"}},
        }
        alt = {"t": "set_node_props", "id": "img", "patch": {"alt": "A logo"}}
        removed = {"t": "remove_node", "id": "img"}
        found = []
        for ops in (
            [image, props("title", "Rye"), section("a"), props("sub", "Spelt"), section("b"), alt],
            [image, props("title", "Rye"), section("a"), removed, section("b"), props("sub", "Spelt")],
        ):
            s = unshared_session(engine, approve_on_save=True)
            page = [section("hero"), heading("title", "hero", "Bread"), heading("sub", "hero", "Rolls")]
            in_unit(ws, s.id, s.tenant).human_edit(page, based_on=0, user="ann")
            assets.ids.add("logo")
            in_unit(change_sets, s.id, s.tenant).apply_agent_ops(ops, based_on=3)
            assets.ids.clear()
            resolution = in_unit(change_sets, s.id, s.tenant).approve("ann")
            found.append((resolution.status, resolution.code, resolution.at))
        # The refused node names the last op that wrote it; a node the set removed is not on
        # the page it made, so nothing of it is refused.
        assert found == [("conflicted", "authored_asset", 5), ("approved", None, None)]

    def test_a_replay_conflict_names_the_first_op_that_fails_whichever_rule_it_breaks(
        self, ws: Workspace, engine: sa.Engine
    ) -> None:
        # Ops: an edit of the title (0), a map link (1), a section (2), an edit of the
        # subtitle (3). Links are checked for each slice before it is applied, yet the
        # conflict is the first op that fails, whichever rule it breaks.
        change_sets = ChangeSets(ws, chunk=4)
        ops = [
            props("title", "Rye"), link("map", "hero", "https://maps.example.com/x"),
            section("more"), props("sub", "Spelt"),
        ]  # fmt: skip
        narrower = SiteLinks("https://bakery.test", ())
        found = []
        for removed in ("title", "sub"):
            s = unshared_session(engine, approve_on_save=True)
            page = [section("hero"), heading("title", "hero", "Bread"), heading("sub", "hero", "Rolls")]
            in_unit(ws, s.id, s.tenant).human_edit(page, based_on=0, user="ann")
            in_unit(change_sets, s.id, s.tenant).apply_agent_ops(ops, based_on=3)
            in_unit(ws, s.id, s.tenant).human_edit([{"t": "remove_node", "id": removed}], based_on=3, user="ann")
            resolution = in_unit(change_sets, s.id, s.tenant).approve("ann", links=narrower)
            found.append((resolution.status, resolution.code, resolution.at))
            assert in_unit(ws, s.id, s.tenant).draft()[1] == 4
        assert found == [("conflicted", "node_not_found", 0), ("conflicted", "external_link", 1)]

    def test_reject_discards_the_set_and_tells_the_agent_once(
        self, ws: Workspace, change_sets: ChangeSets, engine: sa.Engine, session: SessionRecord
    ) -> None:
        draft = in_unit(ws, session.id, session.tenant).draft()
        in_unit(change_sets, session.id, session.tenant).apply_agent_ops([props("title", "Rye")], based_on=2)
        change_set = open_change_set(change_sets, session.id, session.tenant)
        assert change_set is not None
        after = self.last_seq(engine, session)
        resolution = in_unit(change_sets, session.id, session.tenant).reject("ann")
        assert (resolution.status, resolution.ops, resolution.revision) == ("rejected", 1, 2)
        assert in_unit(ws, session.id, session.tenant).draft() == draft
        assert [(e.type, e.actor, e.payload) for e in self.events(engine, session, after)] == [
            (EventTypes.PROPOSAL_REJECTED, "ann", {"proposal_id": change_set.id, "ops": 1})
        ]
        assert [n["status"] for n in in_unit(change_sets, session.id, session.tenant).pending_notices()] == ["rejected"]
        assert in_unit(change_sets, session.id, session.tenant).pending_notices() == []

    def test_decisions_need_an_open_set_and_a_person(
        self, change_sets: ChangeSets, engine: sa.Engine, session: SessionRecord
    ) -> None:
        after = self.last_seq(engine, session)
        decisions = in_unit(change_sets, session.id, session.tenant)
        for decide in (decisions.approve, decisions.reject):
            with pytest.raises(Refused) as none:
                decide("ann")
            assert none.value.code == "no_open_change_set"
        in_unit(change_sets, session.id, session.tenant).apply_agent_ops([props("title", "Rye")], based_on=2)
        for user in ("", "agent"):
            with pytest.raises(Refused) as who:
                in_unit(change_sets, session.id, session.tenant).approve(user)
            assert who.value.code == "invalid_request"
        with pytest.raises(Refused) as other_tenant:
            in_unit(change_sets, session.id, unique("tenant")).approve("ann")
        assert other_tenant.value.code == "not_found"
        assert self.statuses(engine, session) == ["open"]
        assert [e.type for e in self.events(engine, session, after)] == [
            EventTypes.PROPOSAL_OPENED,
            EventTypes.PAGE_CHANGED,
        ]

    def test_sessions_without_approve_on_save_have_no_change_sets(
        self, change_sets: ChangeSets, engine: sa.Engine
    ) -> None:
        plain = unshared_session(engine)
        with pytest.raises(Refused) as refused:
            in_unit(change_sets, plain.id, plain.tenant).apply_agent_ops([section("hero")], based_on=0)
        assert refused.value.code == "forbidden"
        assert open_change_set(change_sets, plain.id, plain.tenant) is None
        assert self.events(engine, plain) == []

    def test_publishing_publishes_the_draft_and_leaves_the_set_open(
        self, ws: Workspace, change_sets: ChangeSets, session: SessionRecord
    ) -> None:
        in_unit(change_sets, session.id, session.tenant).apply_agent_ops([props("title", "Rye")], based_on=2)
        assert in_unit(ws, session.id, session.tenant).publish("ann") == 2
        published = in_unit(ws, session.id, session.tenant).published()
        assert published is not None
        assert published[0]["nodes"]["title"]["props"]["content"] == "Fresh bread"
        change_set = open_change_set(change_sets, session.id, session.tenant)
        assert change_set is not None and change_set.status == "open"

    def test_diff_names_added_removed_and_changed_nodes(
        self, ws: Workspace, change_sets: ChangeSets, session: SessionRecord
    ) -> None:
        assert open_change_set(change_sets, session.id, session.tenant) is None
        style = {"t": "set_style", "id": "hero", "breakpoint": "md", "patch": {"color": "#333"}}
        in_unit(change_sets, session.id, session.tenant).apply_agent_ops([props("title", "Rye"), style, section("more"), {"t": "remove_node", "id": "title"}],
            based_on=2,
        )
        in_unit(ws, session.id, session.tenant).human_edit([section("news")], based_on=2, user="ann")
        change_set = open_change_set(change_sets, session.id, session.tenant)
        assert change_set is not None
        diff = diff_docs(in_unit(ws, session.id, session.tenant).draft()[0], change_set.working)
        assert diff.to_json() == {
            "added": ["more"],
            "removed": ["news", "title"],
            "changed": [{"id": "hero", "props": [], "style": ["md.color"], "fields": [], "text": {}}],
            "meta": False,
            "theme": False,
        }

    def test_ten_thousand_ops_approve_in_slices(
        self,
        ws: Workspace,
        change_sets: ChangeSets,
        engine: sa.Engine,
        session: SessionRecord,
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:
        revision = 2
        for batch in range(50):
            ops = [props("title", f"v{batch}-{i}") for i in range(199)]
            ops.append(section(f"s{batch}"))
            revision = in_unit(change_sets, session.id, session.tenant).apply_agent_ops(ops, based_on=revision).revision
        change_set = open_change_set(change_sets, session.id, session.tenant)
        assert change_set is not None and change_set.op_count == 10_000 and revision == 10_002
        sizes: list[int] = []
        checked: list[int] = []
        real_apply, real_check = PageSession.apply, AssetPolicy.assert_nodes

        def counting(page: PageSession, ops: Any, **kwargs: Any) -> Any:
            sizes.append(len(ops))
            return real_apply(page, ops, **kwargs)

        def checking(policy: AssetPolicy, doc: Any, node_ids: Any, meta: bool = False) -> None:
            checked.append(len(node_ids))
            real_check(policy, doc, node_ids, meta)

        monkeypatch.setattr(PageSession, "apply", counting)
        monkeypatch.setattr(AssetPolicy, "assert_nodes", checking)
        resolution = in_unit(change_sets, session.id, session.tenant).approve("ann")
        assert (resolution.status, resolution.revision) == ("approved", 10_002)
        # Applied in slices of REPLAY_CHUNK (100); AssetPolicy once, on the 51 nodes the set touched.
        assert sizes == [100] * 100
        assert checked == [51]
        doc, current = in_unit(ws, session.id, session.tenant).draft()
        assert current == 10_002 and doc == change_set.working
        history = self.history(engine, session)
        assert len(history) == 10_002
        # The op history holds the set's ops (stored from the set's own text of each).
        with read_connection(engine) as conn:
            stored = conn.execute(
                sa.select(page_ops.c.op)
                .where(page_ops.c.tenant == session.tenant, page_ops.c.page == session.page, page_ops.c.revision > 2)
                .order_by(page_ops.c.revision)
            ).scalars().all()
        assert stored == change_set.ops

    # -- concurrency -----------------------------------------------------------

    def test_an_agent_write_racing_an_approval_is_never_lost(
        self, ws: Workspace, change_sets: ChangeSets, session: SessionRecord
    ) -> None:
        in_unit(change_sets, session.id, session.tenant).apply_agent_ops([props("title", "Rye")], based_on=2)
        errors: dict[str, BaseException] = {}
        start = threading.Barrier(3)
        actions: dict[str, Any] = {
            "approve": lambda: in_unit(change_sets, session.id, session.tenant).approve("ann"),
            "agent": lambda: in_unit(change_sets, session.id, session.tenant).apply_agent_ops([section("late")], based_on=3
            ),
            "human": lambda: in_unit(ws, session.id, session.tenant).human_edit([section("news")], based_on=2, user="bob"
            ),
        }

        def run(name: str) -> None:
            try:
                start.wait()
                actions[name]()
            except BaseException as e:  # collected and checked below
                errors[name] = e

        threads = [threading.Thread(target=run, args=(name,)) for name in actions]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        # Whoever loses a race sees a stale revision; nothing else fails, nothing deadlocks.
        assert "approve" not in errors, errors
        assert all(
            isinstance(e, PageSessionError) and e.code == "stale_revision" for e in errors.values()
        ), errors
        doc, _ = in_unit(ws, session.id, session.tenant).draft()
        assert doc["nodes"]["title"]["props"]["content"] == "Rye"
        assert ("news" in doc["nodes"]) == ("human" not in errors)
        if "agent" not in errors:
            change_set = open_change_set(change_sets, session.id, session.tenant)
            in_set = change_set is not None and "late" in change_set.working["nodes"]
            assert ("late" in doc["nodes"]) != in_set
        with read_connection(ws.engine) as conn:
            stored = DatabasePageRepository().load_draft(conn, session.tenant, session.page)
        assert stored is not None
        PageSession(stored[0])  # still a valid document
