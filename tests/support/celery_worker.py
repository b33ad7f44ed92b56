"""A Celery worker process for the integration tests: ``python -m tests.support.celery_worker``.

It builds ``Settings`` from its own arguments (nothing from the environment)
and runs ``celery_app(...).worker_main`` with the solo pool, so the process
that runs a turn is this very process (a SIGKILL ends the turn's worker).

Modes, i.e. what runs a delivered turn:

- ``claim``: claim the turn and finish it (no model): the queue plumbing alone.
- ``offline``: ``TurnRunner.from_settings`` with the offline model.
- ``block``: a scripted model that makes one ``cms_apply`` and then, while
  planning its next tool call, touches ``--reached`` and waits forever (the
  test kills the worker there).
- ``host``: ``host_charlotte(settings).worker_app()``, the way a host runs a
  worker: its own mode and per-turn caps (below), the offline model, and the
  instance's own sweeper.
"""

from __future__ import annotations

import argparse
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from celery import Celery

from charlotte.app import Charlotte
from charlotte.contrib.celery import celery_app
from charlotte.policy import Refused
from charlotte.runtime import InlineQueue, Turns
from charlotte.runtime.guide import Guide
from charlotte.runtime.modes import Mode, builder_mode
from charlotte.runtime.runner import TurnContext
from charlotte.settings import Settings
from charlotte.storage import SessionRecord, TurnRecord, open_engine

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


def isolate(app: Celery, queue: str, key_prefix: str) -> None:
    """Point ``app`` at this test run's own queue and Redis keys (before it first talks to Redis)."""
    app.conf.task_default_queue = queue
    if key_prefix:
        app.conf.broker_transport_options = {
            **app.conf.broker_transport_options,
            "global_keyprefix": key_prefix,
        }


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--schema", default=None, help="PostgreSQL schema holding the tables")
    parser.add_argument("--broker-url", required=True)
    parser.add_argument("--queue", required=True)
    parser.add_argument("--mode", choices=("claim", "offline", "block", "host"), required=True)
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


def _noting(run: Callable[[str], None], handled: Path | None) -> Callable[[str], None]:
    """``run``, then append the turn id to ``handled`` (how a test sees a delivery)."""
    if handled is None:
        return run

    def noted(turn_id: str) -> None:
        try:
            run(turn_id)
        finally:
            with handled.open("a", encoding="utf-8") as out:
                out.write(turn_id + "\n")

    return noted


def _run_factory(
    options: argparse.Namespace, settings: Settings, engine: sa.Engine
) -> Callable[[], Callable[[str], None]]:
    if options.mode == "claim":

        def claim_only() -> Callable[[str], None]:
            turns = Turns(engine, InlineQueue(lambda _: None))

            def run(turn_id: str) -> None:
                if turns.claim(turn_id) is not None:
                    turns.finish(turn_id, ready=False)

            return _noting(run, options.handled)

        return claim_only

    def runner() -> Callable[[str], None]:
        from charlotte.runtime.runner import TurnRunner

        model_factory = None
        if options.mode == "block":
            from charlotte.testing import ScriptedModel, ToolCall

            reached: Path = options.reached

            def model_factory() -> ScriptedModel:
                return ScriptedModel(
                    [
                        ToolCall("cms_apply", {"basedOn": 0, "ops": BLOCK_OPS}),
                        ToolCall("cms_read", _block_until_killed(reached)),
                    ]
                )

        made = TurnRunner.from_settings(settings, engine=engine, model_factory=model_factory)
        return _noting(made.run, options.handled)

    return runner


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
    if options.mode == "host":
        charlotte = host_charlotte(settings)
        try:
            app = charlotte.worker_app()
            isolate(app, options.queue, options.key_prefix)
            _work(app, options.queue)
        finally:
            charlotte.close()
        return
    engine = open_engine(settings.database_url, schema=options.schema)
    transport: dict[str, Any] = {}
    if options.key_prefix:
        transport["global_keyprefix"] = options.key_prefix
    if options.restore_interval is not None:
        # Look for abandoned messages every N seconds, scanning on every look.
        transport["unacked_restore_interval"] = options.restore_interval
        transport["unacked_restore_throttle"] = 1
    visibility = {} if options.visibility_timeout is None else {"visibility_timeout": options.visibility_timeout}
    app = celery_app(
        settings,
        _run_factory(options, settings, engine),
        queue=options.queue,
        transport_options=transport,
        **visibility,
    )
    _work(app, options.queue)


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
