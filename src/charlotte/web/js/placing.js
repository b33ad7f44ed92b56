// Placing a palette item between the page's sections: each section kind the
// brief can fill and each node type is an item that can be dragged onto the
// preview (a line shows the gap between top-level sections it would go into,
// nearest the pointer), or pressed and then placed with the keyboard (↑ ↓
// move the line, Home End to the top or the end, Enter or a second press puts
// it there, Escape cancels; each place said in the notice line, a live
// region). The list is one tab stop (← → move along it). One edit per placement.

import { byId, el } from "./dom.js";
import { keyName, model, rootIds, rootOf, subscribe } from "./editor.js";
import { notice, submit } from "./edits.js";
import { placeSection, sectionWords } from "./palette.js";
import { ADDABLE, gapOrder, insertAtGapOps } from "./structure.js";

// What is being placed: {item: {kind, value, label}, gap, button}; null when nothing is.
let placing = null;
// The item being dragged (the drag's data cannot be read before the drop).
let dragged = null;
let frameDoc = null;

const frame = () => byId("preview-frame");
const line = () => byId("drop-line");

export function wirePlacing() {
  subscribe((reason) => {
    if (reason === "palette") fill();
    if (reason === "draft" && placing) showGap(Math.min(placing.gap, rootIds().length));
  });
}

function items() {
  const sections = model.sections
    .filter((section) => section.available)
    .map((section) => ({ kind: "section", value: section.kind, label: `${sectionWords(section.kind)} section` }));
  const types = Object.keys(model.types || {})
    .filter(ADDABLE)
    .map((type) => ({ kind: "type", value: type, label: type }));
  return [...sections, ...types];
}

function fill() {
  byId("palette-items").replaceChildren(
    ...items().map((item, index) => {
      const button = el("button", "palette-item", item.label);
      button.type = "button";
      button.draggable = true;
      // One tab stop for the whole list: ← → Home End move along it (a toolbar's keys).
      button.tabIndex = index === 0 ? 0 : -1;
      button.dataset.item = `${item.kind}:${item.value}`;
      button.setAttribute("aria-describedby", "palette-items-hint");
      button.addEventListener("click", () => (placing && placing.button === button ? drop() : start(item, button)));
      button.addEventListener("keydown", (event) => onKey(event));
      button.addEventListener("blur", () => cancel(false));
      button.addEventListener("dragstart", (event) => {
        cancel(false);
        dragged = item;
        event.dataTransfer.effectAllowed = "copy";
        event.dataTransfer.setData("text/plain", item.label);
      });
      button.addEventListener("dragend", () => {
        dragged = null;
        hideLine();
      });
      const row = el("li", "palette-items-row");
      row.append(button);
      return row;
    }),
  );
}

// ------------------------------------------------------------------ the gaps

// Where gap `gap` lies in the frame's own coordinates: {y, left, width}; null without a page.
function gapBox(gap) {
  if (!frameDoc) return null;
  const roots = rootIds();
  const box = (id) => frameDoc.querySelector(`[data-cms="${CSS.escape(id)}"]`)?.getBoundingClientRect() ?? null;
  const before = gap > 0 ? box(roots[gap - 1]) : null;
  const after = gap < roots.length ? box(roots[gap]) : null;
  if (!before && !after) {
    const width = frameDoc.documentElement.clientWidth;
    return { y: 0, left: 0, width };
  }
  const y = before && after ? (before.bottom + after.top) / 2 : before ? before.bottom : after.top;
  const edge = after || before;
  return { y, left: edge.left, width: edge.width };
}

/** The gap nearest to `y` (the frame's coordinates). */
function gapAt(y) {
  let best = 0;
  let distance = Infinity;
  for (let gap = 0; gap <= rootIds().length; gap += 1) {
    const box = gapBox(gap);
    if (box && Math.abs(box.y - y) < distance) {
      distance = Math.abs(box.y - y);
      best = gap;
    }
  }
  return best;
}

// Draw the line over the (maybe scaled) preview at `gap`.
function showGap(gap, { scroll = false } = {}) {
  const shown = frame();
  if (scroll && frameDoc) {
    const roots = rootIds();
    const near = roots[gap] ?? roots[gap - 1];
    frameDoc.querySelector(`[data-cms="${CSS.escape(near ?? "")}"]`)?.scrollIntoView({ block: "nearest" });
  }
  const box = gapBox(gap);
  if (!box || !shown.offsetWidth) return hideLine();
  const outer = shown.getBoundingClientRect();
  const scale = outer.width / shown.offsetWidth;
  const bar = line();
  bar.style.top = `${outer.top + Math.max(0, Math.min(box.y, shown.offsetHeight)) * scale}px`;
  bar.style.left = `${outer.left + box.left * scale}px`;
  bar.style.width = `${box.width * scale}px`;
  bar.dataset.gap = String(gap);
  bar.hidden = false;
}

function hideLine() {
  const bar = line();
  bar.hidden = true;
  delete bar.dataset.gap;
}

/** "between Section “Menu” and Section “About us”", "at the top, before …", "at the end, after …". */
export function gapWords(gap) {
  const roots = rootIds();
  if (!roots.length) return "on the empty page";
  if (gap <= 0) return `at the top, before ${keyName(roots[0])}`;
  if (gap >= roots.length) return `at the end, after ${keyName(roots[roots.length - 1])}`;
  return `between ${keyName(roots[gap - 1])} and ${keyName(roots[gap])}`;
}

// ------------------------------------------------------------------ the keyboard

function start(item, button) {
  if (!frameDoc) {
    notice("Show the draft's preview to place it.", "bad");
    return;
  }
  const roots = rootIds();
  // Where Add section would put it: after the section the selection is in, else at the end.
  const selectedRoot = model.selected !== null ? roots.indexOf(rootOf(model.selected)) : -1;
  placing = { item, button, gap: selectedRoot >= 0 ? selectedRoot + 1 : roots.length };
  button.setAttribute("aria-pressed", "true");
  say();
}

function say() {
  const count = rootIds().length + 1;
  showGap(placing.gap, { scroll: true });
  notice(`Placing the ${placing.item.label} ${gapWords(placing.gap)} (place ${placing.gap + 1} of ${count}). ↑ ↓ to move, Enter to put it there, Escape to cancel.`);
}

// Along the list (not placing): the focus, and the one tab stop, move to the next item.
function roam(event) {
  const buttons = [...byId("palette-items").querySelectorAll(".palette-item")];
  const at = buttons.indexOf(event.currentTarget);
  const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: buttons.length - 1 }[event.key];
  if (to === undefined || at < 0) return;
  event.preventDefault();
  event.stopPropagation();
  const next = buttons[Math.max(0, Math.min(buttons.length - 1, to))];
  for (const button of buttons) button.tabIndex = button === next ? 0 : -1;
  next.focus();
}

function onKey(event) {
  if (!placing) {
    roam(event);
    return;
  }
  const last = rootIds().length;
  const moves = { ArrowUp: -1, ArrowDown: 1 };
  if (event.key in moves) {
    placing.gap = Math.max(0, Math.min(last, placing.gap + moves[event.key]));
  } else if (event.key === "Home" || event.key === "End") {
    placing.gap = event.key === "Home" ? 0 : last;
  } else if (event.key === "Escape") {
    event.preventDefault();
    event.stopPropagation();
    cancel(true);
    return;
  } else {
    return;
  }
  event.preventDefault();
  event.stopPropagation();
  say();
}

function cancel(said) {
  if (!placing) return;
  placing.button.setAttribute("aria-pressed", "false");
  placing = null;
  hideLine();
  if (said) notice("Nothing added.");
}

async function drop() {
  const { item, gap, button } = placing;
  cancel(false);
  button.focus();
  await place(item, gap);
}

// ------------------------------------------------------------------ the drop

/** The frame loaded a page: in the draft view, it takes drops. */
export function attachDropTarget(doc, mode) {
  frameDoc = mode === "draft" ? doc : null;
  if (!frameDoc) {
    cancel(false);
    return;
  }
  doc.addEventListener("dragover", (event) => {
    if (!dragged) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
    showGap(gapAt(event.clientY));
  });
  doc.addEventListener("dragleave", (event) => {
    if (event.relatedTarget === null) hideLine();
  });
  doc.addEventListener("drop", (event) => {
    if (!dragged) return;
    event.preventDefault();
    const item = dragged;
    dragged = null;
    hideLine();
    place(item, gapAt(event.clientY));
  });
  doc.defaultView.addEventListener("scroll", () => {
    if (placing) showGap(placing.gap);
  });
  if (placing) showGap(placing.gap);
}

async function place(item, gap) {
  const where = gapWords(gap);
  if (item.kind === "section") {
    const after = gap > 0 ? rootIds()[gap - 1] : null;
    await placeSection(item.value, after, { order: gapOrder(gap) });
    return;
  }
  let root = null;
  const build = () => {
    const built = insertAtGapOps(item.value, gap);
    root = built.root;
    return built.ops;
  };
  try {
    await submit(build, { selectAfter: () => root });
    notice(`Added a ${item.value} ${where}.`, "ok");
  } catch (error) {
    notice(error.message || "The node was not added.", "bad");
  }
}
