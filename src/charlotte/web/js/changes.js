// A diff of the server's (`{added, removed, changed, meta, theme}`, from
// charlotte.page.diff) as one entry per node, in words: the node's type and
// its heading, label or first words; its text before → after word by word;
// the style keys that changed with the breakpoints in words; the other
// fields (moved, layout…). Used by the change-set review and the publish
// dialog; neither computes a diff itself.

import { el, plural } from "./dom.js";
import { frameNodeInfo, frameOrder } from "./highlight.js";
import { diffElement } from "./worddiff.js";

const TYPE_WORDS = {
  section: "Section", frame: "Box", stack: "Stack", grid: "Grid", card: "Card", text: "Text",
  heading: "Heading", link: "Link", button: "Button", image: "Image", divider: "Divider",
  callout: "Callout", code: "Code",
};
const BREAKPOINT_WORDS = {
  base: "all widths",
  md: "tablets and up", // 768 px and wider (charlotte.page.model.BREAKPOINT_PX)
  lg: "desktops", // 1024 px and wider
};
const FIELD_WORDS = {
  parent: "moved to another place",
  order: "moved",
  layout: "layout",
  constraints: "position and size",
  type: "type",
  className: "class name",
  node: "replaced",
};
const PROP_WORDS = { content: "text", label: "label", href: "link", level: "heading level", alt: "image description", asset: "image", variant: "look", lang: "language" };
const EXCERPT = 60;

const listOf = (value) => (Array.isArray(value) ? value : []);
const nodesOf = (doc) => (doc && doc.nodes && typeof doc.nodes === "object" ? doc.nodes : {});

/** "fontSize" → "font size". */
export function keyWords(key) {
  return String(key).replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

/** `text` on one line, cut to `limit` characters with an ellipsis. */
export function excerpt(text, limit = EXCERPT) {
  const flat = String(text).replace(/\s+/g, " ").trim();
  return flat.length > limit ? `${flat.slice(0, limit - 1)}…` : flat;
}

/** A node's own words: a heading's or a text's content, a button's label, an image's description. */
export function ownWords(node) {
  const props = node && node.props && typeof node.props === "object" ? node.props : {};
  for (const key of ["content", "label", "alt"]) {
    if (typeof props[key] === "string" && props[key].trim()) return props[key];
  }
  return "";
}

// A box's words: its first heading's, else the first words inside it (breadth first, bounded).
function innerWords(doc, id) {
  const nodes = nodesOf(doc);
  const children = {};
  for (const node of Object.values(nodes)) {
    if (node && typeof node.parent === "string") (children[node.parent] ||= []).push(node);
  }
  const byOrder = (a, b) => (String(a.order) < String(b.order) ? -1 : String(a.order) > String(b.order) ? 1 : 0);
  let level = [id];
  let fallback = "";
  for (let depth = 0; depth < 4 && level.length > 0; depth += 1) {
    const next = [];
    for (const parent of level) {
      for (const child of (children[parent] || []).sort(byOrder)) {
        if (child.type === "heading" && ownWords(child)) return ownWords(child);
        if (!fallback && ownWords(child)) fallback = ownWords(child);
        next.push(child.id);
      }
    }
    level = next.slice(0, 200);
  }
  return fallback;
}

/** `{type, words}` of node `id` from the first document that has it, else from the preview frame. */
export function describeNode(id, docs) {
  for (const doc of docs) {
    const node = nodesOf(doc)[id];
    if (node && typeof node === "object") {
      return { type: String(node.type || ""), words: ownWords(node) || innerWords(doc, id) };
    }
  }
  return frameNodeInfo(id) || { type: "", words: "" };
}

/** "Heading “Rosa's Bakery”", "Section “About us”", else the type or the id. */
export function nodeName(id, docs) {
  const { type, words } = describeNode(id, docs);
  const kind = TYPE_WORDS[type] || (type ? keyWords(type) : "");
  if (words) return `${kind || "Node"} “${excerpt(words)}”`;
  return kind ? `${kind} ${id}` : id;
}

/** Style keys ("base.fontSize", "md.fontSize") in words: "font size (all widths, tablets and up)". */
export function styleWords(keys) {
  const byKey = new Map();
  for (const key of listOf(keys)) {
    const [breakpoint, ...rest] = String(key).split(".");
    const name = rest.length ? keyWords(rest.join(".")) : keyWords(breakpoint);
    const where = rest.length ? BREAKPOINT_WORDS[breakpoint] || `at ${breakpoint}` : "";
    if (!byKey.has(name)) byKey.set(name, []);
    if (where) byKey.get(name).push(where);
  }
  return [...byKey].map(([name, where]) => (where.length ? `${name} (${where.join(", ")})` : name));
}

/** Node fields ("parent", "layout", …) in words, "moved" once. */
export function fieldWords(fields) {
  const words = listOf(fields).map((field) => FIELD_WORDS[field] || keyWords(field));
  return [...new Set(words)];
}

/**
 * The entries of `diff`, one per node (nodes removed with an ancestor go in
 * that ancestor's entry): `[{key, kind, ids, element, head, name}]` (`ids`:
 * the keys that reject it, as `change-set/reject-nodes` takes them). `docs`
 * are the documents to name nodes from (the newer first); `tag` the entry's
 * element; `show(key, element)`, when given, is what clicking its name does.
 */
export function changeEntries(diff, docs, { tag = "li", show = null } = {}) {
  const entries = [];
  const entry = (key, kind, label, ids, words = nodeName(key, docs)) => {
    const item = el(tag, "change");
    item.dataset.kind = kind;
    item.dataset.node = key;
    const head = el("div", "change-head");
    head.append(el("span", "change-kind", label));
    // With `show`, the name is a button that shows the node in the preview.
    // `diff-node` and `data-node`: what a diff's node chip has always carried.
    // The page's settings and theme are no node to point at.
    const showable = show && !key.startsWith("#");
    const name = el(showable ? "button" : "span", "change-name diff-node", words);
    name.dataset.node = key;
    if (showable) {
      name.type = "button";
      name.title = "Show it in the preview";
      name.addEventListener("click", () => show(key, item));
    }
    head.append(name);
    item.append(head);
    entries.push({ key, kind, ids, element: item, head, name: words });
    return item;
  };
  for (const change of listOf(diff.changed)) {
    if (!change || typeof change.id !== "string") continue;
    // A top-level section moved by reordering the page's sections: that op's key is "#order".
    const reordered = listOf(change.fields).includes("order") && isRoot(change.id, docs);
    const item = entry(change.id, "changed", "Changed", reordered ? [change.id, "#order"] : [change.id]);
    const texts = change.text && typeof change.text === "object" ? change.text : {};
    for (const [prop, sides] of Object.entries(texts)) {
      if (!sides || typeof sides.before !== "string" || typeof sides.after !== "string") continue;
      const row = el("div", "change-text");
      row.append(el("span", "change-prop", PROP_WORDS[prop] || keyWords(prop)), diffElement(sides.before, sides.after));
      item.append(row);
    }
    const said = [];
    const others = listOf(change.props).filter((prop) => !(prop in texts));
    if (others.length) said.push(`Changed ${others.map((prop) => PROP_WORDS[prop] || keyWords(prop)).join(", ")}`);
    const styles = styleWords(change.style);
    if (styles.length) said.push(`Style: ${styles.join("; ")}`);
    const fields = fieldWords(change.fields);
    if (fields.length) said.push(fields.map((word, index) => (index ? word : word[0].toUpperCase() + word.slice(1))).join(", "));
    if (said.length) item.append(el("p", "change-more", said.join(" · ")));
  }
  for (const [kind, label] of [["added", "Added"], ["removed", "Removed"]]) {
    const ids = listOf(diff[kind]).filter((id) => typeof id === "string");
    const inside = kind === "removed" ? groupUnder(ids, docs) : new Map(ids.map((id) => [id, []]));
    for (const [id, within] of inside) {
      const item = entry(id, kind, label, [id]);
      if (within.length) item.append(el("p", "change-more", `with ${plural(within.length, "node")} inside`));
    }
  }
  // In the page's reading order where the preview shows the node; the others after, as they came.
  const order = frameOrder();
  const place = (item, index) => (order.has(item.key) ? order.get(item.key) : order.size + index);
  const placed = entries.map((item, index) => [place(item, index), item]);
  placed.sort((a, b) => a[0] - b[0]);
  entries.splice(0, entries.length, ...placed.map(([, item]) => item));
  if (diff.meta === true) entry("#meta", "page", "Page", ["#meta"], "Title and page settings");
  if (diff.theme === true) entry("#theme", "page", "Page", ["#theme"], "Colours and fonts");
  return entries;
}

function isRoot(id, docs) {
  const node = docs.map((doc) => nodesOf(doc)[id]).find(Boolean);
  return Boolean(node) && node.parent === null;
}

// Removed nodes under a removed ancestor belong to its entry: one op removed them all.
function groupUnder(ids, docs) {
  const gone = new Set(ids);
  const parentOf = (id) => {
    for (const doc of docs) {
      const node = nodesOf(doc)[id];
      if (node) return typeof node.parent === "string" ? node.parent : null;
    }
    return null;
  };
  const top = (id) => {
    let current = id;
    for (let step = 0; step < 20; step += 1) {
      const parent = parentOf(current);
      if (parent === null || !gone.has(parent)) return current;
      current = parent;
    }
    return current;
  };
  const out = new Map();
  for (const id of ids) {
    const root = top(id);
    if (!out.has(root)) out.set(root, []);
    if (root !== id) out.get(root).push(id);
  }
  return out;
}
