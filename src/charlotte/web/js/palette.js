// The palette: add a node of any type after or inside the selection, or a
// whole section the server builds from the session's brief and facts in the
// page's current look (GET palette/section: ops only, sent as one edit).

import { ApiError, api, sessionPath } from "./api.js";
import { byId, state } from "./dom.js";
import { model, rootOf, subscribe } from "./editor.js";
import { notice, submit } from "./edits.js";
import { ADDABLE, insertOps } from "./structure.js";
import { inSentence } from "./words.js";

export function wirePalette() {
  subscribe((reason) => {
    if (reason === "palette") fill();
    if (reason === "palette" || reason === "select" || reason === "draft") updateButtons();
  });
  byId("palette-add").addEventListener("click", addNode);
  byId("palette-add-section").addEventListener("click", addSection);
  byId("palette-section").addEventListener("change", updateButtons);
  byId("palette-type").addEventListener("change", updateButtons);
}

function fill() {
  const types = byId("palette-type");
  const names = Object.keys(model.types || {}).filter(ADDABLE);
  types.replaceChildren(...names.map((name) => new Option(name, name)));
  const sections = byId("palette-section");
  sections.replaceChildren(
    ...model.sections.map((section) => {
      const name = sectionName(section);
      const option = new Option(section.available ? name : `${name} (nothing to fill it with)`, section.kind);
      option.disabled = !section.available;
      return option;
    }),
  );
  const first = model.sections.find((section) => section.available);
  if (first) sections.value = first.kind;
}

const sectionName = (section) => {
  const name = typeof section.name === "string" && section.name ? section.name : section.kind;
  return name[0].toUpperCase() + name.slice(1);
};

function updateButtons() {
  const type = byId("palette-type").value;
  const container = model.types && model.types[type] ? model.types[type] : null;
  byId("palette-add").disabled = !container;
  const kind = byId("palette-section").value;
  const section = model.sections.find((s) => s.kind === kind);
  byId("palette-add-section").disabled = !section || !section.available;
}

async function addNode() {
  const type = byId("palette-type").value;
  const where = byId("palette-where").value;
  let root = null;
  const build = () => {
    const built = insertOps(type, where);
    root = built.root;
    return built.ops;
  };
  try {
    await submit(build, { selectAfter: () => root });
    notice(`Added a ${type}.`, "ok");
  } catch (error) {
    notice(error.message || "The node was not added.", "bad");
  }
}

async function addSection() {
  const kind = byId("palette-section").value;
  const button = byId("palette-add-section");
  // The new section goes after the top-level section the selection is in; none selected: at the end.
  const after = model.selected !== null ? rootOf(model.selected) : null;
  button.disabled = true;
  try {
    await placeSection(kind, after);
  } finally {
    updateButtons();
  }
}

/**
 * Build a `kind` section on the server after the top-level node `after` (null:
 * last) and send it as one edit; `order`, when given, is its top-level key
 * instead (a place no `after` can name: before the first section).
 */
export async function placeSection(kind, after, { order = null } = {}) {
  const id = state.sessionId;
  const query = new URLSearchParams({ kind });
  if (after !== null) query.set("after", after);
  try {
    const built = await api("GET", sessionPath(id, `/palette/section?${query}`));
    if (state.sessionId !== id) return;
    if (!built || !Array.isArray(built.ops) || !built.ops.length) throw new ApiError("nothing_to_build", "Nothing to build.", 422);
    const root = typeof built.root === "string" ? built.root : undefined;
    const ops = order === null ? built.ops : built.ops.map((op) => (op && op.t === "insert_node" && op.node && op.node.id === root ? { ...op, node: { ...op.node, order } } : op));
    await submit(ops, { selectAfter: root });
    notice(`Added the ${sectionWords(kind)} section.`, "ok");
  } catch (error) {
    if (state.sessionId !== id) return;
    const words = error instanceof ApiError && error.code === "nothing_to_build"
      ? "The brief and facts give nothing to fill that section with."
      : error.message || "The section was not added.";
    notice(words, "bad");
  }
}

/** A section kind as the palette names it in a sentence ("menu", "opening hours", "FAQ"). */
export function sectionWords(kind) {
  const section = model.sections.find((s) => s.kind === kind);
  return inSentence(section ? sectionName(section) : kind);
}
