// The editor's view of the page: the draft as the store holds it (js/draft.js)
// walked as a tree, the node types the palette offers, which node is selected
// and the device's breakpoint. Views subscribe and redraw.

import { api, sessionPath } from "./api.js";
import { excerpt, nodeName as describedName, ownWords } from "./changes.js";
import { state } from "./dom.js";
import { store } from "./draft.js";
import { childrenIndex, nodeMap } from "./tree.js";

/** Device toggle → the breakpoint its edits go to (mobile first: md and lg override base). */
export const DEVICE_BREAKPOINT = Object.freeze({ phone: "base", tablet: "md", desktop: "lg" });
export const BREAKPOINT_NAME = Object.freeze({ base: "Phone (base)", md: "Tablet (md)", lg: "Desktop (lg)" });
export const BREAKPOINTS = Object.freeze(["base", "md", "lg"]);

// What the editor adds to the page: the page itself is the store's.
function freshModel() {
  return {
    types: null, // palette types by name: {type, container, props}
    sections: [], // [{kind, name, available}]
    selected: null,
    device: "desktop",
  };
}

export const model = freshModel();
const listeners = new Set();
// The tree of the store's draft, built once per document (the store gives a new one per change).
let indexed = { doc: undefined, kids: new Map() };

/** Call `fn(reason)` after every change of the model ("draft", "select", "palette", "device"). */
export function subscribe(fn) {
  listeners.add(fn);
}

function notify(reason) {
  for (const fn of listeners) fn(reason);
}

export function resetEditor() {
  // The device is the preview's, which a new session keeps: its breakpoint stays the one shown.
  Object.assign(model, { ...freshModel(), device: model.device });
  notify("draft");
}

/** The draft's document as the store holds it, or null before it is read. */
export function draftDoc() {
  const copy = store.get("draft");
  return copy ? copy.doc : null;
}

/** The draft's revision as the store holds it, or null. */
export const draftRevision = () => store.revision();

function index() {
  const doc = draftDoc();
  if (indexed.doc !== doc) {
    const kids = new Map();
    for (const [parent, nodes] of childrenIndex(doc)) kids.set(parent, nodes.map((node) => node.id));
    indexed = { doc, kids };
  }
  return indexed.kids;
}

// The store's draft moved: the selection stays while its node does.
store.subscribe((change) => {
  if (change.copy !== "draft") return;
  if (model.selected !== null && !nodeOf(model.selected)) model.selected = null;
  notify("draft");
});

/** The palette: the node types with their bounds, and the section kinds the brief can fill. */
export async function loadPalette(id) {
  const answer = await api("GET", sessionPath(id, "/palette"));
  if (state.sessionId !== id || !answer || typeof answer !== "object") return;
  const described = answer.types && Array.isArray(answer.types.types) ? answer.types.types : [];
  model.types = Object.fromEntries(described.filter((t) => t && typeof t.type === "string").map((t) => [t.type, t]));
  model.sections = Array.isArray(answer.sections) ? answer.sections.filter((s) => s && typeof s.kind === "string") : [];
  notify("palette");
}

export function select(id) {
  const next = nodeOf(id) ? id : null;
  if (next === model.selected) return;
  model.selected = next;
  notify("select");
}

export function setEditorDevice(device) {
  if (!(device in DEVICE_BREAKPOINT) || device === model.device) return;
  model.device = device;
  notify("device");
}

export function breakpoint() {
  return DEVICE_BREAKPOINT[model.device];
}

// ------------------------------------------------------------------ tree walks

export function nodeOf(id) {
  if (typeof id !== "string") return null;
  const nodes = nodeMap(draftDoc());
  const node = Object.hasOwn(nodes, id) ? nodes[id] : null;
  return node && typeof node === "object" && node.id === id ? node : null;
}
export const childrenOf = (parent) => index().get(parent) || [];
/** The top-level nodes' ids, in order. */
export const rootIds = () => childrenOf(null);
export const parentOf = (id) => (nodeOf(id) ? nodeOf(id).parent ?? null : null);
export const siblingsOf = (id) => childrenOf(parentOf(id));

/** Every node in render order with its depth (roots at 0); a cycle is walked once. */
export function walk() {
  const out = [];
  const seen = new Set();
  const visit = (parent, depth) => {
    for (const id of childrenOf(parent)) {
      if (seen.has(id)) continue;
      seen.add(id);
      out.push({ id, depth });
      visit(id, depth + 1);
    }
  };
  visit(null, 0);
  return out;
}

/** The node and every node under it, parents before children. */
export function subtree(id) {
  const out = [];
  const stack = [id];
  const seen = new Set();
  while (stack.length) {
    const current = stack.shift();
    if (seen.has(current) || !nodeOf(current)) continue;
    seen.add(current);
    out.push(current);
    stack.push(...childrenOf(current));
  }
  return out;
}

/** The top-level node a node sits in (itself for a root). */
export function rootOf(id) {
  let current = id;
  const seen = new Set();
  while (parentOf(current) !== null && !seen.has(current)) {
    seen.add(current);
    current = parentOf(current);
  }
  return current;
}

export function typeOf(node) {
  return node && model.types ? model.types[node.type] || null : null;
}

export function isContainer(node) {
  const described = typeOf(node);
  return described ? Boolean(described.container) : ["section", "frame", "stack", "grid", "card"].includes(node?.type);
}

const EXCERPT = 40;

/** What a person calls a node: its heading, label or text (cut short), else its alt text or id. */
export function nodeName(node) {
  if (!node) return "";
  const words = ownWords(node);
  return words.trim() ? excerpt(words, EXCERPT) : node.id;
}

/** Words for what an undo refusal names: a node's name, or the page's settings, theme, section order. */
export function keyName(key) {
  const special = { "#meta": "the page settings", "#theme": "the theme", "#order": "the order of the sections" };
  if (key in special) return special[key];
  // Its type and words ("Section “Contact”"), as the review names nodes.
  return nodeOf(key) ? describedName(key, [draftDoc()]) : key;
}
