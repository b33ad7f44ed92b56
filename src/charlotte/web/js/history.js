// History: the draft's revisions, newest first, grouped by turn and by person
// (GET /history, "Show older" pages back), in a side sheet beside the page
// (a non-modal <dialog>: the preview, Send and Publish stay in reach). Each
// group can be restored (POST /restore), and the draft reset to the published
// page (POST /reset); both ask first, and both add a revision: nothing is lost.

import { ApiError, api, codeText, sessionPath } from "./api.js";
import { describeNode } from "./changes.js";
import { $, byId, el, plural, report, state } from "./dom.js";
import { store } from "./draft.js";

const PAGE_SIZE = 20;
const REFRESH_DELAY_MS = 200;
const NAMED_NODES = 4;

const sheet = () => byId("history-sheet");
let shown = fresh(null);
let asked = null; // the confirmation waiting: { kind: "restore" | "reset", revision }
let timer = 0;
let refocus = false; // after a restore the list is drawn again: focus goes to its title
let requests = 0; // each read of the list; an answer to an older one is dropped
let confirmBox = null; // moved beside the button that asked; its home is under "Reset to published"

function fresh(id) {
  return { id, revision: null, published: null, groups: [], nextBefore: null, request: -1, page: null };
}

export function wireHistory() {
  confirmBox = byId("history-confirm");
  byId("history-button").addEventListener("click", () => (sheet().open ? closeHistory() : openHistory()));
  byId("history-close").addEventListener("click", () => closeHistory());
  byId("history-older").addEventListener("click", loadOlder);
  byId("history-reset").addEventListener("click", () => ask("reset", shown.published, byId("history-reset")));
  $('[data-action="cancel-history-confirm"]').addEventListener("click", () => cancelAsk(true));
  byId("history-confirm-ok").addEventListener("click", confirmAsked);
  sheet().addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    if (asked) cancelAsk(true);
    else closeHistory();
  });
  // However it closes (a browser may close a dialog on Escape itself), History says so.
  sheet().addEventListener("close", () => byId("history-button").setAttribute("aria-expanded", "false"));
  // Below 769 px the composer spans the screen's foot: the sheet ends above it.
  new ResizeObserver(fitAboveComposer).observe($('[data-role="composer"]'));
}

function fitAboveComposer() {
  const composer = $('[data-role="composer"]');
  sheet().style.setProperty("--history-foot", `${composer.offsetHeight}px`);
}

export function openHistory() {
  if (state.sessionId === null) return;
  fitAboveComposer();
  tell("");
  sheet().show();
  byId("history-button").setAttribute("aria-expanded", "true");
  byId("history-close").focus();
  load();
}

/** Close the sheet (the session closed, Escape, Close, or History again). */
export function closeHistory() {
  clearTimeout(timer);
  cancelAsk(false);
  const inside = sheet().contains(document.activeElement);
  if (sheet().open) sheet().close();
  byId("history-button").setAttribute("aria-expanded", "false");
  if (inside) byId("history-button").focus();
  shown = fresh(null);
  byId("history-groups").replaceChildren();
}

/** The draft changed (page.changed) or was published: read the list again if it is open. */
export function refreshHistory(delay = REFRESH_DELAY_MS) {
  if (!sheet().open) return;
  clearTimeout(timer);
  timer = setTimeout(load, delay);
}

async function load() {
  const id = state.sessionId;
  if (id === null || !sheet().open) return;
  const request = ++requests;
  shown.request = request;
  let answer;
  try {
    answer = await api("GET", sessionPath(id, `/history?limit=${PAGE_SIZE}`));
  } catch (error) {
    if (request === shown.request && state.sessionId === id) failed(error);
    return;
  }
  if (request !== shown.request || state.sessionId !== id || !sheet().open) return;
  const published = answer.published_revision;
  // The store's draft names what each group changed (a node since removed keeps its id).
  const draft = store.get("draft");
  const page = draft ? draft.doc : null;
  // A newer list replaces what was read, older pages included (they may have merged).
  shown = {
    ...fresh(id), request, page, revision: answer.revision, published: Number.isInteger(published) ? published : null,
  };
  take(answer);
}

async function loadOlder() {
  const id = state.sessionId;
  const before = shown.nextBefore;
  if (id === null || !Number.isInteger(before)) return;
  const request = shown.request;
  const button = byId("history-older");
  button.disabled = true;
  try {
    const answer = await api("GET", sessionPath(id, `/history?limit=${PAGE_SIZE}&before=${before}`));
    if (request === shown.request && state.sessionId === id) take(answer, { older: true });
  } catch (error) {
    failed(error);
  } finally {
    button.disabled = false;
  }
}

// Said in the sheet, which may cover the page's error banner on a narrow screen.
function failed(error) {
  if (!(error instanceof ApiError)) {
    report(error);
    return;
  }
  tell(`The history could not be read: ${error.message}`, error.code);
}

/** A sentence under the sheet's head; `code` marks a refusal or a failure. */
function tell(text, code = null) {
  const note = $('[data-role="history-note"]');
  note.textContent = text;
  if (code) note.dataset.code = code;
  else delete note.dataset.code;
}

function take(answer, { older = false } = {}) {
  const groups = Array.isArray(answer.groups) ? answer.groups.filter((group) => group && typeof group === "object") : [];
  shown.groups = older ? [...shown.groups, ...groups] : groups;
  shown.nextBefore = Number.isInteger(answer.next_before) ? answer.next_before : null;
  render();
}

function render() {
  const list = byId("history-groups");
  // The list changed under a question still open: its revisions may mean another page now.
  if (asked) {
    cancelAsk(false);
    tell("The history changed meanwhile; choose again.");
  }
  list.replaceChildren(...shown.groups.map(groupItem));
  if (shown.groups.length === 0) list.append(el("li", "history-empty muted", "No changes yet: the draft is empty."));
  byId("history-older").hidden = shown.nextBefore === null;
  if (refocus && !sheet().contains(document.activeElement)) $("#history-title").focus();
  refocus = false;
  const reset = byId("history-reset");
  const why = $('[data-role="history-reset-why"]');
  reset.disabled = shown.published === null || shown.published === shown.revision;
  why.textContent = shown.published === null
    ? "Nothing is published yet."
    : shown.published === shown.revision
      ? `The draft is the published page (revision ${shown.published}).`
      : `The published page is revision ${shown.published}.`;
}

/** "The builder · turn", "ann", "Undo of a turn · ann", "The builder · approved changes". */
export function groupWho(group) {
  if (group.kind === "turn") return group.turn_id ? "The builder · turn" : "The builder · approved changes";
  const actor = typeof group.actor === "string" && group.actor ? group.actor : "Someone";
  return group.undoes ? `Undo of a turn · ${actor}` : actor;
}

function ago(at) {
  const then = Date.parse(at);
  if (!Number.isFinite(then)) return "";
  const seconds = Math.round((then - Date.now()) / 1000);
  const words = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
  for (const [unit, size] of [["day", 86400], ["hour", 3600], ["minute", 60]]) {
    if (Math.abs(seconds) >= size) return words.format(Math.round(seconds / size), unit);
  }
  return seconds > -45 ? "just now" : words.format(seconds, "second");
}

function groupItem(group) {
  const item = el("li", "history-group");
  const first = Number(group.first_revision);
  const last = Number(group.last_revision);
  item.dataset.kind = String(group.kind);
  item.dataset.first = String(first);
  item.dataset.last = String(last);
  const ids = Array.isArray(group.node_ids) ? group.node_ids.map(String) : [];
  // A section and its heading often share their words: each name once.
  const names = [...new Set(ids.map(shortName))];
  const named = names.slice(0, NAMED_NODES).join(", ") +
    (names.length > NAMED_NODES ? ` +${names.length - NAMED_NODES} more` : "");
  const when = group.at ? ago(group.at) : "";
  const parts = [plural(Number(group.ops) || 0, "edit"), when, named].filter(Boolean);
  const who = el("p", "history-what");
  who.append(el("span", "history-who", groupWho(group)), ` · ${parts.join(" · ")}`);
  if (group.at) who.title = new Date(group.at).toLocaleString();
  const revisions = el("p", "history-revisions muted", first === last ? `Revision ${last}` : `Revisions ${first}–${last}`);
  if (last === shown.revision) revisions.append(el("span", "history-tag", "Current"));
  if (shown.published !== null && first <= shown.published && shown.published <= last) {
    revisions.append(el("span", "history-tag is-published", "Published"));
  }
  const actions = el("div", "history-actions");
  if (last !== shown.revision) actions.append(restoreButton("Restore this version", last));
  actions.append(restoreButton("Restore to before this", first - 1));
  item.append(who, revisions, actions);
  return item;
}

/** A node as the list names it: its first words in quotes (from the draft), else its id. */
function shortName(id) {
  const { words } = shown.page ? describeNode(id, [shown.page]) : { words: "" };
  if (!words) return id;
  const cut = words.length > 28 ? `${words.slice(0, 27).trimEnd()}…` : words;
  return `“${cut}”`;
}

function restoreButton(text, revision) {
  const button = el("button", "button button-small button-quiet", text);
  button.type = "button";
  button.dataset.revision = String(revision);
  button.setAttribute("aria-label", `${text}, revision ${revision}`);
  button.addEventListener("click", () => ask("restore", revision, button));
  return button;
}

// Ask first, beside the button pressed: say that it adds a revision and loses nothing.
function ask(kind, revision, button) {
  if (!Number.isInteger(revision)) return;
  asked = { kind, revision, button };
  const box = confirmBox;
  const text = kind === "reset"
    ? `Reset the draft to the published page (revision ${revision})?`
    : revision === 0
      ? "Restore the empty page the draft started from (revision 0)?"
      : `Restore the page as it was at revision ${revision}?`;
  $('[data-role="history-confirm-text"]').textContent =
    `${text} This adds a new revision on top of revision ${shown.revision}; nothing is lost: ` +
    "the current version stays in the history and can be restored.";
  byId("history-confirm-ok").textContent = kind === "reset" ? "Reset" : "Restore";
  (button.closest(".history-group") || $(".history-reset", sheet())).after(box);
  box.hidden = false;
  byId("history-confirm-ok").focus();
}

function cancelAsk(focusBack) {
  const box = confirmBox;
  box.hidden = true;
  $(".history-reset", sheet()).after(box);
  const button = asked && asked.button;
  asked = null;
  if (focusBack && button && button.isConnected) button.focus();
}

async function confirmAsked() {
  const chosen = asked;
  const id = state.sessionId;
  if (!chosen || id === null) return;
  cancelAsk(true);
  const ok = byId("history-confirm-ok");
  ok.disabled = true;
  tell("");
  const based = shown.revision;
  try {
    const answer = chosen.kind === "reset"
      ? await api("POST", sessionPath(id, "/reset"), { basedOn: based })
      : await api("POST", sessionPath(id, "/restore"), { revision: chosen.revision, basedOn: based });
    if (state.sessionId !== id) return;
    const done = chosen.kind === "reset" ? "Reset to the published page" : `Restored revision ${chosen.revision}`;
    tell(answer.applied === 0 ? "The draft already is that page; nothing changed." : `${done}: the draft is now revision ${answer.revision}.`);
  } catch (error) {
    if (state.sessionId !== id) return;
    if (!(error instanceof ApiError)) {
      report(error);
      return;
    }
    tell(refusal(error, chosen), error.code);
  } finally {
    ok.disabled = false;
    refocus = true;
    refreshHistory(0);
  }
}

function refusal(error, chosen) {
  const body = error.body || {};
  if (error.code === "stale_revision") {
    const now = Number.isInteger(body.revision) ? ` (it is now at revision ${body.revision})` : "";
    return `Nothing changed: the page changed meanwhile${now}. The list is read again; look at it, then choose again.`;
  }
  if (error.code === "history_truncated") return `Nothing changed: revision ${chosen.revision} is further back than the kept history reaches.`;
  if (error.code === "not_found" && body.field === "published") return "Nothing changed: nothing is published yet, so there is no published page to reset to.";
  if (error.code === "invalid_request") return `Nothing changed: there is no revision ${chosen.revision} to restore.`;
  if (error.code === "conflicted") return "Nothing changed: the older page could not be put back over later edits.";
  return `Nothing changed: ${codeText(error.code)}.`;
}
