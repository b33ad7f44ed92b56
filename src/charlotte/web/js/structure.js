// The ops of the editor's structural edits: a node moved among its siblings
// (an ordering key between its new neighbours), duplicated with its subtree
// under fresh ids, removed, or a new node of a type inserted after or inside
// the selection or between two top-level sections. Pure: they read the model and return ops.

import { EditRefused } from "./edits.js";
import { childrenOf, isContainer, model, nodeOf, parentOf, rootIds, siblingsOf, subtree, typeOf, walk } from "./editor.js";
import { keyBetween } from "./order.js";

const MAX_OPS = 200; // the ops one edit may carry
// What a new node of a type holds until the person writes their own.
const STARTER_PROPS = {
  text: { content: "New paragraph" },
  heading: { content: "New heading", level: 2 },
  link: { content: "New link", href: "#" },
  button: { label: "New button" },
  callout: { content: "A note" },
  code: { content: "code" },
};
const STARTER_LAYOUT = { section: "stack", stack: "stack", card: "stack", frame: "stack", grid: "grid" };
/** Types a person can add from the editor (an image needs an asset of the host's library: ask in the chat). */
export const ADDABLE = (type) => type !== "image";

/** A fresh node id: the type and a random tail, within the id pattern. */
export function freshId(type) {
  const tail = Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(36).padStart(2, "0")).join("");
  return `${String(type).replace(/[^A-Za-z0-9_-]/g, "").slice(0, 40) || "node"}-${tail}`;
}

const orderOf = (id) => (nodeOf(id) && typeof nodeOf(id).order === "string" ? nodeOf(id).order : null);

function between(prevId, nextId) {
  const low = prevId ? orderOf(prevId) : null;
  const high = nextId ? orderOf(nextId) : null;
  if ((prevId && low === null) || (nextId && high === null)) return null;
  try {
    return keyBetween(low, high);
  } catch {
    return null; // equal or unordered keys: no key fits between them
  }
}

/** Ops that put `id` where it stands in `order` (its siblings' ids in their new order). */
export function moveOps(id, order) {
  const parent = parentOf(id);
  const at = order.indexOf(id);
  const key = between(order[at - 1], order[at + 1]);
  if (key !== null) return [{ t: "move_node", id, parent, order: key }];
  if (parent === null) return [{ t: "reorder_roots", order }];
  // No key fits between the neighbours' keys: give every sibling a fresh one.
  if (order.length > MAX_OPS) throw new EditRefused("Too many siblings to reorder at once.");
  let last = null;
  return order.map((sibling) => {
    last = keyBetween(last, null);
    return { t: "move_node", id: sibling, parent, order: last };
  });
}

/** Ops moving `id` one place up (-1) or down (+1) among its siblings; [] at the end. */
export function stepOps(id, step) {
  const order = [...siblingsOf(id)];
  const at = order.indexOf(id);
  const to = at + step;
  if (at < 0 || to < 0 || to >= order.length) return [];
  order.splice(at, 1);
  order.splice(to, 0, id);
  return moveOps(id, order);
}

/** Ops copying `id` and its subtree under fresh ids, right after it; `{ops, root}`. */
export function duplicateOps(id) {
  const ids = subtree(id);
  if (ids.length > MAX_OPS) throw new EditRefused(`That part holds more than ${MAX_OPS} nodes: too many to copy at once.`);
  const fresh = new Map(ids.map((old) => [old, freshId(nodeOf(old).type)]));
  const siblings = siblingsOf(id);
  const key = between(id, siblings[siblings.indexOf(id) + 1]);
  const ops = ids.map((old) => {
    const copy = structuredClone(nodeOf(old));
    copy.id = fresh.get(old);
    if (old === id) {
      if (key === null) delete copy.order; // no key between: the copy goes last
      else copy.order = key;
    } else {
      copy.parent = fresh.get(copy.parent);
    }
    return { t: "insert_node", node: copy };
  });
  return { ops, root: fresh.get(id) };
}

/** The node to select once `id` is gone: the next sibling, else the one before, else the parent. */
export function afterRemoval(id) {
  const siblings = siblingsOf(id);
  const at = siblings.indexOf(id);
  return siblings[at + 1] ?? siblings[at - 1] ?? parentOf(id);
}

// A new node looks like the page's others of its type: the nearest one's style.
function lookOf(type, near) {
  const rows = walk().map((row) => row.id);
  const from = Math.max(0, rows.indexOf(near));
  const order = [...rows.slice(from), ...rows.slice(0, from).reverse()];
  const same = order.map(nodeOf).find((node) => node && node.type === type && node.style && node.style.base);
  return same ? structuredClone(same.style) : { base: {} };
}

function starterProps(type) {
  const props = { ...(STARTER_PROPS[type] || {}) };
  const specs = typeOf({ type })?.props || {};
  for (const [name, spec] of Object.entries(specs)) {
    if (spec.required && props[name] === undefined) props[name] = spec.type === "integer" ? spec.minimum ?? 1 : `New ${name}`;
  }
  for (const name of Object.keys(props)) if (!(name in specs) && model.types) delete props[name];
  return props;
}

/** Ops inserting a new `type` node: inside the selection (last child) or after it; `{ops, root}`. */
export function insertOps(type, where) {
  const selected = nodeOf(model.selected);
  const inside = selected !== null && where === "inside";
  if (inside && !isContainer(selected)) throw new EditRefused(`A ${selected.type} holds no other nodes: add after it instead.`);
  const parent = selected === null ? null : inside ? selected.id : parentOf(selected.id);
  const siblings = childrenOf(parent);
  const prev = selected === null || inside ? siblings[siblings.length - 1] : selected.id;
  const next = selected === null || inside ? undefined : siblings[siblings.indexOf(selected.id) + 1];
  return newNodeOps(type, parent, prev, next, model.selected);
}

/** Ops inserting a new top-level `type` node at `gap` (0: before the first section, n: after the last). */
export function insertAtGapOps(type, gap) {
  const roots = rootIds();
  return newNodeOps(type, null, roots[gap - 1], roots[gap], roots[gap] ?? roots[gap - 1] ?? null);
}

/** The top-level ordering key of `gap` (null when its neighbours' keys leave no room: the end). */
export const gapOrder = (gap) => between(rootIds()[gap - 1], rootIds()[gap]);

function newNodeOps(type, parent, prev, next, near) {
  const node = { id: freshId(type), type, parent, props: starterProps(type), style: lookOf(type, near) };
  const key = between(prev, next);
  if (key !== null) node.order = key;
  if (type in STARTER_LAYOUT) node.layout = STARTER_LAYOUT[type];
  return { ops: [{ t: "insert_node", node }], root: node.id };
}
