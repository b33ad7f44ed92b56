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

from bench.replay import LEAVES_PER_SECTION, SECTIONS, build_page
from charlotte.storage import (
    DatabasePageRepository,
    SessionStore,
    create_tables,
    open_engine,
    transaction,
)
from charlotte.tools import PageTools, ToolBinding
from charlotte.workspace import Workspace

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


def bench_charlotte(engine: sa.Engine, size: int, repeats: int) -> list[float]:
    """Milliseconds per ``cms_apply`` of ``size`` ops through ``PageTools.call``."""
    page = f"charlotte-{size}"
    session_id, revision = _session(engine, page)
    tools = PageTools(Workspace(engine))
    binding = ToolBinding.for_session(session_id, TENANT, page)
    samples: list[float] = []
    for index in range(WARMUP + repeats):
        arguments = {"basedOn": revision, "ops": _ops(size, index)}
        started = time.perf_counter()
        result = tools.call("cms_apply", arguments, binding)
        elapsed = time.perf_counter() - started
        if result.get("isError") or result.get("revision") != revision + size:
            raise RuntimeError(f"cms_apply failed in the benchmark: {result.get('error')}")
        revision = result["revision"]
        if index >= WARMUP:
            samples.append(elapsed * 1000)
    return samples


def bench_floor(path: Path, engine: sa.Engine, size: int, repeats: int) -> list[float]:
    """Milliseconds per bare-SQL transaction writing what a ``size``-op apply writes."""
    page = f"floor-{size}"
    session_id, revision = _session(engine, page)
    doc = build_page()
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute("PRAGMA foreign_keys = ON")
        samples: list[float] = []
        for index in range(WARMUP + repeats):
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
                [(TENANT, page, revision + 1 + i, "agent", json.dumps(op, separators=(",", ":")), session_id)
                 for i, op in enumerate(ops)],
            )  # fmt: skip
            (seq,) = db.execute(
                "UPDATE charlotte_sessions SET last_seq = last_seq + 1 WHERE id = ? RETURNING last_seq",
                (session_id,),
            ).fetchone()
            payload = {"revision": doc["seq"], "actor": "agent", "ops": size,
                       "node_ids": sorted({op["id"] for op in ops})}  # fmt: skip
            db.execute(
                "INSERT INTO charlotte_events (session_id, seq, tenant, type, at, actor, payload) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (session_id, seq, TENANT, "page.changed", now, "agent", json.dumps(payload, separators=(",", ":"))),
            )
            db.execute("COMMIT")
            elapsed = time.perf_counter() - started
            revision += size
            if index >= WARMUP:
                samples.append(elapsed * 1000)
        return samples
    finally:
        db.close()


def run() -> dict[str, Any]:
    """Run the benchmark; returns the figures."""
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "apply.db"
        engine = open_engine(f"sqlite:///{path}")
        try:
            create_tables(engine)
            for size, repeats in REPEATS.items():
                ours = bench_charlotte(engine, size, repeats)
                floor = bench_floor(path, engine, size, repeats)
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
