"""Drafts and change sets: every write of a page and the event that records it.

``workspace`` (``Workspace``: the agent's writes, a person's edits, publishing,
the op history the agent reads) and ``change_sets`` (``ChangeSets``: an
approve_on_save session's agent writes wait in a change set for a person).
Private to this package: ``_writes`` (what every write shares) and
``_agent_changes`` (what ``cms_changes_since`` answers the agent of an
approve_on_save session). The rows live in ``charlotte.storage``.
"""

from __future__ import annotations

from charlotte.drafts.change_sets import NOTICE_MESSAGES, REPLAY_CHUNK, ChangeSets, Resolution
from charlotte.drafts.workspace import SiteLinks, Workspace, Written

__all__ = [
    "NOTICE_MESSAGES",
    "REPLAY_CHUNK",
    "ChangeSets",
    "Resolution",
    "SiteLinks",
    "Workspace",
    "Written",
]
