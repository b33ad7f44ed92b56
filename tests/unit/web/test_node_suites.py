"""The builder's pure modules' own unit tests (``tests/unit/web/js/*.test.mjs``), run by ``node --test``.

They test ``web/js/`` as shipped in the worktree (``src/charlotte/web/js``),
without Python: this wrapper is how ``make test`` runs them.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Final

from tests.support.node_js import NODE, needs_node

SUITES: Final = Path(__file__).resolve().parent / "js"


@needs_node
def test_node_unit_suites_pass() -> None:
    files = sorted(str(path) for path in SUITES.glob("*.test.mjs"))
    assert len(files) >= 4
    assert NODE is not None
    done = subprocess.run(
        [NODE, "--test", *files], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    passed = re.search(r"^# pass (\d+)$", done.stdout, re.M)
    assert passed is not None and int(passed.group(1)) >= 15, done.stdout[-2000:]
