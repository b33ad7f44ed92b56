"""``ChangeSets``: approve_on_save — the agent's writes wait in a change set for a person.

A session opened with ``approve_on_save=True`` never writes the agent's ops to
the draft. Its writes go to the session's one *open* change set (a row of
``charlotte_proposals``, read and written by ``charlotte.storage.change_sets``):

- **Opening.** The first agent write with no open set opens one: its working
  copy is seeded from the draft as it is then (``base_revision``), and
  ``proposal.opened`` is recorded in the same transaction as that first write.
  A write that fails opens nothing.
- **Writing.** ``apply_agent_ops`` applies the ops to the working copy exactly
  as ``Workspace.agent_apply`` applies them to a draft (LinkPolicy before,
  PageSession, AssetPolicy on the touched nodes after, one transaction with
  the set's row locked) and appends them to the set's op list. Each write
  records ``page.changed`` with the **working copy's** revision: the event
  describes "the draft, or the open change set's working copy", and in an
  approve_on_save session every agent ``page.changed`` between
  ``proposal.opened`` and the set's resolution is about the working copy, so a
  builder preview follows it by reading ``working`` (or ``view``).
- **Revisions.** Inside a set the agent's revisions are continuous from the
  draft revision the set was seeded from: ``base_revision + n`` after the set's
  ``n``-th op. ``changes_since`` answers the agent from the page it reads and
  says ``revision_unknown`` for a resolved set's retired revisions
  (``charlotte.drafts._agent_changes``).
- **Approving** replays the set's ops on the *current* draft (a person may
  have edited it meanwhile) in slices of ``REPLAY_CHUNK`` ops (100, half
  the agent's own bound: measured faster than one 1,000-op apply, because
  less undo data is alive at once for the garbage collector to walk, and
  fewer full collections land in an approval than with 200), actor ``agent``. The draft is loaded as every writer
  loads it (``Workspace.load_for_write``): a never-written page gets its row
  first, so a first write by another session at the same moment waits for
  the approval and sees a stale revision (or the approval replays on its
  write), never a storage error. The set's ops are decoded one at a time as
  the replay takes them (``ChangeSet.each_op``), not as one list, and their
  stored texts become the op history's (``OpEntry.op_text``). As for any
  agent write, LinkPolicy (the tenant's rules of today) checks each slice
  before it is applied, and the first op that fails a link or the apply
  names the conflict; AssetPolicy checks the nodes the replay touched once,
  on the page it made (the last op that wrote the refused node). Any
  ``PageSessionError`` or ``Refused`` resolves the set ``conflicted`` with
  the code and op index (``proposal.conflicted``). The load and replay run
  inside one savepoint: each slice's op history rows are written once it
  applied (its inverses need not all stay alive: a 10,000-op approval kept
  10,000 inverse tuples for the garbage collector to walk), and a conflict rolls
  the savepoint back, so no op of the set reaches the draft or its history
  and a never-written page stays without a row (a storage error ends the
  whole transaction). Success stores the draft,
  records the draft's ``page.changed`` (actor ``agent``) and
  ``proposal.approved`` (actor: the approving person), and resolves the set
  ``approved``. ``reject`` resolves it ``rejected`` (``proposal.rejected``).
- **Notices.** A resolution reaches the agent exactly once:
  ``pending_notices`` returns the resolved, unnotified sets and marks them
  notified in the same transaction.
- **Publishing** publishes the draft only: an open set stays open, and its
  ops reach the draft only by approval.

Lock order, the same for every writer so that PostgreSQL never deadlocks:
the session row (``Workspace.session(..., lock=True)``), then the change-set
row, then the page row. Human edits and publishing take the session row, then
the page row.

>>> change_sets = ChangeSets(workspace)                             # doctest: +SKIP
>>> change_sets.apply_agent_ops(session_id, tenant, ops, based_on=3)  # doctest: +SKIP
Written(revision=5, ...)
>>> change_sets.approve(session_id, tenant, "user-7")               # doctest: +SKIP
Resolution(change_set_id='…', status='approved', ops=2, revision=5, code=None, at=None)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from charlotte.drafts._agent_changes import agent_changes
from charlotte.drafts._replay import Replayed, replay
from charlotte.drafts._writes import check_person, page_changed
from charlotte.drafts.workspace import SiteLinks, Workspace, Written
from charlotte.errors import Refused, ReplayConflict
from charlotte.events import AGENT_ACTOR, EventTypes, NewEvent
from charlotte.page.node_types import MAX_OPS_PER_APPLY
from charlotte.page.session import Applied, PageSession
from charlotte.policy import AssetPolicy
from charlotte.storage import ChangeSet, ChangeSetStore, UnitOfWork

__all__ = ["NOTICE_MESSAGES", "REPLAY_CHUNK", "ChangeSets", "Resolution"]

#: Ops one slice of an approval's replay applies (and stores the op history of). Half the
#: agent's bound: measured on 10,000 ops, 3-4 % slower than slices of 200 without a garbage
#: collection, but the young collections inside an approval halve (53 -> 26), and with them
#: the share of approvals a full collection of the process lands in (7 of 12 -> 3 of 12 in
#: ``make bench``'s process, each 70-90 ms). Slices of 50 cost 12 % more for little less.
REPLAY_CHUNK: Final = MAX_OPS_PER_APPLY // 2

#: What the agent is told about each resolution (our own fixed sentences).
NOTICE_MESSAGES: Final = {
    "approved": "A person approved your change set: its changes are now in the draft.",
    "rejected": "A person rejected your change set: the draft does not have its changes.",
    "conflicted": (
        "Your change set could not be applied to the current draft (the person had "
        "changed it); the draft does not have its changes. Read the page again."
    ),
}


@dataclass(frozen=True, slots=True)
class Resolution:
    """How a set was resolved: ``approved``, ``rejected`` or ``conflicted``.

    ``revision`` is the draft's revision afterwards; ``code`` and ``at`` (the
    index of the op in the set's op list) say why a replay conflicted.
    """

    change_set_id: str
    status: str
    ops: int
    revision: int
    code: str | None = None
    at: int | None = None


@dataclass
class ChangeSets:
    """The change sets of approve_on_save sessions (see module docstring)."""

    workspace: Workspace
    chunk: int = REPLAY_CHUNK
    store: ChangeSetStore = field(default_factory=ChangeSetStore)
    _assets: AssetPolicy = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if type(self.chunk) is not int or self.chunk < 1:
            raise ValueError("chunk must be a positive integer")
        self._assets = AssetPolicy(self.workspace.assets)

    # -- reads ---------------------------------------------------------------

    def open_change_set(self, unit: UnitOfWork, *, for_update: bool = False) -> ChangeSet | None:
        """The open set of the unit's session (``for_update`` locks its row)."""
        return self.store.find_open(unit.conn, unit.session, for_update=for_update)

    def view(self, unit: UnitOfWork, *, shared: bool = False) -> tuple[dict[str, Any], int]:
        """What the agent reads: the open set's working copy, else the draft (``shared``: only read)."""
        if unit.session.approve_on_save:
            change_set = self.open_change_set(unit)
            if change_set is not None:
                return change_set.working, change_set.revision
        return self.workspace.load_draft(unit, shared=shared)

    def changes_since(self, unit: UnitOfWork, revision: int) -> list[dict[str, Any]]:
        """``[{"revision", "actor", "op"}]`` from the agent's ``revision`` to what it reads now.

        See ``charlotte.drafts._agent_changes``: the exact delta, or
        ``Refused("revision_unknown")`` for a resolved set's retired revision.
        """
        return agent_changes(self.workspace, self.store, unit, revision)

    # -- the agent's writes ----------------------------------------------------

    def apply_agent_ops(
        self,
        unit: UnitOfWork,
        ops: Sequence[object],
        *,
        based_on: int,
        links: SiteLinks | None = None,
        actor: str = AGENT_ACTOR,
    ) -> Written:
        """Apply the agent's ops to the open set's working copy, opening a set when none is.

        The draft's write pipeline (``Workspace.write``) over the working
        copy: LinkPolicy before, AssetPolicy on the touched nodes after, the
        set's row locked, ``page.changed`` at the working revision (and
        ``proposal.opened`` first when this write opened the set).
        ``forbidden`` for a session without ``approve_on_save``: its agent
        writes go to the draft. ``actor``: who the events name (an outside
        agent's ``agent:<client>``); an approval replays the ops as ``agent``.
        """
        ws = self.workspace
        ws.assert_agent_links(ops, links)
        session = unit.session
        if not session.approve_on_save:
            raise Refused("forbidden")
        change_set = self.open_change_set(unit, for_update=True)
        doc = change_set.working if change_set is not None else ws.load_draft(unit)[0]
        page = PageSession(doc, node_types=ws.node_types)
        base = page.revision

        def store(applied: Applied) -> None:
            if change_set is None:
                change_set_id = self.store.insert_open(unit.conn, session, page.doc, applied.ops)
                opened = {"proposal_id": change_set_id, "base_revision": base}
                unit.emit(NewEvent(EventTypes.PROPOSAL_OPENED, opened, actor))
            else:
                self.store.extend(unit.conn, change_set, page.doc, applied.ops)

        return ws.write(
            unit, page, ops, based_on=based_on, actor=actor, store=store, working=True
        )

    # -- a person's decisions --------------------------------------------------

    def approve(self, unit: UnitOfWork, user: str, *, links: SiteLinks | None = None) -> Resolution:
        """Replay the open set on the current draft; resolves it ``approved`` or ``conflicted``.

        ``no_open_change_set`` when there is none. A conflict is a resolution,
        not an error: the draft stays exactly as it was and the set records
        the code and the index of the op that failed.
        """
        check_person(user)
        ws = self.workspace
        rules = links or ws.links
        conn = unit.conn
        change_set = self.open_change_set(unit, for_update=True)
        if change_set is None:
            raise Refused("no_open_change_set")
        base = change_set.base_revision
        try:
            with conn.begin_nested():
                # Inside the savepoint: a conflict on a never-written page
                # leaves no row behind (load_for_write inserted it).
                doc, draft_revision = ws.load_for_write(unit)
                # A corrupt stored draft (invalid_state) is host corruption, not a conflict.
                page = PageSession(doc, node_types=ws.node_types)

                def kept(applied: Applied, texts: list[str | None]) -> None:
                    ws.store_ops(unit, applied, actor=AGENT_ACTOR, texts=texts)

                done = self.replay(page, change_set.each_op(), rules, store=kept)
                ws.save_draft(unit, page.doc)  # its op history is stored already
        except ReplayConflict as conflict:
            resolution = Resolution(
                change_set.id, "conflicted", change_set.op_count, draft_revision, conflict.code, conflict.at
            )
            payload: dict[str, Any] = {
                "proposal_id": change_set.id,
                "code": conflict.code,
                "at": conflict.at,
            }
            self.resolve(unit, resolution, EventTypes.PROPOSAL_CONFLICTED, payload, user, base)
            return resolution
        unit.emit(page_changed(page.revision, done.count, done.node_ids, AGENT_ACTOR))
        resolution = Resolution(change_set.id, "approved", change_set.op_count, page.revision)
        payload = {
            "proposal_id": change_set.id,
            "ops": change_set.op_count,
            "revision": page.revision,
        }
        # Replayed on the draft it was seeded from, the draft now went through
        # exactly the working copy's states: the agent's revisions still hold.
        retired = None if draft_revision == base else base
        self.resolve(unit, resolution, EventTypes.PROPOSAL_APPROVED, payload, user, retired)
        return resolution

    def reject(self, unit: UnitOfWork, user: str) -> Resolution:
        """Discard the open set (``rejected``); the draft is untouched."""
        check_person(user)
        change_set = self.open_change_set(unit, for_update=True)
        if change_set is None:
            raise Refused("no_open_change_set")
        _doc, revision = self.workspace.load_draft(unit)
        resolution = Resolution(change_set.id, "rejected", change_set.op_count, revision)
        payload = {"proposal_id": change_set.id, "ops": change_set.op_count}
        self.resolve(
            unit, resolution, EventTypes.PROPOSAL_REJECTED, payload, user, change_set.base_revision
        )
        return resolution

    # -- notices ---------------------------------------------------------------

    def pending_notices(self, unit: UnitOfWork) -> list[dict[str, Any]]:
        """The resolutions the agent has not been told about, oldest first; each told once.

        Marks them notified in ``unit`` (a write unit: the notice reaches its
        caller only if the unit commits); a read unit only looks, and answers
        none (its caller takes them in a write unit). A notice is ``{"kind":
        "change_set", "proposal_id", "status", "ops", "message"}`` plus
        ``code`` and ``at`` for a conflict.
        """
        if not unit.writes:
            return []
        resolved = self.store.take_unnotified(unit.conn, unit.session)
        return [_notice(change_set) for change_set in resolved]

    # -- helpers ---------------------------------------------------------------

    def replay(
        self,
        page: PageSession,
        ops: Iterable[tuple[dict[str, Any], str | None]],
        rules: SiteLinks,
        store: Callable[[Applied, list[str | None]], None] | None = None,
    ) -> Replayed:
        """Apply ``ops`` (op, stored text) to ``page`` in slices of ``chunk`` ops, under today's ``rules``.

        The agent's LinkPolicy and AssetPolicy as for any agent write (an
        approval; ``drafts/review.py``); ``charlotte.drafts._replay.replay``
        says how, and what ``store`` takes.
        """
        return replay(
            page, ops, chunk=self.chunk, store=store, assets=self._assets.assert_nodes,
            links=lambda piece: self.workspace.assert_agent_links(piece, rules),
        )  # fmt: skip

    def resolve(
        self,
        unit: UnitOfWork,
        resolution: Resolution,
        event_type: str,
        payload: dict[str, Any],
        user: str,
        retired_above: int | None,
    ) -> None:
        """Mark the set resolved (``retired_above``: its base when its revisions retire) with its event."""
        self.store.mark_resolved(
            unit.conn,
            resolution.change_set_id,
            resolution.status,
            retired_above=retired_above,
            code=resolution.code,
            at=resolution.at,
        )
        unit.emit(NewEvent(event_type, payload, user))


def _notice(change_set: ChangeSet) -> dict[str, Any]:
    """What the agent is told about a resolved set (``code`` and ``at`` for a conflict)."""
    told: dict[str, Any] = {
        "kind": "change_set",
        "proposal_id": change_set.id,
        "status": change_set.status,
        "ops": change_set.op_count,
        "message": NOTICE_MESSAGES[change_set.status],
    }
    if change_set.status == "conflicted":
        told["code"] = change_set.conflict_code
        told["at"] = change_set.conflict_at
    return told
