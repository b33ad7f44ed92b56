// The page's stylesheet, byte for byte charlotte.page.css.emit_css (and so
// the fancy-cms emitters): one `[data-cms="<id>"]` rule per node from its
// layout, constraints and base style, plus one `@media (min-width: …)` block
// per known breakpoint. Ids and declarations sorted; malformed input emits
// what it can and never throws. Numbers print as `String(n)`, which the Python
// side's `format_number` imitates. Pure: no DOM.
// Guard: tests/unit/web/test_css_js.py (against the Python emitter).

import { get, isDict, nodeMap } from "./tree.js";

/** Breakpoint name → min-width in px (`model.BREAKPOINT_PX`); any other name emits nothing. */
export const BREAKPOINT_PX = new Map([["md", 768], ["lg", 1024]]);

const ALIGN = new Map([["start", "flex-start"], ["end", "flex-end"]]);
const JUSTIFY = new Map([
  ["start", "flex-start"], ["end", "flex-end"], ["between", "space-between"], ["around", "space-around"],
]);
const STRING_PROPS = [
  ["background", "background"], ["color", "color"], ["fontFamily", "font-family"],
  ["textAlign", "text-align"], ["border", "border"], ["boxShadow", "box-shadow"],
  ["transform", "transform"], ["filter", "filter"],
];
const NUMBER_PROPS = [["opacity", "opacity"], ["fontWeight", "font-weight"], ["lineHeight", "line-height"]];
const LENGTH_PROPS = [
  ["padding", "padding"], ["margin", "margin"], ["radius", "border-radius"],
  ["fontSize", "font-size"], ["letterSpacing", "letter-spacing"], ["gap", "gap"],
];
const PINS = ["left", "right", "top", "bottom"];

/** `value` as JavaScript prints a finite number (`css.format_number`); null for anything else. */
export function formatNumber(value) {
  return typeof value === "number" && Number.isFinite(value) ? String(value) : null;
}

function length(value) {
  if (!isDict(value)) return null;
  const number = formatNumber(get(value, "value"));
  const unit = get(value, "unit");
  return number === null || typeof unit !== "string" ? null : number + unit;
}

function size(value) {
  if (value === "fill") return "100%";
  if (value === "hug") return "auto";
  return length(value);
}

const asDict = (value) => (isDict(value) ? value : {});

/** CSS declarations (a Map: property → value) of one breakpoint's style props. */
export function styleDeclarations(style) {
  const decls = new Map();
  for (const [key, prop] of LENGTH_PROPS) {
    const css = length(get(style, key));
    if (css !== null) decls.set(prop, css);
  }
  for (const [key, prop] of STRING_PROPS) {
    const value = get(style, key);
    if (typeof value === "string") decls.set(prop, value);
  }
  for (const [key, prop] of NUMBER_PROPS) {
    const css = formatNumber(get(style, key));
    if (css !== null) decls.set(prop, css);
  }
  const align = get(style, "align");
  const justify = get(style, "justify");
  if (typeof align === "string") decls.set("align-items", ALIGN.get(align) ?? align);
  if (typeof justify === "string") decls.set("justify-content", JUSTIFY.get(justify) ?? justify);
  return decls;
}

/** CSS declarations of how `node` arranges its children (its `layout`). */
export function layoutDeclarations(node) {
  const layout = get(node, "layout");
  const base = asDict(get(asDict(get(node, "style")), "base"));
  if (layout === "stack") {
    const direction = get(base, "direction");
    return new Map([["display", "flex"], ["flex-direction", typeof direction === "string" ? direction : "column"]]);
  }
  if (layout === "grid") {
    const columns = formatNumber(get(base, "columns"));
    return new Map([["display", "grid"], ["grid-template-columns", `repeat(${columns || "1"}, 1fr)`]]);
  }
  if (layout === "free") return new Map([["position", "relative"]]);
  return new Map();
}

/** CSS declarations of how a node places itself (pins only inside a free parent). */
export function constraintDeclarations(constraints, parentFree) {
  const decls = new Map();
  if (parentFree) {
    decls.set("position", "absolute");
    for (const pin of PINS) {
      const css = length(get(constraints, pin));
      if (css !== null) decls.set(pin, css);
    }
    const transforms = [];
    // JavaScript truthiness is the upstream rule here ([] and {} are true).
    if (get(constraints, "centerX")) {
      decls.set("left", "50%");
      transforms.push("translateX(-50%)");
    }
    if (get(constraints, "centerY")) {
      decls.set("top", "50%");
      transforms.push("translateY(-50%)");
    }
    if (transforms.length) decls.set("transform", transforms.join(" "));
  }
  for (const axis of ["width", "height"]) {
    const css = size(get(constraints, axis));
    if (css !== null) decls.set(axis, css);
  }
  return decls;
}

function parentIsFree(nodes, node) {
  const parentId = get(node, "parent") ?? null;
  if (parentId === null) return false; // roots flow in the page, one after the other
  const parent = typeof parentId === "string" ? get(nodes, parentId) : undefined;
  if (!isDict(parent)) return true;
  const layout = get(parent, "layout") ?? null;
  return layout === null || layout === "free";
}

// Property names are ASCII: JavaScript's sort is Python's here.
function rule(selector, decls, indent) {
  if (decls.size === 0) return "";
  const body = [...decls.keys()].sort().map((prop) => `${indent}  ${prop}: ${decls.get(prop)};`).join("\n");
  return `${indent}${selector} {\n${body}\n${indent}}`;
}

function update(target, source) {
  for (const [key, value] of source) target.set(key, value);
}

/** The blocks (a rule, then media blocks) one node contributes to the stylesheet. */
export function nodeBlocks(nodes, nodeId, node, breakpoints) {
  const selector = `[data-cms="${nodeId}"]`;
  const parentFree = parentIsFree(nodes, node);
  const style = asDict(get(node, "style"));
  const constraints = asDict(get(node, "constraints"));
  const base = layoutDeclarations(node);
  if (isDict(get(constraints, "base"))) update(base, constraintDeclarations(constraints.base, parentFree));
  update(base, styleDeclarations(asDict(get(style, "base"))));
  const blocks = [rule(selector, base, "")];
  for (const bp of breakpoints) {
    const px = BREAKPOINT_PX.get(bp);
    if (px === undefined) continue;
    const decls = new Map();
    if (isDict(get(constraints, bp))) update(decls, constraintDeclarations(constraints[bp], parentFree));
    if (isDict(get(style, bp))) update(decls, styleDeclarations(style[bp]));
    const inner = rule(selector, decls, "  ");
    if (inner) blocks.push(`@media (min-width: ${px}px) {\n${inner}\n}`);
  }
  return blocks.filter((block) => block);
}

function breakpointsOf(doc) {
  const raw = get(doc, "breakpoints");
  return Array.isArray(raw) ? raw.filter((bp) => typeof bp === "string" && bp !== "base") : [];
}

/** The page's stylesheet, byte for byte `css.emit_css`. */
export function emitCss(doc) {
  const nodes = nodeMap(doc);
  const breakpoints = breakpointsOf(doc);
  const blocks = [];
  // JavaScript's sort compares UTF-16 units: the order the Python side imitates.
  for (const nodeId of Object.keys(nodes).sort()) {
    const node = nodes[nodeId];
    if (isDict(node)) blocks.push(...nodeBlocks(nodes, nodeId, node, breakpoints));
  }
  return blocks.join("\n\n") + (blocks.length ? "\n" : "");
}

// What a node's CSS reads: its own style, constraints, layout and parent, and
// its children's placement (a child's pins depend on whether this node is free).
const CSS_OPS = new Set([
  "insert_node", "remove_node", "move_node", "set_layout", "set_style", "set_constraints", "restore_node",
]);

/**
 * Whether applying `ops` can change the stylesheet: true when one of them is
 * of a type that writes what `emitCss` reads. Props, animations, actions, meta,
 * theme and root order never do (the stylesheet sorts by id), nor does an op
 * the reducer refuses as malformed or unknown; a caller may then keep its CSS.
 */
export function opsCanChangeCss(ops) {
  return ops.some((op) => CSS_OPS.has(get(op, "t")));
}
