"""ThreadQueue: an id waiting is queued once; a run failing on the database is retried, boundedly."""

from __future__ import annotations

import threading
import time

import pytest

from charlotte.errors import StorageError
from charlotte.runtime.queues import ThreadQueue

WAIT = 30.0


class Flaky:
    """A run that fails with ``error`` the first ``failures`` times, recording each try."""

    def __init__(self, failures: int, error: Exception | None = None) -> None:
        self.failures = failures
        self.error = error or StorageError("unavailable")
        self.tries: list[tuple[str, float]] = []
        self.done = threading.Event()

    def __call__(self, turn_id: str) -> None:
        self.tries.append((turn_id, time.monotonic()))
        if len(self.tries) <= self.failures:
            raise self.error
        self.done.set()


def test_an_id_waiting_in_the_queue_is_not_queued_twice() -> None:
    gate = threading.Event()
    ran: list[str] = []

    def run(turn_id: str) -> None:
        gate.wait(WAIT)
        ran.append(turn_id)

    queue = ThreadQueue(run, workers=1)
    queue.enqueue("busy")
    for _ in range(3):
        queue.enqueue("t1")
    gate.set()
    assert queue.close(timeout=WAIT)
    assert ran == ["busy", "t1"]


def test_an_id_taken_by_a_worker_may_be_queued_again() -> None:
    ran: list[str] = []
    queue = ThreadQueue(ran.append, workers=1)
    queue.enqueue("t1")
    deadline = time.monotonic() + WAIT
    while not ran and time.monotonic() < deadline:
        time.sleep(0.01)
    queue.enqueue("t1")
    assert queue.close(timeout=WAIT)
    assert ran == ["t1", "t1"]


def test_a_run_failing_on_the_database_is_retried_after_each_delay() -> None:
    run = Flaky(failures=2)
    queue = ThreadQueue(run, workers=1, retry_delays=(0.05, 0.1, 5.0))
    queue.enqueue("t1")

    assert run.done.wait(WAIT)
    assert queue.close(timeout=WAIT)
    times = [at for _, at in run.tries]
    assert [turn for turn, _ in run.tries] == ["t1"] * 3
    assert times[1] - times[0] >= 0.05 and times[2] - times[1] >= 0.1


def test_retries_are_bounded_and_the_worker_carries_on(caplog: pytest.LogCaptureFixture) -> None:
    run = Flaky(failures=100)
    queue = ThreadQueue(run, workers=1, retry_delays=(0.01, 0.01))
    queue.enqueue("t1")
    queue.enqueue("t2")
    deadline = time.monotonic() + WAIT
    while len(run.tries) < 6 and time.monotonic() < deadline:
        time.sleep(0.01)

    assert queue.close(timeout=WAIT)
    assert [turn for turn, _ in run.tries] == ["t1"] * 3 + ["t2"] * 3
    assert "left queued for re-delivery" in caplog.text


def test_any_other_error_is_not_retried() -> None:
    run = Flaky(failures=1, error=RuntimeError("a bug"))
    queue = ThreadQueue(run, workers=1, retry_delays=(0.01,))
    queue.enqueue("t1")
    assert queue.close(timeout=WAIT)
    assert len(run.tries) == 1


def test_close_does_not_wait_out_a_retry_delay() -> None:
    run = Flaky(failures=100)
    queue = ThreadQueue(run, workers=1, retry_delays=(60.0,))
    queue.enqueue("t1")
    deadline = time.monotonic() + WAIT
    while not run.tries and time.monotonic() < deadline:
        time.sleep(0.01)
    assert run.tries, "the first try never came"

    started = time.monotonic()
    assert queue.close(timeout=WAIT)
    assert time.monotonic() - started < 5.0
    assert len(run.tries) == 1


@pytest.mark.parametrize("delays", [(-1.0,), (3600.0,)])
def test_retry_delays_are_bounded(delays: tuple[float, ...]) -> None:
    with pytest.raises(ValueError):
        ThreadQueue(lambda _: None, retry_delays=delays)
