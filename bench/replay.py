"""Benchmark: approving a 10,000-op change set on a 1,000-node draft (file SQLite).

Run with ``.venv/bin/python -m bench.replay``; prints the figures as JSON.
``replay_ops_per_s`` times ``ChangeSets.approve`` as shipped (chunks of
``REPLAY_CHUNK`` ops applied in 200-op slices, one savepoint, the draft, 10,000
op-history rows and the events stored): the goal is at least 5,000 ops/s.
Building the set (50 agent writes of 200 ops, each rewriting the set's row) is
timed apart as ``replay_set_build_ops_per_s``. ``peak_rss_mb_replay`` is the
process's peak RSS right after the approval.
"""

from __future__ import annotations

import json
import random
import resource
import tempfile
import time
from pathlib import Path
from typing import Any

from charlotte.page.model import empty_doc
from charlotte.page.ordering import key_between
from charlotte.proposals import ChangeSets
from charlotte.storage import (
    DatabasePageRepository,
    SessionStore,
    create_tables,
    open_engine,
    transaction,
)
from charlotte.workspace import Workspace

SECTIONS = 20
LEAVES_PER_SECTION = 48  # plus one stack per section: 20 * (1 + 1 + 48) = 1,000 nodes
SET_OPS = 10_000
BATCH = 200
SEED = 20_261_130


def _node(id: str, type: str, parent: str | None, order: str, **extra: Any) -> dict[str, Any]:
    return {"id": id, "type": type, "parent": parent, "order": order, "props": {},
            "style": {"base": {}}, **extra}  # fmt: skip


def build_page() -> dict[str, Any]:
    """A 1,000-node page: sections, each holding one stack of text leaves."""
    doc = empty_doc("bench")
    nodes = doc["nodes"]
    section_key: str | None = None
    for s in range(SECTIONS):
        section_key = key_between(section_key, None)
        nodes[f"s{s}"] = _node(f"s{s}", "section", None, section_key, layout="stack")
        nodes[f"k{s}"] = _node(f"k{s}", "stack", f"s{s}", "V", layout="stack")
        leaf_key: str | None = None
        for i in range(LEAVES_PER_SECTION):
            leaf_key = key_between(leaf_key, None)
            nodes[f"t{s}_{i}"] = _node(f"t{s}_{i}", "text", f"k{s}", leaf_key,
                                       props={"content": f"Text {i}"})  # fmt: skip
    return doc


def agent_ops(count: int, seed: int = SEED) -> list[dict[str, Any]]:
    """``count`` valid ops in the mix an editing session produces."""
    rnd = random.Random(seed)
    leaves = [f"t{s}_{i}" for s in range(SECTIONS) for i in range(LEAVES_PER_SECTION)]
    stacks = [f"k{s}" for s in range(SECTIONS)]
    added: list[str] = []
    ops: list[dict[str, Any]] = []
    for n in range(count):
        roll = rnd.random()
        target = rnd.choice(leaves)
        if roll < 0.35:
            ops.append({"t": "set_node_props", "id": target, "patch": {"content": f"v{n}"}})
        elif roll < 0.60:
            patch = {"color": rnd.choice(["#111", "#222"]), "padding": {"value": n % 40, "unit": "px"}}
            ops.append({"t": "set_style", "id": target, "breakpoint": rnd.choice(["base", "md"]), "patch": patch})
        elif roll < 0.72:
            order = key_between(None, None) + "".join(rnd.choice("abcdefghij") for _ in range(3))
            ops.append({"t": "move_node", "id": target, "parent": rnd.choice(stacks), "order": order})
        elif roll < 0.84:
            id = f"new{n}"
            added.append(id)
            ops.append({"t": "insert_node", "node": _node(id, "text", rnd.choice(stacks), f"z{n}", props={"content": "New"})})
        elif roll < 0.92 and added:
            ops.append({"t": "remove_node", "id": added.pop(rnd.randrange(len(added)))})
        else:
            ops.append({"t": "set_meta", "patch": {"title": f"Title {n}"}})
    return ops


def _approve_seconds(folder: Path, ops: list[dict[str, Any]]) -> tuple[float, float]:
    """(seconds to build the set, seconds to approve it) on a fresh SQLite file."""
    engine = open_engine(f"sqlite:///{folder / 'replay.db'}")
    try:
        create_tables(engine)
        with transaction(engine) as conn:
            session = SessionStore().create(
                conn, tenant="bench", page="home", created_by="bench", approve_on_save=True
            )
            DatabasePageRepository().save_draft(conn, "bench", "home", build_page())
        sets = ChangeSets(Workspace(engine))
        started = time.perf_counter()
        revision = 0
        for start in range(0, len(ops), BATCH):
            batch = ops[start : start + BATCH]
            revision = sets.apply_agent_ops(session.id, "bench", batch, based_on=revision).revision
        built = time.perf_counter() - started
        started = time.perf_counter()
        resolution = sets.approve(session.id, "bench", "reviewer")
        approved = time.perf_counter() - started
        if resolution.status != "approved" or resolution.revision != len(ops):
            raise RuntimeError("the benchmark set did not approve cleanly")
        return built, approved
    finally:
        engine.dispose()


def run() -> dict[str, Any]:
    """Build a 10,000-op set on a 1,000-node draft, approve it, report the rates."""
    with tempfile.TemporaryDirectory() as tmp:
        built, approved = _approve_seconds(Path(tmp), agent_ops(SET_OPS))
        # ru_maxrss is in KiB on Linux.
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "replay_ops_per_s": round(SET_OPS / approved),
        "replay_set_build_ops_per_s": round(SET_OPS / built),
        "peak_rss_mb_replay": round(peak, 1),
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
