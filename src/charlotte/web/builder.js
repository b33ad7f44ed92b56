// The charlotte builder page: start a session, chat with the builder, watch
// the draft change, review change sets, publish. Plain DOM, native modules
// (js/), no framework, no build. This module starts the page: the views, the
// session's life, what each stream event does, and the wiring.
//
// Everything shown that comes from the server (page copy, agent text, codes,
// ids) is set with textContent; the rendered page goes only into a sandboxed
// iframe (no scripts), so neither its markup nor its styles reach this page.

import { ApiError, api, codeText, sessionPath } from "./js/api.js";
import * as chat from "./js/chat.js";
import { $, $$, BUSY_STATUSES, byId, clearError, plural, report, resetState, state } from "./js/dom.js";
import { closeHistory, refreshHistory, wireHistory } from "./js/history.js";
import { store } from "./js/draft.js";
import { closeEditor, openEditor, wireEditing } from "./js/editing.js";
import { wroteRevision } from "./js/edits.js";
import * as panels from "./js/panels.js";
import { DEVICES, cancelPreview, resetPreview, schedulePreview, setDevice, setViewMode } from "./js/preview.js";
import { closePublish, wirePublish } from "./js/publish.js";
import { resetSettings, wireSettings } from "./js/settings.js";
import { cancelChangeSet, resetChangeSet, resolveChangeSet, scheduleChangeSet, wireReview } from "./js/review.js";
import { cancelSessionList, refreshSessionList, wireSessionList } from "./js/sessions.js";
import { addFactRow, startSession } from "./js/start.js";
import { follow, reconnectNow, unfollow } from "./js/stream.js";

const FIRST_MESSAGE = "Build the first draft of the page from the brief.";
// The newest turns of the conversation (GET /messages, oldest first) in the chat log.
const CONVERSATION_TURNS = 50;

// ------------------------------------------------------------------ views

function showStart() {
  closeSession();
  $('[data-view="builder"]').hidden = true;
  $('[data-view="start"]').hidden = false;
  $('[data-role="session-title"]').hidden = true;
  $('[data-role="new-session"]').hidden = true;
  $('[data-role="publish"]').hidden = true;
  document.title = "charlotte · page builder";
  byId("start-brief").focus();
  refreshSessionList(resumeSession);
}

function showBuilder() {
  cancelSessionList();
  $('[data-view="start"]').hidden = true;
  $('[data-view="builder"]').hidden = false;
  $('[data-role="new-session"]').hidden = false;
  $('[data-role="publish"]').hidden = false;
}

/** Resume: open an earlier session of the page as a new one is opened. */
function resumeSession(id) {
  clearError();
  history.pushState(null, "", `#session=${encodeURIComponent(id)}`);
  enterSession(id, null);
}

function sessionFromHash() {
  const match = /^#session=([^&]+)$/.exec(location.hash);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

function route() {
  const id = sessionFromHash();
  if (id === null) {
    if (state.sessionId !== null || $('[data-view="start"]').hidden) showStart();
    return;
  }
  if (id !== state.sessionId) enterSession(id, null);
}

// ------------------------------------------------------------------ session lifecycle

function closeSession() {
  unfollow();
  cancelPreview();
  cancelChangeSet();
  panels.cancelStatus();
  closePublish();
  closeHistory();
  resetSettings();
  closeEditor();
  store.reset();
  resetState();
}

async function enterSession(id, session) {
  closeSession();
  state.sessionId = id;
  resetBuilder();
  showBuilder();
  if (session === null) {
    try {
      session = (await api("GET", sessionPath(id))).session;
    } catch (error) {
      if (state.sessionId !== id) return;
      report(error);
      history.replaceState(null, "", location.pathname + location.search);
      showStart();
      return;
    }
    if (state.sessionId !== id) return;
  }
  panels.applySession(session);
  // The conversation so far first; the stream then follows from where it ends.
  await loadConversation(id);
  if (state.sessionId !== id) return;
  chat.renderIntro(state.session, () => sendMessage(FIRST_MESSAGE));
  // The page's one read of the draft: the stream's page.changed keeps it current from here.
  store.refresh().catch((error) => {
    if (state.sessionId === id) report(error);
  });
  // An outside agent's writes wait in a change set whatever the session's setting.
  if (state.session.approve_on_save || state.session.change_set_open) scheduleChangeSet(0);
  follow(id, { onEvent: handleEvent, onLost: checkSession, onReconnect: catchUp });
  openEditor(id);
  byId("chat-input").focus();
}

async function loadConversation(id) {
  let answer;
  try {
    answer = await api("GET", sessionPath(id, `/messages?limit=${CONVERSATION_TURNS}`));
  } catch (error) {
    // Without it the stream replays the whole log instead: the chat still fills in.
    if (state.sessionId === id) console.warn("the conversation could not be loaded", error);
    return;
  }
  if (state.sessionId !== id || !answer || !Array.isArray(answer.turns)) return;
  if (answer.next_before !== null && answer.turns.length > 0) chat.addNote("Earlier messages are not shown");
  for (const turn of answer.turns) {
    if (!turn || typeof turn !== "object") continue;
    chat.renderPastTurn(turn);
    if (Number.isInteger(turn.seq) && turn.seq > state.lastSeq) state.lastSeq = turn.seq;
  }
}

function resetBuilder() {
  chat.resetChat(panels.noteUnread);
  byId("chat-input").value = "";
  resetChangeSet();
  panels.setRevision(0);
  panels.setStatus("idle");
  panels.selectPanel("chat");
  resetPreview();
}

// The stream dropped: a session that is gone or no longer ours is said in the
// error bar; a server that cannot be reached is the stream banner's to say.
function checkSession() {
  panels.scheduleStatus((error) => {
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) report(error);
  });
}

// The stream is back (what was missed has been replayed, the page's changes
// too: the store applies them or reads the draft): read the rest anew.
function catchUp() {
  panels.scheduleStatus();
  if (state.session && (state.session.approve_on_save || state.session.change_set_open)) scheduleChangeSet(0);
}

// ------------------------------------------------------------------ events

/** Show one session event: chat rows, toolbar state, preview and change-set refreshes. */
export function handleEvent(type, event) {
  const payload = event.payload && typeof event.payload === "object" ? event.payload : {};
  const approving = Boolean(state.session && state.session.approve_on_save);
  // An outside agent (MCP) writes as "agent:<client>": the chat names it.
  const outside = typeof event.actor === "string" && event.actor.startsWith("agent:") ? event.actor.slice(6) : null;
  switch (type) {
    case "turn.queued":
      chat.addUserMessage(typeof payload.message === "string" ? payload.message : "");
      panels.setStatus("queued");
      panels.scheduleStatus();
      break;
    case "turn.started":
      state.turnWrote = false;
      panels.setStatus("running");
      panels.scheduleStatus();
      break;
    case "run.started":
      if (Number.isInteger(payload.run) && payload.run > 1) chat.addNote("Continuing where the last reply stopped…");
      break;
    case "text.delta":
      chat.appendAgentText(payload.text);
      break;
    case "tool.called":
      chat.addToolCall(payload, outside);
      break;
    case "tool.result":
      chat.addToolResult(payload);
      break;
    case "page.changed":
      if (event.actor === "agent") state.turnWrote = true;
      else if (!outside) noteOthersEdit(event, payload);
      store.changed(payload);
      if (approving || outside) scheduleChangeSet();
      refreshHistory();
      break;
    case "run.failed":
      chat.settleTools("failed");
      chat.addNote(`The turn failed: ${codeText(payload.code)}.`, "bad").dataset.code = String(payload.code || "");
      panels.scheduleStatus();
      break;
    case "turn.finished":
      chat.settleTools("stopped");
      chat.addNote(payload.ready ? "Done · the page is ready for review" : "Done", payload.ready ? "ok" : "");
      // A turn that wrote nothing has nothing to undo.
      if (state.turnWrote) chat.addUndo(payload.turn_id);
      panels.setStatus("idle");
      panels.scheduleStatus();
      break;
    case "turn.stopped":
      chat.settleTools("stopped");
      chat.addNote("Stopped", "warn");
      panels.setStatus("idle");
      panels.scheduleStatus();
      break;
    case "proposal.opened":
      chat.addNote(
        outside ? `${outside} (an outside agent) is writing: its changes are collected for your approval` : "The builder's changes are collected for your approval",
        "accent",
      ).dataset.actor = outside || "agent";
      scheduleChangeSet();
      break;
    case "proposal.approved":
    case "proposal.rejected":
    case "proposal.conflicted":
      chat.addNote(...proposalNote(type, payload));
      scheduleChangeSet();
      break;
    case "page.published":
      if (Number.isInteger(payload.revision)) state.published = payload.revision;
      chat.addNote(`Published revision ${payload.revision}`, "ok");
      if (state.viewMode === "published") schedulePreview();
      refreshHistory();
      break;
    default:
      // session.opened: the chat's introduction shows the brief and the mode.
      break;
  }
}

/** A person's write: a note in the chat unless it is this page's own (its edits are in the preview already). */
function noteOthersEdit(event, payload) {
  const session = state.sessionId;
  wroteRevision(payload.revision).then((own) => {
    if (!own && session === state.sessionId) chat.addNote(`${event.actor || "Someone"} edited the draft · revision ${payload.revision}`);
  });
}

function proposalNote(type, payload) {
  if (type === "proposal.approved") return [`Approved ${plural(payload.ops, "edit")} · revision ${payload.revision}`, "ok"];
  if (type === "proposal.rejected") return [`Rejected ${plural(payload.ops, "edit")}`, "warn"];
  return [`Changes not applied: ${codeText(payload.code)}`, "bad"];
}

// ------------------------------------------------------------------ actions

async function sendMessage(text) {
  const id = state.sessionId;
  const message = text.trim();
  if (!id || !message || state.sending || BUSY_STATUSES.has(state.status)) return;
  state.sending = true;
  panels.updateSendButton();
  const seqBefore = state.lastSeq;
  try {
    const answer = await api("POST", sessionPath(id, "/turns"), { message });
    if (state.sessionId !== id) return;
    clearError();
    const input = byId("chat-input");
    if (input.value.trim() === message) input.value = "";
    const turnStatus = answer.turn && answer.turn.status;
    // Only move forward: the stream may already have reported the turn running or done.
    if ((turnStatus === "queued" || turnStatus === "running") && state.lastSeq === seqBefore) {
      panels.setStatus(turnStatus);
    }
    panels.scheduleStatus();
  } catch (error) {
    report(error);
  } finally {
    state.sending = false;
    panels.updateSendButton();
  }
}

async function stopTurn() {
  const id = state.sessionId;
  const button = byId("stop-button");
  button.disabled = true;
  try {
    const answer = await api("POST", sessionPath(id, "/stop"));
    if (state.sessionId === id && typeof answer.status === "string") panels.setStatus(answer.status);
  } catch (error) {
    report(error);
    button.disabled = false;
  } finally {
    panels.scheduleStatus();
  }
}

// ------------------------------------------------------------------ wiring

function wire() {
  $('[data-role="start-form"]').addEventListener("submit", (event) => startSession(event, enterSession));
  $('[data-action="add-fact"]').addEventListener("click", () => addFactRow());
  wireSessionList(resumeSession);
  $('[data-action="dismiss-error"]').addEventListener("click", clearError);
  $('[data-action="reconnect"]').addEventListener("click", reconnectNow);
  for (const link of $$('[data-action="new-session"]')) {
    link.addEventListener("click", (event) => {
      event.preventDefault();
      clearError();
      history.pushState(null, "", location.pathname + location.search);
      showStart();
    });
  }
  const input = byId("chat-input");
  $('[data-role="composer"]').addEventListener("submit", (event) => {
    event.preventDefault();
    sendMessage(input.value);
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      sendMessage(input.value);
    }
  });
  byId("stop-button").addEventListener("click", stopTurn);
  byId("approve-button").addEventListener("click", () => resolveChangeSet("approve"));
  byId("reject-button").addEventListener("click", () => resolveChangeSet("reject"));
  for (const button of $$("[data-view-mode]")) {
    button.addEventListener("click", () => {
      const mode = button.dataset.viewMode;
      // The published button is a toggle: pressing it again goes back to the draft.
      setViewMode(mode === state.viewMode && mode !== "draft" ? "draft" : mode);
    });
  }
  for (const button of $$("button[data-device]")) {
    button.addEventListener("click", () => setDevice(button.dataset.device));
  }
  chat.watchScroll();
  panels.wirePanels();
  wirePublish();
  wireReview();
  wireHistory();
  wireSettings();
  wireEditing();
  // On a phone the preview starts as a phone shows the page, whole, not a desktop at a quarter of its size.
  if (window.matchMedia(`(max-width: ${DEVICES.tablet - 1}px)`).matches) setDevice("phone");
  // The revision badge is the draft's (an approve-on-save turn writes the working copy).
  store.subscribe((change) => {
    if (change.copy === "draft" && Number.isInteger(change.revision)) panels.setRevision(change.revision);
  });
  window.addEventListener("hashchange", route);
  window.addEventListener("popstate", route);
}

wire();
route();
