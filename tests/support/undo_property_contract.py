"""Selective undo, redo and reject-nodes over random histories, run against every database.

Random agent turns, a person's edits, undos of turns and of the person's own
writes (an undo of an undo is a redo), and, on an approve_on_save session,
rejections of nodes the review lists. The property: a selective undo is
refused and changes nothing, or it changes exactly the nodes the undone ops
changed, each back to what it was before them, and no other, and each of
those nodes was still as the undone ops left it (no later change is lost); a rejection is
refused and changes nothing, or no rejected node keeps a change of the set.
A subclass provides ``engine`` (tables created; shared by the module: each
example opens its own session on its own page).
"""

from __future__ import annotations

import contextlib
import uuid
from dataclasses import dataclass
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from tests.support.databases import unshared_session
from tests.support.units import in_unit

from charlotte.drafts.change_sets import ChangeSets
from charlotte.drafts.history import DraftHistory
from charlotte.drafts.review import reject_nodes
from charlotte.drafts.workspace import Workspace
from charlotte.errors import PageSessionError, Refused
from charlotte.page.diff import diff_docs
from charlotte.storage import SessionRecord, transaction
from charlotte.storage.tables import turns

POOL = ("a", "b", "c")
CONTAINERS = ("section", "frame")
PERSON = "ann"

Snapshot = dict[str, Any]


def snapshot(doc: dict[str, Any]) -> Snapshot:
    """Every node by id, and the page's meta and theme, as one map (no revision)."""
    return {**doc["nodes"], "#meta": doc["meta"], "#theme": doc["theme"]}


@st.composite
def an_op(draw: st.DrawFn, doc: dict[str, Any], reuse: str | None = None) -> dict[str, Any]:
    """One op on ``doc``: mostly valid, some refused (a refused write writes nothing).

    ``reuse``: the op inserts a node of that id.
    """
    nodes: dict[str, Any] = doc["nodes"]
    present = sorted(nodes)
    containers = [id for id in present if nodes[id]["type"] in CONTAINERS]
    kinds = ["insert", "insert", "meta"] + (["remove", "remove", "move", "props", "style"] if present else [])
    kind = "insert" if reuse is not None else draw(st.sampled_from(kinds))
    if kind == "insert":
        # Ids are few, so a freed id is soon taken again: the case that matters.
        free = [id for id in POOL if id not in nodes]
        id = reuse or draw(st.sampled_from(free or POOL))
        parent = draw(st.sampled_from([None, *containers]))
        kind_of = "section" if parent is None else draw(st.sampled_from(["frame", "text", "heading"]))
        props = {"content": draw(st.sampled_from(["One", "Two"]))} if kind_of in ("text", "heading") else {}
        return {"t": "insert_node", "node": {"id": id, "type": kind_of, "parent": parent, "props": props}}
    if kind == "meta":
        return {"t": "set_meta", "patch": {"title": draw(st.sampled_from(["T1", "T2"]))}}
    id = draw(st.sampled_from(present))
    if kind == "remove":
        parents = sorted({node["parent"] for node in nodes.values() if node["parent"] in nodes})
        if parents and draw(st.integers(0, 3)):  # mostly a node with children: they go along
            id = draw(st.sampled_from(parents))
        return {"t": "remove_node", "id": id}
    if kind == "move":
        parent = draw(st.sampled_from([None, *containers]))
        return {"t": "move_node", "id": id, "parent": parent, "order": draw(st.sampled_from(["V", "W", "a0"]))}
    if kind == "props" and nodes[id]["type"] == "heading":
        # A heading without ``level`` gains one: its inverse restores the whole node.
        return {"t": "set_node_props", "id": id, "patch": {"level": draw(st.integers(1, 3))}}
    if kind == "props" and nodes[id]["type"] == "text":
        return {"t": "set_node_props", "id": id, "patch": {"content": draw(st.sampled_from(["X", "Y"]))}}
    return {"t": "set_style", "id": id, "breakpoint": "base", "patch": {"color": draw(st.sampled_from(["#111111", "#222222"]))}}


@dataclass
class Write:
    """One committed write: who, how to take it back, and the page before and after."""

    turn: str | None
    first: int
    last: int
    before: Snapshot
    after: Snapshot


#: One contract body runs per backend subclass (``differing_executors``), each on a fresh session.
_SUPPRESSED = [
    HealthCheck.function_scoped_fixture,
    HealthCheck.too_slow,
    HealthCheck.differing_executors,
]


class UndoPropertyContract:
    """Undo, redo and reject-nodes keep every node they were not asked to take back."""

    @pytest.fixture
    def engine(self) -> sa.Engine:  # pragma: no cover - overridden per backend
        raise NotImplementedError

    @settings(max_examples=300, deadline=None, suppress_health_check=_SUPPRESSED)
    @given(data=st.data())
    def test_a_selective_undo_is_refused_or_changes_exactly_the_undone_nodes(
        self, engine: sa.Engine, data: st.DataObject
    ) -> None:
        ws = Workspace(engine)
        history = DraftHistory(ws)
        session = unshared_session(engine)
        writes: list[Write] = []
        for _ in range(data.draw(st.integers(6, 20))):
            step = data.draw(st.sampled_from(["turn", "edit", "edit", "reuse", "undo", "undo"]))
            doc, revision = in_unit(ws, session.id, session.tenant).draft()
            freed = sorted({key for w in writes for key in w.before if key not in w.after} - set(doc["nodes"]))
            if step == "reuse" and freed:  # a person takes an id an earlier write freed
                ops = [data.draw(an_op(doc, reuse=data.draw(st.sampled_from(freed))))]
                step = "edit"
            elif step in ("turn", "edit", "reuse") or not writes:
                ops = data.draw(st.lists(an_op(doc), min_size=1, max_size=2))
                turn = _turn(engine, session) if step == "turn" else None
                try:
                    if turn is not None:
                        written = in_unit(ws, session.id, session.tenant).agent_apply(ops, based_on=revision, turn_id=turn)
                    else:
                        written = in_unit(ws, session.id, session.tenant).human_edit(ops, based_on=revision, user=PERSON)
                except (PageSessionError, Refused):
                    assert in_unit(ws, session.id, session.tenant).draft() == (doc, revision)
                    event("write refused")
                    continue
                event("write applied")
                after = in_unit(ws, session.id, session.tenant).draft()[0]
                first = written.revision - len(written.ops) + 1
                writes.append(Write(turn, first, written.revision, snapshot(doc), snapshot(after)))
                continue
            back = data.draw(st.integers(1, len(writes)) | st.integers(1, min(3, len(writes))))
            target = writes[-back]  # often one of the newest writes
            if any(key in doc["nodes"] for key in target.before if key not in target.after):
                event("undo of a removal whose id was taken again")
            try:
                if target.turn is not None:
                    written = in_unit(history, session.id, session.tenant).undo_turn(target.turn, user=PERSON)
                else:
                    written = in_unit(history, session.id, session.tenant).undo_edit(target.first, target.last, user=PERSON)
            except (PageSessionError, Refused) as refused:
                assert refused.code in ("conflicted", "already_undone"), refused
                assert in_unit(ws, session.id, session.tenant).draft() == (doc, revision)
                event(f"undo refused {refused.code}")
                continue
            event("undo applied")
            after = in_unit(ws, session.id, session.tenant).draft()[0]
            _assert_only_the_undone_nodes_changed(target, snapshot(doc), snapshot(after))
            if written.ops:  # the undo is the person's write: undoing it is a redo
                first = written.revision - len(written.ops) + 1
                writes.append(Write(None, first, written.revision, snapshot(doc), snapshot(after)))

    @settings(max_examples=100, deadline=None, suppress_health_check=_SUPPRESSED)
    @given(data=st.data())
    def test_a_rejection_is_refused_or_takes_every_change_of_the_named_nodes_out(
        self, engine: sa.Engine, data: st.DataObject
    ) -> None:
        ws = Workspace(engine)
        sets = ChangeSets(ws)
        session = unshared_session(engine, approve_on_save=True)
        for _ in range(data.draw(st.integers(1, 3))):  # a draft to start from
            doc, revision = in_unit(ws, session.id, session.tenant).draft()
            ops = data.draw(st.lists(an_op(doc), min_size=1, max_size=3))
            with contextlib.suppress(PageSessionError, Refused):
                in_unit(ws, session.id, session.tenant).human_edit(ops, based_on=revision, user=PERSON)
        for _ in range(data.draw(st.integers(1, 4))):  # the agent's set
            working = _working(sets, session) or in_unit(ws, session.id, session.tenant).draft()
            ops = data.draw(st.lists(an_op(working[0]), min_size=1, max_size=3))
            with contextlib.suppress(PageSessionError, Refused):
                in_unit(sets, session.id, session.tenant).apply_agent_ops(ops, based_on=working[1])
        found = _working(sets, session)
        if found is None:
            return
        draft = in_unit(ws, session.id, session.tenant).draft()[0]
        diff = diff_docs(draft, found[0])
        listed = [*diff.added, *diff.removed, *(change.id for change in diff.changed)]
        if not listed:
            return
        named = data.draw(st.lists(st.sampled_from(listed), min_size=1, max_size=3, unique=True))
        try:
            with sets.workspace.units.write(session.id, session.tenant) as unit:
                reject_nodes(sets, unit, named, PERSON)
        except (PageSessionError, Refused) as refused:
            # Every node the review lists names a change of the set: only a replay conflict.
            assert refused.code == "conflicted", refused
            assert _working(sets, session) == found
            assert in_unit(ws, session.id, session.tenant).draft()[0] == draft
            return
        kept = _working(sets, session)
        now = snapshot(kept[0] if kept is not None else draft)
        for id in named:
            assert now.get(id) == snapshot(draft).get(id), id


def _assert_only_the_undone_nodes_changed(target: Write, before: Snapshot, after: Snapshot) -> None:
    undone = {key for key in target.before.keys() | target.after.keys() if target.before.get(key) != target.after.get(key)}
    for key in before.keys() | after.keys() | undone:
        if key in undone:
            # Nothing a later op made is lost: the node is still as the undone ops left it
            # (a node made later under a freed id, or removed with its parent, is not).
            assert before.get(key) == target.after.get(key), key
            assert after.get(key) == target.before.get(key), key  # back to what it was
        else:
            assert after.get(key) == before.get(key), key  # untouched


def _turn(engine: sa.Engine, session: SessionRecord) -> str:
    """A finished turn's row for the agent's write to name (what undoing it reads)."""
    turn = f"turn-{uuid.uuid4().hex[:12]}"
    with transaction(engine) as conn:
        conn.execute(turns.insert().values(
            id=turn, session_id=session.id, tenant=session.tenant, message="Go", user=PERSON,
            status="finished"))  # fmt: skip
    return turn


def _working(sets: ChangeSets, session: SessionRecord) -> tuple[dict[str, Any], int] | None:
    """The open set's working copy and its revision, or None without an open set."""
    with sets.workspace.units.read(session.id, session.tenant) as unit:
        change_set = sets.open_change_set(unit)
        return None if change_set is None else (change_set.working, change_set.revision)
