// The outline: the page's nodes as a tree in render order (a row per node,
// indented by depth), the selected node's Move up/down, Duplicate and Delete,
// a row dragged among its siblings, and the editor's keys.

import { $, byId, el } from "./dom.js";
import { childrenOf, draftRevision, model, nodeName, nodeOf, parentOf, select, siblingsOf, subscribe, walk } from "./editor.js";
import { redo, submitOrSay, undo } from "./edits.js";
import { afterRemoval, duplicateOps, moveOps, stepOps } from "./structure.js";

const tree = () => byId("outline-tree");
const rowOf = (id) => tree().querySelector(`[data-node="${CSS.escape(id)}"]`);
let dragged = null;
let renderLater = false; // the draft changed during a drag: redraw once it ends

export function wireOutline() {
  subscribe((reason) => {
    if (reason !== "draft" && reason !== "select") return;
    if (dragged !== null) renderLater = true;
    else render();
  });
  const box = tree();
  box.addEventListener("click", (event) => {
    const row = event.target.closest("[data-node]");
    if (row) choose(row.dataset.node, true);
  });
  box.addEventListener("keydown", (event) => handleKey(event, "tree"));
  box.addEventListener("dragstart", onDragStart);
  box.addEventListener("dragover", onDragOver);
  box.addEventListener("dragleave", (event) => event.target.closest?.("[data-node]")?.removeAttribute("data-drop"));
  box.addEventListener("drop", onDrop);
  box.addEventListener("dragend", endDrag);
  byId("editor-move-up").addEventListener("click", () => step(-1));
  byId("editor-move-down").addEventListener("click", () => step(1));
  byId("editor-duplicate").addEventListener("click", duplicate);
  byId("editor-delete").addEventListener("click", remove);
}

function render() {
  const box = tree();
  const hadFocus = box.contains(document.activeElement);
  const rows = walk().map(({ id, depth }) => {
    const node = nodeOf(id);
    const row = el("li", "outline-row");
    row.setAttribute("role", "treeitem");
    row.dataset.node = id;
    row.style.setProperty("--depth", String(depth));
    row.setAttribute("aria-level", String(depth + 1));
    const selected = id === model.selected;
    row.setAttribute("aria-selected", String(selected));
    row.tabIndex = selected ? 0 : -1;
    row.draggable = true;
    const name = el("span", "outline-name", nodeName(node));
    const type = el("span", "outline-type", node.type);
    row.append(name, type);
    return row;
  });
  box.replaceChildren(...rows);
  box.dataset.revision = String(draftRevision() ?? ""); // which draft the rows show
  if (rows.length && model.selected === null) rows[0].tabIndex = 0;
  $('[data-role="outline-empty"]').hidden = rows.length > 0;
  const row = model.selected !== null ? rowOf(model.selected) : null;
  if (row) {
    row.scrollIntoView({ block: "nearest" });
    if (hadFocus) row.focus();
  }
  updateActions();
}

function updateActions() {
  const id = model.selected;
  const siblings = id === null ? [] : siblingsOf(id);
  const at = siblings.indexOf(id);
  byId("editor-move-up").disabled = id === null || at <= 0;
  byId("editor-move-down").disabled = id === null || at < 0 || at >= siblings.length - 1;
  byId("editor-duplicate").disabled = id === null;
  byId("editor-delete").disabled = id === null;
}

function choose(id, focusRow) {
  select(id);
  if (focusRow && id !== null) rowOf(id)?.focus();
}

// ------------------------------------------------------------------ actions

// Each builds its ops when its turn in the edit queue comes, on the draft as it is then.
function step(direction) {
  const id = model.selected;
  if (id !== null) submitOrSay(() => stepOps(id, direction), { selectAfter: id });
}

function duplicate() {
  const id = model.selected;
  if (id === null) return;
  let root = null;
  const build = () => {
    const built = duplicateOps(id);
    root = built.root;
    return built.ops;
  };
  submitOrSay(build, { selectAfter: () => root });
}

function remove() {
  const id = model.selected;
  if (id === null) return;
  let next = null;
  const build = () => {
    next = afterRemoval(id);
    return [{ t: "remove_node", id }];
  };
  submitOrSay(build, { selectAfter: () => next });
}

// ------------------------------------------------------------------ drag

function onDragStart(event) {
  const row = event.target.closest("[data-node]");
  if (!row) return;
  dragged = row.dataset.node;
  event.dataTransfer.effectAllowed = "move";
  event.dataTransfer.setData("text/plain", dragged);
}

// Where a drop on `row` would put the dragged node: before or after it, among its own siblings only.
function dropPlace(event) {
  const row = event.target.closest?.("[data-node]");
  if (!row || dragged === null || row.dataset.node === dragged) return null;
  if (parentOf(row.dataset.node) !== parentOf(dragged)) return null;
  const box = row.getBoundingClientRect();
  return { row, before: event.clientY < box.top + box.height / 2 };
}

function endDrag() {
  clearDrop();
  dragged = null;
  if (renderLater) {
    renderLater = false;
    render();
  }
}

function clearDrop() {
  for (const row of tree().querySelectorAll("[data-drop]")) row.removeAttribute("data-drop");
}

function onDragOver(event) {
  const place = dropPlace(event);
  clearDrop();
  if (!place) return;
  event.preventDefault();
  event.dataTransfer.dropEffect = "move";
  place.row.dataset.drop = place.before ? "before" : "after";
}

function onDrop(event) {
  const place = dropPlace(event);
  const id = dragged;
  endDrag();
  if (!place) return;
  event.preventDefault();
  const order = siblingsOf(id).filter((sibling) => sibling !== id);
  const at = order.indexOf(place.row.dataset.node) + (place.before ? 0 : 1);
  order.splice(at, 0, id);
  submitOrSay(moveOps(id, order), { selectAfter: id });
}

// ------------------------------------------------------------------ keys

function typing(target) {
  if (!target || !target.closest) return false;
  return Boolean(target.closest("input, textarea, select, [contenteditable]")) || target.isContentEditable;
}

/**
 * The editor's keys. `where` is "tree" or "canvas" (selection keys apply) or
 * "page" (only undo, redo and Esc). Never while typing in a field.
 */
export function handleKey(event, where) {
  if (typing(event.target) || event.isComposing) return;
  const mod = event.ctrlKey || event.metaKey;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  if (mod && !event.altKey && (key === "z" || key === "y")) {
    event.preventDefault();
    if (key === "y" || event.shiftKey) redo();
    else undo();
    return;
  }
  if (mod) return;
  if (where === "page") {
    // Esc clears the selection from anywhere but a field; the other keys need the layers or the preview.
    if (event.key === "Escape" && model.selected !== null) choose(null, false);
    return;
  }
  const id = model.selected;
  const rows = walk().map((row) => row.id);
  let next;
  if (event.key === "Escape") next = null;
  else if (event.altKey && (event.key === "ArrowUp" || event.key === "ArrowDown")) {
    event.preventDefault();
    step(event.key === "ArrowUp" ? -1 : 1);
    return;
  } else if (event.key === "ArrowDown") next = id === null ? rows[0] : rows[rows.indexOf(id) + 1];
  else if (event.key === "ArrowUp") next = id === null ? rows[rows.length - 1] : rows[rows.indexOf(id) - 1];
  else if (event.key === "ArrowLeft") next = id === null ? undefined : parentOf(id) ?? undefined;
  else if (event.key === "ArrowRight") next = id === null ? undefined : childrenOf(id)[0];
  else if (event.key === "Home") next = rows[0];
  else if (event.key === "End") next = rows[rows.length - 1];
  else if (event.key === "Delete" || event.key === "Backspace") {
    event.preventDefault();
    remove();
    return;
  } else return;
  event.preventDefault();
  if (next === undefined) return;
  choose(next, where === "tree");
}
