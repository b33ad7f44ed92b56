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
from pathlib import Path
from typing import Any

#: Benchmark modules, in the order they run.
BENCHMARKS = ("reduce", "render", "events", "replay", "stream")

RESULTS = Path(__file__).resolve().parent / "results"


def _peak_rss_mb() -> float:
    # ru_maxrss is in KiB on Linux.
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


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
    lines = ["| figure | value |", "|---|---|"]
    lines += [f"| {key} | {value} |" for key, value in sorted(figures.items())]
    table = "\n".join(lines)
    (RESULTS / "latest.md").write_text(table + "\n")
    print()
    print(table)
    print(f"\nwritten: {RESULTS / 'latest.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
