"""Test reads of change sets that production code does not need."""

from __future__ import annotations

from charlotte.drafts.change_sets import ChangeSets
from charlotte.storage import ChangeSet, read_connection


def open_change_set(change_sets: ChangeSets, session_id: str, tenant: str) -> ChangeSet | None:
    """The session's open change set, read in a transaction of its own, or None."""
    workspace = change_sets.workspace
    with read_connection(workspace.engine) as conn:
        return change_sets.open_change_set(conn, workspace.session(conn, session_id, tenant))
