"""The builder's ordering keys (``web/js/order.js``) are byte for byte charlotte's own.

Node runs the module on the golden table of ``tests/unit/page/test_ordering.py``,
the 200-step insert walk, appends and prepends, and a few hundred random pairs;
every key is compared with ``charlotte.page.ordering.key_between``.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from importlib import resources
from typing import Final

import pytest
from tests.unit.page.test_ordering import GOLDEN

from charlotte.page.ordering import ALPHABET, key_between

NODE: Final = shutil.which("node")

RUNNER: Final = """
import { keyBetween } from %s;
const cases = JSON.parse(process.argv[1]);
const out = cases.map(([a, b]) => {
  try { return keyBetween(a, b); } catch (error) { return error instanceof RangeError ? "!" : String(error); }
});
console.log(JSON.stringify(out));
"""


def _python(a: str | None, b: str | None) -> str:
    try:
        return key_between(a, b)
    except ValueError:
        return "!"


def _cases() -> list[tuple[str | None, str | None]]:
    cases: list[tuple[str | None, str | None]] = [(a, b) for a, b, _ in GOLDEN]
    a, b = "a0", "a1"
    for _ in range(200):  # the insert walk: each key the upper bound of the next
        cases.append((a, b))
        b = key_between(a, b)
    key = None
    for _ in range(50):
        cases.append((key, None))
        cases.append((None, key))
        key = key_between(key, None)
    rng = random.Random(7)
    for _ in range(400):
        x = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 6)))
        y = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 6)))
        cases.append((x, y))  # either order: the refusals must match too
    cases += [("b", "a"), ("a0", "a0"), (None, "0"), ("a", "a~"), ("zz", None)]
    return cases


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_js_key_between_matches_python() -> None:
    module = resources.files("charlotte") / "web" / "js" / "order.js"
    cases = _cases()
    source = RUNNER % json.dumps(f"file://{module}")
    done = subprocess.run(
        [str(NODE), "--input-type=module", "-e", source, json.dumps(cases)],
        capture_output=True, text=True, timeout=60, check=True,
    )
    got = json.loads(done.stdout)
    assert got == [_python(a, b) for a, b in cases]
    assert got[: len(GOLDEN)] == [expected for _, _, expected in GOLDEN]
