"""One deadline wait for the tests: poll a check until it holds, fail with what was awaited.

Imports nothing but pytest, so any test can use it without loading Celery or a
database driver. ``tests.support.celery_harness.wait_until`` wraps it to also fail
at once (with the worker's output) when a worker process exits first.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

import pytest

T = TypeVar("T")


def _nothing() -> str | None:
    return None


def _no_detail() -> str:
    return ""


def wait_until(
    check: Callable[[], T | None],
    timeout: float,
    what: str,
    *,
    every: float = 0.05,
    broken: Callable[[], str | None] = _nothing,
    detail: Callable[[], str] = _no_detail,
) -> T:
    """Poll ``check`` every ``every`` seconds until it returns something truthy, and return that.

    Fails the test after ``timeout`` seconds (the message names ``what`` and ends
    with ``detail()``), or at once when ``broken()`` returns a reason.
    """
    deadline = time.monotonic() + timeout
    pause = threading.Event()
    while True:
        found = check()
        if found:
            return found
        reason = broken()
        if reason is not None:
            pytest.fail(reason)
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout}s waiting for {what}{detail()}")
        pause.wait(every)


def eventually(
    predicate: Callable[[], bool],
    timeout: float = 20.0,
    what: str = "the condition",
    every: float = 0.005,
) -> None:
    """``wait_until`` for a yes/no condition."""
    wait_until(predicate, timeout, what, every=every)
