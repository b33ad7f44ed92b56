"""``Sweeper``: ends turns whose worker died, and re-delivers turns left queued, every ``interval_seconds``.

A worker that dies mid-turn leaves the turn ``running`` with a heartbeat that
stops moving. ``Turns.sweep`` fails such turns with ``run.failed`` code
``worker_lost`` and frees their sessions; it never re-runs them, because
their tools may already have written.

A process that dies (or whose claims keep failing on a database error) while
turns wait in its in-process queue leaves them ``queued``. With a
``redeliver`` port the sweeper hands such turns to its own queue again
(``Turns.redeliver``): on its first pass every turn queued before
``recover_before`` (the process's start), then on each pass those queued
longer than the heartbeat timeout. A queued turn never started, so running
it is safe, and the claim runs it once even when a live process still holds
it too: several web processes with the thread queue may share one database,
and a turn one of them still holds is run by whichever claims it first.

``Charlotte`` wires it so: with the thread queue, ``recover_before`` is the
instance's creation; a Celery worker's sweeper has no ``recover_before``
(the broker holds queued turns; only one still queued after the heartbeat
timeout is sent again, and one the broker will not take ends
``queue_lost``). The inline queue has no sweeper: ``send`` runs its turn, and
a turn a crash left queued there is ended by ``stop``, which ends any queued
turn at once.

The sweeper is only the clock around these: a daemon thread that waits on an
``Event`` between passes (no busy loop), so ``stop()`` wakes it at once.

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

__all__ = ["RedeliversTurns", "Sweeper", "SweepsTurns"]

logger = logging.getLogger(__name__)


class SweepsTurns(Protocol):
    """What the sweeper needs of ``Turns``."""

    def sweep(self, now: datetime | None = None) -> list[str]:
        """Fail running turns whose heartbeat is stale; their ids."""
        ...


class RedeliversTurns(Protocol):
    """What the sweeper needs to re-deliver turns left queued (``Turns.redeliver``)."""

    def redeliver(self, queued_before: datetime | None = None) -> list[str]:
        """Hand turns left queued to the queue again; their ids."""
        ...


class Sweeper:
    """Calls ``turns.sweep()`` at start and then every ``interval_seconds`` on a daemon thread."""

    def __init__(
        self,
        turns: SweepsTurns,
        *,
        interval_seconds: float,
        name: str = "charlotte-sweeper",
        redeliver: RedeliversTurns | None = None,
        recover_before: datetime | None = None,
    ) -> None:
        if (
            isinstance(interval_seconds, bool)
            or not isinstance(interval_seconds, int | float)
            or not math.isfinite(interval_seconds)
            or interval_seconds <= 0
        ):
            raise ValueError("interval_seconds must be a finite number > 0")
        self._turns = turns
        self._redeliver = redeliver
        self._recover_before = recover_before
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

    def redeliver_once(self) -> list[str]:
        """Re-deliver turns left queued now, in the caller's thread; their ids (none without the port)."""
        if self._redeliver is None:
            return []
        # The first pass that gets through recovers what was queued before the start.
        handed = self._redeliver.redeliver(self._recover_before)
        self._recover_before = None
        return handed

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
            try:
                handed = self.redeliver_once()
            except Exception:
                logger.exception("re-delivery raised (correlation id %s)", uuid.uuid4().hex)
            else:
                if handed:
                    logger.warning("re-delivered %d turn(s) left queued: %s", len(handed), handed)
            self._wake.wait(self._interval)
