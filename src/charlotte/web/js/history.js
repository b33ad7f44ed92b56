// History: the draft's revisions, newest first, grouped by turn and by person,
// a person's steps listed inside (GET /history, "Show older" pages back), in a side sheet beside the page
// (a non-modal <dialog>: the preview, Send and Publish stay in reach). Each
// group can be restored (POST /restore), and the draft reset to the published
// page (POST /reset); both ask first, and both add a revision: nothing is lost.

import { ApiError, api, codeText, sessionPath } from "./api.js";
import { $, byId, el, report, state } from "./dom.js";
import { ownWrite, rememberOwnWrite } from "./edits.js";
import { describeGroup, doneText, historyPage, question, refusalText, resetState } from "./history_groups.js";

const PAGE_SIZE = 20;
const REFRESH_DELAY_MS = 200;

const sheet = () => byId("history-sheet");
// Moved beside the button that asked; its home is under "Reset to published".
const confirmBox = () => byId("history-confirm");
let shown = fresh(null);
let asked = null; // the confirmation waiting: { kind: "restore" | "reset", revision, button }
let timer = 0;
let refocus = false; // after a restore the list is drawn again: focus goes to its title
let requests = 0; // each read of the list; an answer to an older one is dropped
const openSteps = new Set(); // the first revisions of the groups whose steps were opened by hand

function fresh(id) {
  return { id, revision: null, published: null, groups: [], nextBefore: null, request: -1 };
}

export function wireHistory() {
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
  openSteps.clear();
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
  const read = historyPage(answer);
  // The same first page read again (a refresh after the page's own write and its stream
  // event): nothing to draw, and a question the person has just opened stays open.
  const same = shown.id === id && shown.revision === read.revision && shown.published === read.published
    && shown.nextBefore === read.nextBefore && JSON.stringify(shown.groups) === JSON.stringify(read.groups);
  if (same) return;
  // A newer list replaces what was read, older pages included (they may have merged).
  shown = { ...fresh(id), request, revision: read.revision, published: read.published };
  take(read);
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
    if (request === shown.request && state.sessionId === id) take(historyPage(answer), { older: true });
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

function take(read, { older = false } = {}) {
  shown.groups = older ? [...shown.groups, ...read.groups] : read.groups;
  shown.nextBefore = read.nextBefore;
  render();
}

function render() {
  const list = byId("history-groups");
  // The list is drawn anew under a question still open: park the box at home while it is.
  const open = asked && { ...asked, focused: confirmBox().contains(document.activeElement) };
  if (open) cancelAsk(false);
  // Each group names its nodes with their words as they were then (the server reads them from the op history).
  const context = { revision: shown.revision, published: shown.published, now: Date.now() };
  list.replaceChildren(...shown.groups.map((group) => groupItem(describeGroup(group, context))));
  if (shown.groups.length === 0) list.append(el("li", "history-empty muted", "No changes yet: the draft is empty."));
  byId("history-older").hidden = shown.nextBefore === null;
  if (open) askAgain(open);
  if (refocus && !sheet().contains(document.activeElement)) $("#history-title").focus();
  refocus = false;
  const reset = byId("history-reset");
  const { disabled, why } = resetState(shown.published, shown.revision);
  reset.disabled = disabled;
  $('[data-role="history-reset-why"]').textContent = why;
}

function groupItem(group) {
  const item = el("li", "history-group");
  item.dataset.kind = group.kind;
  item.dataset.first = String(group.first);
  item.dataset.last = String(group.last);
  const who = el("p", "history-what");
  who.append(el("span", "history-who", group.who), ` · ${group.details}`);
  if (group.at) who.title = new Date(group.at).toLocaleString();
  const revisions = el("p", "history-revisions muted", group.revisions);
  if (group.current) revisions.append(el("span", "history-tag", "Current"));
  if (group.published) revisions.append(el("span", "history-tag is-published", "Published"));
  item.append(who, revisions, actionsOf(group.restores));
  if (group.steps.length) item.append(stepList(group));
  return item;
}

function actionsOf(restores) {
  const actions = el("div", "history-actions");
  actions.append(...restores.map(({ text, revision }) => restoreButton(text, revision)));
  return actions;
}

// A person's steps, newest first: each write (a restore and a reset too) and the version before it.
function stepList(group) {
  const box = el("details", "history-steps");
  // The group whose step the draft is at is the one a person is working in: its steps show;
  // a list opened by hand stays open when the list is drawn again.
  box.open = group.steps.some((step) => step.current) || openSteps.has(group.first);
  box.addEventListener("toggle", () => (box.open ? openSteps.add(group.first) : openSteps.delete(group.first)));
  box.append(el("summary", "history-steps-summary", `${group.steps.length} steps`));
  const list = el("ol", "history-step-list");
  for (const step of group.steps) {
    const item = el("li", "history-step");
    item.dataset.first = String(step.first);
    item.dataset.last = String(step.last);
    const what = el("p", "history-what");
    what.append(el("span", "history-step-what", step.what), ` · ${step.details}`);
    const revisions = el("p", "history-revisions muted", step.revisions);
    if (step.current) revisions.append(el("span", "history-tag", "Current"));
    if (step.published) revisions.append(el("span", "history-tag is-published", "Published"));
    item.append(what, revisions, actionsOf(step.restores));
    list.append(item);
  }
  box.append(list);
  return box;
}

function restoreButton(text, revision) {
  const button = el("button", "button button-small button-quiet", text);
  button.type = "button";
  button.dataset.revision = String(revision);
  button.setAttribute("aria-label", `${text}, revision ${revision}`);
  button.addEventListener("click", () => ask("restore", revision, button));
  return button;
}

// A question open while the list was drawn again stays open when what it asks still means
// the same page (a revision is never rewritten; a reset asks for the published revision it
// named), its words saying the draft's revision now; otherwise it is withdrawn, and said so.
function askAgain(open) {
  const button = open.kind === "reset"
    ? (shown.published === open.revision ? byId("history-reset") : null)
    : byId("history-groups").querySelector(`button[data-revision="${open.revision}"]`);
  if (button && !button.disabled) {
    ask(open.kind, open.revision, button, { focus: open.focused });
    return;
  }
  tell("The history changed meanwhile; choose again.");
}

// Ask first, beside the button pressed: say that it adds a revision and loses nothing.
function ask(kind, revision, button, { focus = true } = {}) {
  if (!Number.isInteger(revision)) return;
  asked = { kind, revision, button };
  const box = confirmBox();
  const said = question(kind, revision, shown.revision);
  $('[data-role="history-confirm-text"]').textContent = said.text;
  byId("history-confirm-ok").textContent = said.button;
  (button.closest(".history-step, .history-group") || $(".history-reset", sheet())).after(box);
  box.hidden = false;
  if (focus) byId("history-confirm-ok").focus();
}

function cancelAsk(focusBack) {
  const box = confirmBox();
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
    // The page's own write: its page.changed adds no "edited the draft" note to the chat.
    const answer = await ownWrite(chosen.kind === "reset"
      ? api("POST", sessionPath(id, "/reset"), { basedOn: based })
      : api("POST", sessionPath(id, "/restore"), { revision: chosen.revision, basedOn: based }));
    if (state.sessionId !== id) return;
    rememberOwnWrite(answer); // the editor's Undo takes a restore or a reset back, as any step
    // The draft is at the answer's revision now: a next question is based on it, not on the
    // list read before the write (its refresh may still be on the way).
    if (Number.isInteger(answer.revision)) shown.revision = answer.revision;
    tell(doneText(chosen.kind, chosen.revision, answer));
  } catch (error) {
    if (state.sessionId !== id) return;
    if (!(error instanceof ApiError)) {
      report(error);
      return;
    }
    tell(refusalText(error.code, error.body, chosen.revision) || `Nothing changed: ${codeText(error.code)}.`, error.code);
  } finally {
    ok.disabled = false;
    refocus = true;
    refreshHistory(0);
  }
}
