// A diff of the server's (`{added, removed, changed, meta, theme}`, from
// charlotte.page.diff) as one entry per node, in words: the node's type and
// its heading, label or first words; its text before → after word by word;
// the style keys that changed with the breakpoints in words; the other
// fields (moved, layout…). Used by the change-set review and the publish
// dialog; neither computes a diff itself.

import { el, plural } from "./dom.js";
import { frameNodeInfo, frameOrder } from "./highlight.js";
import { diffElement } from "./worddiff.js";
import { PROP_WORDS, describeInDocs, excerpt, fieldWords, keyWords, listOf, nameFrom, nodesOf, ownWords, styleWords } from "./words.js";

export { excerpt, fieldWords, keyWords, ownWords, styleWords };

/** `{type, words}` of node `id` from the first document that has it, else from the preview frame. */
export function describeNode(id, docs) {
  return describeInDocs(id, docs) || frameNodeInfo(id) || { type: "", words: "" };
}

/** "Heading “Rosa's Bakery”", "Section “About us”", else the type or the id. */
export function nodeName(id, docs) {
  return nameFrom(id, describeNode(id, docs));
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
