"""Turn queues: the ``TurnQueue`` port and the two in-process queues charlotte ships.

A queue only delivers turn ids; the database claim (``Turns.claim``) decides
whether a delivery runs, so a queue may deliver a turn more than once.
``InlineQueue`` runs a turn at once in the caller's thread (tests, scripts);
``ThreadQueue`` is the embedded default, a few worker threads in this process.
The Celery queue lives in ``charlotte.contrib.celery`` (an optional extra).

``ThreadQueue``: turn ids wait in a ``queue.Queue``; each worker blocks on it
(no polling) and calls ``run`` for one turn at a time, so at most ``workers``
turns run at once. An id already waiting is not queued twice (a re-delivery
of a turn still waiting here changes nothing).

A run that raises ``StorageError`` may not have got its turn claimed (the
database failed the runner's first step), and running it again is always
safe (a claimed turn's second claim is a no-op), so the worker runs it again
after each of ``retry_delays`` seconds. When they are used up, or the queue
closes meanwhile, a turn never claimed stays queued in the database, for
the sweeper's re-delivery or the next start to pick up (``Turns.redeliver``).
These delays (about 15 s in all) are shorter than the Celery queue's
``CLAIM_RETRY_COUNTDOWNS`` (about two minutes) on purpose, so the two tables
stay apart: a worker thread here waits out each delay and holds one of the
``workers`` slots meanwhile, while a Celery retry is a new message that holds
no worker.
Any other exception is logged under a correlation id and the worker carries
on: the turn's own end (or the sweeper) is the runner's business, not the
queue's.

>>> ran: list[str] = []
>>> queue = ThreadQueue(ran.append, workers=1)
>>> queue.enqueue("t1")
>>> queue.close(timeout=5)
True
>>> ran
['t1']
"""

from __future__ import annotations

import logging
import queue
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Final, Protocol

from charlotte.errors import StorageError

__all__ = ["RETRY_DELAYS", "InlineQueue", "ThreadQueue", "TurnQueue"]

logger = logging.getLogger(__name__)

#: Put once per worker by ``close``: "no more turns, exit".
_STOP: Final = None

#: Seconds before each new try of a run whose claim failed on a database error.
RETRY_DELAYS: Final = (0.5, 1.0, 2.0, 4.0, 8.0)


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


class ThreadQueue:
    """Runs turns on ``workers`` daemon threads of this process (the embedded default)."""

    def __init__(
        self,
        run: Callable[[str], None],
        *,
        workers: int = 2,
        name: str = "charlotte-turns",
        retry_delays: Sequence[float] = RETRY_DELAYS,
    ) -> None:
        if type(workers) is not int or workers < 1:
            raise ValueError("workers must be an integer >= 1")
        if any(not 0 <= delay < 3600 for delay in retry_delays):
            raise ValueError("retry_delays must be seconds between 0 and 3600")
        self._run = run
        self._retry_delays = tuple(retry_delays)
        self._pending: queue.Queue[str | None] = queue.Queue()
        self._waiting: set[str] = set()  # ids in _pending, not yet taken by a worker
        self._closed = False
        self._closing = threading.Event()  # wakes a worker waiting to retry
        self._lock = threading.Lock()
        # Daemon threads: a host that forgets close() must still be able to exit.
        self._threads = [
            threading.Thread(target=self._work, name=f"{name}-{number}", daemon=True)
            for number in range(1, workers + 1)
        ]
        for thread in self._threads:
            thread.start()

    @property
    def workers(self) -> int:
        """How many worker threads run turns."""
        return len(self._threads)

    def enqueue(self, turn_id: str) -> None:
        """Hand ``turn_id`` to the next free worker (once while it waits); ``RuntimeError`` after ``close``."""
        with self._lock:
            if self._closed:
                raise RuntimeError("ThreadQueue is closed")
            if turn_id in self._waiting:
                return
            self._waiting.add(turn_id)
            self._pending.put(turn_id)

    def close(self, timeout: float | None = None) -> bool:
        """Let the workers finish the turns already enqueued, then join them.

        Returns True when every worker has exited within ``timeout`` seconds
        (None waits as long as it takes). Calling it again only joins again.
        A run waiting to be retried is not retried: its turn stays queued.
        """
        with self._lock:
            if not self._closed:
                self._closed = True
                self._closing.set()
                # After every queued turn: FIFO order lets the workers drain first.
                for _ in self._threads:
                    self._pending.put(_STOP)
        deadline = None if timeout is None else time.monotonic() + timeout
        for thread in self._threads:
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            thread.join(remaining)
        return not any(thread.is_alive() for thread in self._threads)

    def __enter__(self) -> ThreadQueue:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _work(self) -> None:
        while True:
            turn_id = self._pending.get()
            if turn_id is _STOP:
                return
            with self._lock:
                self._waiting.discard(turn_id)
            self._run_with_retries(turn_id)

    def _run_with_retries(self, turn_id: str) -> None:
        for attempt in range(len(self._retry_delays) + 1):
            try:
                self._run(turn_id)
                return
            except StorageError as error:
                if attempt == len(self._retry_delays):
                    break
                delay = self._retry_delays[attempt]
                logger.warning(
                    "turn %s: the database failed its run (%s); retry %d in %.1fs",
                    turn_id, error.code, attempt + 1, delay,
                )  # fmt: skip
                if self._closing.wait(delay):
                    break
            except Exception:
                # Operators find the traceback by the correlation id; nothing
                # else (events, results) ever sees the exception.
                logger.exception(
                    "turn %s: run raised (correlation id %s)", turn_id, uuid.uuid4().hex
                )
                return
        logger.warning("turn %s: given up; if never claimed it is left queued for re-delivery", turn_id)
