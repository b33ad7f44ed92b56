"""Benchmark: approving a 10,000-op change set on a 1,000-node draft (file SQLite).

Run with ``.venv/bin/python -m bench.replay``; prints the figures as JSON.
``replay_ops_per_s`` times ``ChangeSets.approve`` as shipped (slices of
``REPLAY_CHUNK`` ops decoded, applied and their op history stored, then the
draft and the events), the median of ``ROUNDS`` approvals, each on a fresh
file: the goal is at least 30,000 ops/s.
Building the set (50 agent writes of 200 ops, each rewriting the set's row) is
timed apart as ``replay_set_build_ops_per_s``. ``peak_rss_mb_replay`` is the
process's peak RSS right after the approval.
"""

from __future__ import annotations

import json
import random
import resource
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.support.units import in_unit

from bench.pages import (
    OpMaker,
    edit_ops,
    insert_text,
    move_to_stack,
    remove_added,
    set_meta,
    set_props,
    set_style,
    stacked_page,
)
from charlotte.drafts.change_sets import ChangeSets
from charlotte.drafts.workspace import Workspace
from charlotte.page.ordering import key_between
from charlotte.storage import (
    DatabasePageRepository,
    SessionStore,
    create_tables,
    open_engine,
    transaction,
)

SECTIONS = 20
LEAVES_PER_SECTION = 48  # plus one stack per section: 20 * (1 + 1 + 48) = 1,000 nodes
SET_OPS = 10_000
BATCH = 200
SEED = 20_261_130
#: Approvals measured, each on a fresh file. One alone is one sample of a full garbage
#: collection of the process landing in it or not (about one in four, 70-90 ms): the
#: median of five says what an approval usually costs.
ROUNDS = 5


def build_page() -> dict[str, Any]:
    """A 1,000-node page: sections, each holding one stack of text leaves."""
    return stacked_page(SECTIONS, LEAVES_PER_SECTION)


def _after_first_key(rnd: random.Random) -> str:
    return key_between(None, None) + "".join(rnd.choice("abcdefghij") for _ in range(3))


#: (cumulative share, op maker): the mix an agent's writes produce, all valid.
MIX: tuple[tuple[float, OpMaker], ...] = (
    (0.35, set_props),
    (0.60, set_style),
    (0.72, move_to_stack(_after_first_key)),
    (0.84, insert_text({"content": "New"})),
    (0.92, remove_added),
    (1.0, set_meta),
)


def agent_ops(count: int, seed: int = SEED) -> list[dict[str, Any]]:
    """``count`` valid ops in the mix an editing session produces."""
    return edit_ops(count, seed, SECTIONS, LEAVES_PER_SECTION, MIX)


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
        change_sets = ChangeSets(Workspace(engine))
        started = time.perf_counter()
        revision = 0
        for start in range(0, len(ops), BATCH):
            batch = ops[start : start + BATCH]
            revision = in_unit(change_sets, session.id, "bench").apply_agent_ops(batch, based_on=revision).revision
        built = time.perf_counter() - started
        started = time.perf_counter()
        resolution = in_unit(change_sets, session.id, "bench").approve("reviewer")
        approved = time.perf_counter() - started
        if resolution.status != "approved" or resolution.revision != len(ops):
            raise RuntimeError("the benchmark set did not approve cleanly")
        return built, approved
    finally:
        engine.dispose()


def run() -> dict[str, Any]:
    """Build a 10,000-op set on a 1,000-node draft and approve it, ``ROUNDS`` times; the median rates."""
    ops = agent_ops(SET_OPS)
    builds: list[float] = []
    approvals: list[float] = []
    for _round in range(ROUNDS):
        with tempfile.TemporaryDirectory() as tmp:
            built, approved = _approve_seconds(Path(tmp), ops)
        builds.append(built)
        approvals.append(approved)
    # ru_maxrss is in KiB on Linux.
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "replay_ops_per_s": round(SET_OPS / statistics.median(approvals)),
        "replay_set_build_ops_per_s": round(SET_OPS / statistics.median(builds)),
        "peak_rss_mb_replay": round(peak, 1),
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
