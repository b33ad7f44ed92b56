"""The runtime: turns in the database, the queue that delivers them, the model run.

Modules: ``turns`` (``Turns``: send, stop, claim, heartbeat, end and sweep, each
one transaction), ``queues`` (``TurnQueue``, ``InlineQueue``, ``ThreadQueue``), ``runner``
(``TurnRunner``: one turn through the model with the nine tools), ``recorder``
(``StreamRecorder``: stream events → log events), ``guide`` and ``modes``
(the builder guide, its hash, the mode registry), ``models`` (``resolve_model``;
``offline`` is ``charlotte.offline``; ``provider_failure``: a provider's error as a
code), ``provider_http`` (the providers' HTTP client: bounded retries),
``tool_arguments`` (malformed tool-call JSON to the tools), ``telemetry``
(``UsageTelemetry``). Only
this package, ``charlotte.offline`` and ``charlotte.testing`` import the model
library.
"""

from __future__ import annotations

from charlotte.runtime.guide import Guide, build_guide
from charlotte.runtime.models import resolve_model
from charlotte.runtime.modes import BUILDER_MODE, Mode, ModeRegistry, check_mode
from charlotte.runtime.queues import InlineQueue, ThreadQueue, TurnQueue
from charlotte.runtime.recorder import StreamRecorder
from charlotte.runtime.runner import (
    CONTINUATION,
    HarnessDefaults,
    TurnContext,
    TurnContextFactory,
    TurnRunner,
)
from charlotte.runtime.sweeper import Sweeper
from charlotte.runtime.telemetry import UsageTelemetry
from charlotte.runtime.turns import DEFAULT_HEARTBEAT_TIMEOUT, MAX_MESSAGE, Turns

__all__ = [
    "BUILDER_MODE",
    "CONTINUATION",
    "DEFAULT_HEARTBEAT_TIMEOUT",
    "MAX_MESSAGE",
    "Guide",
    "HarnessDefaults",
    "InlineQueue",
    "Mode",
    "ModeRegistry",
    "StreamRecorder",
    "Sweeper",
    "ThreadQueue",
    "TurnContext",
    "TurnContextFactory",
    "TurnQueue",
    "TurnRunner",
    "Turns",
    "UsageTelemetry",
    "build_guide",
    "check_mode",
    "resolve_model",
]
