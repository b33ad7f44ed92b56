import assert from "node:assert/strict";
import { test } from "node:test";
import { WEB_JS, freeze, node, page } from "./helpers.mjs";

const { emitCss, formatNumber, opsCanChangeCss } = await import(new URL("css.js", WEB_JS));

test("a free root's rule, as the Python docstring shows it", () => {
  const doc = { nodes: { a: { id: "a", parent: null, layout: "free", style: { base: { opacity: 0.5 } } } }, breakpoints: ["base"] };
  assert.equal(emitCss(freeze(doc)), '[data-cms="a"] {\n  opacity: 0.5;\n  position: relative;\n}\n');
});

test("breakpoint blocks, pins inside a free parent, unknown breakpoints skipped", () => {
  const doc = page(
    node("f", null, "V", { layout: "free" }),
    node("c", "f", "V", {
      constraints: { base: { left: { value: 4, unit: "px" }, centerY: true, width: "fill" } },
      style: { base: {}, md: { color: "red" }, xl: { color: "blue" } },
    }),
  );
  doc.breakpoints.push("xl");
  assert.equal(emitCss(freeze(doc)), [
    '[data-cms="c"] {\n  left: 4px;\n  position: absolute;\n  top: 50%;\n  transform: translateY(-50%);\n  width: 100%;\n}',
    '@media (min-width: 768px) {\n  [data-cms="c"] {\n    color: red;\n  }\n}',
    '[data-cms="f"] {\n  position: relative;\n}\n',
  ].join("\n\n"));
});

test("numbers print as String(n); anything else has no CSS form", () => {
  assert.deepEqual([1e21, 1e-7, -0, 0.1 + 0.2, 100].map(formatNumber), ["1e+21", "1e-7", "0", "0.30000000000000004", "100"]);
  assert.deepEqual([NaN, Infinity, "1", true, null].map(formatNumber), [null, null, null, null, null]);
});

test("malformed documents emit nothing and never throw", () => {
  for (const bad of [null, [], "x", {}, { nodes: [] }, { nodes: { a: null, b: "x" } }]) assert.equal(emitCss(bad), "");
});

test("only ops that write style, constraints, layout or the tree can change the CSS", () => {
  assert.equal(opsCanChangeCss([{ t: "set_node_props", id: "a", patch: {} }, { t: "set_meta", patch: {} },
    { t: "reorder_roots", order: [] }, { t: "set_action", id: "a", index: 0, action: null }, null]), false);
  for (const t of ["insert_node", "remove_node", "move_node", "set_layout", "set_style", "set_constraints", "restore_node"]) {
    assert.equal(opsCanChangeCss([{ t }]), true, t);
  }
});
