"""The intents of the offline builder's follow-ups: a registry of recognizers and planners."""

from __future__ import annotations

from charlotte.offline.intents.registry import INTENTS, edit_for, read_clause, read_requests

__all__ = ["INTENTS", "edit_for", "read_clause", "read_requests"]
