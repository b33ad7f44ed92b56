"""The client's reducer (``web/js/ops.js``) is charlotte's: same documents, same refusals.

One Node process per test applies every case with ``reduceAll`` and op by op
with ``reduce`` (the same document object back on a refusal; inputs frozen, so
a mutation throws), and computes ``touchedNodeIds``; each result is compared
with ``charlotte.page.ops`` on a few hundred drawn documents and op sequences
(every op type, refusals and malformed ops included), hostile ids and text,
and malformed documents.
"""

from __future__ import annotations

from typing import Any, Final

from tests.support.node_js import first_difference, module_url, needs_node, run_node
from tests.support.page_cases import MALFORMED_DOCS, generated, hostile_docs, hostile_ops
from tests.unit.page.strategies import MALFORMED_OPS

from charlotte.page import op_table
from charlotte.page.model import empty_doc
from charlotte.page.ops import reduce, reduce_all, touched_node_ids

pytestmark = needs_node

RUNNER: Final = """
import { reduce, reduceAll, touchedNodeIds } from %s;
const out = INPUT.map(([doc, ops]) => {
  const all = reduceAll(doc, ops);
  let current = doc;
  const steps = ops.map((op) => {
    const { doc: next, reason } = reduce(current, op);
    const same = next === current;
    current = next;
    return [reason, same];
  });
  return { doc: all.doc, skipped: all.skipped, steps, folded: current, touched: touchedNodeIds(ops) };
});
console.log(JSON.stringify(out));
"""


def _python(doc: Any, ops: list[Any]) -> dict[str, Any]:
    final, skipped = reduce_all(doc, ops)
    current, steps = doc, []
    for op in ops:
        after, reason = reduce(current, op)
        steps.append([reason, after is current])
        current = after
    return {
        "doc": final,
        "skipped": [list(skip) for skip in skipped],
        "steps": steps,
        "folded": current,
        "touched": list(touched_node_ids(ops)),
    }


def _compare(cases: list[tuple[Any, list[Any]]]) -> None:
    got = run_node(RUNNER % f'"{module_url("ops")}"', cases)
    expected = [_python(doc, ops) for doc, ops in cases]
    assert got == expected, first_difference(got, expected, cases)


def test_drawn_documents_and_op_sequences_reduce_the_same() -> None:
    cases = generated(300)
    _compare(cases)
    # The draw reaches every op type, and refusals of several kinds.
    reasons = {reason for doc, ops in cases for _i, reason in reduce_all(doc, ops)[1]}
    assert {op_table.NODE_NOT_FOUND, op_table.NODE_EXISTS, op_table.MALFORMED_OP} <= reasons
    kinds = {op.get("t") for _doc, ops in cases for op in ops if isinstance(op, dict)}
    assert set(op_table.OPS) <= kinds


def test_hostile_ids_keys_and_text_reduce_the_same() -> None:
    cases = [(doc, hostile_ops(doc)) for doc in hostile_docs()]
    cases += [(empty_doc("p"), hostile_ops(empty_doc("p")))]
    _compare(cases)
    reasons = {reason for doc, ops in cases for _i, reason in reduce_all(doc, ops)[1]}
    assert {op_table.CYCLE, op_table.SELF_PARENT, op_table.NEW_PARENT_NOT_FOUND, op_table.BAD_REORDER} <= reasons


def test_malformed_documents_and_ops_are_refused_with_the_same_reasons() -> None:
    ops: list[Any] = [*MALFORMED_OPS, {"t": "set_meta", "patch": {}}, {"t": "restore_node", "node": {"id": "k"}}]
    ops += [{"t": "remove_node", "id": "a"}, {"t": "reorder_roots", "order": []}]
    _compare([(doc, ops) for doc in MALFORMED_DOCS])
