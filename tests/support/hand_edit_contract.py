"""What the builder page's hand editing needs from the server, run against every database.

Undo and redo of a person's own edit (``POST /sessions/{id}/edits/undo``) and
the palette (``GET /sessions/{id}/palette``, ``GET …/palette/section``),
through the real router of a real ``Charlotte``. A subclass provides ``app``.
"""

from __future__ import annotations

from typing import Any

from tests.support.app_harness import AppHarness
from tests.support.editing_contract import assert_error, draft, turn_of

from charlotte.page.node_types import NodeTypes

HERO = [
    {"t": "insert_node", "node": {"id": "hero", "type": "section", "parent": None, "order": "a0"}},
    {"t": "insert_node", "node": {"id": "title", "type": "heading", "parent": "hero",
                                  "props": {"content": "Rosa's Bakery", "level": 1}}},
    {"t": "insert_node", "node": {"id": "foot", "type": "section", "parent": None, "order": "a1"}},
]  # fmt: skip
FACTS = {"name": "Rosa's Bakery", "phone": "+44 113 496 0000", "email": "hello@rosas.example"}


def edit(app: AppHarness, sid: str, ops: list[dict[str, Any]]) -> dict[str, Any]:
    _doc, revision = draft(app, sid)
    response = app.call("POST", f"/sessions/{sid}/edits", {"basedOn": revision, "ops": ops})
    assert response.status == 200, response.json
    answer: dict[str, Any] = response.json
    return answer


def undo(app: AppHarness, sid: str, written: dict[str, Any], **kwargs: Any) -> Any:
    first = written["revision"] - written["applied"] + 1
    return app.call(
        "POST", f"/sessions/{sid}/edits/undo", {"from": first, "to": written["revision"]}, **kwargs
    )


def title(app: AppHarness, sid: str) -> str:
    content: str = draft(app, sid)[0]["nodes"]["title"]["props"]["content"]
    return content


class HandEditContract:
    """Undo/redo of a person's own edits and the palette, on every database."""

    def test_undo_and_redo_of_a_persons_own_edit(self, app: AppHarness) -> None:
        sid = app.open()
        turn_of(app, sid, HERO)
        retitle = {"t": "set_node_props", "id": "title", "patch": {"content": "Fresh bread"}}
        written = edit(app, sid, [retitle, {"t": "remove_node", "id": "foot"}])
        seq = app.call("GET", f"/sessions/{sid}").json["session"]["last_seq"]

        undone = undo(app, sid, written)

        assert undone.status == 200, undone.json
        assert undone.json["applied"] == 2
        assert title(app, sid) == "Rosa's Bakery" and "foot" in draft(app, sid)[0]["nodes"]
        events = app.call("GET", f"/sessions/{sid}/events", query={"after": str(seq)}).json
        assert [e["type"] for e in events["events"]] == ["page.changed"]
        assert events["events"][0]["actor"] == "ann"
        # Redo: the undo's own range, taken back.
        redone = undo(app, sid, undone.json)
        assert redone.status == 200, redone.json
        assert title(app, sid) == "Fresh bread" and "foot" not in draft(app, sid)[0]["nodes"]

    def test_undo_refuses_another_persons_or_the_agents_revisions(self, app: AppHarness) -> None:
        sid = app.open()
        turn_of(app, sid, HERO)
        written = edit(app, sid, [{"t": "set_node_props", "id": "title", "patch": {"content": "X"}}])
        before = draft(app, sid)
        assert_error(undo(app, sid, written, user="bob"), 409, "not_own_edit")
        agents = app.call("POST", f"/sessions/{sid}/edits/undo", {"from": 1, "to": 3})
        assert_error(agents, 409, "not_own_edit")
        assert draft(app, sid) == before

    def test_undo_is_conflicted_when_a_later_edit_touched_the_node(self, app: AppHarness) -> None:
        sid = app.open()
        turn_of(app, sid, HERO)
        first = edit(app, sid, [{"t": "set_node_props", "id": "title", "patch": {"content": "A"}}])
        edit(app, sid, [{"t": "set_style", "id": "title", "breakpoint": "base",
                         "patch": {"color": "#222222"}}])  # fmt: skip
        before = draft(app, sid)
        error = assert_error(undo(app, sid, first), 409, "conflicted")
        assert error["nodes"] == ["title"]
        assert draft(app, sid) == before
        # Twice: the second undo finds the first one's write on the same node.
        latest = edit(app, sid, [{"t": "set_node_props", "id": "title", "patch": {"content": "B"}}])
        assert undo(app, sid, latest).status == 200
        assert_error(undo(app, sid, latest), 409, "conflicted")

    def test_undo_ranges_outside_the_history_are_refused(self, app: AppHarness) -> None:
        sid = app.open()
        turn_of(app, sid, HERO)
        for body, field in (
            ({"from": 0, "to": 1}, "from"),
            ({"from": 3, "to": 2}, "to"),
            ({"from": 1, "to": 99}, "to"),
            ({"from": True, "to": 1}, "from"),
        ):
            refused = app.call("POST", f"/sessions/{sid}/edits/undo", body)
            assert refused.status == 400 and refused.json["error"]["field"] == field, body
        missing = app.call("POST", f"/sessions/{sid}/edits/undo", {"from": 1})
        assert missing.status == 400 and missing.json["error"]["field"] == "to"

    def test_the_palette_lists_the_types_and_the_section_kinds(self, app: AppHarness) -> None:
        sid = _with_facts(app)
        palette = app.call("GET", f"/sessions/{sid}/palette")
        assert palette.status == 200, palette.json
        assert palette.json["types"] == NodeTypes.allowed().describe()
        kinds = {row["kind"]: row for row in palette.json["sections"]}
        assert kinds["contact"]["available"] is True and kinds["contact"]["name"]
        # Nobody gave a testimonial: the kind is listed, but nothing feeds it.
        assert kinds["testimonials"]["available"] is False

    def test_a_palette_section_is_placed_after_a_root_and_applies_as_an_edit(
        self, app: AppHarness
    ) -> None:
        sid = _with_facts(app)
        turn_of(app, sid, HERO)
        built = app.call("GET", f"/sessions/{sid}/palette/section", query={"kind": "contact", "after": "hero"})
        assert built.status == 200, built.json
        ops = built.json["ops"]
        root = built.json["root"]
        assert ops[0]["node"]["id"] == root and ops[0]["node"]["parent"] is None
        assert all(op["t"] == "insert_node" for op in ops)
        # Nothing written yet; through /edits it lands between the hero and the foot.
        assert root not in draft(app, sid)[0]["nodes"]
        edit(app, sid, ops)
        doc = draft(app, sid)[0]
        roots = sorted((n for n in doc["nodes"].values() if n["parent"] is None), key=lambda n: n["order"])
        assert [n["id"] for n in roots] == ["hero", root, "foot"]
        page = app.call("GET", f"/sessions/{sid}/draft").json["html"]
        assert "+44 113 496 0000" in page

    def test_palette_section_refusals(self, app: AppHarness) -> None:
        sid = _with_facts(app)
        turn_of(app, sid, HERO)
        path = f"/sessions/{sid}/palette/section"
        assert_error(app.call("GET", path, query={"kind": "testimonials"}), 422, "nothing_to_build")
        for query, field in (
            ({"kind": "sonnet"}, "kind"),
            ({}, "kind"),
            ({"kind": "contact", "after": "title"}, "after"),  # not a top-level node
            ({"kind": "contact", "after": "x" * 65}, "after"),
        ):
            refused = app.call("GET", path, query=query)
            assert refused.status in (400, 422) and refused.json["error"]["field"] == field, query


def _with_facts(app: AppHarness) -> str:
    opened = app.call(
        "POST", "/sessions",
        {"page": "home", "brief": "A landing page for Rosa's Bakery, a small bakery", "facts": FACTS},
    )  # fmt: skip
    assert opened.status == 201, opened.json
    session_id: str = opened.json["session"]["id"]
    return session_id
