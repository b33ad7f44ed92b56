// How one page document differs from another, node by node: the same rule
// and the same shape as the server's change-set diff (charlotte.page.diff),
// so both read alike. Here it compares the published copy with the draft.

/** JSON text with object keys sorted: two equal values give equal text. */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value === undefined ? null : value);
}

const same = (a, b) => canonical(a) === canonical(b);
const objectOr = (value) => (value && typeof value === "object" && !Array.isArray(value) ? value : {});

/** The nodes of a document by id (a malformed document has none). */
export function nodeMap(doc) {
  return objectOr(objectOr(doc).nodes);
}

function keysDiffering(old, now) {
  const a = objectOr(old);
  const b = objectOr(now);
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .sort()
    .filter((key) => !(key in a) || !(key in b) || !same(a[key], b[key]));
}

function styleKeysDiffering(old, now) {
  const a = objectOr(old);
  const b = objectOr(now);
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .sort()
    .flatMap((breakpoint) => keysDiffering(a[breakpoint], b[breakpoint]).map((key) => `${breakpoint}.${key}`));
}

/** `{added, removed, changed: [{id, props, style, fields}], meta, theme}` from `before` to `after`. */
export function diffDocs(before, after) {
  const old = nodeMap(before);
  const now = nodeMap(after);
  const added = Object.keys(now).filter((id) => !(id in old)).sort();
  const removed = Object.keys(old).filter((id) => !(id in now)).sort();
  const changed = [];
  for (const id of Object.keys(now).filter((key) => key in old).sort()) {
    const a = old[id];
    const b = now[id];
    if (same(a, b)) continue;
    if (!a || typeof a !== "object" || !b || typeof b !== "object") {
      changed.push({ id, props: [], style: [], fields: ["node"] });
      continue;
    }
    const fields = keysDiffering(a, b).filter((name) => name !== "props" && name !== "style");
    changed.push({ id, props: keysDiffering(a.props, b.props), style: styleKeysDiffering(a.style, b.style), fields });
  }
  return {
    added,
    removed,
    changed,
    meta: !same(objectOr(before).meta, objectOr(after).meta),
    theme: !same(objectOr(before).theme, objectOr(after).theme),
  };
}

export function isEmptyDiff(diff) {
  return !(diff.added.length || diff.removed.length || diff.changed.length || diff.meta || diff.theme);
}
