"""The Celery turn queue: ``CeleryQueue`` sends turn ids, a Celery worker runs them.

Delivery is at-least-once and that is fine: the worker's run claims the turn
in the database first, so a redelivered turn runs once. How Celery is set up,
and why:

- ``task_acks_late``: the message is acknowledged after the run returns, so
  a turn whose worker vanished before it even started is delivered again.
- ``task_reject_on_worker_lost=False``: a turn whose worker died *while
  running* is never put back; its tools may already have written. The
  sweeper (``Turns.sweep``) fails it ``worker_lost`` instead. A pool
  process that died before its claim loses the message the same way, but
  its turn is still ``queued``: a sweeper sends it again (below).
- ``task_acks_on_failure_or_timeout=True``: a task that raised is acked,
  not redelivered. So the task never lets a database error pass: a run that
  raises ``StorageError`` (the claim could not be made: the database is down
  or locked) is retried with ``Task.retry`` after ``CLAIM_RETRY_COUNTDOWNS``
  seconds (1, 2, 4 … 30; about two minutes in all), the retry message
  published before the failed one is acked. (Longer than ``ThreadQueue``'s
  ``RETRY_DELAYS``: a retry here holds no worker while it waits.) A retry of a turn that was
  claimed after all is a no-op. When the retries are used up (or the broker
  refuses the retry: Celery then rejects the message), the turn stays
  ``queued`` in the database, and a worker's sweeper sends it again once it
  has waited longer than the heartbeat timeout (``Turns.redeliver``; a
  turn the broker will not take then ends ``queue_lost``). Everything else a
  run raises is logged and acked: the runner has ended its turn with a code.
- A long broker ``visibility_timeout`` (Redis, SQS): a turn that runs long is
  not handed to a second worker while the first still runs it.
- JSON only, one message at a time per worker process, no result backend.

A host builds the same ``Charlotte`` in its web and worker processes (same
settings, same hooks); the web process enqueues through ``charlotte.queue``
and a worker process runs ``Charlotte.worker_app()``, whose task runs each
turn through that instance's runner (the host's modes, assets, page
repository and ``context_using`` caps) and which starts the instance's
sweeper::

    charlotte = build_charlotte()      # the host's one setup function (README)
    charlotte.worker_app().worker_main(["worker", "--loglevel=INFO"])

There is no other way to build a worker: the turns, tools, workspace and
model a worker runs with are the ``Charlotte``'s, wired in one place.
"""

from __future__ import annotations

import logging
import threading
import uuid
import weakref
from collections.abc import Callable, Mapping
from typing import Any, Final, TypeVar

from celery import Celery, Task
from celery.signals import worker_process_init
from kombu.exceptions import KombuError

from charlotte.errors import QueueUnavailable, StorageError
from charlotte.settings import Settings

__all__ = [
    "CLAIM_RETRY_COUNTDOWNS",
    "DEFAULT_QUEUE",
    "TASK_NAME",
    "VISIBILITY_TIMEOUT_SECONDS",
    "CeleryQueue",
    "celery_app",
    "in_each_pool_process",
]

logger = logging.getLogger(__name__)

#: The one task: run the turn with this id.
TASK_NAME: Final = "charlotte.run_turn"

#: The broker queue turns go to unless the app names another.
DEFAULT_QUEUE: Final = "charlotte"

#: Longer than any turn may run: a turn still running is never redelivered.
VISIBILITY_TIMEOUT_SECONDS: Final = 12 * 60 * 60

#: Seconds before each retry of a task whose run failed on a database error.
CLAIM_RETRY_COUNTDOWNS: Final = (1, 2, 4, 8, 15, 30, 30, 30)

# Bounded publish retries: a broker that is down must not hang Turns.send.
_PUBLISH_RETRY: Final = {"max_retries": 3, "interval_start": 0, "interval_step": 0.5, "interval_max": 2}

RunFactory = Callable[[], Callable[[str], None]]
T = TypeVar("T")


def celery_app(
    settings: Settings,
    run_factory: RunFactory | None = None,
    *,
    queue: str = DEFAULT_QUEUE,
    visibility_timeout: float = VISIBILITY_TIMEOUT_SECONDS,
    transport_options: Mapping[str, Any] | None = None,
) -> Celery:
    """A Celery app on ``settings.broker_url``; given a ``run_factory``, with the task ``charlotte.run_turn``.

    ``run_factory`` makes the function that runs a turn; it is called once,
    on the first task a worker process receives (a producer never calls it).
    A ``Charlotte`` passes its own runner's (``Charlotte.worker_app()``);
    without one the app only publishes (it has no task to run).
    ``transport_options`` go to the broker transport beside the visibility
    timeout (e.g. Redis ``global_keyprefix``); producer and worker must agree.
    """
    if not settings.broker_url:
        raise ValueError("settings.broker_url is required for the Celery queue")
    if not queue:
        raise ValueError("queue must be a non-empty name")
    if visibility_timeout <= 0:
        raise ValueError("visibility_timeout must be positive")
    app = Celery("charlotte", broker=settings.broker_url, set_as_current=False)
    app.conf.update(
        task_acks_late=True,
        task_reject_on_worker_lost=False,
        task_acks_on_failure_or_timeout=True,
        broker_transport_options={
            **(transport_options or {}),
            "visibility_timeout": visibility_timeout,
        },
        task_serializer="json",
        accept_content=["json"],
        result_serializer="json",
        task_ignore_result=True,
        task_default_queue=queue,
        worker_prefetch_multiplier=1,
        broker_connection_retry_on_startup=True,
        enable_utc=True,
        timezone="UTC",
    )
    if run_factory is None:
        return app
    run = _LazyRun(run_factory)

    def run_turn(task: Task, turn_id: str) -> None:
        if not isinstance(turn_id, str):
            logger.error("task %s: a message without a turn id was dropped", TASK_NAME)
            return
        try:
            run(turn_id)
        except StorageError as error:
            # The claim could not be made: nothing ran, so running it again is safe.
            attempt = task.request.retries
            if attempt >= len(CLAIM_RETRY_COUNTDOWNS):
                logger.warning("turn %s: left queued for a sweeper to send again (the database kept failing)", turn_id)
                return
            countdown = CLAIM_RETRY_COUNTDOWNS[attempt]
            logger.warning(
                "turn %s: the database failed its run (%s); retry %d in %ss",
                turn_id, error.code, attempt + 1, countdown,
            )  # fmt: skip
            raise task.retry(countdown=countdown, max_retries=len(CLAIM_RETRY_COUNTDOWNS)) from None
        except Exception:
            # The runner ends its own turns with a coded event; whatever still
            # escapes is logged for operators and acked, never retried.
            logger.exception("turn %s: run raised (correlation id %s)", turn_id, uuid.uuid4().hex)

    # Not shared: each app runs its own factory's function, even with several apps in one process.
    app.task(name=TASK_NAME, bind=True, ignore_result=True, acks_late=True, shared=False)(run_turn)
    return app


def in_each_pool_process(owner: T, callback: Callable[[T], None]) -> None:
    """Call ``callback(owner)`` in every process a prefork worker pool starts, while ``owner`` lives.

    ``owner`` is held weakly. A pool process is forked from the worker's main
    process and inherits its objects, e.g. an engine's pooled connections,
    which it must not share with its parent.
    """
    target = weakref.ref(owner)

    def receiver(**_: Any) -> None:
        held = target()
        if held is not None:
            callback(held)

    # Signals are process-wide; the receiver goes when the owner does.
    worker_process_init.connect(receiver, weak=False)
    weakref.finalize(owner, worker_process_init.disconnect, receiver)


class CeleryQueue:
    """``TurnQueue`` that sends each turn id to the app's broker as ``charlotte.run_turn``."""

    def __init__(self, app: Celery) -> None:
        self._app = app
        # The broker's transport imported now (a connection object dials
        # nothing until used), not in the first send: a burst of first turns
        # would otherwise all wait on that one import. Only the import: with
        # the whole producer pool built here, the worker tests' workers took
        # no tasks.
        app.connection_for_write().release()

    @property
    def app(self) -> Celery:
        """The Celery app turns are published through."""
        return self._app

    def enqueue(self, turn_id: str) -> None:
        """Publish the turn id; raises ``QueueUnavailable`` when the broker refuses it."""
        try:
            self._app.send_task(
                TASK_NAME,
                args=[turn_id],
                retry=True,
                retry_policy=dict(_PUBLISH_RETRY),
            )
        except (KombuError, OSError) as error:
            raise QueueUnavailable() from error


class _LazyRun:
    """Builds the run function on first use, once, even with concurrent tasks."""

    def __init__(self, factory: RunFactory) -> None:
        self._factory = factory
        self._run: Callable[[str], None] | None = None
        self._lock = threading.Lock()

    def __call__(self, turn_id: str) -> None:
        with self._lock:
            if self._run is None:
                self._run = self._factory()
            run = self._run
        run(turn_id)
