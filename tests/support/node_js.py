"""Run the builder page's pure ES modules (``web/js/``) under Node on a batch of inputs.

The client's reducer, renderer and stylesheet are proven equal to charlotte's
Python reference by running each module once per test on a few hundred inputs:
``run_node`` hands the inputs to one Node process as JSON on stdin and reads
its answer as JSON from stdout. JSON keeps lone surrogates (escaped) both
ways, so hostile text crosses intact. Inputs are deep-frozen on the Node side
(``FREEZE``) so a module that mutates what it is given throws.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from importlib import resources
from typing import Any, Final

import pytest

NODE: Final = shutil.which("node")

#: Skip marker for the tests that need Node (CI installs it; a skip fails CI).
needs_node: Final = pytest.mark.skipif(NODE is None, reason="node is not installed")

#: A Node helper: deep-freezes a parsed JSON value (a mutation then throws in a module).
FREEZE: Final = """
function freeze(value) {
  if (value !== null && typeof value === "object") {
    Object.values(value).forEach(freeze);
    Object.freeze(value);
  }
  return value;
}
"""


def module_url(name: str) -> str:
    """The ``file://`` URL of ``web/js/<name>.js`` as installed (what the package ships)."""
    return f"file://{resources.files('charlotte') / 'web' / 'js' / f'{name}.js'}"


def run_node(script: str, payload: object, *, timeout: float = 60) -> Any:
    """Run ``script`` (an ES module reading ``INPUT``) on ``payload``; its one printed JSON value."""
    assert NODE is not None
    source = (
        'import { readFileSync } from "node:fs";\n'
        + FREEZE
        + 'const INPUT = freeze(JSON.parse(readFileSync(0, "utf8")));\n'
        + script
    )
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", source],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(done.stdout)


def first_difference(got: list[Any], expected: list[Any], cases: list[Any]) -> str:
    """A readable note of the first case where ``got`` and ``expected`` differ ("" when none)."""
    assert len(got) == len(expected), (len(got), len(expected))
    for i, (g, e) in enumerate(zip(got, expected, strict=True)):
        if g != e:
            return f"case {i}: {json.dumps(cases[i])[:2000]}\n  node:   {json.dumps(g)[:2000]}\n  python: {json.dumps(e)[:2000]}"
    return ""
