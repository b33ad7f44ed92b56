"""The Workspace contract, run against every database (subclass per backend).

A subclass provides the ``engine`` fixture (tables created; may be shared by a
module, so every test opens its own session on its own page).
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
import sqlalchemy as sa
from tests.support.databases import unshared_session
from tests.support.units import in_unit

from charlotte.drafts.workspace import SiteLinks, Workspace
from charlotte.errors import PageSessionError, Refused
from charlotte.events import EventTypes, schema_errors
from charlotte.page.model import empty_doc
from charlotte.page.ops import reduce_all
from charlotte.storage import (
    DatabaseEventLog,
    DatabasePageRepository,
    SessionRecord,
    read_connection,
    transaction,
)
from charlotte.storage.tables import page_ops


class MutableAssets:
    """An asset library whose contents a test can change (the host deletes an asset)."""

    def __init__(self, ids: set[str]) -> None:
        self.ids = set(ids)

    def exists(self, asset_id: str) -> bool:
        return asset_id in self.ids

    def url(self, asset_id: str) -> str:
        return f"/media/{asset_id}"


def section(id: str, **extra: Any) -> dict[str, Any]:
    return {"t": "insert_node", "node": {"id": id, "type": "section", "parent": None, **extra}}


def heading(id: str, parent: str, text: str) -> dict[str, Any]:
    return {
        "t": "insert_node",
        "node": {"id": id, "type": "heading", "parent": parent, "props": {"content": text, "level": 1}},
    }


def link(id: str, parent: str, href: str) -> dict[str, Any]:
    return {
        "t": "insert_node",
        "node": {"id": id, "type": "link", "parent": parent, "props": {"content": "Go", "href": href}},
    }


class WorkspaceContract:
    """Every Workspace guarantee; subclasses bind ``engine`` to a database."""

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
    def session(self, engine: sa.Engine) -> SessionRecord:
        return unshared_session(engine)

    # -- helpers ---------------------------------------------------------------

    def snapshot(self, engine: sa.Engine, s: SessionRecord) -> tuple[Any, ...]:
        """Everything a write may touch: draft, published copy, op history, event log."""
        repo = DatabasePageRepository()
        with read_connection(engine) as conn:
            draft = repo.load_draft(conn, s.tenant, s.page)
            published = repo.load_published(conn, s.tenant, s.page)
            ops = conn.execute(
                sa.select(page_ops.c.revision, page_ops.c.op).where(
                    page_ops.c.tenant == s.tenant, page_ops.c.page == s.page
                )
            ).all()
        events = DatabaseEventLog().read(engine, s.id, 0, 1000)
        return draft, published, sorted(ops), [(e.seq, e.type) for e in events]

    def events(self, engine: sa.Engine, s: SessionRecord) -> list[Any]:
        return DatabaseEventLog().read(engine, s.id, 0, 1000)

    # -- agent apply -------------------------------------------------------------

    def test_agent_apply_writes_draft_history_and_one_event(
        self, ws: Workspace, engine: sa.Engine, session: SessionRecord
    ) -> None:
        written = in_unit(ws, session.id, session.tenant).agent_apply([section("hero"), heading("title", "hero", "Fresh bread")], based_on=0
        )
        assert written.revision == 2
        assert written.node_ids == ("hero", "title")
        doc, revision = in_unit(ws, session.id, session.tenant).draft()
        assert revision == 2 and doc["seq"] == 2
        assert doc["nodes"]["hero"]["order"] == "V"  # defaults filled: appended
        assert doc["nodes"]["title"]["props"]["content"] == "Fresh bread"
        changes = in_unit(ws, session.id, session.tenant).changes_since(0)
        assert [(c["revision"], c["actor"], c["op"]["t"]) for c in changes] == [
            (1, "agent", "insert_node"),
            (2, "agent", "insert_node"),
        ]
        events = self.events(engine, session)
        assert [(e.type, e.actor, e.payload) for e in events] == [
            (
                EventTypes.PAGE_CHANGED,
                "agent",
                {
                    "revision": 2, "actor": "agent", "ops": 2, "node_ids": ["hero", "title"],
                    "copy": "draft", "applied": written.ops,
                },
            )
        ]
        # The ops it carries are the ops as applied: the empty page plus them is the draft.
        assert [op["node"]["order"] for op in events[0].payload["applied"]] == ["V", "V"]
        replayed, refused = reduce_all(empty_doc(session.page), events[0].payload["applied"])
        assert refused == [] and replayed["nodes"] == doc["nodes"]
        for event in events:
            assert schema_errors(event) == []

    def test_agent_apply_inverse_restores_the_draft(
        self, ws: Workspace, session: SessionRecord
    ) -> None:
        in_unit(ws, session.id, session.tenant).agent_apply([section("hero")], based_on=0)
        before, _ = in_unit(ws, session.id, session.tenant).draft()
        written = in_unit(ws, session.id, session.tenant).agent_apply([{"t": "set_style", "id": "hero", "breakpoint": "md", "patch": {"color": "#333"}}],
            based_on=1,
        )
        in_unit(ws, session.id, session.tenant).agent_apply(written.inverse, based_on=2)
        after, revision = in_unit(ws, session.id, session.tenant).draft()
        assert revision == 3
        assert {**after, "seq": 0} == {**before, "seq": 0}

    def test_stale_revision_writes_nothing(
        self, ws: Workspace, engine: sa.Engine, session: SessionRecord
    ) -> None:
        in_unit(ws, session.id, session.tenant).agent_apply([section("hero")], based_on=0)
        before = self.snapshot(engine, session)
        with pytest.raises(PageSessionError) as caught:
            in_unit(ws, session.id, session.tenant).agent_apply([section("other")], based_on=0)
        assert caught.value.code == "stale_revision"
        assert self.snapshot(engine, session) == before

    def test_one_bad_op_rolls_back_the_whole_batch(
        self, ws: Workspace, engine: sa.Engine, session: SessionRecord
    ) -> None:
        before = self.snapshot(engine, session)
        bad = {"t": "insert_node", "node": {"id": "x", "type": "richtext", "parent": None}}
        with pytest.raises(PageSessionError) as caught:
            in_unit(ws, session.id, session.tenant).agent_apply([section("hero"), bad], based_on=0)
        assert (caught.value.code, caught.value.at) == ("type_not_allowed", 1)
        assert self.snapshot(engine, session) == before

    @pytest.mark.parametrize(
        ("op", "reason"),
        [
            ({"t": "set_style", "id": "hero", "breakpoint": "base", "patch": {"background": "url(https://x.test/a.png)"}}, "css_fetch"),
            ({"t": "set_style", "id": "hero", "breakpoint": "lg", "patch": {"color": "red;}body{x:y"}}, "css_invalid"),
            ({"t": "set_constraints", "id": "hero", "breakpoint": "md", "patch": {"width": {"value": 1, "unit": "px"}, "height": "hug"}}, None),
            ({"t": "insert_node", "node": {"id": "img", "type": "image", "parent": "hero", "props": {"asset": "missing", "alt": "x"}}}, "authored_asset"),
        ],
    )
    def test_asset_policy_failure_after_reducer_leaves_everything_as_before(
        self,
        ws: Workspace,
        engine: sa.Engine,
        session: SessionRecord,
        op: dict[str, Any],
        reason: str | None,
    ) -> None:
        in_unit(ws, session.id, session.tenant).agent_apply([section("hero")], based_on=0)
        before = self.snapshot(engine, session)
        if reason is None:  # the control case: a clean op does write
            in_unit(ws, session.id, session.tenant).agent_apply([op], based_on=1)
            assert self.snapshot(engine, session) != before
            return
        with pytest.raises(Refused) as caught:
            in_unit(ws, session.id, session.tenant).agent_apply([op], based_on=1)
        assert caught.value.reason == reason
        assert self.snapshot(engine, session) == before

    def test_asset_policy_guards_human_edits_too(
        self, ws: Workspace, engine: sa.Engine, session: SessionRecord
    ) -> None:
        before = self.snapshot(engine, session)
        bad = {"t": "set_style", "id": "hero", "breakpoint": "base", "patch": {"background": "image-set(x 1x)"}}
        with pytest.raises(Refused) as caught:
            in_unit(ws, session.id, session.tenant).human_edit([section("hero"), bad], based_on=0, user="ann")
        assert caught.value.reason == "css_fetch"
        assert self.snapshot(engine, session) == before

    def test_link_policy_runs_on_agent_ops_before_the_write(
        self, ws: Workspace, engine: sa.Engine, session: SessionRecord
    ) -> None:
        in_unit(ws, session.id, session.tenant).agent_apply([section("hero")], based_on=0)
        before = self.snapshot(engine, session)
        for href, reason in [
            ("javascript:alert(1)", "unsafe_link"),
            ("https://evil.example/x", "external_link"),
        ]:
            with pytest.raises(Refused) as caught:
                in_unit(ws, session.id, session.tenant).agent_apply([link("l", "hero", href)], based_on=1)
            assert caught.value.reason == reason
        assert self.snapshot(engine, session) == before
        in_unit(ws, session.id, session.tenant).agent_apply([link("l", "hero", "https://maps.example.com/bakery")], based_on=1
        )

    def test_humans_may_add_any_safe_link_but_no_unsafe_one(
        self, ws: Workspace, session: SessionRecord
    ) -> None:
        in_unit(ws, session.id, session.tenant).human_edit([section("hero")], based_on=0, user="ann")
        with pytest.raises(Refused) as caught:
            in_unit(ws, session.id, session.tenant).human_edit([link("l", "hero", "JaVa\tscript:alert(1)")], based_on=1, user="ann"
            )
        assert caught.value.reason == "unsafe_link"
        written = in_unit(ws, session.id, session.tenant).human_edit([link("l", "hero", "https://evil.example/x")], based_on=1, user="ann"
        )
        assert written.revision == 2

    def test_human_edit_records_the_user_in_one_event(
        self, ws: Workspace, engine: sa.Engine, session: SessionRecord
    ) -> None:
        in_unit(ws, session.id, session.tenant).human_edit([section("hero")], based_on=0, user="ann")
        events = self.events(engine, session)
        assert [(e.type, e.actor) for e in events] == [(EventTypes.PAGE_CHANGED, "ann")]
        assert events[0].payload["actor"] == "ann" and events[0].payload["copy"] == "draft"
        assert [e.seq for e in events] == [1]
        for event in events:
            assert schema_errors(event) == []
        assert in_unit(ws, session.id, session.tenant).changes_since(0)[0]["actor"] == "ann"

    def test_a_person_cannot_write_as_the_agent(self, ws: Workspace, session: SessionRecord) -> None:
        for user in ["agent", ""]:
            with pytest.raises(Refused) as caught:
                in_unit(ws, session.id, session.tenant).human_edit([section("hero")], based_on=0, user=user)
            assert caught.value.reason == "invalid_request"

    def test_another_tenant_sees_not_found(self, ws: Workspace, session: SessionRecord) -> None:
        calls = [
            lambda: in_unit(ws, session.id, "other-tenant").agent_apply([section("hero")], based_on=0),
            lambda: in_unit(ws, session.id, "other-tenant").human_edit([section("hero")], based_on=0, user="ann"),
            lambda: in_unit(ws, session.id, "other-tenant").draft(),
            lambda: in_unit(ws, session.id, "other-tenant").changes_since(0),
            lambda: in_unit(ws, session.id, "other-tenant").publish("ann"),
            lambda: in_unit(ws, session.id, "other-tenant").published(),
        ]
        for call in calls:
            with pytest.raises(Refused) as caught:
                call()
            assert caught.value.reason == "not_found"

    def test_a_failure_after_the_draft_write_rolls_everything_back(
        self, ws: Workspace, engine: sa.Engine, session: SessionRecord, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        in_unit(ws, session.id, session.tenant).agent_apply([section("hero")], based_on=0)
        before = self.snapshot(engine, session)

        class Boom(Exception):
            pass

        def fail(*_args: Any, **_kwargs: Any) -> list[int]:
            raise Boom

        # The draft and the op history are already written when the event
        # append fails: the one transaction must take them back.
        monkeypatch.setattr(ws.events, "append_many", fail)
        with pytest.raises(Boom):
            in_unit(ws, session.id, session.tenant).agent_apply([section("more")], based_on=1)
        assert self.snapshot(engine, session) == before

    def test_corrupt_stored_draft_is_rethrown_as_invalid_state(
        self, ws: Workspace, engine: sa.Engine, session: SessionRecord
    ) -> None:
        corrupt = {"id": "p", "seq": 1, "meta": {}, "theme": {}, "breakpoints": ["base"], "nodes": {"x": 3}}
        with transaction(engine) as conn:
            DatabasePageRepository().save_draft(conn, session.tenant, session.page, corrupt)
        with pytest.raises(PageSessionError) as caught:
            in_unit(ws, session.id, session.tenant).agent_apply([section("hero")], based_on=1)
        assert caught.value.code == "invalid_state"

    # -- changes_since -------------------------------------------------------------

    def test_changes_since_window(
        self, engine: sa.Engine, assets: MutableAssets, session: SessionRecord
    ) -> None:
        ws = Workspace(engine, assets=assets, history_limit=3)
        for i in range(5):
            in_unit(ws, session.id, session.tenant).agent_apply([section(f"s{i}")], based_on=i)
        assert [c["revision"] for c in in_unit(ws, session.id, session.tenant).changes_since(2)] == [3, 4, 5]
        assert in_unit(ws, session.id, session.tenant).changes_since(5) == []
        for revision, code in [(1, "history_truncated"), (6, "stale_revision"), (-1, "history_truncated")]:
            with pytest.raises(PageSessionError) as caught:
                in_unit(ws, session.id, session.tenant).changes_since(revision)
            assert caught.value.code == code

    # -- publish -----------------------------------------------------------------

    def test_publish_copies_the_draft_and_records_it(
        self, ws: Workspace, engine: sa.Engine, session: SessionRecord
    ) -> None:
        assert in_unit(ws, session.id, session.tenant).published() is None
        in_unit(ws, session.id, session.tenant).agent_apply([section("hero")], based_on=0)
        assert in_unit(ws, session.id, session.tenant).publish("ann") == 1
        published = in_unit(ws, session.id, session.tenant).published()
        draft, _ = in_unit(ws, session.id, session.tenant).draft()
        assert published == (draft, 1)
        last = self.events(engine, session)[-1]
        assert (last.type, last.actor, last.payload) == (EventTypes.PAGE_PUBLISHED, "ann", {"revision": 1, "overridden": []})

    def test_publish_refused_by_asset_policy_changes_nothing(
        self, ws: Workspace, engine: sa.Engine, assets: MutableAssets, session: SessionRecord
    ) -> None:
        image = {
            "t": "insert_node",
            "node": {"id": "img", "type": "image", "parent": None, "props": {"asset": "logo", "alt": "Logo"}},
        }
        in_unit(ws, session.id, session.tenant).agent_apply([image], based_on=0)
        assets.ids.discard("logo")  # the host deleted the asset since
        before = self.snapshot(engine, session)
        with pytest.raises(Refused) as caught:
            in_unit(ws, session.id, session.tenant).publish("ann")
        assert caught.value.reason == "authored_asset"
        assert self.snapshot(engine, session) == before

    # -- the quality gate (issue 31) -------------------------------------------------

    def test_publish_refuses_placeholders_and_low_contrast_unless_overridden(
        self, ws: Workspace, engine: sa.Engine, session: SessionRecord
    ) -> None:
        unit = in_unit(ws, session.id, session.tenant)
        unit.agent_apply([
            section("hero"),
            {"t": "insert_node", "node": {"id": "title", "type": "heading", "parent": "hero",
                                          "props": {"content": "Rosa's Bakery", "level": 1}}},
            {"t": "insert_node", "node": {"id": "slot", "type": "text", "parent": "hero",
                                          "props": {"content": "Image slot 1: choose a photo"}}},
            {"t": "set_style", "id": "hero", "breakpoint": "base", "patch": {"background": "#111827"}},
            {"t": "set_style", "id": "title", "breakpoint": "base", "patch": {"color": "#7c2d12"}},
            {"t": "set_style", "id": "slot", "breakpoint": "base", "patch": {"color": "#ffffff"}},
        ], based_on=0)  # fmt: skip
        before = self.snapshot(engine, session)
        for override in ((), ("placeholder",), ("low_contrast", "heading_skip")):
            with pytest.raises(Refused) as caught:
                unit.publish("ann", override=override)
            assert caught.value.reason == "quality_gate"
            assert caught.value.detail["codes"] == ["low_contrast", "placeholder"]
            assert {(f["node"], f["code"]) for f in caught.value.detail["findings"]} == {
                ("title", "low_contrast"), ("slot", "placeholder")
            }
            assert self.snapshot(engine, session) == before
        assert unit.publish("ann", override=("placeholder", "low_contrast", "no_h1")) == 6
        last = self.events(engine, session)[-1]
        assert last.payload == {"revision": 6, "overridden": ["low_contrast", "placeholder"]}
        assert schema_errors(last) == []

    # -- concurrency -------------------------------------------------------------

    def test_human_edit_racing_agent_apply_one_wins_one_is_stale(
        self, ws: Workspace, engine: sa.Engine, session: SessionRecord
    ) -> None:
        in_unit(ws, session.id, session.tenant).agent_apply([section("hero")], based_on=0)
        for round_ in range(5):
            base = 1 + round_
            barrier = threading.Barrier(2)
            outcomes: list[str] = []

            def write(
                kind: str,
                base: int = base,
                barrier: threading.Barrier = barrier,
                outcomes: list[str] = outcomes,
            ) -> None:
                ops = [{"t": "set_meta", "patch": {"title": f"{kind}-{base}"}}]
                barrier.wait()
                try:
                    if kind == "agent":
                        in_unit(ws, session.id, session.tenant).agent_apply(ops, based_on=base)
                    else:
                        in_unit(ws, session.id, session.tenant).human_edit(ops, based_on=base, user="ann")
                    outcomes.append("ok")
                except PageSessionError as e:
                    outcomes.append(e.code)

            threads = [threading.Thread(target=write, args=(k,)) for k in ("agent", "human")]
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=60)
            assert sorted(outcomes) == ["ok", "stale_revision"]
            _doc, revision = in_unit(ws, session.id, session.tenant).draft()
            assert revision == base + 1
        seqs = [e.seq for e in self.events(engine, session)]
        assert seqs == list(range(1, len(seqs) + 1))

    def test_publish_refuses_css_a_host_wrote_into_the_draft(
        self, ws: Workspace, engine: sa.Engine, session: SessionRecord
    ) -> None:
        # A host-replaced repository (or a hand edit in the database) put a
        # fetch into the draft behind charlotte's back: publish still refuses.
        in_unit(ws, session.id, session.tenant).agent_apply([section("hero")], based_on=0)
        doc, _ = in_unit(ws, session.id, session.tenant).draft()
        doc["nodes"]["hero"]["style"]["base"]["background"] = "url(https://tracker.test/p.gif)"
        with transaction(engine) as conn:
            DatabasePageRepository().save_draft(conn, session.tenant, session.page, doc)
        before = self.snapshot(engine, session)
        with pytest.raises(Refused) as caught:
            in_unit(ws, session.id, session.tenant).publish("ann")
        assert caught.value.reason == "css_fetch"
        assert self.snapshot(engine, session) == before
