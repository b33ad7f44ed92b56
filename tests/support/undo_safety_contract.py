"""Nothing a person made is lost to an undo, a redo or a review, run against every database.

A selective undo never writes over a node made after the undone ops freed its
id, never writes an orphan nobody sees; ``/edits`` takes only the ops
``docs/edits.md`` lists, and no node goes under a type that holds none; every
node the review lists can be rejected. Through the real router of a real
``Charlotte``; a subclass provides ``app``.
"""

from __future__ import annotations

from typing import Any

from tests.support.app_harness import AppHarness
from tests.support.editing_contract import assert_error, draft, turn_of
from tests.support.hand_edit_contract import edit, undo
from tests.support.units import in_unit

from charlotte.storage import DatabasePageRepository, transaction


def _section(id: str, order: str) -> dict[str, Any]:
    return {"t": "insert_node", "node": {"id": id, "type": "section", "parent": None, "order": order}}


def _text(id: str, parent: str, content: str) -> dict[str, Any]:
    return {"t": "insert_node", "node": {"id": id, "type": "text", "parent": parent,
                                         "props": {"content": content}}}  # fmt: skip


#: Section ``x`` holding ``c``, and section ``y``.
BANDS = [_section("x", "a0"), _text("c", "x", "Old words"), _section("y", "a1")]
#: A person's new node that takes the id ``c`` once the old one is gone.
NEW_C = _text("c", "y", "Words a person wrote")


class UndoSafetyContract:
    """Undo, redo and review keep every node a person made, on every database."""

    # -- 1. a node made later under a freed id ------------------------------------------

    def test_undoing_a_turns_removal_never_overwrites_a_node_made_later_under_its_id(
        self, app: AppHarness
    ) -> None:
        sid = app.open()
        turn_of(app, sid, BANDS)
        removal = turn_of(app, sid, [{"t": "remove_node", "id": "x"}])
        edit(app, sid, [NEW_C])
        before = draft(app, sid)

        error = assert_error(app.call("POST", f"/sessions/{sid}/turns/{removal}/undo"), 409, "conflicted")

        assert "c" in error["nodes"]
        assert draft(app, sid) == before
        assert before[0]["nodes"]["c"]["props"]["content"] == "Words a person wrote"

    def test_undoing_a_persons_own_removal_never_overwrites_their_later_node(
        self, app: AppHarness
    ) -> None:
        sid = app.open()
        turn_of(app, sid, BANDS)
        removal = edit(app, sid, [{"t": "remove_node", "id": "x"}])
        edit(app, sid, [NEW_C])
        before = draft(app, sid)

        error = assert_error(undo(app, sid, removal), 409, "conflicted")

        assert "c" in error["nodes"]
        assert draft(app, sid) == before

    # -- 2. an orphan nobody sees -------------------------------------------------------

    def test_undo_after_the_parent_was_removed_is_conflicted_not_an_orphan(
        self, app: AppHarness
    ) -> None:
        sid = app.open()
        turn_of(app, sid, [_section("x", "a0"), {"t": "insert_node", "node": {
            "id": "h", "type": "heading", "parent": "x", "props": {"content": "Rosa's"}}}])  # fmt: skip
        # Adding ``level`` is taken back by putting the whole heading back (``restore_node``).
        level = turn_of(app, sid, [{"t": "set_node_props", "id": "h", "patch": {"level": 3}}])
        edit(app, sid, [{"t": "remove_node", "id": "x"}])
        before = draft(app, sid)

        error = assert_error(app.call("POST", f"/sessions/{sid}/turns/{level}/undo"), 409, "conflicted")

        assert error["nodes"] == ["h", "x"]  # the heading, and the section it needs
        assert draft(app, sid) == before and before[0]["nodes"] == {}

    def test_a_page_of_orphans_only_is_empty_and_not_published(self, app: AppHarness) -> None:
        sid = app.open()
        turn_of(app, sid, [_section("x", "a0")])
        doc, _revision = draft(app, sid)
        orphan = {"id": "lost", "type": "text", "parent": "gone", "order": "V",
                  "props": {"content": "Nobody sees this"}, "style": {"base": {}}}  # fmt: skip
        with transaction(app.charlotte.engine) as conn:  # a host's page, say, or an older write
            DatabasePageRepository().save_draft(conn, "acme", "home", {**doc, "nodes": {"lost": orphan}})

        preview = app.call("GET", f"/sessions/{sid}/publish-preview").json["preview"]

        assert preview["empty"] is True
        assert_error(app.call("POST", f"/sessions/{sid}/publish"), 409, "empty_page")
        assert in_unit(app.charlotte.workspace, sid, "acme").published() is None

    # -- 3. what /edits takes -----------------------------------------------------------

    def test_edits_refuse_charlottes_own_restore_ops(self, app: AppHarness) -> None:
        sid = app.open()
        turn_of(app, sid, BANDS)
        doc, revision = draft(app, sid)
        node = {**doc["nodes"]["c"], "parent": "nowhere"}
        for op in (
            {"t": "restore_node", "node": node},
            {"t": "restore_meta", "meta": {**doc["meta"], "title": "Replaced"}},
            {"t": "restore_theme", "theme": {"name": "replaced"}},
        ):
            body = {"basedOn": revision, "ops": [{"t": "set_meta", "patch": {"title": "ok"}}, op]}
            error = assert_error(app.call("POST", f"/sessions/{sid}/edits", body), 422, "unknown_op")
            assert error["at"] == 1, op
        assert draft(app, sid) == (doc, revision)

    def test_no_node_goes_under_a_type_that_holds_none_for_any_actor(self, app: AppHarness) -> None:
        sid = app.open()
        turn_of(app, sid, BANDS)
        doc, revision = draft(app, sid)
        for op in (
            _text("inner", "c", "Text inside text"),
            {"t": "move_node", "id": "y", "parent": "c", "order": "V"},
        ):
            body = {"basedOn": revision, "ops": [op]}
            error = assert_error(app.call("POST", f"/sessions/{sid}/edits", body), 422, "not_a_container")
            assert error["at"] == 0
        # The agent's write is refused the same way (its tool answers the code).
        turn_of(app, sid, [_text("inner", "c", "Text inside text")])
        assert draft(app, sid) == (doc, revision)

    # -- 4. what the review lists, a person can reject ------------------------------------

    def test_a_descendant_the_review_lists_as_removed_can_be_rejected(self, app: AppHarness) -> None:
        sid = app.open(approve_on_save=True)
        turn_of(app, sid, BANDS)
        assert app.call("POST", f"/sessions/{sid}/change-set/approve").status == 200
        turn_of(app, sid, [{"t": "remove_node", "id": "x"}])
        diff = app.call("GET", f"/sessions/{sid}/change-set").json["change_set"]["diff"]
        assert diff["removed"] == ["c", "x"]

        response = app.call("POST", f"/sessions/{sid}/change-set/reject-nodes", {"nodes": ["c"]})

        assert response.status == 200, response.json
        assert (response.json["dropped"], response.json["kept"]) == (1, 0)
        assert app.call("GET", f"/sessions/{sid}/change-set").json["change_set"] is None
        assert {"x", "c"} <= set(draft(app, sid)[0]["nodes"])

    def test_a_root_a_reorder_moved_can_be_rejected(self, app: AppHarness) -> None:
        sid = app.open(approve_on_save=True)
        turn_of(app, sid, BANDS)
        assert app.call("POST", f"/sessions/{sid}/change-set/approve").status == 200
        turn_of(app, sid, [{"t": "reorder_roots", "order": ["y", "x"]}])
        changed = app.call("GET", f"/sessions/{sid}/change-set").json["change_set"]["diff"]["changed"]
        assert {change["id"] for change in changed} == {"x", "y"}

        response = app.call("POST", f"/sessions/{sid}/change-set/reject-nodes", {"nodes": ["y"]})

        assert response.status == 200, response.json
        assert response.json["dropped"] == 1
