"""The runtime: turns in the database, the queue that delivers them.

Modules: ``turns`` (``Turns``, ``TurnRecord``: send, stop, claim, heartbeat,
end and sweep, each one transaction), ``queue`` (``TurnQueue``, ``InlineQueue``).
"""

from __future__ import annotations

from charlotte.runtime.queue import InlineQueue, TurnQueue
from charlotte.runtime.turns import DEFAULT_HEARTBEAT_TIMEOUT, MAX_MESSAGE, TurnRecord, Turns

__all__ = [
    "DEFAULT_HEARTBEAT_TIMEOUT",
    "MAX_MESSAGE",
    "InlineQueue",
    "TurnQueue",
    "TurnRecord",
    "Turns",
]
