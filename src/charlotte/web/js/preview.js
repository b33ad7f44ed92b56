// The preview: the draft, the proposed change set or the published page,
// in a sandboxed frame (no scripts) at phone, tablet or full width. The draft
// and the proposal are drawn here from the store's copies (js/render.js and
// js/css.js, equal to the server's rendering): a change re-renders the nodes
// its ops touched inside the frame, the whole body when they moved nodes, and
// the stylesheet only when a style could have changed. The published page is
// the server's (GET /published).

import { ApiError, api, endpoint, sessionPath } from "./api.js";
import { BREAKPOINT_PX, emitCss, opsCanChangeCss } from "./css.js";
import { $, $$, byId, report, state } from "./dom.js";
import { store } from "./draft.js";
import { renderHtml, renderNode } from "./render.js";
import { assetLibrary } from "./store.js";
import { childrenOf } from "./tree.js";

const REFRESH_DELAY_MS = 150;
// The rules a standalone page starts from (charlotte.page.render.BASE_CSS),
// served by the adapter as page-base.css, so the preview looks exactly like
// the published page. The page's own stylesheet comes later and wins.
const PAGE_BASE_CSS = "page-base.css";
// A laptop's width: wider than the page's largest breakpoint (lg, 1024 px), so
// every Desktop value shows as a desktop visitor sees it.
const DESKTOP_PX = Math.max(1280, ...BREAKPOINT_PX.values());
/**
 * The width each device lays the page out at (CSS pixels): a phone's, the
 * tablet breakpoint's (md) and a desktop's. A panel narrower than that shows
 * the page scaled down (fitDevice); a wider one shows Desktop at its own width.
 */
export const DEVICES = Object.freeze({ phone: 390, tablet: BREAKPOINT_PX.get("md"), desktop: DESKTOP_PX });

// Ops that move nodes or change which nodes there are: the body is drawn again.
const STRUCTURAL_OPS = new Set(["insert_node", "remove_node", "move_node", "reorder_roots", "restore_node"]);

let timer = 0;
// What the frame shows (`view`: which session's which view; `revision`), and
// what changed in the store's copy since it was drawn: `body` (draw it all),
// `ids` (nodes to draw again), `css` (the stylesheet).
let shown = freshShown();
// What the editor hooks in: the frame after each load (to outline the
// selection again), and whether drawing must wait.
const hooks = {
  onFrame: () => {},
  holdReload: () => false,
  onDevice: () => {},
  onViewMode: () => {},
};
const HOLD_RETRY_MS = 300;

/** Hook the editor in: `onFrame(doc, mode)`, `holdReload()`, `onDevice(device)`, `onViewMode(mode)`. */
export function setPreviewHooks(given) {
  Object.assign(hooks, given);
}

function freshShown() {
  return { view: null, revision: null, loaded: false, body: true, ids: new Set(), css: true };
}

/** Show the current view again: the published page is read anew, the others drawn from the store. */
export function schedulePreview(delay = REFRESH_DELAY_MS) {
  clearTimeout(timer);
  timer = setTimeout(loadPreview, delay);
}

// The store's copy this view draws, or null (the published page is the server's).
const copyOfView = (mode) => ({ draft: "draft", proposed: "working" })[mode] ?? null;

store.subscribe((change) => {
  if (state.sessionId === null || change.copy !== copyOfView(state.viewMode)) return;
  if (change.ops === null || change.before !== shown.revision) shown.body = true;
  else {
    if (change.ops.some((op) => STRUCTURAL_OPS.has(op && op.t))) shown.body = true;
    for (const id of change.nodeIds) shown.ids.add(id);
    if (opsCanChangeCss(change.ops)) shown.css = true;
  }
  shown.revision = change.revision;
  clearTimeout(timer);
  drawCopy();
});

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
 * A device's width that the panel cannot show whole is scaled down to fit, as
 * a design tool's canvas is: the page inside still lays out at the device's
 * width (its breakpoints hold: Desktop's lg values show in a 1280 px window),
 * only the picture is smaller. Clicks still reach the node under the pointer:
 * the browser maps them through the transform.
 */
function fitDevice() {
  const body = $(".preview-body");
  const frame = byId("preview-frame");
  const width = DEVICES[body.dataset.device];
  const room = body.clientWidth;
  const scale = width && room > 0 ? Math.min(1, room / width) : 1;
  const label = $('[data-role="preview-scale"]');
  if (scale >= 1) {
    for (const key of ["transform", "transformOrigin", "width", "height", "marginRight", "marginBottom"]) frame.style[key] = "";
    delete body.dataset.scale;
    label.hidden = true;
    return;
  }
  const height = body.clientHeight / scale;
  frame.style.transformOrigin = "top left";
  frame.style.transform = `scale(${scale})`;
  frame.style.width = `${width}px`;
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
  clearTimeout(timer);
  shown = freshShown();
  setViewMode("draft", { load: false });
  showPreviewEmpty(false);
  const frame = byId("preview-frame");
  frame.removeAttribute("srcdoc");
  delete frame.dataset.revision;
}

async function loadPreview() {
  if (state.sessionId === null) return;
  if (state.viewMode === "published") await loadPublished();
  else drawCopy();
}

async function loadPublished() {
  const id = state.sessionId;
  const request = ++state.previewRequest;
  let page = { html: "", css: "" };
  let caption = null;
  let empty = null;
  try {
    // Nothing published yet: not asked for (its answer would be a 404 in the browser's console).
    if (state.published === undefined) state.published = await publishedRevision(id);
    if (state.published === null) throw new ApiError("not_found", "", 404);
    page = await api("GET", sessionPath(id, "/published"));
    caption = `Published · revision ${page.revision}`;
  } catch (error) {
    if (request !== state.previewRequest || state.sessionId !== id) return;
    if (!(error instanceof ApiError) || error.status !== 404) {
      report(error);
      return;
    }
    empty = ["Not published yet", "Publish the draft to see the live page here."];
  }
  // A newer request, or another session, has taken over meanwhile.
  if (request !== state.previewRequest || state.sessionId !== id || state.viewMode !== "published") return;
  const html = typeof page.html === "string" ? page.html : "";
  if (caption) $('[data-role="preview-caption"]').textContent = caption;
  if (empty === null && !html) empty = ["The published page is empty", "Publish the draft once it has content."];
  showPreviewEmpty(empty !== null, empty);
  loadFrame(html, typeof page.css === "string" ? page.css : "", page.revision, `published\u0000${id}`);
}

// The revision last published (null: none), as the history says it.
async function publishedRevision(id) {
  const answer = await api("GET", sessionPath(id, "/history?limit=1"));
  return answer && Number.isInteger(answer.published_revision) ? answer.published_revision : null;
}

// Draw the store's copy of the view: into the frame as it is when it shows
// this view already, else as a new frame document.
function drawCopy() {
  const mode = state.viewMode;
  const copy = store.get(copyOfView(mode));
  if (copy === null) return; // its read (or the change set's) is on its way
  const view = `${mode}\u0000${state.sessionId}`;
  if (shown.view === view && !shown.loaded) return; // the frame's load draws what changed meanwhile
  // A text edited in place would be lost with its element: draw once it is done.
  if (hooks.holdReload()) {
    clearTimeout(timer);
    timer = setTimeout(drawCopy, HOLD_RETRY_MS);
    return;
  }
  const caption = mode === "draft" ? `Draft · revision ${copy.revision}` : `Proposed changes · working revision ${copy.revision}`;
  $('[data-role="preview-caption"]').textContent = caption;
  const assets = assetLibrary(copy.assets);
  showPreviewEmpty(childrenOf(copy.doc, null).length === 0, ["The page is empty", "Send a message and the draft appears here as the builder works."]);
  const frame = byId("preview-frame");
  const body = shown.view === view && shown.loaded ? frameBody(frame) : null;
  if (body === null) {
    loadFrame(renderHtml(copy.doc, { assets }), emitCss(copy.doc), copy.revision, view);
  } else {
    patchFrame(frame, body, copy, assets);
  }
  shown.revision = copy.revision;
}

function frameBody(frame) {
  try {
    return frame.contentDocument && frame.contentDocument.body ? frame.contentDocument.body : null;
  } catch {
    return null;
  }
}

// Only what changed: each touched node's subtree, or the whole body; the stylesheet when a style may have.
function patchFrame(frame, body, copy, assets) {
  if (!shown.body) {
    for (const id of shown.ids) {
      const element = body.querySelector(`[data-cms="${CSS.escape(id)}"]`);
      const html = renderNode(copy.doc, id, { assets });
      // A node the frame does not show, or one no longer there: the body is drawn whole.
      if (!element || !html) {
        shown.body = true;
        break;
      }
      element.replaceWith(parsedInFrame(body.ownerDocument, html));
    }
  }
  if (shown.body) body.replaceChildren(parsedInFrame(body.ownerDocument, renderHtml(copy.doc, { assets })));
  if (shown.css) {
    const style = frame.contentDocument.querySelector("style[data-cms-styles]");
    if (style) style.textContent = emitCss(copy.doc);
  }
  shown.body = false;
  shown.ids.clear();
  shown.css = false;
  frame.dataset.revision = String(copy.revision);
}

// The page's HTML made nodes by the frame's own document (sandboxed: nothing
// in it runs), as the srcdoc's body would have been parsed.
function parsedInFrame(frameDoc, html) {
  return frameDoc.createRange().createContextualFragment(html);
}

function showPreviewEmpty(show, texts) {
  $('[data-role="preview-empty"]').hidden = !show;
  if (show && texts) {
    $('[data-role="preview-empty-title"]').textContent = texts[0];
    $('[data-role="preview-empty-text"]').textContent = texts[1];
  }
}

// A new frame document: the page's HTML and stylesheet after page-base.css.
function loadFrame(html, css, revision, view) {
  const frame = byId("preview-frame");
  // Tests and people can tell which revision the frame shows.
  if (Number.isInteger(revision)) frame.dataset.revision = String(revision);
  else delete frame.dataset.revision;
  frame.dataset.view = state.viewMode;
  const mode = state.viewMode;
  shown = { ...freshShown(), view, revision, body: false, css: false };
  // Keep the reader's place: a fresh srcdoc would jump back to the top.
  let scrollY = 0;
  try {
    scrollY = frame.contentWindow ? frame.contentWindow.scrollY : 0;
  } catch {
    scrollY = 0;
  }
  const drawn = shown;
  frame.addEventListener(
    "load",
    () => {
      // A newer document was asked for meanwhile: it has its own load.
      if (shown !== drawn) return;
      drawn.loaded = true;
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
      // What changed while it loaded.
      if (drawn.body || drawn.ids.size || drawn.css) drawCopy();
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
