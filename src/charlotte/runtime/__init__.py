"""The runtime: turns in the database, the queue that delivers them, the models.

Modules: ``turns`` (``Turns``, ``TurnRecord``: send, stop, claim, heartbeat,
end and sweep, each one transaction), ``queue`` (``TurnQueue``, ``InlineQueue``),
``models`` (``resolve_model`` from a settings string; ``UnknownModel``,
``ModelUnavailable``). Only this package (and ``charlotte.testing``) imports
the model library.
"""

from __future__ import annotations

from charlotte.runtime.models import ModelUnavailable, UnknownModel, resolve_model
from charlotte.runtime.queue import InlineQueue, TurnQueue
from charlotte.runtime.turns import DEFAULT_HEARTBEAT_TIMEOUT, MAX_MESSAGE, TurnRecord, Turns

__all__ = [
    "DEFAULT_HEARTBEAT_TIMEOUT",
    "MAX_MESSAGE",
    "InlineQueue",
    "ModelUnavailable",
    "TurnQueue",
    "TurnRecord",
    "Turns",
    "UnknownModel",
    "resolve_model",
]
