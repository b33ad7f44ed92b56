"""A Celery worker process for the integration tests: ``python -m tests.support.celery_worker``.

It builds ``Settings`` from its own arguments (nothing from the environment)
and runs ``Charlotte(settings).worker_app()`` — the only way to build a
worker — with the solo pool, so the process that runs a turn is this very
process (a SIGKILL ends the turn's worker). The app is pointed at the test
run's own queue and Redis keys before it first talks to Redis; each worker
sweeps, as every worker does.

Modes, i.e. which ``Charlotte`` runs a delivered turn:

- ``offline``: ``Charlotte(settings)`` with the offline model.
- ``block``: a scripted model that makes one ``cms_apply`` and then, while
  planning its next tool call, touches ``--reached`` and waits forever (the
  test kills the worker there).
- ``host``: ``host_charlotte(settings)``, the way a host runs a worker: its
  own mode and per-turn caps (below) and the offline model.
- ``recall``: ``Charlotte(settings)`` with ``RecallModel``, which replies with
  the conversation it was handed (``tests.support.conversation_model``).
"""

from __future__ import annotations

import argparse
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from celery import Celery
from celery.signals import task_postrun
from tests.support.conversation_model import RecallModel

from charlotte.app import Charlotte
from charlotte.contrib.celery import CeleryQueue
from charlotte.errors import Refused
from charlotte.runtime.guide import Guide
from charlotte.runtime.modes import Mode, builder_mode
from charlotte.runtime.runner import TurnContext
from charlotte.settings import Settings
from charlotte.storage import SessionRecord, TurnRecord
from charlotte.testing import ScriptedModel, ToolCall

#: What the blocked turn wrote before it blocked (the test checks the draft holds exactly this).
BLOCK_OPS: list[dict[str, Any]] = [
    {"t": "insert_node", "node": {"id": "hero", "type": "section", "parent": None}},
    {
        "t": "insert_node",
        "node": {
            "id": "title",
            "type": "heading",
            "parent": "hero",
            "props": {"content": "Rosa's Bakery", "level": 1},
        },
    },
]


#: The host's own mode (a worker without the host's registry fails its turns ``not_found``).
HOST_MODE = "bakery_builder"
#: A turn whose message says this is refused by the host's caps, with ``HOST_REFUSAL``.
OVER_BUDGET = "over budget"
HOST_REFUSAL = "usage_limit"


class HostBudget:
    """The host's per-turn caps: a turn whose message says ``OVER_BUDGET`` is refused."""

    def for_turn(self, session: SessionRecord, turn: TurnRecord) -> TurnContext | None:
        """Refuse an over-budget turn; no caps beyond the settings otherwise."""
        if OVER_BUDGET in turn.message:
            raise Refused(HOST_REFUSAL)
        return None


def bakery_mode(guide: Guide) -> Mode:
    """charlotte's builder prompt plus one house rule (the guide's hash still appears once)."""
    return Mode(HOST_MODE, builder_mode(guide).prompt + "\nHouse rule: name the bakery in the hero.")


def host_charlotte(settings: Settings) -> Charlotte:
    """A host's one setup function: the web side and the worker side both build this."""
    charlotte = Charlotte(settings)
    charlotte.modes.register(HOST_MODE, bakery_mode)
    charlotte.context_using(HostBudget())
    return charlotte


def isolate(app: Celery, queue: str, key_prefix: str, **transport: Any) -> None:
    """Point ``app`` at this test run's own queue and Redis keys (before it first talks to Redis)."""
    app.conf.task_default_queue = queue
    options = {**app.conf.broker_transport_options, **transport}
    if key_prefix:
        options["global_keyprefix"] = key_prefix
    app.conf.broker_transport_options = options


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--schema", default=None, help="PostgreSQL schema holding the tables")
    parser.add_argument("--broker-url", required=True)
    parser.add_argument("--queue", required=True)
    parser.add_argument("--mode", choices=("offline", "block", "host", "recall"), required=True)
    parser.add_argument("--reached", type=Path, default=None)
    parser.add_argument("--heartbeat-seconds", type=float, default=0.2)
    parser.add_argument("--key-prefix", default="", help="Redis global_keyprefix (isolation)")
    parser.add_argument("--visibility-timeout", type=float, default=None)
    parser.add_argument("--restore-interval", type=int, default=None)
    parser.add_argument("--handled", type=Path, default=None, help="append each handled turn id")
    return parser.parse_args(argv)


def _block_until_killed(reached: Path) -> Callable[[list[Any]], dict[str, Any]]:
    def arguments(results: list[Any]) -> dict[str, Any]:
        reached.write_text(str(os.getpid()), encoding="utf-8")
        # Never set: the test SIGKILLs this process; the bound only keeps an
        # orphan from living for ever.
        threading.Event().wait(600)
        return {}

    return arguments


def _note_handled(handled: Path) -> None:
    """Append each handled turn id to ``handled`` once its task returns (how a test sees a delivery)."""

    def noted(args: Sequence[Any] | None = None, **_: Any) -> None:
        if args:
            with handled.open("a", encoding="utf-8") as out:
                out.write(f"{args[0]}\n")

    task_postrun.connect(noted, weak=False)


def _charlotte(options: argparse.Namespace, settings: Settings) -> Charlotte:
    if options.mode == "host":
        return host_charlotte(settings)
    if options.mode == "offline":
        return Charlotte(settings)
    if options.mode == "recall":
        return Charlotte(settings, model_factory=RecallModel)
    reached: Path = options.reached

    def blocking() -> ScriptedModel:
        return ScriptedModel(
            [
                ToolCall("cms_apply", {"basedOn": 0, "ops": BLOCK_OPS}),
                ToolCall("cms_read", _block_until_killed(reached)),
            ]
        )

    return Charlotte(settings, model_factory=blocking)


def main(argv: Sequence[str] | None = None) -> None:
    """Start the worker; returns only when it is shut down."""
    options = _arguments(argv)
    settings = Settings(
        database_url=options.database_url,
        database_schema=options.schema,
        broker_url=options.broker_url,
        queue="celery",
        model="offline",
        heartbeat_seconds=options.heartbeat_seconds,
        heartbeat_timeout_seconds=options.heartbeat_seconds * 5,
    )
    transport: dict[str, Any] = {}
    if options.restore_interval is not None:
        # Look for abandoned messages every N seconds, scanning on every look.
        transport["unacked_restore_interval"] = options.restore_interval
        transport["unacked_restore_throttle"] = 1
    if options.visibility_timeout is not None:
        transport["visibility_timeout"] = options.visibility_timeout
    if options.handled is not None:
        _note_handled(options.handled)
    charlotte = _charlotte(options, settings)
    try:
        queue = charlotte.queue
        assert isinstance(queue, CeleryQueue)
        # Before worker_app() starts the sweeper, which may publish at once.
        isolate(queue.app, options.queue, options.key_prefix, **transport)
        _work(charlotte.worker_app(), options.queue)
    finally:
        charlotte.close()


def _work(app: Celery, queue: str) -> None:
    app.worker_main(
        [
            "worker",
            "--pool=solo",
            "--concurrency=1",
            "--loglevel=INFO",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            f"--queues={queue}",
            f"--hostname=charlotte-test-{os.getpid()}@localhost",
        ]
    )


if __name__ == "__main__":
    main()
