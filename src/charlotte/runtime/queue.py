"""``TurnQueue``: the port that hands a queued turn to whatever runs it.

The queue only delivers turn ids; the database claim (``Turns.claim``) decides
whether a delivery runs, so a queue may deliver a turn more than once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

__all__ = ["InlineQueue", "TurnQueue"]


class TurnQueue(Protocol):
    """Delivers committed turn ids to a worker."""

    def enqueue(self, turn_id: str) -> None:
        """Hand ``turn_id`` over; called after the turn's transaction committed."""
        ...


class InlineQueue:
    """Runs each turn at once in the caller's thread (tests and scripts).

    >>> ran: list[str] = []
    >>> InlineQueue(ran.append).enqueue("t1")
    >>> ran
    ['t1']
    """

    def __init__(self, run: Callable[[str], None]) -> None:
        self._run = run

    def enqueue(self, turn_id: str) -> None:
        """Run the turn now; returns when the run returns."""
        self._run(turn_id)
