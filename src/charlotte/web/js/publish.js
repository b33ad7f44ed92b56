// Publish: a dialog says what changed since the last publish (the server's
// GET publish-preview) and publishes exactly the revision it showed; the
// draft moving on meanwhile is the server's 409, and an empty page (the
// preview's `empty`) is refused before any publish request, saying so (or,
// in an approve-on-save session, that the changes waiting need approval first). The quality
// gate's findings (the answer's `findings`, or a `quality_gate` refusal's) are
// listed, errors first; over errors the Publish button reads "Publish
// anyway…", asks once more naming them, and the request carries `override`.
// An answer without `findings` leaves the dialog as it was before the gate.

import { ApiError, api, sessionPath } from "./api.js";
import { changeEntries } from "./changes.js";
import { $, byId, clearError, el, plural, showError, state, whileBusy } from "./dom.js";
import { store } from "./draft.js";
import { PUBLISH_ANYWAY, errorCodes, findingWords, findingsSummary, hasFindings, overrideQuestion, readFindings } from "./findings.js";
import { scheduleStatus } from "./panels.js";
import { schedulePreview } from "./preview.js";

export const EMPTY_PAGE_MESSAGE =
  "The page is empty, so there is nothing to publish yet. Ask the builder for a first draft, then publish.";

/** Why an empty draft cannot be published: the builder's changes waiting for review, when they are, else nothing written yet. */
export function emptyPageMessage(changeSet) {
  const waiting = changeSet && Number.isInteger(changeSet.ops) ? changeSet.ops : 0;
  if (waiting > 0) {
    return `${plural(waiting, "change")} ${waiting === 1 ? "waits" : "wait"} for your review and the draft is still empty: ` +
      "approve them first (Approve all, or reject the ones you do not want), then publish.";
  }
  return EMPTY_PAGE_MESSAGE;
}

const dialog = () => byId("publish-dialog");
// What the open dialog would publish: the session, the revision shown and the error codes it would override.
let reviewed = null;
// Whether the person has been asked, in the open dialog, to publish over its error findings.
let askedOverride = false;

/** Read what publishing now would change (the server's preview), then ask (or refuse an empty page). */
export async function askToPublish() {
  const id = state.sessionId;
  const button = byId("publish-button");
  await whileBusy(button, async () => {
    const answer = await api("GET", sessionPath(id, "/publish-preview"));
    if (state.sessionId !== id) return;
    const preview = answer && answer.preview && typeof answer.preview === "object" ? answer.preview : null;
    if (preview && preview.empty === true) {
      showError(emptyPageMessage(state.changeSet));
      return;
    }
    if (!preview || !Number.isInteger(preview.revision)) {
      showError("The server's answer about what would be published could not be read; nothing was published.");
      return;
    }
    const docs = await namingDocs(id, preview);
    if (state.sessionId !== id) return;
    clearError();
    const findings = findingsOf(answer);
    reviewed = { id, revision: preview.revision, override: findings ? errorCodes(findings) : [] };
    fillDialog(preview, docs);
    fillFindings(findings);
    dialog().showModal();
    byId("publish-cancel").focus();
  });
}

// The gate's findings of an answer (today's server sends none: null), errors first.
function findingsOf(answer) {
  if (!answer || typeof answer !== "object") return null;
  const holder = hasFindings(answer) ? answer : hasFindings(answer.preview) ? answer.preview : hasFindings(answer.detail) ? answer.detail : null;
  return holder ? readFindings(holder.findings) : null;
}

function fillFindings(findings) {
  const box = byId("publish-findings");
  const confirmButton = byId("publish-confirm");
  askedOverride = false;
  byId("publish-override").hidden = true;
  byId("publish-override").textContent = "";
  confirmButton.textContent = reviewed && reviewed.override.length ? PUBLISH_ANYWAY : "Publish";
  // Over errors the button is a plain (red-lettered) one, not the blue call to action.
  const overriding = Boolean(reviewed && reviewed.override.length);
  confirmButton.classList.toggle("button-danger", overriding);
  confirmButton.classList.toggle("button-primary", !overriding);
  if (!findings || !findings.length) {
    box.hidden = true;
    byId("publish-findings-list").replaceChildren();
    return;
  }
  const draft = store.get("draft");
  const docs = draft ? [draft.doc] : [];
  byId("publish-findings-summary").textContent = findingsSummary(findings);
  byId("publish-findings-list").replaceChildren(...findings.map((finding) => findingItem(findingWords(finding, docs))));
  box.hidden = false;
}

/** One finding in words as a list item: its severity, place, the server's sentence and what fixes it. */
export function findingItem(words) {
  const item = el("li", "finding");
  item.dataset.severity = words.severity;
  item.dataset.code = words.code;
  if (words.node) item.dataset.node = words.node;
  const head = el("div", "finding-head");
  head.append(el("span", "finding-severity", words.severity === "error" ? "Must fix" : "Warning"), el("span", "finding-place", words.place));
  item.append(head);
  if (words.message) item.append(el("p", "finding-message", words.message));
  if (words.fix) item.append(el("p", "finding-fix", words.fix));
  return item;
}

// Over error findings the first press asks (naming them) and the second publishes.
function askBeforeOverride(event) {
  if (!reviewed || !reviewed.override.length || askedOverride) return;
  event.preventDefault();
  askedOverride = true;
  const question = byId("publish-override");
  question.textContent = overrideQuestion(reviewed.override);
  question.hidden = false;
  byId("publish-confirm").textContent = "Yes, publish anyway";
}

const listOf = (value) => (Array.isArray(value) ? value : []);

// The documents the dialog names nodes from: the store's draft (what goes live) and,
// for the nodes it removes, the published copy. Without them it shows ids.
async function namingDocs(id, preview) {
  const diff = preview.diff && typeof preview.diff === "object" ? preview.diff : {};
  if (!Number.isInteger(preview.published_revision) || preview.unchanged === true) return [];
  const read = async (path) => {
    try {
      return (await api("GET", sessionPath(id, path))).page || null;
    } catch {
      return null;
    }
  };
  const draft = store.get("draft");
  const published = listOf(diff.removed).length ? await read("/published") : null;
  return [draft ? draft.doc : null, published].filter(Boolean);
}

function fillDialog(preview, docs) {
  $('[data-role="publish-title"]').textContent = `Publish revision ${preview.revision}?`;
  const list = $('[data-role="publish-changes"]');
  const diff = preview.diff && typeof preview.diff === "object" ? preview.diff : {};
  const parts = {
    added: listOf(diff.added),
    changed: listOf(diff.changed),
    removed: listOf(diff.removed),
    meta: diff.meta === true,
    theme: diff.theme === true,
  };
  if (!Number.isInteger(preview.published_revision)) {
    $('[data-role="publish-summary"]').textContent =
      `Nothing is published yet: the whole page goes live (${plural(parts.added.length, "node")}).`;
    list.replaceChildren();
    list.hidden = true;
    return;
  }
  const unchanged = preview.unchanged === true;
  $('[data-role="publish-summary"]').textContent = unchanged
    ? `Nothing changed since revision ${preview.published_revision} was published.`
    : `Since revision ${preview.published_revision} was published: ${describe(parts)}.`;
  const entries = unchanged ? [] : changeEntries(parts, docs);
  for (const entry of entries) entry.element.classList.add("diff-row");
  list.replaceChildren(...entries.map((entry) => entry.element));
  list.hidden = unchanged;
}

function describe(diff) {
  const said = [];
  if (diff.added.length) said.push(`${plural(diff.added.length, "node")} added`);
  if (diff.changed.length) said.push(`${plural(diff.changed.length, "node")} changed`);
  if (diff.removed.length) said.push(`${plural(diff.removed.length, "node")} removed`);
  if (diff.meta) said.push("the page settings changed");
  if (diff.theme) said.push("the colours and fonts changed");
  return said.join(", ");
}

async function confirm() {
  const chosen = reviewed;
  reviewed = null;
  if (!chosen || chosen.id !== state.sessionId) return;
  const button = byId("publish-button");
  await whileBusy(button, async () => {
    let answer;
    try {
      const body = { revision: chosen.revision };
      if (chosen.override.length) body.override = chosen.override;
      answer = await api("POST", sessionPath(chosen.id, "/publish"), body);
    } catch (error) {
      if (error instanceof ApiError && error.code === "quality_gate" && reopenWithFindings(chosen, error)) return;
      if (error instanceof ApiError && error.code === "stale_revision") {
        // Show the draft as it is now before the person tries again.
        scheduleStatus();
        schedulePreview(0);
        const now = error.body && Number.isInteger(error.body.revision) ? ` (it is now at revision ${error.body.revision})` : "";
        throw new ApiError(error.code, `The draft changed while you reviewed it${now}, so nothing was published. Look at it again, then publish.`, error.status);
      }
      throw error;
    }
    clearError();
    button.classList.remove("is-busy");
    button.textContent = `Published r${answer.revision}`;
    setTimeout(() => {
      button.textContent = "Publish";
    }, 2000);
    if (state.viewMode === "published") schedulePreview(0);
  });
}

export function wirePublish() {
  byId("publish-button").addEventListener("click", askToPublish);
  byId("publish-confirm").addEventListener("click", askBeforeOverride);
  // A method="dialog" form closes the dialog with the pressed button's value;
  // Escape closes it with an empty one. Only Confirm publishes.
  dialog().addEventListener("keydown", trapFocus);
  dialog().addEventListener("close", () => {
    const answer = dialog().returnValue;
    dialog().returnValue = "";
    byId("publish-button").focus();
    if (answer === "confirm") confirm();
    else reviewed = null;
  });
}

// A modal dialog makes the page behind it inert, but Tab may still leave for
// the browser's own controls: keep it cycling through the dialog's buttons.
function trapFocus(event) {
  if (event.key !== "Tab") return;
  const controls = [...dialog().querySelectorAll("button:not([disabled])")];
  if (controls.length === 0) return;
  const first = controls[0];
  const last = controls[controls.length - 1];
  const current = document.activeElement;
  if (event.shiftKey && (current === first || !dialog().contains(current))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (current === last || !dialog().contains(current))) {
    event.preventDefault();
    first.focus();
  }
}

// A refusal of the gate: the dialog again, listing what it found, ready to publish over it.
function reopenWithFindings(chosen, error) {
  const findings = findingsOf(error.body);
  if (!findings || !findings.length || chosen.id !== state.sessionId) return false;
  clearError();
  reviewed = { ...chosen, override: errorCodes(findings) };
  $('[data-role="publish-title"]').textContent = `Revision ${chosen.revision} did not pass the publish check`;
  fillFindings(findings);
  if (!dialog().open) dialog().showModal();
  byId("publish-cancel").focus();
  return true;
}

export function closePublish() {
  reviewed = null;
  askedOverride = false;
  if (dialog().open) dialog().close();
}
