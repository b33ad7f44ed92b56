"""Run every benchmark in ``bench/`` and write one table: ``make bench``.

Each benchmark module exposes ``run() -> dict`` of figures. The harness runs
them in one process, merges the figures, adds peak RSS, and writes
``bench/results/latest.json`` and ``bench/results/latest.md``. Figures, not
pass/fail: machines are noisy, so compare ratios measured in the same run.
"""

from __future__ import annotations

import importlib
import json
import platform
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: Benchmark modules, in the order they run.
BENCHMARKS = ("imports", "apply", "writes", "turn", "reduce", "render", "check", "events", "replay", "published", "stream", "long_log", "load")

#: The figures the spec names, in table order: key → (goal as written, test or None).
GOALS: dict[str, tuple[str, Callable[[Any], bool] | None]] = {
    "import_charlotte_ratio": ("≤ 1.3 (vs import pydantic_ai)", lambda v: v <= 1.3),
    "import_charlotte_ms": ("—", None),
    "import_charlotte_app_ratio": ("—", None),
    "import_pydantic_ai_ms": ("—", None),
    "charlotte_help_ms": ("—", None),
    "apply_p50_ms": ("—", None),
    "apply_p95_ms": ("—", None),
    "apply_p50_ms_50_ops": ("—", None),
    "apply_p95_ms_50_ops": ("—", None),
    "apply_ratio_to_floor_1_op": ("≤ 1.5", lambda v: v <= 1.5),
    "apply_ratio_to_floor": ("≤ 2 (50 ops)", lambda v: v <= 2),
    "statements_per_edit": ("—", None),
    "transactions_per_edit": ("1", lambda v: v == 1),
    "statements_per_cms_apply": ("—", None),
    "transactions_per_cms_apply": ("1", lambda v: v == 1),
    "edit_read_back_bytes_1000_nodes": ("≤ 4,096 (one request)", lambda v: v <= 4096),
    "turn_overhead_ms_per_tool_call": ("—", None),
    "turn_overhead_ratio": ("≤ 1.3", lambda v: v <= 1.3),
    "replay_ops_per_s": ("≥ 30,000", lambda v: v >= 30_000),
    "reduce_ops_per_s_10k": ("—", None),
    "reduce_ops_per_s_100k": ("—", None),
    "ratio_100k_to_10k": ("≈ 1 (linear; ≥ 0.8)", lambda v: v >= 0.8),
    "events_per_s_sqlite": ("—", None),
    "events_per_s_pg_8_writers": ("—", None),
    "events_gap_free": ("true", lambda v: v is True),
    "stream_p95_ms": ("≤ 100", lambda v: v <= 100),
    "stream_p95_ms_1000_clients": ("≤ 100 (100 sessions of 10 clients)", lambda v: v <= 100),
    "stream_all_received_1000_clients": ("true", lambda v: v is True),
    "stream_p99_ms_1000_clients": ("—", None),
    "render_ms_2000_nodes": ("—", None),
    "published_page_ms": ("≤ 2 (p95, 1,000 nodes, warm cache)", lambda v: v <= 2),
    "published_page_first_ms": ("—", None),
    "check_hostile_ms": ("< 100", lambda v: v < 100),
    "check_hostile_first_ms": ("—", None),
    "check_growth_4x": ("≤ 6 (linear: 4)", lambda v: v <= 6),
    "check_quality_ms": ("< 100 (the quality check alone, 2,000 nodes)", lambda v: v < 100),
    "long_log_open_ratio": ("≈ 1 (100,000 events ÷ 100)", lambda v: v <= 1.5),
    "load_pg_sessions": ("200 (PostgreSQL + Celery, 2 workers)", lambda v: v >= 200),
    "load_pg_errors": ("0", lambda v: v == 0),
    "load_pg_stream_p95_ms": ("≤ 150", lambda v: v <= 150),
    "load_embedded_sessions": ("20 (SQLite + threads)", lambda v: v >= 20),
    "load_embedded_errors": ("0", lambda v: v == 0),
    "load_gap_free": ("true", lambda v: v is True),
    "peak_rss_mb_replay": ("—", None),
    "peak_rss_mb_stream": ("—", None),
}

RESULTS = Path(__file__).resolve().parent / "results"


def _peak_rss_mb() -> float:
    # ru_maxrss is in KiB on Linux.
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def _met(key: str, value: Any) -> str:
    test = GOALS.get(key, ("—", None))[1]
    if test is None:
        return ""
    if value is None or isinstance(value, str):
        return "not measured"
    return "yes" if test(value) else "**no**"


def _table(figures: dict[str, Any]) -> str:
    """Markdown: the spec's figures first (with goal and whether it was met), then the rest."""
    width = max(len(key) for key in figures) if figures else 10
    lines = [f"| {'figure'.ljust(width)} | value | goal | met? |", f"|{'-' * (width + 2)}|---|---|---|"]
    named = [key for key in GOALS if key in figures]
    # A run's whole figures (a load run's routes and processes) are in the JSON only.
    others = sorted(key for key in figures if key not in GOALS and not isinstance(figures[key], dict | list))
    for key in named + others:
        value = figures[key]
        shown = "n/a" if value is None else str(value).lower() if isinstance(value, bool) else value
        goal = GOALS.get(key, ("", None))[0]
        lines.append(f"| {key.ljust(width)} | {shown} | {goal} | {_met(key, value)} |")
    return "\n".join(lines)


def main(names: list[str]) -> int:
    figures: dict[str, Any] = {}
    timings: dict[str, float] = {}
    for name in names or list(BENCHMARKS):
        module = importlib.import_module(f"bench.{name}")
        print(f"== {name}", flush=True)
        started = time.perf_counter()
        result = module.run()
        timings[name] = round(time.perf_counter() - started, 2)
        figures.update(result)
        figures[f"peak_rss_mb_after_{name}"] = _peak_rss_mb()
    report = {
        "machine": {
            "python": platform.python_version(),
            "platform": platform.platform(),
            "processor": platform.machine(),
        },
        "seconds": timings,
        **figures,
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "latest.json").write_text(json.dumps(report, indent=2, sort_keys=True) + "\n")
    table = _table(figures)
    (RESULTS / "latest.md").write_text(table + "\n")
    print()
    print(table)
    print(f"\nwritten: {RESULTS / 'latest.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
