// The layout and the toolbar: at 768 px and below the chat and the page are
// two tabs (the composer and Publish stay on screen in both); the status
// pill, the revision badge and the Send/Stop buttons follow the session.

import { api, sessionPath } from "./api.js";
import { pauseAgentText } from "./chat.js";
import { $, $$, BUSY_STATUSES, byId, report, state } from "./dom.js";

// Matches the stylesheet's breakpoint: at this width and below, one panel at a time.
const NARROW = window.matchMedia("(max-width: 768px)");

export function builder() {
  return $('[data-view="builder"]');
}

/** Show one panel ("chat" or "page"); on a wide screen both are shown anyway. */
export function selectPanel(name, { focus = false } = {}) {
  builder().dataset.panel = name;
  for (const tab of $$("[data-panel-tab]")) {
    const selected = tab.dataset.panelTab === name;
    tab.setAttribute("aria-selected", String(selected));
    tab.tabIndex = selected ? 0 : -1;
    if (selected && focus) tab.focus();
  }
  if (name === "chat") $('[data-role="chat-unread"]').hidden = true;
}

/** A row was added to the chat: mark the Chat tab while the page panel is in front. */
export function noteUnread() {
  if (NARROW.matches && builder().dataset.panel !== "chat") $('[data-role="chat-unread"]').hidden = false;
}

export function wirePanels() {
  const tabs = $$("[data-panel-tab]");
  for (const tab of tabs) {
    tab.addEventListener("click", () => selectPanel(tab.dataset.panelTab));
    // The tab list's keys: arrows move between tabs, Home/End to the ends.
    tab.addEventListener("keydown", (event) => {
      const index = tabs.indexOf(tab);
      const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 }[event.key];
      if (next === undefined) return;
      event.preventDefault();
      const target = tabs[(next + tabs.length) % tabs.length];
      selectPanel(target.dataset.panelTab, { focus: true });
    });
  }
}

export function setStatus(status) {
  state.status = status;
  const pill = byId("status");
  pill.dataset.status = status;
  pill.textContent = status;
  const busy = BUSY_STATUSES.has(status);
  // While a turn runs no turn can be undone: the stylesheet hides the Undo buttons.
  builder().dataset.busy = String(busy);
  const stop = byId("stop-button");
  stop.hidden = !busy;
  stop.disabled = status === "stopping";
  stop.textContent = status === "stopping" ? "Stopping…" : "Stop";
  updateSendButton();
  if (!busy) pauseAgentText();
}

export function updateSendButton() {
  const busy = BUSY_STATUSES.has(state.status);
  byId("send-button").disabled = busy || state.sending;
  byId("chat-input").placeholder = busy ? "The builder is working… you can type your next message" : "Ask for a change…";
}

export function setRevision(revision) {
  const badge = byId("revision");
  // The store holds the draft's revision; the badge only shows it (and bumps when it moves).
  const changed = badge.textContent !== String(revision);
  badge.textContent = String(revision);
  badge.parentElement.dataset.revision = String(revision);
  if (changed && revision > 0) {
    const holder = badge.parentElement;
    holder.classList.add("is-bumped");
    setTimeout(() => holder.classList.remove("is-bumped"), 600);
  }
}

const STATUS_DELAY_MS = 120;
let statusTimer = 0;

/** What GET sessions/{id} answered: the title, the status, the revision. */
export function applySession(session) {
  if (!session || typeof session !== "object") return;
  state.session = { ...(state.session || {}), ...session };
  const page = typeof state.session.page === "string" ? state.session.page : "";
  $('[data-role="session-page"]').textContent = page;
  $('[data-role="session-title"]').hidden = !page;
  document.title = page ? `${page} · charlotte` : "charlotte · page builder";
  if (typeof session.status === "string") setStatus(session.status);
  if (Number.isInteger(session.revision)) setRevision(session.revision);
}

/** Read the session again shortly (several events in a row cost one request). */
export function scheduleStatus(onError = report) {
  clearTimeout(statusTimer);
  const id = state.sessionId;
  statusTimer = setTimeout(async () => {
    try {
      const answer = await api("GET", sessionPath(id));
      if (state.sessionId === id) applySession(answer.session);
    } catch (error) {
      if (state.sessionId === id) onError(error);
    }
  }, STATUS_DELAY_MS);
}

export function cancelStatus() {
  clearTimeout(statusTimer);
}
