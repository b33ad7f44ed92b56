"""``ThreadQueue``: the embedded default queue, a few worker threads in this process.

Turn ids wait in a ``queue.Queue``; each worker blocks on it (no polling) and
calls ``run`` for one turn at a time, so at most ``workers`` turns run at once.
A run that raises is logged under a correlation id and the worker carries on:
the turn's own end (or the sweeper) is the runner's business, not the queue's.

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
from collections.abc import Callable
from typing import Final

__all__ = ["ThreadQueue"]

logger = logging.getLogger(__name__)

#: Put once per worker by ``close``: "no more turns, exit".
_STOP: Final = None


class ThreadQueue:
    """Runs turns on ``workers`` daemon threads of this process (the embedded default)."""

    def __init__(
        self,
        run: Callable[[str], None],
        *,
        workers: int = 2,
        name: str = "charlotte-turns",
    ) -> None:
        if type(workers) is not int or workers < 1:
            raise ValueError("workers must be an integer >= 1")
        self._run = run
        self._pending: queue.Queue[str | None] = queue.Queue()
        self._closed = False
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
        """Hand ``turn_id`` to the next free worker; raises ``RuntimeError`` after ``close``."""
        with self._lock:
            if self._closed:
                raise RuntimeError("ThreadQueue is closed")
            self._pending.put(turn_id)

    def close(self, timeout: float | None = None) -> bool:
        """Let the workers finish the turns already enqueued, then join them.

        Returns True when every worker has exited within ``timeout`` seconds
        (None waits as long as it takes). Calling it again only joins again.
        """
        with self._lock:
            if not self._closed:
                self._closed = True
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
            try:
                self._run(turn_id)
            except Exception:
                # Operators find the traceback by the correlation id; nothing
                # else (events, results) ever sees the exception.
                logger.exception(
                    "turn %s: run raised (correlation id %s)", turn_id, uuid.uuid4().hex
                )
