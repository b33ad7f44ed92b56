// The page as HTML, byte for byte charlotte.page.render.render_html: every
// node a `<div data-cms="<id>">` wrapper around its content, containers
// holding their children in order, an island an empty placeholder, richtext
// never rendered, everything from the document escaped as markupsafe escapes
// it, unsafe hrefs dropped, images only from the asset library. Malformed
// documents render what they can and never throw; a node renders at most once.
// `renderNode` renders one subtree, so a view can replace just that node.
// Pure: builds strings, no DOM. Guard: tests/unit/web/test_render_js.py.

import { isSafeHref } from "./hrefs.js";
import { childrenIndex, get, isDict, pyTruthy } from "./tree.js";

/** Types with their own content: they never render children. */
export const LEAF_TYPES = new Set([
  "text", "heading", "link", "button", "image", "divider", "callout", "code", "richtext",
]);
const BUTTON_VARIANTS = ["primary", "secondary", "ghost"];
const CALLOUT_VARIANTS = ["info", "success", "warning", "danger"];

// Characters HTML forbids (controls but whitespace, lone surrogates, noncharacters), replaced before escaping.
const NOT_HTML = /[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff\u{1fffe}\u{1ffff}\u{2fffe}\u{2ffff}\u{3fffe}\u{3ffff}\u{4fffe}\u{4ffff}\u{5fffe}\u{5ffff}\u{6fffe}\u{6ffff}\u{7fffe}\u{7ffff}\u{8fffe}\u{8ffff}\u{9fffe}\u{9ffff}\u{afffe}\u{affff}\u{bfffe}\u{bffff}\u{cfffe}\u{cffff}\u{dfffe}\u{dffff}\u{efffe}\u{effff}\u{ffffe}\u{fffff}\u{10fffe}\u{10ffff}]/gu;
const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;" };

/** `text` cleaned of what HTML forbids and escaped as markupsafe's `escape` does. */
export function escapeHtml(text) {
  return text.replace(NOT_HTML, "\ufffd").replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

const textOf = (value) => (typeof value === "string" ? escapeHtml(value) : "");
// Only known variants become class names: a free string could add classes.
const variant = (value, allowed) => (typeof value === "string" && allowed.includes(value) ? value : allowed[0]);

function headingLevel(value) {
  if (typeof value !== "number" || !Number.isInteger(value)) return 2; // NaN and infinities too
  return Math.max(1, Math.min(6, value));
}

function hrefAttr(props) {
  const href = get(props, "href");
  return typeof href === "string" && isSafeHref(href) ? ` href="${escapeHtml(href)}"` : "";
}

function button(props) {
  const kind = variant(get(props, "variant"), BUTTON_VARIANTS);
  const attrs = ` class="cms-button cms-button--${kind}" data-cms-button="${kind}"`;
  const label = textOf(get(props, "label"));
  const href = hrefAttr(props);
  return href ? `<a${href}${attrs}>${label}</a>` : `<button type="button"${attrs}>${label}</button>`;
}

function image(props, assets) {
  const asset = get(props, "asset");
  if (typeof asset !== "string" || !asset || !assets.exists(asset)) return "";
  const url = assets.url(asset);
  if (typeof url !== "string") return "";
  return `<img src="${escapeHtml(url)}" alt="${textOf(get(props, "alt"))}">`;
}

function leafContent(type, props, assets) {
  const content = textOf(get(props, "content"));
  switch (type) {
    case "text": return content;
    case "heading": {
      const level = headingLevel(get(props, "level"));
      return `<h${level}>${content}</h${level}>`;
    }
    case "link": return `<a${hrefAttr(props)}>${content}</a>`;
    case "button": return button(props);
    case "image": return image(props, assets);
    case "divider": return "<hr>";
    case "callout": {
      const kind = variant(get(props, "variant"), CALLOUT_VARIANTS);
      return `<div class="cms-callout cms-callout--${kind}" data-cms-callout="${kind}">${content}</div>`;
    }
    case "code": return `<pre><code>${content}</code></pre>`;
    default: return ""; // richtext: never rendered
  }
}

function openTag(node, type, island) {
  let attrs = ` data-cms="${escapeHtml(node.id)}"`;
  if (island) attrs += ` data-cms-island="${escapeHtml(type)}"`;
  const className = get(node, "className");
  if (typeof className === "string" && className) attrs += ` class="${escapeHtml(className)}"`;
  return `<div${attrs}>`;
}

/** An asset library over a plain map of asset id → URL (`InMemoryAssetLibrary`). */
export function assetsFrom(urls = {}) {
  const map = urls instanceof Map ? urls : new Map(Object.entries(urls));
  return { exists: (id) => map.has(id), url: (id) => map.get(id) };
}

const NO_ASSETS = assetsFrom();

// An explicit stack instead of recursion: a deep or cyclic malformed document
// must not overflow the call stack.
function walk(first, index, assets) {
  const out = [];
  const rendered = new Set();
  const stack = [...first].reverse();
  while (stack.length) {
    const item = stack.pop();
    if (typeof item === "string") {
      out.push(item);
      continue;
    }
    const id = item.id;
    if (rendered.has(id)) continue;
    rendered.add(id);
    const rawType = get(item, "type");
    const type = typeof rawType === "string" ? rawType : "";
    const island = pyTruthy(get(item, "island"));
    out.push(openTag(item, type, island));
    if (island) {
      out.push("</div>");
    } else if (LEAF_TYPES.has(type)) {
      const props = get(item, "props");
      out.push(leafContent(type, isDict(props) ? props : {}, assets), "</div>");
    } else {
      stack.push("</div>", ...[...(index.get(id) ?? [])].reverse());
    }
  }
  return out.join("");
}

/** The page's roots, in order, as an HTML fragment (`render.render_html`). */
export function renderHtml(doc, { assets = NO_ASSETS } = {}) {
  const index = childrenIndex(doc);
  return walk(index.get(null) ?? [], index, assets);
}

/**
 * One node and its subtree as `renderHtml` renders it inside the page (for a
 * valid document); "" when `id` names no node. A view re-renders a changed
 * subtree with it instead of the whole page.
 */
export function renderNode(doc, id, { assets = NO_ASSETS } = {}) {
  const node = get(get(doc, "nodes"), id);
  if (!isDict(node) || get(node, "id") !== id) return "";
  return walk([node], childrenIndex(doc), assets);
}
