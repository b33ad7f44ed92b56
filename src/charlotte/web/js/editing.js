// The editor panel: shown beside (or under) the draft's preview, hidden while
// the published page or a change set's proposal is shown; its notice line,
// Undo/Redo buttons and collapse toggle; the hooks that tie the preview, the
// canvas, the outline, the inspector and the palette together.

import { $, byId, state } from "./dom.js";
import { attachCanvas, editingInPlace, paintCanvas, wireCanvas } from "./canvas.js";
import { loadPalette, resetEditor, setEditorDevice, subscribe } from "./editor.js";
import { canRedo, canUndo, onNotice, onStacks, redo, resetEdits, undo } from "./edits.js";
import { wireInspector } from "./inspector.js";
import { handleKey, wireOutline } from "./outline.js";
import { wirePalette } from "./palette.js";
import { attachDropTarget, wirePlacing } from "./placing.js";
import { setPreviewHooks } from "./preview.js";

const NOTICE_MS = 8000;
let noticeTimer = 0;

const panel = () => byId("editor");

/** Say a sentence in the editor's notice line; a good one fades after a while. */
function say(message, tone = "") {
  const line = byId("editor-notice");
  clearTimeout(noticeTimer);
  line.textContent = message;
  line.dataset.tone = tone;
  // A refusal stays longer, but no sentence stays for good.
  noticeTimer = setTimeout(() => (line.textContent = ""), tone === "bad" ? 3 * NOTICE_MS : NOTICE_MS);
}

function showFor(mode) {
  // Edits go to the draft only: the published page and a proposal are looked at, not edited.
  const shown = state.sessionId !== null && mode === "draft";
  panel().hidden = !shown;
  $(".stage").dataset.editor = shown ? "on" : "off";
}

function updateHistoryButtons() {
  byId("editor-undo").disabled = !canUndo();
  byId("editor-redo").disabled = !canRedo();
}

export function wireEditing() {
  setPreviewHooks({
    onFrame: (doc, mode) => {
      attachCanvas(doc, mode);
      attachDropTarget(doc, mode);
    },
    holdReload: editingInPlace,
    onDevice: setEditorDevice,
    onViewMode: showFor,
  });
  wireCanvas({ onKey: handleKey, onNotice: say });
  onNotice(say);
  onStacks(updateHistoryButtons);
  subscribe((reason) => {
    if (reason === "select") paintCanvas();
    else if (reason === "draft") paintCanvas({ scroll: false });
  });
  wireOutline();
  wireInspector();
  wirePalette();
  wirePlacing();
  byId("editor-undo").addEventListener("click", () => undo());
  byId("editor-redo").addEventListener("click", () => redo());
  const toggle = byId("editor-toggle");
  toggle.addEventListener("click", () => {
    const open = toggle.getAttribute("aria-expanded") !== "true";
    toggle.setAttribute("aria-expanded", String(open));
    panel().dataset.open = String(open);
  });
  // Undo and redo anywhere on the page (not while typing); the tree and the canvas handle their own.
  document.addEventListener("keydown", (event) => {
    if (panel().hidden || document.querySelector("dialog[open]")) return;
    if (event.target.closest && event.target.closest("#outline-tree")) return;
    handleKey(event, "page");
  });
  updateHistoryButtons();
}

/** A session opened: a fresh model, empty stacks, its palette. */
export function openEditor(id) {
  resetEditor();
  resetEdits();
  say("");
  showFor(state.viewMode);
  loadPalette(id).catch((error) => {
    if (state.sessionId === id) say(`The palette could not be loaded: ${error.message}`, "bad");
  });
}

export function closeEditor() {
  resetEditor();
  resetEdits();
  showFor("none");
}
