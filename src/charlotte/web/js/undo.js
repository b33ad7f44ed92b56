// Undo a turn: the button under each finished agent turn of the chat. It
// takes the turn's draft edits back (POST …/turns/{turn_id}/undo); the
// stream's page.changed then refreshes the badge and the preview.

import { ApiError, api, codeText, sessionPath } from "./api.js";
import { el, plural, report, state } from "./dom.js";
import { keyName } from "./editor.js";
import { ownWrite } from "./edits.js";

/** Whether this session's turns write the draft (an approve-on-save turn writes only a change set). */
export function canUndo() {
  return Boolean(state.session) && !state.session.approve_on_save;
}

/** The row with the "Undo this turn" button of `turnId`, or null where there is nothing to undo. */
export function undoRow(turnId) {
  if (typeof turnId !== "string" || !turnId || !canUndo()) return null;
  const row = el("div", "turn-undo");
  row.dataset.turn = turnId;
  const button = el("button", "undo-button", "Undo this turn");
  button.type = "button";
  const said = el("span", "undo-note muted");
  said.setAttribute("role", "status");
  button.addEventListener("click", () => undoTurn(turnId, button, said));
  row.append(button, said);
  return row;
}

async function undoTurn(turnId, button, said) {
  const id = state.sessionId;
  button.disabled = true;
  said.textContent = "";
  try {
    const answer = await ownWrite(api("POST", sessionPath(id, `/turns/${encodeURIComponent(turnId)}/undo`), {}));
    if (state.sessionId !== id) return;
    done(button, said, `Undone · revision ${answer.revision}`);
  } catch (error) {
    if (state.sessionId !== id) return;
    if (!(error instanceof ApiError)) {
      report(error);
      button.disabled = false;
      return;
    }
    refused(error, button, said);
  }
}

function done(button, said, text) {
  button.textContent = "Turn undone";
  button.disabled = true;
  said.textContent = text;
  button.closest(".turn-undo").dataset.state = "undone";
}

function refused(error, button, said) {
  const row = button.closest(".turn-undo");
  row.dataset.code = error.code;
  if (error.code === "already_undone") {
    done(button, said, "This turn was undone before.");
    return;
  }
  if (error.code === "conflicted") {
    // Named by their words where the draft has them (the settings, the theme, the order in words).
    const nodes = error.body && Array.isArray(error.body.nodes) ? error.body.nodes.map((key) => keyName(String(key))) : [];
    const named = nodes.length > 0 ? ` (${plural(nodes.length, "node")}: ${nodes.slice(0, 8).join(", ")})` : "";
    said.textContent = `Not undone: later edits touched the nodes this turn changed${named}.`;
    button.disabled = true;
    return;
  }
  if (error.code === "history_truncated") {
    said.textContent = "Not undone: this turn is too old to take back.";
    button.disabled = true;
    return;
  }
  // busy, stale_revision and the like: nothing changed, another try may work.
  said.textContent = `Not undone: ${codeText(error.code)}.`;
  button.disabled = false;
}
