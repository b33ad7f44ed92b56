"""Benchmark: one ``cms_apply`` (1 op and 50 ops) on a 1,000-node page, against its bare-SQL floor.

Run with ``.venv/bin/python -m bench.apply``; prints the figures as JSON.

Charlotte's side is ``PageTools.call("cms_apply", ...)`` exactly as the agent
makes it (binding checks, argument parsing, LinkPolicy, the draft loaded,
validated and changed, AssetPolicy, draft + op rows + ``page.changed`` event
in one transaction) on a file SQLite database.

The floor is the same transaction's writes with no charlotte code around it,
through the stdlib ``sqlite3`` module on the same file with the same pragmas:
``BEGIN IMMEDIATE``, serialise and write the draft JSON, insert the op rows,
bump the session's seq and insert the event, ``COMMIT``. The changed document
is prepared outside the timed region (that is charlotte's work, not the
floor's). ``apply_ratio_to_floor`` is the 50-op median over the 50-op floor
median, both measured in this run; goal ≤ 3.
"""

from __future__ import annotations

import json
import sqlite3
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from tests.support.units import call_tool

from bench.replay import LEAVES_PER_SECTION, SECTIONS, build_page
from charlotte.drafts.workspace import Workspace
from charlotte.storage import (
    DatabasePageRepository,
    SessionStore,
    create_tables,
    open_engine,
    transaction,
)
from charlotte.tools import PageTools, ToolBinding

TENANT = "bench"
WARMUP = 5
REPEATS = {1: 60, 50: 40}


def _ops(size: int, step: int) -> list[dict[str, Any]]:
    """``size`` edits a turn makes: copy changes and style patches on leaves."""
    ops: list[dict[str, Any]] = []
    for n in range(size):
        leaf = f"t{n % SECTIONS}_{(n * 7 + step) % LEAVES_PER_SECTION}"
        if n % 2 == 0:
            ops.append({"t": "set_node_props", "id": leaf, "patch": {"content": f"Copy {step}.{n}"}})
        else:
            patch = {"color": "#222", "padding": {"value": (step + n) % 40, "unit": "px"}}
            ops.append({"t": "set_style", "id": leaf, "breakpoint": "base", "patch": patch})
    return ops


def _session(engine: sa.Engine, page: str) -> tuple[str, int]:
    with transaction(engine) as conn:
        session = SessionStore().create(conn, tenant=TENANT, page=page, created_by="bench")
        doc = build_page()
        DatabasePageRepository().save_draft(conn, TENANT, page, doc)
    return session.id, doc["seq"]


def _p95(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


class _Charlotte:
    """``cms_apply`` of ``size`` ops through ``PageTools.call``, one call per ``step``."""

    def __init__(self, engine: sa.Engine, size: int) -> None:
        self.size = size
        self.page = f"charlotte-{size}"
        self.session_id, self.revision = _session(engine, self.page)
        self.tools = PageTools(Workspace(engine))
        self.binding = ToolBinding.for_session(self.session_id, TENANT, self.page)

    def step(self, index: int) -> float:
        """Milliseconds for one call."""
        arguments = {"basedOn": self.revision, "ops": _ops(self.size, index)}
        started = time.perf_counter()
        result = call_tool(self.tools, "cms_apply", arguments, self.binding)
        elapsed = time.perf_counter() - started
        if result.get("isError") or result.get("revision") != self.revision + self.size:
            raise RuntimeError("cms_apply failed in the benchmark")
        self.revision = result["revision"]
        return elapsed * 1000


class _Floor:
    """The bare-SQL transaction writing what a ``size``-op apply writes, one per ``step``."""

    def __init__(self, path: Path, engine: sa.Engine, size: int) -> None:
        self.size = size
        self.page = f"floor-{size}"
        self.session_id, self.revision = _session(engine, self.page)
        self.doc = build_page()
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute("PRAGMA synchronous = NORMAL")
        self.db.execute("PRAGMA foreign_keys = ON")

    def step(self, index: int) -> float:
        """Milliseconds for one transaction (the changed document is prepared before timing)."""
        db, doc, size, page, revision = self.db, self.doc, self.size, self.page, self.revision
        ops = _ops(size, index)
        doc["seq"] = revision + size
        started = time.perf_counter()
        now = datetime.now(UTC).replace(tzinfo=None).isoformat(sep=" ")
        db.execute("BEGIN IMMEDIATE")
        db.execute(
            "UPDATE charlotte_pages SET draft = ?, revision = ?, updated_at = ? WHERE tenant = ? AND page = ?",
            (json.dumps(doc, separators=(",", ":")), doc["seq"], now, TENANT, page),
        )
        db.executemany(
            "INSERT INTO charlotte_page_ops (tenant, page, revision, actor, op, session_id) VALUES (?, ?, ?, ?, ?, ?)",
            [(TENANT, page, revision + 1 + i, "agent", json.dumps(op, separators=(",", ":")), self.session_id)
             for i, op in enumerate(ops)],
        )  # fmt: skip
        (seq,) = db.execute(
            "UPDATE charlotte_sessions SET last_seq = last_seq + 1 WHERE id = ? RETURNING last_seq",
            (self.session_id,),
        ).fetchone()
        payload = {"revision": doc["seq"], "actor": "agent", "ops": size,
                   "node_ids": sorted({op["id"] for op in ops})}  # fmt: skip
        db.execute(
            "INSERT INTO charlotte_events (session_id, seq, tenant, type, at, actor, payload) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (self.session_id, seq, TENANT, "page.changed", now, "agent", json.dumps(payload, separators=(",", ":"))),
        )
        db.execute("COMMIT")
        elapsed = time.perf_counter() - started
        self.revision += size
        return elapsed * 1000

    def close(self) -> None:
        self.db.close()


def measure(path: Path, engine: sa.Engine, size: int, repeats: int) -> tuple[list[float], list[float]]:
    """(charlotte ms, floor ms) per call, the two taken alternately so noise hits both alike."""
    ours, floor = _Charlotte(engine, size), _Floor(path, engine, size)
    try:
        mine: list[float] = []
        bare: list[float] = []
        for index in range(WARMUP + repeats):
            a, b = ours.step(index), floor.step(index)
            if index >= WARMUP:
                mine.append(a)
                bare.append(b)
        return mine, bare
    finally:
        floor.close()


def run() -> dict[str, Any]:
    """Run the benchmark; returns the figures."""
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "apply.db"
        engine = open_engine(f"sqlite:///{path}")
        try:
            create_tables(engine)
            for size, repeats in REPEATS.items():
                ours, floor = measure(path, engine, size, repeats)
                suffix = "" if size == 1 else f"_{size}_ops"
                figures[f"apply_p50_ms{suffix}"] = round(statistics.median(ours), 2)
                figures[f"apply_p95_ms{suffix}"] = round(_p95(ours), 2)
                figures[f"apply_floor_p50_ms{suffix}"] = round(statistics.median(floor), 2)
                figures[f"apply_ratio_to_floor{suffix}"] = round(
                    statistics.median(ours) / statistics.median(floor), 2
                )
        finally:
            engine.dispose()
    # The headline ratio is the 50-op apply: a whole turn's worth of edits in one call.
    figures["apply_ratio_to_floor_1_op"] = figures["apply_ratio_to_floor"]
    figures["apply_ratio_to_floor"] = figures.pop("apply_ratio_to_floor_50_ops")
    return figures


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
