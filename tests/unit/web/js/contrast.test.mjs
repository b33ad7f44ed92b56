import assert from "node:assert/strict";
import { test } from "node:test";
import { WEB_JS, freeze } from "./helpers.mjs";

const c = await import(new URL("contrast.js", WEB_JS));

test("colours are read as the page's styles write them", () => {
  assert.deepEqual(c.parseColour("#abc"), { r: 170, g: 187, b: 204, a: 1 });
  assert.deepEqual(c.parseColour("#AABBCC80"), { r: 170, g: 187, b: 204, a: 128 / 255 });
  assert.deepEqual(c.parseColour("#0008"), { r: 0, g: 0, b: 0, a: 136 / 255 });
  assert.deepEqual(c.parseColour(" #7C2D12 "), { r: 124, g: 45, b: 18, a: 1 });
  assert.deepEqual(c.parseColour("rgb(10, 20, 30)"), { r: 10, g: 20, b: 30, a: 1 });
  assert.deepEqual(c.parseColour("rgba(10,20,30,.5)"), { r: 10, g: 20, b: 30, a: 0.5 });
  assert.deepEqual(c.parseColour("rgb(10 20 30 / 25%)"), { r: 10, g: 20, b: 30, a: 0.25 });
  assert.deepEqual(c.parseColour("rgb(100%, 0%, 50%)"), { r: 255, g: 0, b: 127.5, a: 1 });
  assert.deepEqual(c.parseColour("RebeccaPurple"), { r: 102, g: 51, b: 153, a: 1 });
  assert.deepEqual(c.parseColour("transparent"), { r: 0, g: 0, b: 0, a: 0 });
  assert.deepEqual(c.parseColour("rgb(300, -5, 20)"), { r: 255, g: 0, b: 20, a: 1 });
});

test("what cannot be measured is null, never a throw", () => {
  for (const text of ["var(--brand)", "linear-gradient(#000, #fff)", "url(x.png)", "#12", "#12345", "#ggg", "rgb(1, 2)", "rgb(1, 2%, 3)", "hsl(0 0% 0%)", "", "currentcolor", "#fff url(a.png)", null, 3, {}]) {
    assert.equal(c.parseColour(text), null, String(text));
    assert.equal(c.verdict(text, "#ffffff"), "unknown", String(text));
    assert.equal(c.verdict("#000000", text), "unknown", String(text));
  }
});

test("luminance and ratio are WCAG 2.2's", () => {
  assert.equal(c.luminance({ r: 0, g: 0, b: 0 }), 0);
  assert.equal(c.luminance({ r: 255, g: 255, b: 255 }), 1);
  assert.equal(c.contrastRatio({ r: 0, g: 0, b: 0 }, { r: 255, g: 255, b: 255 }), 21);
  assert.equal(c.contrastRatio({ r: 9, g: 9, b: 9 }, { r: 9, g: 9, b: 9 }), 1);
  // #767676 on white is the well-known 4.54:1, the lightest grey that passes.
  assert.equal(c.ratioText(c.measure("#767676", "#ffffff").ratio), "4.5:1");
  assert.equal(c.verdict("#767676", "#ffffff"), "ok");
  assert.equal(c.verdict("#777777", "#ffffff"), "low");
});

test("the verdict follows the bounds for normal and large text", () => {
  assert.equal(c.verdict("#7c2d12", "#111827"), "very_low");
  assert.equal(c.verdict("#ffffff", "#111827"), "ok");
  // #949494 on white is about 3.03:1: low for body text, fine for large text.
  assert.equal(c.verdict("#949494", "#ffffff"), "low");
  assert.equal(c.verdict("#949494", "#ffffff", { fontSizePx: 24 }), "ok");
  assert.equal(c.verdict("#949494", "#ffffff", { fontSizePx: 18.66, bold: true }), "ok");
  assert.equal(c.verdict("#949494", "#ffffff", { fontSizePx: 18.66 }), "low");
  assert.equal(c.verdict("#949494", "#ffffff", { fontSizePx: 18, bold: true }), "low");
  assert.equal(c.verdict("#aaaaaa", "#ffffff", { fontSizePx: 40 }), "very_low");
});

test("translucent colours are drawn over what lies under them", () => {
  // Half-transparent black text on white is a mid grey.
  const half = c.measure("rgba(0, 0, 0, 0.5)", "#ffffff").ratio;
  assert.ok(Math.abs(half - c.contrastRatio({ r: 127.5, g: 127.5, b: 127.5 }, { r: 255, g: 255, b: 255 })) < 1e-12);
  assert.deepEqual(c.effectiveBackground([undefined, "transparent", "#111827", "#ffffff"]), { r: 17, g: 24, b: 39, a: 1 });
  assert.deepEqual(c.effectiveBackground([]), c.PAGE_BACKGROUND);
  assert.equal(c.effectiveBackground(["rgba(0,0,0,.5)", "var(--x)"]), null);
  // An opaque layer hides what an unreadable one below it would have been.
  assert.deepEqual(c.effectiveBackground(["#000", "var(--x)"]), { r: 0, g: 0, b: 0, a: 1 });
});

test("ratios are said to one decimal, never rounded up to a bound they miss", () => {
  assert.equal(c.ratioText(1.893), "1.9:1");
  assert.equal(c.ratioText(4.47), "4.47:1");
  assert.equal(c.ratioText(2.96), "2.96:1");
  assert.equal(c.ratioText(4.5), "4.5:1");
  assert.equal(c.ratioText(21), "21.0:1");
  assert.equal(c.contrastWarning(c.measure("#7c2d12", "#111827")), "Contrast 1.9:1 — hard to read; aim for 4.5:1");
  assert.equal(c.contrastWarning(c.measure("#777777", "#ffffff")), "Contrast 4.5:1 — low; aim for 4.5:1".replace("4.5:1 —", "4.47:1 —"));
  assert.equal(c.contrastWarning(c.measure("#ffffff", "#111827")), "");
  assert.equal(c.contrastWarning(c.measure("var(--x)", "#111827")), "");
});

const section = (style) => ({ id: "s", type: "section", parent: null, order: "V", props: {}, style });
const heading = (style, level = 1) => ({ id: "h", type: "heading", parent: "s", order: "V", props: { level, content: "Hi" }, style });
const doc = (...nodes) => freeze({ nodes: Object.fromEntries(nodes.map((n) => [n.id, n])) });

test("a node's text is measured on the nearest background up the page, at a breakpoint", () => {
  const page = doc(section({ base: { background: "#111827" } }), heading({ base: { color: "#7c2d12" } }));
  assert.equal(c.nodeContrast(page, "h", "lg").verdict, "very_low");
  assert.equal(c.nodeContrast(page, "h", "lg", { color: "#ffffff" }).verdict, "ok");
  assert.equal(c.nodeContrast(page, "h", "base", { background: "#fff7ed" }).verdict, "ok");
  assert.equal(c.nodeContrast(page, "missing", "base").verdict, "unknown");
  // The background set for tablets and up counts from md, not below.
  const wide = doc(section({ base: { background: "#ffffff" }, md: { background: "#111827" } }), heading({ base: { color: "#7c2d12" } }));
  assert.equal(c.nodeContrast(wide, "h", "base").verdict, "ok");
  assert.equal(c.nodeContrast(wide, "h", "md").verdict, "very_low");
  assert.equal(c.nodeContrast(wide, "h", "lg").verdict, "very_low");
  // No colour anywhere: black text; a var() background: unknown.
  assert.equal(c.nodeContrast(doc(section({ base: {} }), heading({ base: {} })), "h", "base").verdict, "ok");
  assert.equal(c.nodeContrast(doc(section({ base: { background: "var(--bg)" } }), heading({ base: {} })), "h", "base").verdict, "unknown");
});

test("headings count as large by level, set sizes and weights as written", () => {
  const grey = (level, extra = {}) => doc(section({ base: {} }), heading({ base: { color: "#949494", ...extra } }, level));
  assert.equal(c.nodeContrast(grey(1), "h", "base").verdict, "ok");
  assert.equal(c.nodeContrast(grey(2), "h", "base").verdict, "ok");
  assert.equal(c.nodeContrast(grey(3), "h", "base").verdict, "ok"); // 18.72 px bold
  assert.equal(c.nodeContrast(grey(4), "h", "base").verdict, "low");
  assert.equal(c.nodeContrast(grey(1, { fontSize: { value: 14, unit: "px" } }), "h", "base").verdict, "low");
  assert.equal(c.nodeContrast(grey(3, { fontWeight: 400 }), "h", "base").verdict, "low");
});

test("a callout's text sits on its box's colour", () => {
  const callout = { id: "c", type: "callout", parent: "s", order: "V", props: { variant: "danger", content: "x" }, style: { base: { color: "#f87171" } } };
  const page = doc(section({ base: { background: "#111827" } }), callout);
  // Light red reads on the dark section but not on the callout's pale red box.
  assert.equal(c.verdict("#f87171", "#111827"), "ok");
  assert.notEqual(c.nodeContrast(page, "c", "base").verdict, "ok");
});

test("a cycle of parents ends the walk", () => {
  const a = { id: "a", type: "text", parent: "b", style: { base: { color: "#000" } } };
  const b = { id: "b", type: "section", parent: "a", style: { base: {} } };
  assert.equal(c.nodeContrast(doc(a, b), "a", "base").verdict, "ok");
});
