// Shared by the node --test files: the modules under test and small builders.
export const WEB_JS = new URL("../../../../src/charlotte/web/js/", import.meta.url);

/** Deep-freeze a value: a module that mutates its input then throws. */
export function freeze(value) {
  if (value !== null && typeof value === "object") {
    Object.values(value).forEach(freeze);
    Object.freeze(value);
  }
  return value;
}

/** A node as the page document holds it. */
export function node(id, parent = null, order = "V", extra = {}) {
  return { id, type: "section", parent, order, props: {}, style: { base: {} }, ...extra };
}

/** A page document holding `nodes`. */
export function page(...nodes) {
  const doc = {
    id: "p", seq: 0, meta: { title: "T", slug: "/", scrollMode: "smooth" }, theme: { name: "default" },
    breakpoints: ["base", "md", "lg"], nodes: {},
  };
  for (const n of nodes) Object.defineProperty(doc.nodes, n.id, { value: n, enumerable: true, writable: true, configurable: true });
  return doc;
}
