"""The editing contract, run against every database (subclass per backend).

Undo a turn, the draft's history, restore, reset, the publish preview, the
empty-page refusal and a page's session list, through the real router of a
real ``Charlotte`` (inline turns, scripted model, real tools). A subclass
provides ``app`` (an ``AppHarness`` on its database, fresh per test).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from tests.support.app_harness import AppHarness
from tests.support.runner_harness import apply_step
from tests.support.units import in_unit

from charlotte.errors import MESSAGES, Refused
from charlotte.events import AGENT_ACTOR
from charlotte.http.api import Response
from charlotte.session import MAX_SEQ
from charlotte.storage import DatabasePageRepository, read_connection, transaction
from charlotte.storage.tables import page_ops, turns
from charlotte.testing import ToolCall

SECOND = [
    {"t": "insert_node", "node": {"id": "about", "type": "section", "parent": None}},
    {
        "t": "insert_node",
        "node": {
            "id": "story",
            "type": "text",
            "parent": "about",
            "props": {"content": "Since 1990"},
        },
    },
]
HERO_SECTION = {"t": "insert_node", "node": {"id": "hero", "type": "section", "parent": None}}
RETITLE = [{"t": "set_node_props", "id": "title", "patch": {"content": "Rosa's"}}]


def assert_error(response: Response, status: int, code: str) -> dict[str, Any]:
    assert response.status == status, response.json
    error: dict[str, Any] = response.json["error"]
    assert error["code"] == code and error["message"] == MESSAGES[code]
    return error


def turn_of(app: AppHarness, sid: str, ops: list[dict[str, Any]]) -> str:
    # cms_get first: the apply is based on the revision it reads.
    response = app.run_turn(sid, (ToolCall("cms_get", {}), ToolCall("cms_apply", apply_step(ops))))
    assert response.status == 202, response.json
    turn_id: str = response.json["turn"]["id"]
    assert response.json["turn"]["status"] == "finished"
    return turn_id


def draft(app: AppHarness, sid: str) -> tuple[dict[str, Any], int]:
    found = app.call("GET", f"/sessions/{sid}/draft").json
    return found["page"], found["revision"]


class EditingContract:
    """What undo, history, restore, reset, the preview and the session list do on every database."""

    def test_undo_takes_back_one_turn_as_one_person_write(self, app: AppHarness) -> None:
        sid = app.open()
        hero_turn = turn_of(app, sid, [HERO_SECTION])
        before_second, revision_before = draft(app, sid)
        second = turn_of(app, sid, SECOND)
        seq_before = app.call("GET", f"/sessions/{sid}").json["session"]["last_seq"]

        response = app.call("POST", f"/sessions/{sid}/turns/{second}/undo")

        assert response.status == 200, response.json
        assert response.json["applied"] == 2 and sorted(response.json["node_ids"]) == [
            "about",
            "story",
        ]
        page, revision = draft(app, sid)
        assert revision == revision_before + 4  # two ops, then their two inverses
        assert page["nodes"] == before_second["nodes"] and page["theme"] == before_second["theme"]
        events = app.call("GET", f"/sessions/{sid}/events", query={"after": str(seq_before)}).json[
            "events"
        ]
        assert [e["type"] for e in events] == ["page.changed"]
        assert events[0]["actor"] == "ann" and events[0]["payload"]["ops"] == 2
        # Twice is a clear refusal; the first turn is still there to undo.
        assert_error(
            app.call("POST", f"/sessions/{sid}/turns/{second}/undo"), 409, "already_undone"
        )
        assert app.call("POST", f"/sessions/{sid}/turns/{hero_turn}/undo").status == 200
        assert draft(app, sid)[0]["nodes"] == {}

    def test_undo_is_refused_conflicted_naming_the_nodes_a_later_edit_touched(
        self, app: AppHarness
    ) -> None:
        sid = app.open()
        built = turn_of(app, sid, [
            {"t": "insert_node", "node": {"id": "hero", "type": "section", "parent": None}},
            {"t": "insert_node", "node": {"id": "title", "type": "heading", "parent": "hero",
                                          "props": {"content": "Rosa's Bakery", "level": 1}}},
        ])  # fmt: skip
        _doc, revision = draft(app, sid)
        assert (
            app.call("POST", f"/sessions/{sid}/edits", {"basedOn": revision, "ops": RETITLE}).status
            == 200
        )
        before = draft(app, sid)

        error = assert_error(
            app.call("POST", f"/sessions/{sid}/turns/{built}/undo"), 409, "conflicted"
        )

        assert error["nodes"] == ["title"]
        assert draft(app, sid) == before

    def test_undo_of_an_unknown_turn_another_sessions_or_one_without_writes(
        self, app: AppHarness
    ) -> None:
        sid, other = app.open(), app.open(page="about")
        theirs = turn_of(app, other, SECOND)
        idle = turn_of(app, sid, [])
        assert_error(app.call("POST", f"/sessions/{sid}/turns/{theirs}/undo"), 404, "not_found")
        assert_error(app.call("POST", f"/sessions/{sid}/turns/nope/undo"), 404, "not_found")
        before = draft(app, sid)
        idle_undo = app.call("POST", f"/sessions/{sid}/turns/{idle}/undo")
        assert idle_undo.status == 200 and idle_undo.json == {
            "revision": 0,
            "applied": 0,
            "node_ids": [],
        }
        assert draft(app, sid) == before
        assert_error(
            app.call("POST", f"/sessions/{other}/turns/{theirs}/undo", tenant="globex"),
            404,
            "not_found",
        )

    def test_history_groups_revisions_by_turn_and_by_person_newest_first(
        self, app: AppHarness
    ) -> None:
        sid = app.open()
        hero = turn_of(app, sid, [
            {"t": "insert_node", "node": {"id": "hero", "type": "section", "parent": None}},
            {"t": "insert_node", "node": {"id": "title", "type": "heading", "parent": "hero",
                                          "props": {"content": "Rosa's Bakery", "level": 1}}},
        ])  # fmt: skip
        for _ in range(2):
            _doc, revision = draft(app, sid)
            assert (
                app.call(
                    "POST", f"/sessions/{sid}/edits", {"basedOn": revision, "ops": RETITLE}
                ).status
                == 200
            )
        second = turn_of(app, sid, SECOND)

        found = app.call("GET", f"/sessions/{sid}/history").json

        assert found["revision"] == 6 and found["next_before"] is None
        groups = found["groups"]
        assert [(g["kind"], g["turn_id"], g["actor"], g["first_revision"], g["last_revision"], g["ops"])
                for g in groups] == [
            ("turn", second, "agent", 5, 6, 2),
            ("person", None, "ann", 3, 4, 2),
            ("turn", hero, "agent", 1, 2, 2),
        ]  # fmt: skip
        assert groups[0]["node_ids"] == ["about", "story"] and groups[1]["node_ids"] == ["title"]
        assert all(g["at"].endswith("Z") for g in groups)
        paged = app.call(
            "GET", f"/sessions/{sid}/history", query={"limit": "1", "before": "5"}
        ).json
        assert [g["first_revision"] for g in paged["groups"]] == [3] and paged["next_before"] == 3
        assert_error(
            app.call("GET", f"/sessions/{sid}/history", query={"limit": "0"}),
            400,
            "invalid_request",
        )
        assert_error(
            app.call("GET", f"/sessions/{sid}/history", query={"limit": "101"}),
            400,
            "invalid_request",
        )

    def test_history_lists_a_persons_steps_restores_and_resets_named_as_they_were(
        self, app: AppHarness
    ) -> None:
        sid = app.open()
        turn_of(app, sid, [
            {"t": "insert_node", "node": {"id": "hero", "type": "section", "parent": None}},
            {"t": "insert_node", "node": {"id": "title", "type": "heading", "parent": "hero",
                                          "props": {"content": "Rosa's Bakery", "level": 1}}},
        ])  # fmt: skip
        assert app.call("POST", f"/sessions/{sid}/publish").status == 200

        def retitle(words: str) -> None:
            _doc, revision = draft(app, sid)
            ops = [{"t": "set_node_props", "id": "title", "patch": {"content": words}}]
            answer = app.call("POST", f"/sessions/{sid}/edits", {"basedOn": revision, "ops": ops})
            assert answer.status == 200, answer.json

        retitle("Rosa's")  # 3: then a quiet gap (the row is moved ten minutes back)
        with transaction(app.charlotte.engine) as conn:
            at = conn.execute(sa.select(page_ops.c.at).where(page_ops.c.revision == 3)).scalar_one()
            conn.execute(page_ops.update().where(page_ops.c.revision == 3)
                         .values(at=at - timedelta(minutes=10)))  # fmt: skip
        retitle("Temporary headline")  # 4
        restore = {"revision": 3, "basedOn": 4}
        assert app.call("POST", f"/sessions/{sid}/restore", restore).status == 200  # 5
        assert app.call("POST", f"/sessions/{sid}/reset", {"basedOn": 5}).status == 200  # 6 to 8
        retitle("Caring for Norwich pets since 1998")  # 9

        groups = app.call("GET", f"/sessions/{sid}/history").json["groups"]

        assert [(g["kind"], g["first_revision"], g["last_revision"]) for g in groups] == [
            ("person", 4, 9), ("person", 3, 3), ("turn", 1, 2),
        ]  # fmt: skip
        steps = [(s["first_revision"], s["last_revision"], s["back_to"], s["names"])
                 for s in groups[0]["steps"]]  # fmt: skip
        assert steps == [
            (9, 9, None, {"title": "Caring for Norwich pets since 1998"}),
            (6, 8, 2, {"title": "Rosa's Bakery"}),  # the reset: back to the published revision
            (5, 5, 3, {"title": "Rosa's"}),  # the restore
            (4, 4, None, {"title": "Temporary headline"}),
        ]
        # Each group's nodes are named as they were at its last revision, not as they are now.
        assert groups[1]["names"] == {"title": "Rosa's"}
        assert groups[2]["names"] == {"hero": "Rosa's Bakery", "title": "Rosa's Bakery"}
        assert groups[2]["steps"] == [] and len(groups[1]["steps"]) == 1
        # Paging back names as they were too (the draft walked back over the newer rows).
        older = app.call("GET", f"/sessions/{sid}/history", query={"before": "3"}).json
        assert older["groups"][0]["names"] == {"hero": "Rosa's Bakery", "title": "Rosa's Bakery"}

    def test_restore_an_earlier_revision_and_reset_to_the_published_copy(
        self, app: AppHarness
    ) -> None:
        sid = app.open()
        turn_of(app, sid, [HERO_SECTION])
        at_one, _ = draft(app, sid)
        assert app.call("POST", f"/sessions/{sid}/publish").status == 200
        turn_of(app, sid, SECOND)
        _doc, revision = draft(app, sid)

        assert_error(
            app.call("POST", f"/sessions/{sid}/restore", {"revision": 1, "basedOn": 1}),
            409,
            "stale_revision",
        )
        assert_error(
            app.call("POST", f"/sessions/{sid}/restore", {"revision": 9, "basedOn": revision}),
            400,
            "invalid_request",
        )
        restored = app.call(
            "POST", f"/sessions/{sid}/restore", {"revision": 1, "basedOn": revision}
        )
        assert restored.status == 200, restored.json
        assert restored.json["revision"] == revision + 2
        assert draft(app, sid)[0]["nodes"] == at_one["nodes"]
        # Restore forward again: the restore's own inverses are in the history too.
        back = app.call(
            "POST", f"/sessions/{sid}/restore", {"revision": revision, "basedOn": revision + 2}
        )
        assert back.status == 200 and set(draft(app, sid)[0]["nodes"]) == {"hero", "about", "story"}

        reset = app.call("POST", f"/sessions/{sid}/reset", {"basedOn": revision + 4})
        assert reset.status == 200, reset.json
        assert draft(app, sid)[0]["nodes"] == at_one["nodes"]
        never = app.open(page="fresh")
        missing = assert_error(
            app.call("POST", f"/sessions/{never}/reset", {"basedOn": 0}), 404, "not_found"
        )
        assert missing["field"] == "published"
        # The history says which revision is live, for the page's "Reset to published".
        assert app.call("GET", f"/sessions/{sid}/history").json["published_revision"] == 1
        assert app.call("GET", f"/sessions/{never}/history").json["published_revision"] is None

    def test_publish_refuses_an_empty_page_and_the_preview_says_what_changed(
        self, app: AppHarness
    ) -> None:
        sid = app.open()
        assert_error(app.call("POST", f"/sessions/{sid}/publish"), 409, "empty_page")
        handle = app.charlotte.find(sid, "acme", user="ann")
        assert handle is not None
        with pytest.raises(Refused) as refused:
            handle.publish()
        assert refused.value.code == "empty_page"
        empty = app.call("GET", f"/sessions/{sid}/publish-preview").json["preview"]
        assert empty["empty"] is True and empty["published_revision"] is None

        turn_of(app, sid, [HERO_SECTION])
        first = app.call("GET", f"/sessions/{sid}/publish-preview").json["preview"]
        assert first["diff"]["added"] == ["hero"] and first["unchanged"] is False
        assert (
            app.call("POST", f"/sessions/{sid}/publish", {"revision": first["revision"]}).status
            == 200
        )
        same = app.call("GET", f"/sessions/{sid}/publish-preview").json["preview"]
        assert same["unchanged"] is True and same["published_revision"] == first["revision"]
        turn_of(app, sid, SECOND)
        moved = app.call("GET", f"/sessions/{sid}/publish-preview").json["preview"]
        assert moved["diff"]["added"] == ["about", "story"] and moved["diff"]["removed"] == []

    def test_the_session_list_of_a_page_is_newest_first_tenant_scoped_and_bounded(
        self, app: AppHarness
    ) -> None:
        first, second = app.open(), app.open()
        app.open(page="about")
        app.open(tenant="globex")
        turn_of(app, first, [])

        listed = app.call("GET", "/sessions", query={"page": "home"}).json

        assert [row["id"] for row in listed["sessions"]] == [second, first]
        assert listed["sessions"][1]["turns"] == 1 and listed["sessions"][0]["turns"] == 0
        assert (
            listed["sessions"][0]["brief"].startswith("A landing page")
            and listed["next_before"] is None
        )
        assert {"status", "created_at", "created_by", "approve_on_save", "page"} <= set(
            listed["sessions"][0]
        )
        page = app.call("GET", "/sessions", query={"page": "home", "limit": "1"}).json
        assert [row["id"] for row in page["sessions"]] == [second] and page["next_before"] == second
        rest = app.call("GET", "/sessions", query={"page": "home", "before": second}).json
        assert [row["id"] for row in rest["sessions"]] == [first]
        assert (
            app.call("GET", "/sessions", query={"page": "home"}, tenant="other").json["sessions"]
            == []
        )
        assert_error(app.call("GET", "/sessions"), 400, "invalid_request")
        assert_error(app.call("GET", "/sessions", query={"page": "a b"}), 400, "invalid_page_key")
        assert_error(
            app.call("GET", "/sessions", query={"page": "home", "limit": "51"}),
            400,
            "invalid_request",
        )
        assert_error(
            app.call("GET", "/sessions", query={"page": "home"}, user=None), 401, "unauthorized"
        )

    def test_the_session_list_keeps_only_the_rows_the_user_may_view(self, app: AppHarness) -> None:
        mine, theirs = app.open(), app.open()
        app.charlotte.authorize_using(
            lambda user, ability, session: (
                ability != "view" or getattr(session, "id", None) != theirs
            )
        )
        listed = app.call("GET", "/sessions", query={"page": "home"}).json["sessions"]
        assert [row["id"] for row in listed] == [mine]

    def test_the_session_list_pages_on_the_last_row_shown(self, app: AppHarness) -> None:
        oldest, hidden, middle, newest_hidden = app.open(), app.open(), app.open(), app.open()
        secret = {hidden, newest_hidden}
        app.charlotte.authorize_using(
            lambda user, ability, session: (
                ability != "view" or getattr(session, "id", None) not in secret
            )
        )
        pages: list[dict[str, Any]] = []
        query = {"page": "home", "limit": "1"}
        while True:
            answer = app.call("GET", "/sessions", query=query)
            assert answer.status == 200, answer.json
            pages.append(answer.json)
            if answer.json["next_before"] is None:
                break
            query = {**query, "before": answer.json["next_before"]}
        # Each page is the next row the user may view, its cursor that row; no hidden id anywhere.
        assert [[row["id"] for row in page["sessions"]] for page in pages] == [[middle], [oldest], []]
        assert [page["next_before"] for page in pages] == [middle, oldest, None]
        assert not any(sid in str(page) for page in pages for sid in secret)
        whole = app.call("GET", "/sessions", query={"page": "home", "limit": "2"}).json
        assert [row["id"] for row in whole["sessions"]] == [middle, oldest]
        assert whole["next_before"] == oldest

    def test_a_cursor_past_nine_digits_is_refused_as_http_refuses_it(self, app: AppHarness) -> None:
        sid = app.open()
        handle = app.charlotte.find(sid, "acme", user="ann")
        assert handle is not None
        for read, field in (
            (lambda: handle.events(after=2**63), "after"),
            (lambda: handle.events(after=MAX_SEQ + 1), "after"),
            (lambda: handle.messages(before=2**63), "before"),
            (lambda: handle.messages(before=MAX_SEQ + 1), "before"),
        ):
            with pytest.raises(Refused) as refused:
                read()
            assert refused.value.code == "invalid_request"
            assert refused.value.detail == {"field": field}
        assert handle.events(after=MAX_SEQ) == [] and handle.messages(before=MAX_SEQ) == []
        for route, name in (("events", "after"), ("messages", "before")):
            answer = app.call("GET", f"/sessions/{sid}/{route}", query={name: str(MAX_SEQ + 1)})
            assert assert_error(answer, 400, "invalid_request")["field"] == name
            answer = app.call("GET", f"/sessions/{sid}/{route}", query={name: str(MAX_SEQ)})
            assert answer.status == 200, answer.json

    def test_the_op_rows_keep_the_turn_the_inverse_and_the_time(self, app: AppHarness) -> None:
        sid = app.open()
        turn = turn_of(app, sid, [HERO_SECTION])
        _doc, revision = draft(app, sid)
        assert app.call("POST", f"/sessions/{sid}/edits", {"basedOn": revision, "ops": [
            {"t": "set_meta", "patch": {"title": "Rosa"}}]}).status == 200  # fmt: skip
        with read_connection(app.charlotte.engine) as conn:
            rows = DatabasePageRepository().ops_since(conn, "acme", "home", 0)
        assert [(row.actor, row.turn_id, row.undoes) for row in rows] == [
            (AGENT_ACTOR, turn, None), ("ann", None, None)]  # fmt: skip
        assert rows[0].inverse == [{"t": "remove_node", "id": "hero"}]
        assert rows[1].inverse is not None and rows[1].inverse[0]["t"] in (
            "set_meta",
            "restore_meta",
        )
        assert all(row.at is not None for row in rows)

    def test_the_agent_reads_an_undo_through_its_changes_since(self, app: AppHarness) -> None:
        sid = app.open()
        turn = turn_of(app, sid, [HERO_SECTION])
        _doc, revision = draft(app, sid)
        assert app.call("POST", f"/sessions/{sid}/turns/{turn}/undo").status == 200
        changes = in_unit(app.charlotte.workspace, sid, "acme").changes_since(revision)
        assert [(c["actor"], c["op"]) for c in changes] == [
            ("ann", {"t": "remove_node", "id": "hero"})
        ]

    def test_undo_of_a_turn_still_running_is_busy(self, app: AppHarness) -> None:
        sid = app.open()
        with transaction(app.charlotte.engine) as conn:
            conn.execute(turns.insert().values(
                id="running-turn", session_id=sid, tenant="acme", message="Go", user="ann", status="running"))  # fmt: skip
        assert_error(app.call("POST", f"/sessions/{sid}/turns/running-turn/undo"), 409, "busy")

    def test_a_long_undo_is_one_write_and_one_event(self, app: AppHarness) -> None:
        sid = app.open()
        untitled = draft(app, sid)[0]["meta"]
        titles = [{"t": "set_meta", "patch": {"title": f"Title {i}"}} for i in range(150)]
        response = app.run_turn(sid, (
            ToolCall("cms_get", {}), ToolCall("cms_apply", apply_step(titles)),
            ToolCall("cms_apply", apply_step(titles[::-1]))))  # fmt: skip
        turn = response.json["turn"]["id"]
        before, revision = draft(app, sid)
        assert revision == 300
        seq = app.call("GET", f"/sessions/{sid}").json["session"]["last_seq"]

        undone = app.call("POST", f"/sessions/{sid}/turns/{turn}/undo")

        assert undone.status == 200 and undone.json["revision"] == 600, undone.json
        page, _ = draft(app, sid)
        assert page["meta"] == untitled
        changed = [e for e in app.call("GET", f"/sessions/{sid}/events", query={"after": str(seq)}).json["events"]
                   if e["type"] == "page.changed"]  # fmt: skip
        assert [e["payload"]["ops"] for e in changed] == [300]
        back = app.call("POST", f"/sessions/{sid}/restore", {"revision": 300, "basedOn": 600})
        assert back.status == 200 and draft(app, sid)[0]["meta"] == before["meta"]

    def test_restore_reaches_back_across_an_approval(self, app: AppHarness) -> None:
        sid = app.open(approve_on_save=True)
        turn = turn_of(app, sid, [HERO_SECTION])
        assert (
            app.call("POST", f"/sessions/{sid}/change-set/approve").json["resolution"]["status"]
            == "approved"
        )
        _doc, revision = draft(app, sid)
        assert revision == 1
        # The turn wrote to the change set, not the draft: nothing of it to take back.
        assert app.call("POST", f"/sessions/{sid}/turns/{turn}/undo").json["applied"] == 0
        groups = app.call("GET", f"/sessions/{sid}/history").json["groups"]
        assert [(g["kind"], g["turn_id"]) for g in groups] == [("turn", None)]

        restored = app.call("POST", f"/sessions/{sid}/restore", {"revision": 0, "basedOn": 1})

        assert restored.status == 200, restored.json
        assert draft(app, sid)[0]["nodes"] == {}

    def test_rows_without_an_inverse_cannot_be_restored_or_undone_past(
        self, app: AppHarness
    ) -> None:
        sid = app.open()
        turn = turn_of(app, sid, [HERO_SECTION])
        with transaction(app.charlotte.engine) as conn:
            conn.execute(page_ops.update().values(inverse=None))  # as rows written before 0004
        before = draft(app, sid)
        error = assert_error(app.call("POST", f"/sessions/{sid}/restore", {"revision": 0, "basedOn": 1}),
                             422, "history_truncated")  # fmt: skip
        assert "revision" not in error  # only stale_revision carries it
        assert_error(
            app.call("POST", f"/sessions/{sid}/turns/{turn}/undo"), 422, "history_truncated"
        )
        assert draft(app, sid) == before

    # -- reviewing a change set node by node --------------------------------------------------

    def test_reject_nodes_takes_their_changes_out_and_keeps_the_rest_open(
        self, app: AppHarness
    ) -> None:
        sid = app.open(approve_on_save=True)
        # The story is inserted under the about band and edited after: it goes with the band.
        story = {"t": "set_node_props", "id": "story", "patch": {"content": "Since 1989"}}
        turn_of(app, sid, [HERO_SECTION, *SECOND, story])
        seq = app.call("GET", f"/sessions/{sid}").json["session"]["last_seq"]
        old = app.call("GET", f"/sessions/{sid}/change-set").json["change_set"]["id"]

        response = app.call(
            "POST", f"/sessions/{sid}/change-set/reject-nodes", {"nodes": ["about"]}
        )

        assert response.status == 200, response.json
        answer = response.json
        assert (answer["rejected_id"], answer["dropped"], answer["kept"], answer["revision"]) == (
            old,
            3,
            1,
            0,
        )
        change_set = app.call("GET", f"/sessions/{sid}/change-set").json["change_set"]
        assert change_set["id"] == answer["change_set_id"] != old
        assert change_set["diff"]["added"] == ["hero"] and change_set["base_revision"] == 0
        events = app.call("GET", f"/sessions/{sid}/events", query={"after": str(seq)}).json[
            "events"
        ]
        assert [(e["type"], e["actor"]) for e in events] == [
            ("proposal.rejected", "ann"),
            ("proposal.opened", "ann"),
        ]
        # The agent is told once that its set was rejected; it reads the kept changes again.
        with app.charlotte.units.write(sid, "acme") as unit:
            notices = app.charlotte.change_sets.pending_notices(unit)
        assert [(n["proposal_id"], n["status"]) for n in notices] == [(old, "rejected")]
        assert (
            app.call("POST", f"/sessions/{sid}/change-set/approve").json["resolution"]["status"]
            == "approved"
        )
        assert set(draft(app, sid)[0]["nodes"]) == {"hero"}

    def test_reject_nodes_of_every_change_leaves_no_set(self, app: AppHarness) -> None:
        sid = app.open(approve_on_save=True)
        turn_of(app, sid, [HERO_SECTION])
        answer = app.call(
            "POST", f"/sessions/{sid}/change-set/reject-nodes", {"nodes": ["hero"]}
        ).json
        assert answer["kept"] == 0 and answer["change_set_id"] is None
        assert app.call("GET", f"/sessions/{sid}/change-set").json["change_set"] is None
        assert draft(app, sid)[1] == 0

    def test_reject_nodes_refusals_change_nothing(self, app: AppHarness) -> None:
        sid = app.open(approve_on_save=True)
        path = f"/sessions/{sid}/change-set/reject-nodes"
        assert_error(app.call("POST", path, {"nodes": ["hero"]}), 409, "no_open_change_set")
        turn_of(app, sid, [HERO_SECTION, *SECOND])
        before = app.call("GET", f"/sessions/{sid}/change-set").json
        for bad in ([], ["nope"], [1], ["x" * 65], ["hero"] * 201, "hero"):
            error = assert_error(app.call("POST", path, {"nodes": bad}), 400, "invalid_request")
            assert error["field"] == "nodes"
        assert_error(app.call("POST", path, {}), 400, "invalid_request")
        assert app.call("GET", f"/sessions/{sid}/change-set").json == before
        # The draft took a node of the same id meanwhile: the kept insert no longer applies.
        edit = app.call("POST", f"/sessions/{sid}/edits", {"basedOn": 0, "ops": [HERO_SECTION]})
        assert edit.status == 200
        before = app.call("GET", f"/sessions/{sid}/change-set").json
        error = assert_error(app.call("POST", path, {"nodes": ["about"]}), 409, "conflicted")
        assert error["nodes"] == ["hero"]
        assert app.call("GET", f"/sessions/{sid}/change-set").json == before

    def test_the_review_diff_gives_text_before_and_after(self, app: AppHarness) -> None:
        sid = app.open(approve_on_save=True)
        turn_of(app, sid, [HERO_SECTION, *SECOND])
        assert app.call("POST", f"/sessions/{sid}/change-set/approve").status == 200
        turn_of(
            app, sid, [{"t": "set_node_props", "id": "story", "patch": {"content": "Since 1991"}}]
        )
        diff = app.call("GET", f"/sessions/{sid}/change-set").json["change_set"]["diff"]
        assert diff["changed"] == [{"id": "story", "props": ["content"], "style": [], "fields": [],
                                    "text": {"content": {"before": "Since 1990", "after": "Since 1991"}}}]  # fmt: skip
