"""Test reads of change sets that production code does not need."""

from __future__ import annotations

from charlotte.drafts.change_sets import ChangeSets
from charlotte.storage import ChangeSet


def open_change_set(change_sets: ChangeSets, session_id: str, tenant: str) -> ChangeSet | None:
    """The session's open change set, read in a unit of its own, or None."""
    with change_sets.workspace.units.read(session_id, tenant) as unit:
        return change_sets.open_change_set(unit)
