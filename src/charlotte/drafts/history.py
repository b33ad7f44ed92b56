"""A draft's revision history for people: who changed what, undo a turn, restore, reset.

Every op of the draft is one revision, kept in the op history with who wrote
it (the agent with its ``turn_id``, or a person), when, and its inverse
(``OpEntry``). From those rows:

- ``history``: the revisions newest first, grouped (``_history_groups``): one
  agent turn's revisions form one group (an undo forms its own); a person's
  writes form one group while they follow each other within two minutes,
  each write a step of it (a restore and a reset are steps of their own);
  nodes are named with their words as they were at that revision.
- ``undo_turn``: the inverses of that turn's ops, newest first, written as ONE
  person's write on the current revision (one ``page.changed``). Refused
  ``conflicted`` (``detail={"nodes": [...]}``) when any later op, the agent's
  or a person's, wrote a node the inverses would write (every node the
  turn's ops changed, each descendant a removal's inverse puts back), put a
  node under one, or removed a parent they put a node back under (see
  ``_refuse_touched``): an undo is refused, or it changes exactly the nodes
  the undone ops changed, each back as it was, and no other;
  ``already_undone``, ``busy`` while the turn is queued or running,
  ``not_found`` for a turn of another session or tenant. A turn that wrote
  nothing to the draft has nothing to take back: nothing is written
  (``applied`` 0). That is every turn of an approve_on_save session: its
  changes are reviewed in the change set, and an approval writes them as
  the agent's, with no turn.
- ``undo_edit``: the same for a range of revisions of one person's own
  write (the builder page's Ctrl+Z; redo undoes the undo); ``not_own_edit``
  when a row of the range is another's.
- ``restore``: the draft becomes the document at revision N: the inverses of
  every op after N, newest first, as one person's write. ``reset``: restore
  to the published revision (``not_found`` with ``field`` ``published``
  before a first publish).

A window of the newest ``MAX_OPS_READ`` ops is read; anything older, or a row
without its inverse (written before migration 0004, or by a host repository
that keeps less), is ``history_truncated``. Node keys in ``conflicted``'s
``nodes`` are node ids, or ``#meta``, ``#theme``, ``#order`` (the order of the
top-level sections), which no node id can be.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from charlotte.checks.quality import quality_findings
from charlotte.drafts._history_groups import (
    MAX_NODE_IDS,
    RevisionGroup,
    Step,
    group_entries,
    name_units,
)
from charlotte.drafts.gate import findings_json
from charlotte.drafts.workspace import Workspace, Written
from charlotte.errors import PageSessionError, Refused
from charlotte.events import AGENT_ACTOR
from charlotte.page.diff import diff_docs
from charlotte.page.tree import root_ids
from charlotte.storage import OpEntry, TurnStore, UnitOfWork
from charlotte.storage.pages import MAX_OPS_READ

__all__ = ["MAX_HISTORY_GROUPS", "DraftHistory", "RevisionGroup", "op_keys", "written_keys"]  # RevisionGroup: _history_groups

#: The most groups one ``history`` call answers.
MAX_HISTORY_GROUPS: Final = 100
_TOP: Final = {
    "set_meta": "#meta",
    "restore_meta": "#meta",
    "set_theme": "#theme",
    "restore_theme": "#theme",
    "reorder_roots": "#order",
}


class DraftHistory:
    """History, undo, restore and reset over one ``Workspace`` (see module docstring)."""

    def __init__(self, workspace: Workspace, turns: TurnStore | None = None) -> None:
        self.workspace = workspace
        self.turns = turns if turns is not None else TurnStore()

    # -- reads -------------------------------------------------------------------

    def history(
        self, unit: UnitOfWork, *, limit: int = 50, before: int | None = None
    ) -> dict[str, Any]:
        """``{"revision", "published_revision", "groups", "next_before"}``: at most ``limit`` groups ending below ``before``.

        ``next_before`` is the first revision of the oldest group given, when
        older revisions may follow (pass it as ``before`` for the next page).
        """
        if type(limit) is not int or not 1 <= limit <= MAX_HISTORY_GROUPS:
            raise Refused("invalid_request", detail={"field": "limit"})
        if before is not None and (type(before) is not int or before < 1):
            raise Refused("invalid_request", detail={"field": "before"})
        ws = self.workspace
        doc, current = ws.load_draft(unit)
        published = ws.published(unit)
        top = current if before is None else min(current, before - 1)
        start = max(0, top - MAX_OPS_READ)
        entries = _read(ws, unit, start, top)
        groups = group_entries(entries)
        complete = groups[-limit:] if len(groups) > limit or start == 0 else groups[1:][-limit:]
        if not complete and groups:
            complete = groups[-1:]  # one group longer than the window: its newest part
        # Named as they were: the draft walked back over the rows newer than the page asked for too.
        newer = _read(ws, unit, top, current) if current - top <= MAX_OPS_READ else None
        if newer is not None:
            units: list[RevisionGroup | Step] = [*complete]
            units += [step for group in complete for step in group.steps]
            name_units(doc, current, newer, entries, units)
        out = [group.to_json() for group in reversed(complete)]
        oldest = complete[0].first if complete else 0
        return {
            "revision": current,
            "published_revision": published[1] if published is not None else None,
            "groups": out,
            "next_before": oldest if oldest > 1 else None,
        }

    def publish_preview(self, unit: UnitOfWork) -> dict[str, Any]:
        """What publishing would change (the node-level diff of the published copy and the draft) and the quality findings."""
        ws = self.workspace
        draft, revision = ws.load_draft(unit)
        published = ws.published(unit)
        before, published_revision = published if published is not None else (None, None)
        diff = diff_docs(before if before is not None else {"nodes": {}}, draft)
        return {
            "revision": revision,
            "published_revision": published_revision,
            "empty": not root_ids(draft),  # what publishing refuses: nothing renders
            "unchanged": published_revision == revision or diff.empty,
            "diff": diff.to_json(),
            # What the quality gate would say of publishing now: every finding, errors first.
            "findings": findings_json(quality_findings(draft, assets=ws.assets)),
        }

    # -- writes ------------------------------------------------------------------

    def undo_turn(self, unit: UnitOfWork, turn_id: str, *, user: str) -> Written:
        """Take back one agent turn's draft changes as a person's write (see module docstring)."""
        ws, session = self.workspace, unit.session
        turn = self.turns.get(unit.conn, turn_id) if _is_id(turn_id) else None
        if turn is None or turn.session_id != session.id or turn.tenant != session.tenant:
            raise Refused("not_found")
        if turn.active:
            raise Refused("busy")
        _doc, current = ws.load_draft(unit)
        start = max(0, current - MAX_OPS_READ)
        entries = _read(ws, unit, start, current)
        if any(entry.undoes == turn_id for entry in entries):
            raise Refused("already_undone")
        mine = [e for e in entries if e.turn_id == turn_id and e.actor == AGENT_ACTOR]
        if not mine:
            older = start > 0 and (not entries or entries[0].at is None or turn.started_at is None
                                   or entries[0].at > turn.started_at)  # fmt: skip
            if older:
                raise _truncated(current)
            return Written(current, [], [], ())
        if (start > 0 and entries[0] is mine[0]) or any(e.inverse is None for e in mine):
            raise _truncated(current)
        _refuse_touched(
            mine, (e for e in entries if e.revision > mine[0].revision and e.turn_id != turn_id)
        )
        return self._revert(unit, mine, current, user, undoes=turn_id)

    def undo_edit(self, unit: UnitOfWork, first: int, last: int, *, user: str) -> Written:
        """Take back revisions ``first`` … ``last`` of one person's own write, as that person's write.

        The builder page's Ctrl+Z: the range is what an edit answered
        (``revision - applied + 1`` … ``revision``); every row in it must be
        ``user``'s (``not_own_edit`` otherwise: the agent's turns have their own
        undo). Redo is the same call on the undo's own range. ``conflicted``
        (with ``nodes``) when a later op touched one of those nodes.
        """
        for name, value in (("from", first), ("to", last)):
            if type(value) is not int or value < 1:
                raise Refused("invalid_request", detail={"field": name})
        if last < first or last - first >= MAX_OPS_READ:
            raise Refused("invalid_request", detail={"field": "to"})
        ws = self.workspace
        _doc, current = ws.load_draft(unit)
        if last > current:
            raise Refused("invalid_request", detail={"field": "to"})
        if current - first >= MAX_OPS_READ:
            raise _truncated(current)
        entries = _read(ws, unit, first - 1, current)
        mine = [e for e in entries if e.revision <= last]
        if len(mine) != last - first + 1 or any(e.inverse is None for e in mine):
            raise _truncated(current)
        if any(e.actor != user or e.actor == AGENT_ACTOR for e in mine):
            raise Refused("not_own_edit")
        _refuse_touched(mine, (e for e in entries if e.revision > last))
        return self._revert(unit, mine, current, user)

    def restore(self, unit: UnitOfWork, revision: int, *, based_on: int, user: str) -> Written:
        """The draft becomes the document at ``revision``, as one person's write on ``based_on``."""
        if type(revision) is not int or revision < 0:
            raise Refused("invalid_request", detail={"field": "revision"})
        if type(based_on) is not int or based_on < 0:
            raise Refused("invalid_request", detail={"field": "basedOn"})
        entries, current = self._after(unit, revision, based_on)
        return self._revert(unit, entries, current, user)

    def reset(self, unit: UnitOfWork, *, based_on: int, user: str) -> Written:
        """The draft becomes the published copy again (``not_published`` before a first publish)."""
        if type(based_on) is not int or based_on < 0:
            raise Refused("invalid_request", detail={"field": "basedOn"})
        published = self.workspace.published(unit)
        if published is None:
            raise Refused("not_found", detail={"field": "published"})
        entries, current = self._after(unit, published[1], based_on)
        return self._revert(unit, entries, current, user)

    def _after(self, unit: UnitOfWork, revision: int, based_on: int) -> tuple[list[OpEntry], int]:
        """The rows after ``revision`` up to the current one, each with its inverse."""
        ws = self.workspace
        _doc, current = ws.load_draft(unit)
        if based_on != current:
            raise PageSessionError("stale_revision", detail={"revision": current})
        if revision > current:
            raise Refused("invalid_request", detail={"field": "revision"})
        if current - revision > MAX_OPS_READ:
            raise _truncated(current)
        entries = _read(ws, unit, revision, current)
        if len(entries) != current - revision or any(e.inverse is None for e in entries):
            raise _truncated(current)
        return entries, current

    def _revert(
        self,
        unit: UnitOfWork,
        entries: Sequence[OpEntry],
        current: int,
        user: str,
        *,
        undoes: str | None = None,
    ) -> Written:
        ops = [back for entry in reversed(entries) for back in entry.inverse or ()]
        try:
            return self.workspace.revert(unit, ops, based_on=current, user=user, undoes=undoes)
        except PageSessionError as error:
            if error.code in ("stale_revision", "invalid_state") or error.at is None:
                raise
            # The page no longer holds what an inverse takes back (a node a later edit removed).
            node = sorted(op_keys(ops[error.at])) if error.at < len(ops) else []
            raise Refused("conflicted", detail={"nodes": node[:MAX_NODE_IDS]}) from None


def _read(ws: Workspace, unit: UnitOfWork, start: int, top: int) -> list[OpEntry]:
    """The op history rows (start, top], oldest first (at most ``MAX_OPS_READ``)."""
    if top <= start:
        return []
    session = unit.session
    entries = ws.pages.ops_since(unit.conn, session.tenant, session.page, start, limit=top - start)
    return [entry for entry in entries if entry.revision <= top]


def op_keys(op: object, *, parents: bool = False) -> set[str]:
    """What an op touches: its node (and, with ``parents``, the node it goes under) or a ``#`` key."""
    if not isinstance(op, dict):
        return set()
    top = _TOP.get(str(op.get("t")))
    if top is not None:
        return {top}
    node = op.get("node")
    source = node if isinstance(node, dict) else op
    keys = {source["id"]} if isinstance(source.get("id"), str) else set()
    parent = source.get("parent")
    if parents and isinstance(parent, str):
        keys.add(parent)
    return keys


#: Ops that make a node exist or not: a parent an undo puts a node back under must have had none.
_EXISTENCE: Final = frozenset({"insert_node", "remove_node", "restore_node"})


def written_keys(entry: OpEntry) -> set[str]:
    """Every key an op wrote: its own, and every node its stored inverse writes back.

    The inverse names what the op changed that the op does not: each
    descendant a removal took along, each root a reorder moved.
    """
    keys = op_keys(entry.op)
    for back in entry.inverse or ():
        keys |= op_keys(back)
    return keys


def _refuse_touched(mine: Iterable[OpEntry], later: Iterable[OpEntry]) -> None:
    """``conflicted`` (naming them) when a ``later`` op touched what undoing ``mine`` would write.

    The undo writes every node its inverses write (each restored descendant
    included) and needs each parent they put a node back under. A later op
    conflicts when it wrote one of those nodes, put a node under one, or
    removed (or made anew) a needed parent; a parent moved meanwhile is
    still there to go back under.
    """
    writes: set[str] = set()
    needs: set[str] = set()
    for entry in mine:
        writes |= written_keys(entry)
        for back in entry.inverse or ():
            needs |= op_keys(back, parents=True)
    needs -= writes
    touched: set[str] = set()
    for entry in later:
        wrote = written_keys(entry)
        touched |= (wrote | op_keys(entry.op, parents=True)) & writes
        if entry.op.get("t") in _EXISTENCE:
            touched |= wrote & needs
    if touched:
        raise Refused("conflicted", detail={"nodes": sorted(touched)[:MAX_NODE_IDS]})


def _truncated(current: int) -> PageSessionError:
    """The history does not reach (or holds no inverse) that far back."""
    return PageSessionError("history_truncated", detail={"revision": current})


def _is_id(value: object) -> bool:
    return isinstance(value, str) and 0 < len(value) <= 64 and value.isprintable()
