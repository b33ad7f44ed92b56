"""``TurnWatch``: what ends a running turn from outside its model stream.

A model stream can go quiet (a provider that sends only keep-alives) or talk
for ever; a stop flag read between stream events is then never read, and the
heartbeat keeps the turn alive. So the runner runs a turn's model work as an
asyncio task and ``TurnWatch.watch`` beside it, which every ``poll_seconds``
checks, in this order:

1. the turn's age: ``turn_seconds`` since the watch began → ``turn_timeout``;
2. the model's silence: no stream event for ``idle_seconds`` while no tool
   runs → ``model_timeout`` (a keep-alive is not an event; a tool's own time
   is not the model's silence);
3. the stop flag (one short database read, so a stop from any process is
   seen within ``poll_seconds``) → ``stop``.

When one fires, the watch *halts* the turn: a tool call that has not started
is refused from then on (``tool_may_start`` answers False), a tool already
running is waited for (at most ``tool_grace_seconds``, so its write commits
whole and in order), and only then does ``watch`` return the reason, for the
runner to cancel the task and end the turn: ``turn.stopped`` for ``stop``,
else ``run.failed`` with the reason as its code.

>>> watch = TurnWatch(lambda: False, idle_seconds=120, turn_seconds=900)  # doctest: +SKIP
>>> halt = await watch.watch(asyncio.create_task(model_work()))          # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Final

__all__ = ["MODEL_TIMEOUT", "POLL_SECONDS", "STOP", "TURN_TIMEOUT", "TurnWatch"]

log = logging.getLogger(__name__)

#: Halt reasons; the two timeouts are also the ``run.failed`` codes.
STOP: Final = "stop"
MODEL_TIMEOUT: Final = "model_timeout"
TURN_TIMEOUT: Final = "turn_timeout"

#: How often the watch checks the clock and reads the stop flag.
POLL_SECONDS: Final = 0.5
#: The longest a halt waits for a tool that is already running.
TOOL_GRACE_SECONDS: Final = 30.0
_TOOL_POLL_SECONDS: Final = 0.02


class TurnWatch:
    """Watches one running turn (see the module docstring); thread-safe for the tool threads."""

    def __init__(
        self,
        should_stop: Callable[[], bool],
        *,
        idle_seconds: float,
        turn_seconds: float,
        poll_seconds: float = POLL_SECONDS,
        tool_grace_seconds: float = TOOL_GRACE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if min(idle_seconds, turn_seconds, poll_seconds) <= 0 or tool_grace_seconds < 0:
            raise ValueError("the watch's seconds must be positive")
        self._should_stop = should_stop
        self._idle = idle_seconds
        self._poll = poll_seconds
        self._tool_grace = tool_grace_seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._halt: str | None = None
        self._tools = 0
        now = clock()
        self._active_at = now
        self._deadline = now + turn_seconds

    @property
    def halt(self) -> str | None:
        """The reason the turn was halted (``stop``, ``model_timeout``, ``turn_timeout``), or None."""
        return self._halt

    def touch(self) -> None:
        """The model is not silent: a stream event arrived, or a model request is about to start."""
        self._active_at = self._clock()

    def tool_may_start(self) -> bool:
        """Count a tool call in; False (and nothing counted) once the turn is halted."""
        with self._lock:
            if self._halt is not None:
                return False
            self._tools += 1
            self._active_at = self._clock()
            return True

    def tool_ended(self) -> None:
        """Count a tool call (one ``tool_may_start`` allowed) out; the model's silence starts again."""
        with self._lock:
            self._tools -= 1
            self._active_at = self._clock()

    async def watch(self, work: asyncio.Task[Any]) -> str | None:
        """Wait until ``work`` ends (None) or the turn must be halted (the reason, once no tool runs)."""
        while True:
            done, _ = await asyncio.wait({work}, timeout=self._poll)
            if done:
                return None
            reason = self._reason()
            if reason is not None:
                break
        with self._lock:
            if self._halt is None:
                self._halt = reason
            halt = self._halt
        deadline = self._clock() + self._tool_grace
        while self._running_tools() and self._clock() < deadline and not work.done():
            await asyncio.wait({work}, timeout=_TOOL_POLL_SECONDS)
        return halt

    def _running_tools(self) -> bool:
        with self._lock:
            return self._tools > 0

    def _reason(self) -> str | None:
        now = self._clock()
        if now >= self._deadline:
            return TURN_TIMEOUT
        with self._lock:
            idle = self._tools == 0 and now - self._active_at >= self._idle
        if idle:
            return MODEL_TIMEOUT
        try:
            return STOP if self._should_stop() else None
        except Exception:
            # A missed read is read again at the next poll; the timeouts still hold.
            log.warning("the stop flag could not be read; trying again")
            return None
