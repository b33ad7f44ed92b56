"""Benchmark: what ``import charlotte`` costs beside ``import pydantic_ai``, and ``charlotte --help``.

Each figure is the best of five fresh interpreters (``python -c "import X"``,
wall time of the whole process, so interpreter start-up is in both sides of
the ratio). The goal is ``import charlotte`` within 1.3x of
``import pydantic_ai``: charlotte imports pydantic-ai, so the ratio says what
charlotte adds on top. ``import charlotte`` loads each public name on first
use, so ``from charlotte import Charlotte`` (what a host runs) is measured
too. Run with ``.venv/bin/python -m bench.imports``.
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


def best_seconds(commands: dict[str, list[str]], runs: int = RUNS) -> dict[str, float]:
    """The fastest of ``runs`` fresh processes for each command, in seconds.

    The commands take turns (one of each per round), so a machine that gets
    busier or quieter meanwhile weighs on both sides of a ratio alike.
    """
    env = _environment()
    best = dict.fromkeys(commands, float("inf"))
    for _ in range(runs):
        for name, args in commands.items():
            started = time.perf_counter()
            subprocess.run(args, env=env, check=True, capture_output=True, timeout=120)
            best[name] = min(best[name], time.perf_counter() - started)
    return best


def run() -> dict[str, Any]:
    python = sys.executable
    best = best_seconds(
        {
            "python": [python, "-c", "pass"],
            "pydantic_ai": [python, "-c", "import pydantic_ai"],
            "charlotte": [python, "-c", "import charlotte"],
            # What a host runs: the public names load on first use, so this loads the app.
            "app": [python, "-c", "from charlotte import Charlotte"],
            "help": [python, "-m", "charlotte.cli", "--help"],
        }
    )
    return {
        "import_python_ms": round(best["python"] * 1000, 1),
        "import_pydantic_ai_ms": round(best["pydantic_ai"] * 1000, 1),
        "import_charlotte_ms": round(best["charlotte"] * 1000, 1),
        "import_charlotte_ratio": round(best["charlotte"] / best["pydantic_ai"], 2),
        "import_charlotte_app_ms": round(best["app"] * 1000, 1),
        "import_charlotte_app_ratio": round(best["app"] / best["pydantic_ai"], 2),
        "charlotte_help_ms": round(best["help"] * 1000, 1),
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
