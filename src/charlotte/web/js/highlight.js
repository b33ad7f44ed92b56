// Pointing at a node in the preview: scroll it into view and flash an
// outline on it for a moment. The frame runs no scripts (sandboxed, same
// origin), so this page reaches into its document, as js/preview.js does for
// links; the style this adds goes with the document when the preview is
// drawn again.

import { byId } from "./dom.js";

/** How long the outline stays (ms). */
export const FLASH_MS = 1500;
const FLASH_CLASS = "charlotte-flash";
const FLASH_CSS =
  `.${FLASH_CLASS} { outline: 3px solid #4f55d9 !important; outline-offset: 3px !important; ` +
  "box-shadow: 0 0 0 6px rgba(79, 85, 217, 0.25) !important; transition: outline-color 0.2s ease; }";

let flashed = null; // { element, timer }

function frameDocument() {
  try {
    const frame = byId("preview-frame");
    return frame && frame.contentDocument && frame.contentDocument.body ? frame.contentDocument : null;
  } catch {
    return null;
  }
}

function nodeElement(doc, id) {
  if (!doc || typeof id !== "string" || !id) return null;
  return doc.querySelector(`[data-cms="${CSS.escape(id)}"]`);
}

/**
 * Scroll node `id` into view in the preview and outline it for FLASH_MS;
 * false when the page the preview shows has no such node.
 */
export function flashNode(id) {
  const doc = frameDocument();
  const element = nodeElement(doc, id);
  if (!element) return false;
  if (!doc.querySelector("style[data-charlotte-flash]")) {
    const style = doc.createElement("style");
    style.dataset.charlotteFlash = "";
    style.textContent = FLASH_CSS;
    doc.head.append(style);
  }
  if (flashed) {
    clearTimeout(flashed.timer);
    flashed.element.classList.remove(FLASH_CLASS);
  }
  const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  byId("preview-frame").scrollIntoView({ block: "nearest", behavior: still ? "auto" : "smooth" });
  element.scrollIntoView({ block: "center", behavior: still ? "auto" : "smooth" });
  element.classList.add(FLASH_CLASS);
  const timer = setTimeout(() => {
    element.classList.remove(FLASH_CLASS);
    if (flashed && flashed.element === element) flashed = null;
  }, FLASH_MS);
  flashed = { element, timer };
  return true;
}

// What the rendered element says about its node (charlotte.page.render):
// its type from the markup, its words from its text.
const TAGS = [
  ["h1,h2,h3,h4,h5,h6", "heading"],
  ["[data-cms-button]", "button"],
  ["[data-cms-callout]", "callout"],
  ["img", "image"],
  ["hr", "divider"],
  ["pre", "code"],
  ["a", "link"],
];

/**
 * `{type, words}` of node `id` as the preview draws it, or null: names the
 * nodes only the change set's working copy has (its answer holds their
 * rendered page, not their document).
 */
export function frameNodeInfo(id) {
  const element = nodeElement(frameDocument(), id);
  if (!element) return null;
  const words = (element.textContent || "").replace(/\s+/g, " ").trim();
  if (element.querySelector("[data-cms]")) {
    const heading = element.querySelector("h1,h2,h3,h4,h5,h6");
    const top = !element.parentElement || !element.parentElement.closest("[data-cms]");
    return { type: top ? "section" : "frame", words: heading ? heading.textContent.trim() : words };
  }
  const first = element.firstElementChild;
  for (const [selector, type] of TAGS) {
    if (first && first.matches(selector)) {
      return { type, words: type === "image" ? first.getAttribute("alt") || "" : words };
    }
  }
  return { type: first ? "" : "text", words };
}

/** Each node the preview shows → its place in the page's reading order (empty without a page). */
export function frameOrder() {
  const doc = frameDocument();
  const order = new Map();
  if (!doc) return order;
  for (const element of doc.querySelectorAll("[data-cms]")) {
    if (!order.has(element.dataset.cms)) order.set(element.dataset.cms, order.size);
  }
  return order;
}

/** Call `listener` after each load of the preview frame (a new page drawn in it). */
export function onFrameLoad(listener) {
  byId("preview-frame").addEventListener("load", listener);
}

/** Call `listener` once, after the preview frame's next load, or not at all after `waitMs`. */
export function whenFrameLoads(listener, waitMs = 10000) {
  const frame = byId("preview-frame");
  let timer = 0;
  const done = () => {
    clearTimeout(timer);
    frame.removeEventListener("load", done);
    listener();
  };
  timer = setTimeout(() => frame.removeEventListener("load", done), waitMs);
  frame.addEventListener("load", done);
}
