// The preview frame as a canvas: a click selects the node under it, the
// selection and the node under the pointer are outlined by a style element
// this page puts into the frame after every load (the frame runs no scripts),
// and a double click edits a node's text in place (plain text only).

import { model, nodeOf, select, typeOf } from "./editor.js";
import { submit } from "./edits.js";

// The element holding a type's text, inside the node's wrapper, and the prop it is.
const TEXT_OF = {
  text: [null, "content"],
  heading: ["h1, h2, h3, h4, h5, h6", "content"],
  link: ["a", "content"],
  button: [".cms-button", "label"],
  callout: [".cms-callout", "content"],
  code: ["code", "content"],
};

let doc = null;
let hovered = null;
let editing = null; // {id, element, before}
let keyHandler = () => {};
let noticeFn = () => {};

export function wireCanvas({ onKey, onNotice }) {
  keyHandler = onKey;
  noticeFn = onNotice;
}

/** Whether a text is being edited in place (the preview then waits before reloading). */
export const editingInPlace = () => editing !== null;

const wrapperOf = (id) => (doc ? doc.querySelector(`[data-cms="${CSS.escape(id)}"]`) : null);

function nodeIdAt(target) {
  const wrapper = target && typeof target.closest === "function" ? target.closest("[data-cms]") : null;
  return wrapper ? wrapper.getAttribute("data-cms") : null;
}

/** The frame loaded a page: in the draft view, make it the canvas. */
export function attachCanvas(frameDoc, mode) {
  editing = null;
  hovered = null;
  doc = mode === "draft" ? frameDoc : null;
  if (!doc) return;
  const style = doc.createElement("style");
  style.dataset.editor = "outline";
  doc.head.append(style);
  doc.addEventListener("click", (event) => {
    if (editing && editing.element.contains(event.target)) return;
    const id = nodeIdAt(event.target);
    if (id !== null || !editing) select(id);
  });
  doc.addEventListener("dblclick", (event) => startEditing(nodeIdAt(event.target)));
  doc.addEventListener("mouseover", (event) => setHovered(nodeIdAt(event.target)));
  doc.addEventListener("mouseleave", () => setHovered(null));
  doc.addEventListener("keydown", onFrameKey);
  paintCanvas({ scroll: false });
}

function setHovered(id) {
  if (id === hovered) return;
  hovered = id;
  paintCanvas({ scroll: false });
}

/** Outline the selected node (solid) and the one under the pointer (dashed). */
export function paintCanvas({ scroll = true } = {}) {
  if (!doc) return;
  const style = doc.querySelector("style[data-editor]");
  if (!style) return;
  const rules = [];
  if (hovered !== null && hovered !== model.selected) {
    rules.push(`[data-cms="${CSS.escape(hovered)}"]{outline:1px dashed #4f55d9 !important;outline-offset:-1px;cursor:default}`);
  }
  if (model.selected !== null) {
    rules.push(`[data-cms="${CSS.escape(model.selected)}"]{outline:2px solid #4f55d9 !important;outline-offset:-2px}`);
  }
  rules.push("[contenteditable]{outline:2px solid #e0a100 !important;outline-offset:2px;cursor:text}");
  style.textContent = rules.join("\n");
  const element = model.selected !== null ? wrapperOf(model.selected) : null;
  if (scroll && element) element.scrollIntoView({ block: "nearest" });
}

// ------------------------------------------------------------------ in-place text

function startEditing(id) {
  const node = nodeOf(id);
  if (!node || !(node.type in TEXT_OF) || editing) return;
  const [inner, prop] = TEXT_OF[node.type];
  const wrapper = wrapperOf(id);
  const element = inner ? wrapper.querySelector(inner) : wrapper;
  if (!element) return;
  select(id);
  editing = { id, prop, element, before: element.textContent, multiline: node.type === "code" };
  element.setAttribute("contenteditable", "plaintext-only");
  element.setAttribute("spellcheck", "true");
  element.focus();
  doc.getSelection().selectAllChildren(element);
  element.addEventListener("blur", () => finishEditing(true), { once: true });
  paintCanvas({ scroll: false });
}

function finishEditing(save) {
  if (!editing) return;
  const { id, prop, element, before } = editing;
  editing = null;
  const text = element.textContent;
  element.removeAttribute("contenteditable");
  element.removeAttribute("spellcheck");
  if (!save || text === before) {
    element.textContent = before;
    return;
  }
  const spec = typeOf(nodeOf(id))?.props?.[prop];
  const limit = spec && Number.isInteger(spec.maxLength) ? spec.maxLength : Infinity;
  if (!text.trim() || text.length > limit) {
    element.textContent = before;
    noticeFn(text.trim() ? `That text is longer than ${limit} characters: not saved.` : "A text cannot be empty: not saved.", "bad");
    return;
  }
  submit([{ t: "set_node_props", id, patch: { [prop]: text } }]).catch((error) => {
    element.textContent = before;
    noticeFn(error.message || "The text was not saved.", "bad");
  });
}

function onFrameKey(event) {
  if (!editing) {
    keyHandler(event, "canvas");
    return;
  }
  if (event.key === "Escape") {
    event.preventDefault();
    event.stopPropagation();
    finishEditing(false);
    doc.defaultView.frameElement?.focus?.();
  } else if (event.key === "Enter" && !(event.shiftKey && editing.multiline)) {
    event.preventDefault();
    finishEditing(true);
  }
}

/** The frame element (for focusing it from the keys). */
export const frameElement = () => document.getElementById("preview-frame");
