"""A host process that dies with a turn waiting in its thread queue: ``python -m tests.support.dead_host DB``.

It builds a ``Charlotte`` on the SQLite file ``DB`` (thread queue, one worker),
opens two sessions and sends a turn on each. The first turn's model blocks
(its one worker stays busy), so the second waits in the in-process queue.
Once the first is running and the second queued, it prints one JSON line
``{"running": [session_id, turn_id], "queued": [session_id, turn_id]}`` and
waits; the test SIGKILLs it there (the wait is bounded, so an orphan ends).
"""

from __future__ import annotations

import json
import sys
import threading
import time
from typing import Any

from charlotte.app import Charlotte
from charlotte.settings import Settings
from charlotte.testing import ScriptedModel, ToolCall

#: Both processes of the test use these, so the sweeper's timings agree.
HEARTBEAT_SECONDS = 0.2
HEARTBEAT_TIMEOUT_SECONDS = 1.0
BRIEF = "A landing page for Rosa's Bakery"


def settings_for(path: str) -> Settings:
    """The settings of both the dead host and its successor."""
    return Settings(
        database_url=f"sqlite:///{path}",
        queue="thread",
        thread_workers=1,
        heartbeat_seconds=HEARTBEAT_SECONDS,
        heartbeat_timeout_seconds=HEARTBEAT_TIMEOUT_SECONDS,
    )


def _blocking(_results: list[Any]) -> dict[str, Any]:
    threading.Event().wait(120)
    return {}


def main(path: str) -> None:
    charlotte = Charlotte(settings_for(path), model_factory=lambda: ScriptedModel([ToolCall("cms_read", _blocking)]))
    charlotte.migrate()
    sessions = [charlotte.for_user("ann").tenant("acme").page(page).brief(BRIEF).open() for page in ("home", "about")]
    first = sessions[0].send("Build the home page")
    deadline = time.monotonic() + 30
    while sessions[0].status()["status"] != "running":
        if time.monotonic() > deadline:
            raise SystemExit("the first turn never started")
        time.sleep(0.02)
    second = sessions[1].send("Build the about page")
    print(json.dumps({"running": [sessions[0].id, first["id"]], "queued": [sessions[1].id, second["id"]]}), flush=True)
    threading.Event().wait(120)


if __name__ == "__main__":
    main(sys.argv[1])
