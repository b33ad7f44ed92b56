"""Errors of the page core, and the root of charlotte's exception tree.

``CharlotteError`` is defined here because ``page/`` is the bottom layer and
imports nothing else of charlotte; ``charlotte.errors`` re-exports it and draws
the whole tree.
"""

from __future__ import annotations


class CharlotteError(Exception):
    """Root of every exception charlotte raises on purpose."""

    code: str = "charlotte_error"
