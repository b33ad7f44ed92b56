// The preview: the draft, the proposed change set or the published page,
// rendered in a sandboxed frame (no scripts) at phone, tablet or full width.

import { ApiError, api, endpoint, sessionPath } from "./api.js";
import { $, $$, byTestId, report, state } from "./dom.js";
import { setRevision } from "./panels.js";

const REFRESH_DELAY_MS = 150;
// The rules a standalone page starts from (charlotte.page.render.BASE_CSS),
// served by the adapter as page-base.css, so the preview looks exactly like
// the published page. The page's own stylesheet comes later and wins.
const PAGE_BASE_CSS = "page-base.css";
/** The device widths the toggle offers (CSS pixels); desktop is the panel's width. */
export const DEVICES = Object.freeze({ phone: 390, tablet: 768, desktop: null });

let timer = 0;
// What the editor hooks in: the draft each load read, the frame after each
// load (to outline the selection again), and whether a reload must wait.
const hooks = {
  onDraft: () => {},
  onFrame: () => {},
  holdReload: () => false,
  onDevice: () => {},
  onViewMode: () => {},
};
const HOLD_RETRY_MS = 300;

/** Hook the editor in: `onDraft(answer)`, `onFrame(doc, mode)`, `holdReload()`, `onDevice(device)`, `onViewMode(mode)`. */
export function setPreviewHooks(given) {
  Object.assign(hooks, given);
}

export function schedulePreview(delay = REFRESH_DELAY_MS) {
  clearTimeout(timer);
  timer = setTimeout(loadPreview, delay);
}

export function cancelPreview() {
  clearTimeout(timer);
}

export function setViewMode(mode, { load = true } = {}) {
  if (mode === "proposed" && !state.changeSet) mode = "draft";
  state.viewMode = mode;
  for (const button of $$("[data-view-mode]")) {
    button.setAttribute("aria-pressed", String(button.dataset.viewMode === mode));
  }
  const caption = { draft: "Draft", proposed: "Proposed changes", published: "Published" }[mode];
  $('[data-role="preview-caption"]').textContent = caption;
  hooks.onViewMode(mode);
  if (load) schedulePreview(0);
}

/** Show the preview at a device's width ("phone", "tablet", "desktop"). */
export function setDevice(device) {
  if (!(device in DEVICES)) return;
  $(".preview-body").dataset.device = device;
  for (const button of $$("[data-device]")) {
    if (button.tagName === "BUTTON") button.setAttribute("aria-pressed", String(button.dataset.device === device));
  }
  hooks.onDevice(device);
  fitDevice();
}

/**
 * A phone's or a tablet's width that the panel cannot show whole is scaled
 * down to fit, as a design tool's canvas is: the page inside still lays out at
 * the device's width (its breakpoints hold), only the picture is smaller.
 */
function fitDevice() {
  const body = $(".preview-body");
  const frame = byTestId("preview-frame");
  const width = DEVICES[body.dataset.device];
  const room = body.clientWidth;
  const scale = width && room > 0 ? Math.min(1, room / width) : 1;
  const label = $('[data-role="preview-scale"]');
  if (scale >= 1) {
    for (const key of ["transform", "transformOrigin", "height", "marginRight", "marginBottom"]) frame.style[key] = "";
    delete body.dataset.scale;
    label.hidden = true;
    return;
  }
  const height = body.clientHeight / scale;
  frame.style.transformOrigin = "top left";
  frame.style.transform = `scale(${scale})`;
  frame.style.height = `${height}px`;
  // The frame's box keeps its unscaled size in the layout: give back what the picture does not use.
  frame.style.marginRight = `${-width * (1 - scale)}px`;
  frame.style.marginBottom = `${-height * (1 - scale)}px`;
  body.dataset.scale = String(Math.round(scale * 100));
  label.textContent = `${width} px shown at ${Math.round(scale * 100)} %`;
  label.hidden = false;
}

new ResizeObserver(() => fitDevice()).observe($(".preview-body"));

export function resetPreview() {
  setViewMode("draft", { load: false });
  showPreviewEmpty(false);
  byTestId("preview-frame").removeAttribute("srcdoc");
}

async function loadPreview() {
  const id = state.sessionId;
  if (id === null) return;
  const request = ++state.previewRequest;
  const mode = state.viewMode;
  let shown = null;
  let page = { html: "", css: "" };
  let caption = null;
  let empty = null;
  try {
    if (mode === "published") {
      try {
        page = await api("GET", sessionPath(id, "/published"));
        caption = `Published · revision ${page.revision}`;
        shown = page.revision;
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 404) throw error;
        empty = ["Not published yet", "Publish the draft to see the live page here."];
      }
    } else if (mode === "proposed" && state.changeSet) {
      page = state.changeSet;
      caption = `Proposed changes · working revision ${page.revision}`;
      shown = page.revision;
    } else {
      page = await api("GET", sessionPath(id, "/draft"));
      if (request === state.previewRequest && Number.isInteger(page.revision)) setRevision(page.revision);
      if (request === state.previewRequest && state.sessionId === id) hooks.onDraft(page);
      caption = `Draft · revision ${page.revision}`;
      shown = page.revision;
    }
  } catch (error) {
    if (request === state.previewRequest && state.sessionId === id) report(error);
    return;
  }
  // A newer request, or another session, has taken over meanwhile.
  if (request !== state.previewRequest || state.sessionId !== id) return;
  const html = typeof page.html === "string" ? page.html : "";
  const css = typeof page.css === "string" ? page.css : "";
  if (caption) $('[data-role="preview-caption"]').textContent = caption;
  if (empty === null && !html) {
    empty = mode === "published"
      ? ["The published page is empty", "Publish the draft once it has content."]
      : ["The page is empty", "Send a message and the draft appears here as the builder works."];
  }
  showPreviewEmpty(empty !== null, empty);
  renderFrame(html, css, shown);
}

function showPreviewEmpty(show, texts) {
  $('[data-role="preview-empty"]').hidden = !show;
  if (show && texts) {
    $('[data-role="preview-empty-title"]').textContent = texts[0];
    $('[data-role="preview-empty-text"]').textContent = texts[1];
  }
}

function renderFrame(html, css, revision) {
  const frame = byTestId("preview-frame");
  // Tests and people can tell which revision the frame shows.
  if (Number.isInteger(revision)) frame.dataset.revision = String(revision);
  else delete frame.dataset.revision;
  frame.dataset.view = state.viewMode;
  // The view is part of the key: the canvas is attached to the draft's frame only.
  const key = `${state.viewMode}\u0000${css}\u0000${html}`;
  if (key === state.previewKey) return;
  // A text edited in place would be lost with the old document: load once it is done.
  if (hooks.holdReload()) {
    schedulePreview(HOLD_RETRY_MS);
    return;
  }
  const mode = state.viewMode;
  state.previewKey = key;
  // Keep the reader's place: a fresh srcdoc would jump back to the top.
  let scrollY = 0;
  try {
    scrollY = frame.contentWindow ? frame.contentWindow.scrollY : 0;
  } catch {
    scrollY = 0;
  }
  frame.addEventListener(
    "load",
    () => {
      // The frame runs no scripts (no allow-scripts), so this page does the
      // little the preview needs: keep links from navigating it away.
      try {
        frame.contentDocument.addEventListener("click", (event) => {
          const target = event.target;
          if (target && typeof target.closest === "function" && target.closest("a[href]")) {
            event.preventDefault();
          }
        });
        if (scrollY) frame.contentWindow.scrollTo(0, scrollY);
        hooks.onFrame(frame.contentDocument, mode);
      } catch {
        // Not reachable: the reader starts at the top.
      }
    },
    { once: true },
  );
  // A "<" in CSS could close the style element; "\3c " keeps its meaning.
  const safeCss = css.replaceAll("<", "\\3c ");
  frame.srcdoc =
    "<!DOCTYPE html><html><head><meta charset=\"utf-8\">" +
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">" +
    `<link rel="stylesheet" href="${endpoint(PAGE_BASE_CSS)}">` +
    `<style data-cms-styles>${safeCss}</style>` +
    `</head><body>${html}</body></html>`;
}
