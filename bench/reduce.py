"""Benchmark: replaying mixed ops on a 2,000-node page through ``reduce_all``.

Run with ``.venv/bin/python -m bench.reduce``; prints the figures as JSON. A
replay is linear when ops/s over 100,000 ops is close to ops/s over 10,000
(``ratio_100k_to_10k`` near 1). ``reduce_ops_per_s_single`` folds plain
``reduce`` for comparison: each call copies the node map once, so it slows
down with page size, which is why replays go through ``WorkingCopy``.
"""

from __future__ import annotations

import json
import time
from string import ascii_lowercase
from typing import Any

from bench.pages import (
    Edit,
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
from charlotte.page.ops import WorkingCopy, reduce, reduce_all

SECTIONS = 40
LEAVES_PER_SECTION = 48  # plus one stack per section: 40 * (1 + 1 + 48) = 2,000 nodes
SEED = 20_240_601


def build_page() -> dict[str, Any]:
    """A 2,000-node page: sections, each holding one stack of text leaves."""
    return stacked_page(SECTIONS, LEAVES_PER_SECTION)


def _set_constraints(edit: Edit) -> dict[str, Any]:
    return {"t": "set_constraints", "id": edit.target, "breakpoint": "base", "patch": {"width": "fill"}}


def _set_animation(edit: Edit) -> dict[str, Any]:
    return {"t": "set_animation", "id": edit.target, "anim": {"id": f"a{edit.n % 3}", "driver": "enter"}}


def _set_action(edit: Edit) -> dict[str, Any]:
    return {"t": "set_action", "id": edit.target, "index": 0, "action": {"on": "click"}}


def _reorder_roots(edit: Edit) -> dict[str, Any]:
    order = [f"s{s}" for s in range(SECTIONS)]
    edit.rnd.shuffle(order)
    return {"t": "reorder_roots", "order": order}


#: (cumulative share, op maker): the mix an editing session produces.
MIX: tuple[tuple[float, OpMaker], ...] = (
    (0.30, set_props),
    (0.50, set_style),
    (0.58, _set_constraints),
    (0.68, move_to_stack(lambda rnd: "".join(rnd.choice(ascii_lowercase) for _ in range(3)))),
    (0.77, insert_text()),
    (0.86, remove_added),
    (0.92, set_meta),
    (0.96, _set_animation),
    (0.995, _set_action),
    (1.0, _reorder_roots),
)


def mixed_ops(count: int, seed: int = SEED) -> list[dict[str, Any]]:
    """``count`` ops, nearly all valid, in the mix an editing session produces."""
    return edit_ops(count, seed, SECTIONS, LEAVES_PER_SECTION, MIX)


def _seconds(page: dict[str, Any], ops: list[dict[str, Any]]) -> float:
    started = time.perf_counter()
    _, skipped = reduce_all(page, ops)
    elapsed = time.perf_counter() - started
    assert len(skipped) < len(ops) // 100, "the mix should be nearly all valid"
    return elapsed


def _best_ops_per_s(page: dict[str, Any], small: list[dict[str, Any]], large: list[dict[str, Any]],
                    runs: int) -> tuple[float, float]:
    """Best ops/s of ``small`` and of ``large``, the two run alternately so noise hits both alike."""
    best_small = best_large = float("inf")
    for _ in range(runs):
        best_small = min(best_small, _seconds(page, small))
        best_large = min(best_large, _seconds(page, large))
    return len(small) / best_small, len(large) / best_large


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
    small, large = _best_ops_per_s(page, ops[:10_000], ops, runs=5)
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
