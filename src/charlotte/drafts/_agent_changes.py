"""What ``cms_changes_since`` answers an approve_on_save agent: the delta from a revision it was given.

A revision names the page the agent read when it was given that number: the
open change set's working copy, else the draft.

- **Inside an open set** the working copy's own history answers: the draft's
  op history up to the set's ``base_revision``, then the set's ops (actor
  ``agent``). Human edits made to the draft meanwhile are not part of it.
- **Retired revisions.** Once a set is resolved, its working revisions above
  ``base_revision`` name no page. An approval replays the ops after the
  person's edits, at other revisions. A rejection or a conflict drops them,
  and later draft revisions reuse their numbers for other pages. The one
  exception is an approval on an unchanged draft: the draft then goes through
  exactly the working copy's states, at the same revisions. The set's row
  says which (``ChangeSet.retired_above``). For a retired revision the answer
  is ``Refused("revision_unknown")`` (re-read the page with ``cms_get``), for
  as long as the session lives: the number may name a newer page too, and
  nothing tells which one the agent means.
- Every other revision the agent was given names the page it read then, so
  the delta is exact. Replayed on that page, it gives the page read now.

Errors carry the current revision in their detail: ``revision_unknown``,
``stale_revision`` (above the current revision), ``history_truncated``
(further back than the workspace's ``history_limit``).
"""

from __future__ import annotations

from typing import Any

from charlotte.drafts.workspace import Workspace
from charlotte.errors import PageSessionError, Refused
from charlotte.events import AGENT_ACTOR
from charlotte.storage import ChangeSetStore, UnitOfWork

__all__ = ["agent_changes"]


def agent_changes(
    ws: Workspace, store: ChangeSetStore, unit: UnitOfWork, revision: int
) -> list[dict[str, Any]]:
    """``[{"revision", "actor", "op"}]`` from the agent's ``revision`` to what it reads now (inside ``unit``)."""
    conn, session = unit.conn, unit.session
    # Read before the retired check: a set resolved in between is retired by then.
    change_set = store.find_open(conn, session)
    if type(revision) is int and store.retired(conn, session, revision):
        current = change_set.revision if change_set else ws.load_draft(unit)[1]
        raise Refused("revision_unknown", detail={"revision": current})
    if change_set is None:
        return ws.changes_since(unit, revision)
    current, base = change_set.revision, change_set.base_revision
    if type(revision) is not int or revision < 0 or revision < current - ws.history_limit:
        raise PageSessionError("history_truncated", detail={"revision": current})
    if revision > current:
        raise PageSessionError("stale_revision", detail={"revision": current})
    before: list[dict[str, Any]] = []
    if revision < base:
        entries = ws.pages.ops_since(conn, session.tenant, session.page, revision, limit=base - revision)
        if len(entries) != base - revision or entries[-1].revision != base:
            raise PageSessionError("history_truncated", detail={"revision": current})
        before = [entry.to_dict() for entry in entries]
    first = max(revision, base)
    mine = [
        {"revision": first + 1 + i, "actor": AGENT_ACTOR, "op": op}
        for i, op in enumerate(change_set.ops[first - base :])
    ]
    return before + mine
