"""Benchmark: what one write costs the server and the browser, counted, on a 1,000-node page.

Run with ``.venv/bin/python -m bench.writes``; prints the figures as JSON.

- ``statements_per_edit`` / ``transactions_per_edit``: a person's edit through
  ``CharlotteSession.edit`` (what ``POST /edits`` runs), on a file SQLite
  database. Statements are counted by SQLite itself (``set_trace_callback``
  on every connection: each statement the library runs, BEGIN and COMMIT
  included, whichever path issued it), transactions by SQLAlchemy's commit
  events.
- ``statements_per_cms_apply`` / ``transactions_per_cms_apply``: one
  ``cms_apply`` of one op as the runner makes it (``call_tool`` with the
  turn's ``StreamRecorder`` as its log and the stop check), the same way.
- ``edit_read_back_bytes_1000_nodes``: what the builder page reads back after
  a hand edit: the edit's JSON answer plus the ``page.changed`` event as the
  live stream frames it (``id``/``event``/``data`` lines). Goal ≤ 4,096, one
  request (the page applies the event's ops; it reads no draft).
"""

from __future__ import annotations

import json
import sqlite3
import statistics
import tempfile
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from bench.replay import build_page
from charlotte import Charlotte, Settings
from charlotte.runtime.recorder import StreamRecorder
from charlotte.runtime.tool_calls import call_tool
from charlotte.storage import DatabasePageRepository, transaction
from charlotte.storage.unit_of_work import UnitOfWork
from charlotte.tools import ToolBinding

TENANT = "bench"
REPEATS = 20


class _Counter:
    """Statements SQLite ran and transactions SQLAlchemy committed, on one engine."""

    def __init__(self, engine: sa.Engine) -> None:
        self.statements = 0
        self.commits = 0
        sa.event.listen(engine, "connect", self._traced)
        sa.event.listen(engine, "commit", self._committed)
        engine.dispose()  # new connections, each traced

    def _traced(self, dbapi: Any, _record: Any) -> None:
        if isinstance(dbapi, sqlite3.Connection):
            dbapi.set_trace_callback(self._ran)

    def _ran(self, _statement: str) -> None:
        self.statements += 1

    def _committed(self, _conn: sa.Connection) -> None:
        self.commits += 1

    def take(self) -> tuple[int, int]:
        counted = self.statements, self.commits
        self.statements = self.commits = 0
        return counted


def _frame(event: dict[str, Any]) -> str:
    """The live stream's frame of one event (``charlotte.http.sse``'s shape)."""
    data = json.dumps(event, ensure_ascii=False, separators=(",", ":"))
    return f"id: {event['seq']}\nevent: {event['type']}\ndata: {data}\n\n"


def run() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        charlotte = Charlotte(Settings(database_url=f"sqlite:///{Path(folder) / 'bench.db'}", model="offline"))
        try:
            return _measure(charlotte)
        finally:
            charlotte.close()


def _measure(charlotte: Charlotte) -> dict[str, Any]:
    charlotte.migrate()
    handle = charlotte.for_user("ann").tenant(TENANT).page("home").brief("A bakery").open()
    doc = build_page()
    with transaction(charlotte.engine) as conn:
        DatabasePageRepository().save_draft(conn, TENANT, "home", doc)
    revision = doc["seq"]
    leaf = next(node_id for node_id, node in doc["nodes"].items() if node["type"] == "text")
    counter = _Counter(charlotte.engine)
    handle.draft()  # warm: the draft decoded once, as a running server has it
    counter.take()

    edits: list[tuple[int, int]] = []
    read_back: list[int] = []
    for step in range(REPEATS):
        last_seq = handle.status()["last_seq"]
        counter.take()
        op = {"t": "set_node_props", "id": leaf, "patch": {"content": f"Fresh bread, batch {step}"}}
        answer = handle.edit([op], revision)
        edits.append(counter.take())
        revision = answer["revision"]
        events = handle.events(last_seq, 10)
        read_back.append(len(json.dumps(answer).encode()) + sum(len(_frame(e).encode()) for e in events))

    session = handle.status()
    binding = ToolBinding.for_session(session["id"], TENANT, "home")
    recorder = StreamRecorder(charlotte.engine, session["id"], TENANT)
    turns = charlotte.turns

    def stop(unit: UnitOfWork) -> None:
        turns.should_stop("no-turn", unit.conn)  # the runner's read of its stop flag

    applies: list[tuple[int, int]] = []
    counter.take()
    for step in range(REPEATS):
        op = {"t": "set_node_props", "id": leaf, "patch": {"content": f"Rye, batch {step}"}}
        arguments = {"basedOn": revision, "ops": [op]}
        result = call_tool(
            charlotte.units, charlotte.tools, "cms_apply", arguments, binding,
            stop=stop, log=recorder, call_id=f"c{step}",
        )  # fmt: skip
        if result.get("isError"):
            raise RuntimeError("cms_apply failed in the benchmark")
        revision = result["revision"]
        applies.append(counter.take())
    return {
        "statements_per_edit": statistics.median(s for s, _ in edits),
        "transactions_per_edit": statistics.median(c for _, c in edits),
        "statements_per_cms_apply": statistics.median(s for s, _ in applies),
        "transactions_per_cms_apply": statistics.median(c for _, c in applies),
        "edit_read_back_bytes_1000_nodes": max(read_back),
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
