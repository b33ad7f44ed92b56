"""Benchmark: replaying mixed ops on a 2,000-node page through ``reduce_all``.

Run with ``.venv/bin/python -m bench.reduce``; prints the figures as JSON. A
replay is linear when ops/s over 100,000 ops is close to ops/s over 10,000
(``ratio_100k_to_10k`` near 1). ``reduce_ops_per_s_single`` folds plain
``reduce`` for comparison: each call copies the node map once, so it slows
down with page size, which is why replays go through ``WorkingCopy``.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

from charlotte.page.model import empty_doc
from charlotte.page.ops import WorkingCopy, reduce, reduce_all
from charlotte.page.ordering import key_between

SECTIONS = 40
LEAVES_PER_SECTION = 48  # plus one stack per section: 40 * (1 + 1 + 48) = 2,000 nodes
SEED = 20_240_601


def _node(id: str, type: str, parent: str | None, order: str, **extra: Any) -> dict[str, Any]:
    return {"id": id, "type": type, "parent": parent, "order": order, "props": {},
            "style": {"base": {}}, **extra}  # fmt: skip


def build_page() -> dict[str, Any]:
    """A 2,000-node page: sections, each holding one stack of text leaves."""
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


def mixed_ops(count: int, seed: int = SEED) -> list[dict[str, Any]]:
    """``count`` ops, nearly all valid, in the mix an editing session produces."""
    rnd = random.Random(seed)
    leaves = [f"t{s}_{i}" for s in range(SECTIONS) for i in range(LEAVES_PER_SECTION)]
    stacks = [f"k{s}" for s in range(SECTIONS)]
    added: list[str] = []
    ops: list[dict[str, Any]] = []
    for n in range(count):
        roll = rnd.random()
        target = rnd.choice(leaves)
        if roll < 0.30:
            ops.append({"t": "set_node_props", "id": target, "patch": {"content": f"v{n}"}})
        elif roll < 0.50:
            patch = {"color": rnd.choice(["#111", "#222"]), "padding": {"value": n % 40, "unit": "px"}}
            ops.append({"t": "set_style", "id": target, "breakpoint": rnd.choice(["base", "md"]), "patch": patch})
        elif roll < 0.58:
            ops.append({"t": "set_constraints", "id": target, "breakpoint": "base", "patch": {"width": "fill"}})
        elif roll < 0.68:
            order = "".join(rnd.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(3))
            ops.append({"t": "move_node", "id": target, "parent": rnd.choice(stacks), "order": order})
        elif roll < 0.77:
            id = f"new{n}"
            added.append(id)
            ops.append({"t": "insert_node", "node": _node(id, "text", rnd.choice(stacks), f"z{n}")})
        elif roll < 0.86 and added:
            ops.append({"t": "remove_node", "id": added.pop(rnd.randrange(len(added)))})
        elif roll < 0.92:
            ops.append({"t": "set_meta", "patch": {"title": f"Title {n}"}})
        elif roll < 0.96:
            ops.append({"t": "set_animation", "id": target, "anim": {"id": f"a{n % 3}", "driver": "enter"}})
        elif roll < 0.995:
            ops.append({"t": "set_action", "id": target, "index": 0, "action": {"on": "click"}})
        else:
            order = [f"s{s}" for s in range(SECTIONS)]
            rnd.shuffle(order)
            ops.append({"t": "reorder_roots", "order": order})
    return ops


def _best_ops_per_s(page: dict[str, Any], ops: list[dict[str, Any]], runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        _, skipped = reduce_all(page, ops)
        best = min(best, time.perf_counter() - started)
        assert len(skipped) < len(ops) // 100, "the mix should be nearly all valid"
    return len(ops) / best


def _inverse_ops_per_s(page: dict[str, Any], ops: list[dict[str, Any]]) -> float:
    started = time.perf_counter()
    wc = WorkingCopy(page)
    for op in ops:
        wc.apply_with_inverse(op)
    return len(ops) / (time.perf_counter() - started)


def _single_ops_per_s(page: dict[str, Any], ops: list[dict[str, Any]]) -> float:
    started = time.perf_counter()
    doc = page
    for op in ops:
        doc, _ = reduce(doc, op)
    return len(ops) / (time.perf_counter() - started)


def run() -> dict[str, float]:
    """Measure and return the figures (ops per second)."""
    page = build_page()
    ops = mixed_ops(100_000)
    small = _best_ops_per_s(page, ops[:10_000], runs=5)
    large = _best_ops_per_s(page, ops, runs=3)
    return {
        "page_nodes": float(len(page["nodes"])),
        "reduce_ops_per_s_10k": round(small),
        "reduce_ops_per_s_100k": round(large),
        "ratio_100k_to_10k": round(large / small, 3),
        "apply_with_inverse_ops_per_s_100k": round(_inverse_ops_per_s(page, ops)),
        "reduce_ops_per_s_single": round(_single_ops_per_s(page, ops[:2_000])),
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
