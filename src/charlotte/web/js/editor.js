// The editor's document model: the draft as GET /draft last answered it, the
// node types the palette offers, which node is selected, and the tree walks
// the outline, the inspector and the keys share. Views subscribe and redraw.

import { api, sessionPath } from "./api.js";
import { excerpt, nodeName as describedName, ownWords } from "./changes.js";
import { state } from "./dom.js";

/** Device toggle → the breakpoint its edits go to (mobile first: md and lg override base). */
export const DEVICE_BREAKPOINT = Object.freeze({ phone: "base", tablet: "md", desktop: "lg" });
export const BREAKPOINT_NAME = Object.freeze({ base: "Phone (base)", md: "Tablet (md)", lg: "Desktop (lg)" });
export const BREAKPOINTS = Object.freeze(["base", "md", "lg"]);

function freshModel() {
  return {
    revision: null, // the newest draft revision known (an edit's answer, or a read)
    readAt: null, // the revision `nodes` were read at
    nodes: {}, // id → node, as the draft holds them
    kids: new Map(), // parent id (null: roots) → ordered child ids
    types: null, // palette types by name: {type, container, props}
    sections: [], // [{kind, name, available}]
    selected: null,
    device: "desktop",
  };
}

export const model = freshModel();
const listeners = new Set();

/** Call `fn(reason)` after every change of the model ("draft", "select", "palette", "device"). */
export function subscribe(fn) {
  listeners.add(fn);
}

function notify(reason) {
  for (const fn of listeners) fn(reason);
}

export function resetEditor() {
  Object.assign(model, freshModel());
  notify("draft");
}

function compare(a, b) {
  const ka = typeof a.order === "string" ? a.order : "";
  const kb = typeof b.order === "string" ? b.order : "";
  if (ka !== kb) return ka < kb ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The draft's answer (revision, page) becomes the model; the selection stays if its node does. */
export function setDraft(answer) {
  if (!answer || typeof answer !== "object") return;
  // An answer older than an edit already written here says nothing new.
  if (Number.isInteger(answer.revision) && model.revision !== null && answer.revision < model.revision) return;
  // The same revision read again (the preview reads what the editor just read) changes nothing.
  if (Number.isInteger(answer.revision) && answer.revision === model.readAt) return;
  const page = answer.page && typeof answer.page === "object" ? answer.page : {};
  const nodes = page.nodes && typeof page.nodes === "object" ? page.nodes : {};
  const kids = new Map();
  const listed = {};
  for (const [id, node] of Object.entries(nodes)) {
    if (!node || typeof node !== "object" || node.id !== id) continue;
    const parent = typeof node.parent === "string" ? node.parent : null;
    if (node.parent !== null && parent === null) continue;
    listed[id] = node;
    if (!kids.has(parent)) kids.set(parent, []);
    kids.get(parent).push(node);
  }
  for (const [parent, list] of kids) kids.set(parent, list.sort(compare).map((node) => node.id));
  model.nodes = listed;
  model.kids = kids;
  if (Number.isInteger(answer.revision)) model.revision = model.readAt = answer.revision;
  if (model.selected !== null && !(model.selected in listed)) model.selected = null;
  notify("draft");
}

/** GET /draft now, into the model; the answer is returned (the preview reads its own). */
export async function readDraft() {
  const answer = await api("GET", sessionPath(state.sessionId, "/draft"));
  setDraft(answer);
  return answer;
}

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
  const next = id !== null && id in model.nodes ? id : null;
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

export const nodeOf = (id) => (id !== null && id in model.nodes ? model.nodes[id] : null);
export const childrenOf = (parent) => model.kids.get(parent) || [];
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
  return nodeOf(key) ? describedName(key, [model]) : key;
}
