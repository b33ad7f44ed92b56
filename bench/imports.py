"""Benchmark: what ``import charlotte`` costs beside ``import pydantic_ai``, and ``charlotte --help``.

Each figure is the best of five fresh interpreters (``python -c "import X"``,
wall time of the whole process, so interpreter start-up is in both sides of
the ratio). The goal is ``import charlotte`` within 1.3x of
``import pydantic_ai``: charlotte imports pydantic-ai, so the ratio says what
charlotte adds on top. Run with ``.venv/bin/python -m bench.imports``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Final

RUNS: Final = 5
ROOT: Final = Path(__file__).resolve().parents[1]


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    src = str(ROOT / "src")
    env["PYTHONPATH"] = os.pathsep.join([src, str(ROOT), env.get("PYTHONPATH", "")]).rstrip(
        os.pathsep
    )
    return env


def best_seconds(args: list[str], runs: int = RUNS) -> float:
    """The fastest of ``runs`` fresh processes running ``args``, in seconds."""
    env = _environment()
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(args, env=env, check=True, capture_output=True, timeout=120)
        best = min(best, time.perf_counter() - started)
    return best


def run() -> dict[str, Any]:
    python = sys.executable
    bare = best_seconds([python, "-c", "pass"])
    pydantic_ai = best_seconds([python, "-c", "import pydantic_ai"])
    charlotte = best_seconds([python, "-c", "import charlotte"])
    cli = best_seconds([python, "-m", "charlotte.cli", "--help"])
    return {
        "import_python_ms": round(bare * 1000, 1),
        "import_pydantic_ai_ms": round(pydantic_ai * 1000, 1),
        "import_charlotte_ms": round(charlotte * 1000, 1),
        "import_charlotte_ratio": round(charlotte / pydantic_ai, 2),
        "charlotte_help_ms": round(cli * 1000, 1),
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
