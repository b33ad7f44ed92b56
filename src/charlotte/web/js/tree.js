// JSON values read the way charlotte's Python reads them, and the tree walks
// of charlotte.page.tree, for the client's reducer, renderer and stylesheet
// (ops.js, render.js, css.js). Pure: no DOM.
//
// A document arrives as parsed JSON, so a key such as "__proto__" or
// "constructor" may be an id: every read goes through `get` (own keys only)
// and every write through `put` (a plain data property, never a setter).

/** True for a JSON object (Python's `isinstance(v, dict)`). */
export function isDict(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `value[key]` when `value` is an object owning `key`, else undefined (Python's `dict.get`). */
export function get(value, key) {
  return isDict(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

/** True when `value` is an object owning `key` (Python's `key in value`). */
export function has(value, key) {
  return isDict(value) && Object.hasOwn(value, key);
}

/** Set `obj[key]` as a plain data property (a "__proto__" key stays a key). */
export function put(obj, key, value) {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  return obj;
}

/** A shallow copy of an object, own keys only, "__proto__" included as a key. */
export function copy(obj) {
  return { ...obj };
}

/** `{...base, ...patch}` as Python's `{**base, **patch}` (patch keys win). */
export function merged(base, patch) {
  return { ...(isDict(base) ? base : {}), ...patch };
}

/** An integer the way Python's `isinstance(v, int) and not isinstance(v, bool)` reads JSON. */
export function isInt(value) {
  // JSON does not tell 2 from 2.0: an integral number is an int here (charlotte sends ints).
  return typeof value === "number" && Number.isInteger(value);
}

/** Python's truthiness of a JSON value (`{}`, `[]`, `""`, 0 and null are false). */
export function pyTruthy(value) {
  if (Array.isArray(value)) return value.length > 0;
  if (isDict(value)) return Object.keys(value).length > 0;
  return Boolean(value);
}

/** Python's `==` on JSON values (true == 1, null == missing, deep for lists and objects). */
export function pyEqual(a, b) {
  const x = a === undefined ? null : typeof a === "boolean" ? Number(a) : a;
  const y = b === undefined ? null : typeof b === "boolean" ? Number(b) : b;
  if (Array.isArray(x) || Array.isArray(y)) {
    return Array.isArray(x) && Array.isArray(y) && x.length === y.length
      && x.every((item, i) => pyEqual(item, y[i]));
  }
  if (isDict(x) || isDict(y)) {
    if (!isDict(x) || !isDict(y)) return false;
    const keys = Object.keys(x);
    return keys.length === Object.keys(y).length
      && keys.every((k) => Object.hasOwn(y, k) && pyEqual(x[k], y[k]));
  }
  return x === y;
}

function isHigh(unit) {
  return unit >= 0xd800 && unit <= 0xdbff;
}

/** Compare two strings by code points, as Python does (JS's `<` compares UTF-16 units). */
export function compareCodePoints(a, b) {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i += 1;
  if (i === n) return a.length - b.length;
  // A pair split at the first difference is compared whole (a lone surrogate is its own code point).
  if (i > 0 && isHigh(a.charCodeAt(i - 1))) {
    const x = a.codePointAt(i - 1);
    const y = b.codePointAt(i - 1);
    if (x !== y) return x - y;
  }
  return a.codePointAt(i) - b.codePointAt(i);
}

function sortKey(node) {
  const order = get(node, "order");
  return typeof order === "string" ? order : "";
}

/** Sort nodes by `order` then `id`, as `tree._sort_key` does (stable, like Python's sort). */
export function sortNodes(nodes, idOf = (node) => node.id) {
  return nodes.sort((x, y) => compareCodePoints(sortKey(x), sortKey(y)) || compareCodePoints(idOf(x), idOf(y)));
}

/** The `nodes` map of `doc`, or an empty map for a malformed document (`model.node_map`). */
export function nodeMap(doc) {
  const nodes = get(doc, "nodes");
  return isDict(nodes) ? nodes : {};
}

function isNode(value) {
  return isDict(value) && typeof get(value, "id") === "string";
}

/** Parent id (null: the roots) → ordered child nodes, for every parent (`tree.children_index`). */
export function childrenIndex(doc) {
  const index = new Map();
  for (const node of Object.values(nodeMap(doc))) {
    if (!isNode(node)) continue;
    const parent = get(node, "parent") ?? null;
    if (parent !== null && typeof parent !== "string") continue;
    if (!index.has(parent)) index.set(parent, []);
    index.get(parent).push(node);
  }
  for (const kids of index.values()) sortNodes(kids);
  return index;
}

/** Nodes whose parent is `parent` (null: the roots), in order (`tree.children_of`). */
export function childrenOf(doc, parent) {
  return childrenIndex(doc).get(parent) ?? [];
}
