"""``Sweeper``: ends turns whose worker died, every ``interval_seconds``.

A worker that dies mid-turn leaves the turn ``running`` with a heartbeat that
stops moving. ``Turns.sweep`` fails such turns with ``run.failed`` code
``worker_lost`` and frees their sessions; it never re-runs them, because
their tools may already have written. The sweeper is only the clock around
it: a daemon thread that waits on an ``Event`` between sweeps (no busy loop),
so ``stop()`` wakes it at once.

>>> sweeper = Sweeper(turns, interval_seconds=30)   # doctest: +SKIP
>>> sweeper.start()                                 # doctest: +SKIP
>>> sweeper.stop()                                  # doctest: +SKIP
"""

from __future__ import annotations

import logging
import math
import threading
import uuid
from datetime import datetime
from typing import Protocol

__all__ = ["Sweeper", "SweepsTurns"]

logger = logging.getLogger(__name__)


class SweepsTurns(Protocol):
    """What the sweeper needs of ``Turns``."""

    def sweep(self, now: datetime | None = None) -> list[str]:
        """Fail running turns whose heartbeat is stale; their ids."""
        ...


class Sweeper:
    """Calls ``turns.sweep()`` at start and then every ``interval_seconds`` on a daemon thread."""

    def __init__(
        self,
        turns: SweepsTurns,
        *,
        interval_seconds: float,
        name: str = "charlotte-sweeper",
    ) -> None:
        if (
            isinstance(interval_seconds, bool)
            or not isinstance(interval_seconds, int | float)
            or not math.isfinite(interval_seconds)
            or interval_seconds <= 0
        ):
            raise ValueError("interval_seconds must be a finite number > 0")
        self._turns = turns
        self._interval = float(interval_seconds)
        self._name = name
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    @property
    def running(self) -> bool:
        """True while the sweeper thread is alive."""
        return self._thread is not None and self._thread.is_alive()

    def sweep_once(self) -> list[str]:
        """Sweep now, in the caller's thread; the ids of the turns it failed."""
        return self._turns.sweep()

    def start(self) -> None:
        """Start sweeping; raises ``RuntimeError`` when already started."""
        with self._lock:
            if self._thread is not None:
                raise RuntimeError("Sweeper already started")
            self._thread = threading.Thread(target=self._loop, name=self._name, daemon=True)
            self._thread.start()

    def stop(self, timeout: float | None = None) -> bool:
        """Stop sweeping and join the thread; True when it has exited within ``timeout``."""
        thread = self._thread
        if thread is None:
            return True
        self._wake.set()
        thread.join(timeout)
        return not thread.is_alive()

    def __enter__(self) -> Sweeper:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _loop(self) -> None:
        while not self._wake.is_set():
            try:
                swept = self.sweep_once()
            except Exception:
                # A database hiccup must not end sweeping for good: try again next interval.
                logger.exception("sweep raised (correlation id %s)", uuid.uuid4().hex)
            else:
                if swept:
                    logger.warning("swept %d turn(s) as worker_lost: %s", len(swept), swept)
            self._wake.wait(self._interval)
