"""The client's stylesheet (``web/js/css.js``) is byte for byte ``charlotte.page.css.emit_css``.

One Node process per test emits the CSS of every case; compared with the Python
emitter on the canonical parity fixture, a few hundred drawn documents (before
and after their drawn op sequences), hostile and malformed documents and odd
style values; ``formatNumber`` against ``format_number`` on random doubles; and
``opsCanChangeCss`` is never false for a batch that does change the stylesheet.
"""

from __future__ import annotations

import json
import random
import struct
from pathlib import Path
from typing import Any, Final

from tests.support.node_js import first_difference, module_url, needs_node, run_node
from tests.support.page_cases import MALFORMED_DOCS, generated, hostile_docs

from charlotte.page.css import emit_css, format_number
from charlotte.page.ops import reduce, reduce_all

pytestmark = needs_node

FIXTURES: Final = Path(__file__).resolve().parents[2] / "fixtures" / "css"

RUNNER: Final = """
import { emitCss, formatNumber, opsCanChangeCss } from %s;
const { docs, numbers, batches } = INPUT;
console.log(JSON.stringify({
  css: docs.map((doc) => emitCss(doc)),
  numbers: numbers.map((n) => formatNumber(n)),
  changes: batches.map((ops) => opsCanChangeCss(ops)),
}));
"""


def _run(docs: list[Any], numbers: list[float] = [], batches: list[list[Any]] = []) -> dict[str, Any]:  # noqa: B006
    found: dict[str, Any] = run_node(
        RUNNER % f'"{module_url("css")}"', {"docs": docs, "numbers": numbers, "batches": batches}
    )
    return found


def _odd_values() -> dict[str, Any]:
    lengths = [{"value": v, "unit": "px"} for v in (0, -0.0, 1e21, 1e-7, 123456.789, 2**53 + 1, 10**30)]
    odd = [*lengths, {"value": "1", "unit": "px"}, {"value": True, "unit": "px"}, {"value": 1}, "12px", None, []]
    nodes = {}
    for i, value in enumerate(odd):
        style = {"padding": value, "opacity": value, "fontWeight": True, "color": 7, "align": "between"}
        constraints = {"base": {"left": value, "centerX": [], "centerY": {}, "width": value, "height": "fill"}}
        nodes[f"n{i}"] = {"id": f"n{i}", "parent": "free", "style": {"base": style, "md": style}, "constraints": constraints}
    nodes["free"] = {"id": "free", "parent": None, "layout": "free"}
    nodes["grid"] = {"id": "grid", "parent": "free", "layout": "grid", "style": {"base": {"columns": 0}}}
    nodes["\U0001f600"] = {"id": "\U0001f600", "layout": "stack", "style": {"base": {"direction": 3}}}
    nodes["\ue000"] = {"id": "\ue000", "layout": "free"}
    return {"seq": 0, "breakpoints": ["lg", "md", "md", "xl", None], "nodes": nodes}


def test_fixture_hostile_malformed_and_odd_documents_emit_the_same_bytes() -> None:
    docs: list[Any] = [json.loads((FIXTURES / "canonical-doc.json").read_text())]
    docs += [*hostile_docs(), *MALFORMED_DOCS, _odd_values()]
    got = _run(docs)["css"]
    expected = [emit_css(doc) for doc in docs]
    assert got == expected, first_difference(got, expected, docs)
    assert got[0] == (FIXTURES / "canonical.css").read_text()


def test_drawn_documents_emit_the_same_bytes_and_css_changes_are_foreseen() -> None:
    cases = generated(250)
    docs = [doc for doc, _ops in cases] + [reduce_all(doc, ops)[0] for doc, ops in cases]
    # Each whole batch, and each op alone on the document the ops before it left.
    batches: list[tuple[Any, list[Any]]] = list(cases)
    for doc, ops in cases:
        for op in ops:
            batches.append((doc, [op]))
            doc = reduce(doc, op)[0]
    found = _run(docs, batches=[ops for _doc, ops in batches])
    expected = [emit_css(doc) for doc in docs]
    assert found["css"] == expected, first_difference(found["css"], expected, docs)
    changed = [emit_css(doc) != emit_css(reduce_all(doc, ops)[0]) for doc, ops in batches]
    missed = [batches[i] for i, (c, seen) in enumerate(zip(changed, found["changes"], strict=True)) if c and not seen]
    assert not missed, missed[0]
    # Neither always yes nor always no: the answer tells batches apart.
    assert True in found["changes"] and False in found["changes"]


def test_numbers_print_as_javascript_prints_them() -> None:
    rng = random.Random()
    numbers: list[float] = [0.0, -0.0, 1e21, 1e-7, 1e-6, 5e-324, 1.7976931348623157e308, 0.1 + 0.2, 100.0, 2.0**70]
    while len(numbers) < 3000:
        value = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
        if value == value and abs(value) != float("inf"):
            numbers.append(value)
    numbers += [rng.uniform(-1000, 1000) for _ in range(500)] + [rng.randint(-10**6, 10**6) / 8 for _ in range(500)]
    got = _run([], numbers=numbers)["numbers"]
    assert got == [format_number(n) for n in numbers]
