// A page's nodes and a diff's keys in words, for people: a node's type and
// its heading, label or first words, style keys with their breakpoints, node
// fields. Pure (no DOM): the change set, the publish dialog, the history and
// the editor name things with it. Guard: tests/unit/web/js/words.test.mjs.

export const TYPE_WORDS = {
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
export const PROP_WORDS = { content: "text", label: "label", href: "link", level: "heading level", alt: "image description", asset: "image", variant: "look", lang: "language" };
const EXCERPT = 60;

export const listOf = (value) => (Array.isArray(value) ? value : []);
export const nodesOf = (doc) => (doc && doc.nodes && typeof doc.nodes === "object" ? doc.nodes : {});

/** "1 edit", "3 edits". */
export function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** A name inside a sentence: "Opening hours" → "opening hours", an acronym kept ("FAQ", "FAQs"). */
export function inSentence(name) {
  const text = String(name);
  // A capital after the first letter: an acronym or a proper name, read as written.
  if (text.length > 1 && /^\p{Lu}\p{Lu}/u.test(text)) return text;
  return text.charAt(0).toLowerCase() + text.slice(1);
}

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

/** `{type, words}` of node `id` from the first of `docs` that has it, else null. */
export function describeInDocs(id, docs) {
  for (const doc of docs) {
    const node = nodesOf(doc)[id];
    if (node && typeof node === "object") {
      return { type: String(node.type || ""), words: ownWords(node) || innerWords(doc, id) };
    }
  }
  return null;
}

/** "Heading “Rosa's Bakery”", "Section “About us”", else the type or the id, from `{type, words}`. */
export function nameFrom(id, { type, words }) {
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
