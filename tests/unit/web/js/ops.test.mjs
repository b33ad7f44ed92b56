import assert from "node:assert/strict";
import { test } from "node:test";
import { WEB_JS, freeze, node, page } from "./helpers.mjs";

const ops = await import(new URL("ops.js", WEB_JS));
const { reduce, reduceAll, touchedNodeIds } = ops;

test("an insert and a remove change a copy, never the input", () => {
  const before = freeze(page(node("a"), node("b", "a")));
  const { doc, reason } = reduce(before, { t: "insert_node", node: node("c", "b", "W", { type: "text" }) });
  assert.equal(reason, null);
  assert.equal(doc.seq, 1);
  assert.deepEqual(Object.keys(doc.nodes), ["a", "b", "c"]);
  assert.equal(doc.nodes.a, before.nodes.a, "an unchanged node is shared");
  const removed = reduce(doc, { t: "remove_node", id: "a" }).doc;
  assert.deepEqual(removed.nodes, {});
  assert.equal(removed.seq, 2);
});

test("a refused op gives back the same document and the Python reason", () => {
  const doc = freeze(page(node("a"), node("b", "a")));
  const cases = [
    [{ t: "insert_node", node: node("a") }, ops.NODE_EXISTS],
    [{ t: "insert_node", node: node("x", "ghost") }, ops.PARENT_NOT_FOUND],
    [{ t: "remove_node", id: "x" }, ops.NODE_NOT_FOUND],
    [{ t: "move_node", id: "a", parent: "a", order: "V" }, ops.SELF_PARENT],
    [{ t: "move_node", id: "a", parent: "ghost", order: "V" }, ops.NEW_PARENT_NOT_FOUND],
    [{ t: "move_node", id: "a", parent: "b", order: "V" }, ops.CYCLE],
    [{ t: "reorder_roots", order: ["a", "a"] }, ops.BAD_REORDER],
    [{ t: "set_action", id: "a", index: true, action: null }, ops.MALFORMED_OP],
    [{ t: "explode" }, 'unknown op "explode"'],
    [null, ops.MALFORMED_OP],
  ];
  for (const [op, reason] of cases) {
    const result = reduce(doc, op);
    assert.equal(result.reason, reason, JSON.stringify(op));
    assert.equal(result.doc, doc);
  }
  assert.equal(reduce({ nodes: {}, seq: "0" }, { t: "remove_node", id: "a" }).reason, ops.MALFORMED_DOC);
});

test("reduceAll skips refused ops and reports where", () => {
  const { doc, skipped } = reduceAll(page(node("a"), node("b")), [
    { t: "reorder_roots", order: ["b", "a"] },
    { t: "remove_node", id: "zzz" },
    { t: "set_style", id: "a", breakpoint: "md", patch: { color: "red" } },
    { t: "set_constraints", id: "b", breakpoint: "md", patch: { width: "fill" } },
  ]);
  assert.deepEqual(skipped, [[1, ops.NODE_NOT_FOUND]]);
  assert.equal(doc.seq, 3);
  assert.deepEqual([doc.nodes.b.order, doc.nodes.a.order], ["V", "VV"]);
  assert.deepEqual(doc.nodes.a.style, { base: {}, md: { color: "red" } });
  assert.deepEqual(doc.nodes.b.constraints, { base: { width: "hug", height: "hug" }, md: { width: "fill" } });
});

test("restore ops put back what they carry", () => {
  const doc = page(node("a", null, "V", { animations: [{ id: "x" }] }));
  const { doc: after } = reduceAll(doc, [
    { t: "restore_node", node: node("a") },
    { t: "restore_meta", meta: { title: "Back" } },
    { t: "restore_theme", theme: {} },
  ]);
  assert.deepEqual(after.nodes.a, node("a"));
  assert.deepEqual(after.meta, { title: "Back" });
  assert.deepEqual(after.theme, {});
});

test("ids that are JavaScript property names are plain ids", () => {
  const doc = freeze(page());
  const { doc: after } = reduceAll(doc, [
    { t: "insert_node", node: node("__proto__") },
    { t: "insert_node", node: node("constructor", "__proto__") },
    { t: "set_node_props", id: "constructor", patch: JSON.parse('{"__proto__": {"polluted": 1}}') },
  ]);
  assert.deepEqual(Object.keys(after.nodes), ["__proto__", "constructor"]);
  assert.equal(Object.getPrototypeOf(after.nodes), Object.prototype);
  assert.equal({}.polluted, undefined);
  assert.equal(reduce(doc, { t: "remove_node", id: "toString" }).reason, ops.NODE_NOT_FOUND);
});

test("touchedNodeIds names each written node once, first seen first", () => {
  const batch = [
    { t: "set_node_props", id: "b", patch: {} }, { t: "insert_node", node: node("a") },
    { t: "remove_node", id: "b" }, { t: "set_meta", patch: {} }, null,
  ];
  assert.deepEqual(touchedNodeIds(batch), ["b", "a"]);
});
