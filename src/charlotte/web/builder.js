// The charlotte builder page: start a session, chat with the builder, watch the
// draft change, review change sets, publish. Plain DOM, no framework, no build.
//
// Everything shown that comes from the server (page copy, agent text, codes,
// ids) is set with textContent; the rendered page goes only into a sandboxed
// iframe (no scripts), so neither its markup nor its styles reach this page.

// Every event type of the session log (charlotte.events.EventTypes.ALL). An
// EventSource hands `event:`-named messages only to listeners of that name.
export const EVENT_TYPES = Object.freeze([
  "session.opened",
  "turn.queued",
  "turn.started",
  "run.started",
  "text.delta",
  "tool.called",
  "tool.result",
  "page.changed",
  "run.finished",
  "run.failed",
  "turn.finished",
  "turn.stopped",
  "proposal.opened",
  "proposal.approved",
  "proposal.rejected",
  "proposal.conflicted",
  "page.published",
  "human.edited",
  "usage.observed",
]);

const BUSY_STATUSES = new Set(["queued", "running", "stopping"]);
const REFRESH_DELAY_MS = 150;
const STATUS_DELAY_MS = 120;
const FIRST_MESSAGE = "Build the first draft of the page from the brief.";

const TOOL_LABELS = {
  cms_apply: "Edited the page",
  cms_get: "Read page nodes",
  cms_outline: "Read the page outline",
  cms_find: "Searched the page",
  cms_check: "Checked the page",
  cms_ready: "Marked the page ready",
  cms_types: "Looked up node types",
  cms_facts: "Read the facts",
  cms_changes_since: "Read recent changes",
};

// Plain words for the codes people meet most; any other code is shown as is.
const CODE_TEXT = {
  checks_failing: "the page checks found problems",
  stale_revision: "the page changed meanwhile",
  invalid_arguments: "the request was malformed",
  output_limit: "the reply grew too long",
  worker_lost: "the worker running it stopped",
  queue_lost: "the queue lost the turn before it started",
  model_timeout: "the model stopped answering",
  // The one failure a person can fix by hand: say which setting holds the key.
  model_auth_failed:
    "the model provider refused its API key. Set model_api_key in charlotte's settings " +
    "(or OPENAI_API_KEY / ANTHROPIC_API_KEY where charlotte runs) to a valid key, then restart",
  model_key_missing: "the model provider has no API key (set model_api_key in charlotte's settings)",
  model_rate_limited: "the model provider is rate limiting requests; try again in a little while",
  model_unavailable: "the model provider could not be reached; try again later",
  model_rejected: "the model provider refused the request (check the model name and base URL)",
  turn_timeout: "the turn ran out of time",
  cross_site: "the request came from another site",
  guide_mode_stale: "the builder guide changed since the session opened",
  run_failed: "the model run failed",
  node_not_found: "a node it named does not exist",
};

// The rules a standalone page starts from (charlotte.page.render.BASE_CSS),
// served by the adapter as page-base.css, so the preview looks exactly like
// the published page. The page's own stylesheet comes later and wins.
const PAGE_BASE_CSS = "page-base.css";

// ------------------------------------------------------------------ API

/** An error answer of the API: its stable code and the sentence to show. */
export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.status = status;
  }
}

function endpoint(path) {
  // Relative to the page, so a host may mount the builder under a prefix.
  return new URL(path, document.baseURI).toString();
}

function sessionPath(id, rest = "") {
  return `sessions/${encodeURIComponent(id)}${rest}`;
}

// A host that checks its own CSRF token (the Django app) puts it in
// <meta name="charlotte-csrf" content="…" data-header="X-CSRFToken">;
// every write sends it back in that header.
function addCsrfHeader(headers) {
  const meta = document.querySelector('meta[name="charlotte-csrf"]');
  if (meta && meta.content && meta.dataset.header) headers[meta.dataset.header] = meta.content;
}

/** One JSON request; resolves to the body, rejects with an ApiError. */
export async function api(method, path, body) {
  const init = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  // Every POST says it is JSON, bodiless ones too: the server refuses any
  // other write (another site's page could send those without asking).
  if (body !== undefined || method !== "GET") init.headers["Content-Type"] = "application/json";
  if (method !== "GET") addCsrfHeader(init.headers);
  if (body !== undefined) init.body = JSON.stringify(body);
  let response;
  try {
    response = await fetch(endpoint(path), init);
  } catch {
    throw new ApiError("network", "Could not reach the server. Check the connection and try again.", 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = data && typeof data === "object" ? data.error : null;
    const code = error && typeof error.code === "string" ? error.code : `http_${response.status}`;
    const message =
      error && typeof error.message === "string" && error.message
        ? error.message
        : `The server answered with status ${response.status}.`;
    throw new ApiError(code, message, response.status);
  }
  return data;
}

// ------------------------------------------------------------------ DOM helpers

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));
const byTestId = (id) => $(`[data-testid="${id}"]`);

/** An element with a class and text (set as text, never parsed as HTML). */
function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function codeText(code) {
  if (typeof code !== "string" || !code) return "something went wrong";
  return CODE_TEXT[code] || code.replaceAll("_", " ");
}

// ------------------------------------------------------------------ state

const state = {
  sessionId: null,
  session: null,
  status: "idle",
  revision: 0,
  lastSeq: 0,
  source: null,
  reconnectTimer: 0,
  reconnectDelay: 1000,
  viewMode: "draft",
  changeSet: null,
  currentText: null,
  tools: new Map(),
  pinned: true,
  sending: false,
  previewTimer: 0,
  previewRequest: 0,
  previewKey: "",
  changeSetTimer: 0,
  changeSetRequest: 0,
  statusTimer: 0,
};

// ------------------------------------------------------------------ errors

function showError(message) {
  const banner = byTestId("error-banner");
  $('[data-role="error-text"]', banner).textContent = message;
  banner.hidden = false;
}

function clearError() {
  byTestId("error-banner").hidden = true;
}

function report(error) {
  if (error instanceof ApiError) {
    showError(error.message);
  } else {
    showError("Something went wrong in the page. Reload to continue.");
    console.error(error);
  }
}

// Runs `work` with `buttons` disabled and `pressed` marked busy; a failure shows in the error bar.
async function whileBusy(pressed, work, buttons = [pressed]) {
  for (const button of buttons) button.disabled = true;
  pressed.classList.add("is-busy");
  try {
    await work();
  } catch (error) {
    report(error);
  } finally {
    for (const button of buttons) button.disabled = false;
    pressed.classList.remove("is-busy");
  }
}

// ------------------------------------------------------------------ views

function showStart() {
  closeSession();
  $('[data-view="builder"]').hidden = true;
  $('[data-view="start"]').hidden = false;
  $('[data-role="session-title"]').hidden = true;
  $('[data-role="new-session"]').hidden = true;
  document.title = "charlotte · page builder";
  byTestId("start-brief").focus();
}

function showBuilder() {
  $('[data-view="start"]').hidden = true;
  $('[data-view="builder"]').hidden = false;
  $('[data-role="new-session"]').hidden = false;
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

// ------------------------------------------------------------------ start form

function addFactRow(key = "", value = "") {
  const row = el("div", "fact-row");
  const keyInput = el("input");
  keyInput.type = "text";
  keyInput.placeholder = "Name, e.g. phone";
  keyInput.maxLength = 200;
  keyInput.value = key;
  keyInput.setAttribute("aria-label", "Fact name");
  keyInput.dataset.role = "fact-key";
  const valueInput = el("input");
  valueInput.type = "text";
  valueInput.placeholder = "Value, e.g. +1 555 0100";
  valueInput.maxLength = 20000;
  valueInput.value = value;
  valueInput.setAttribute("aria-label", "Fact value");
  valueInput.dataset.role = "fact-value";
  const remove = el("button", "fact-remove", "×");
  remove.type = "button";
  remove.setAttribute("aria-label", "Remove this fact");
  remove.addEventListener("click", () => row.remove());
  row.append(keyInput, valueInput, remove);
  $('[data-role="facts-rows"]').append(row);
  keyInput.focus();
}

function readFacts() {
  const facts = {};
  for (const row of $$(".fact-row")) {
    const key = $('[data-role="fact-key"]', row).value.trim();
    const value = $('[data-role="fact-value"]', row).value.trim();
    if (key) facts[key] = value;
  }
  return facts;
}

async function startSession(event) {
  event.preventDefault();
  const page = byTestId("start-page").value.trim();
  const brief = byTestId("start-brief").value.trim();
  if (!page || !brief) {
    showError(page ? "Write a brief: what should the page be about?" : "Give the page a key, for example “home”.");
    (page ? byTestId("start-brief") : byTestId("start-page")).focus();
    return;
  }
  const body = { page, brief, approve_on_save: byTestId("start-approve").checked };
  const facts = readFacts();
  if (Object.keys(facts).length > 0) body.facts = facts;
  await whileBusy(byTestId("start-button"), async () => {
    const answer = await api("POST", "sessions", body);
    clearError();
    const session = answer.session;
    history.pushState(null, "", `#session=${encodeURIComponent(session.id)}`);
    await enterSession(session.id, session);
  });
}

// ------------------------------------------------------------------ session lifecycle

function closeSession() {
  if (state.source) state.source.close();
  clearTimeout(state.reconnectTimer);
  clearTimeout(state.previewTimer);
  clearTimeout(state.changeSetTimer);
  clearTimeout(state.statusTimer);
  Object.assign(state, {
    sessionId: null,
    session: null,
    status: "idle",
    revision: 0,
    lastSeq: 0,
    source: null,
    reconnectDelay: 1000,
    viewMode: "draft",
    changeSet: null,
    currentText: null,
    tools: new Map(),
    pinned: true,
    sending: false,
    previewKey: "",
  });
  // Answers still in flight for the old session are ignored by these counters.
  state.previewRequest += 1;
  state.changeSetRequest += 1;
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
  applySession(session);
  // The conversation so far first; the stream then follows from where it ends.
  await loadConversation(id);
  if (state.sessionId !== id) return;
  renderChatIntro();
  schedulePreview(0);
  if (state.session.approve_on_save) scheduleChangeSet(0);
  openStream();
  byTestId("chat-input").focus();
}

// The newest turns of the conversation (GET /messages, oldest first) in the chat log.
const CONVERSATION_TURNS = 50;

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
  if (answer.next_before !== null && answer.turns.length > 0) {
    addNote("Earlier messages are not shown");
  }
  for (const turn of answer.turns) {
    if (!turn || typeof turn !== "object") continue;
    renderPastTurn(turn);
    if (Number.isInteger(turn.seq) && turn.seq > state.lastSeq) state.lastSeq = turn.seq;
  }
}

function renderPastTurn(turn) {
  const row = addUserMessage(typeof turn.message === "string" ? turn.message : "");
  row.dataset.turn = String(turn.turn_id || "");
  if (typeof turn.reply === "string" && turn.reply) {
    append(el("div", "message message-agent", turn.reply)).dataset.turn = String(turn.turn_id || "");
  }
  const record = turn.record && typeof turn.record === "object" ? turn.record : {};
  const work = pastWork(record);
  if (turn.status === "finished") {
    const done = record.ready === true ? "Done · the page is ready for review" : "Done";
    addNote(work ? `${done} · ${work}` : done, record.ready === true ? "ok" : "");
  } else if (turn.status === "stopped") {
    addNote(work ? `Stopped · ${work}` : "Stopped", "warn");
  } else {
    addNote(`The turn failed: ${codeText(record.code)}.`, "bad").dataset.code = String(record.code || "");
  }
}

function pastWork(record) {
  const said = [];
  const tools = record.tools && typeof record.tools === "object" ? Object.values(record.tools) : [];
  const calls = tools.filter(Number.isInteger).reduce((sum, count) => sum + count, 0);
  if (calls > 0) said.push(plural(calls, "tool call"));
  if (Number.isInteger(record.nodes_changed) && record.nodes_changed > 0) {
    said.push(`${plural(record.nodes_changed, "node")} changed`);
  }
  if (Number.isInteger(record.revision)) said.push(`revision ${record.revision}`);
  return said.join(" · ");
}

function resetBuilder() {
  byTestId("chat-log").replaceChildren();
  byTestId("chat-input").value = "";
  byTestId("change-set").hidden = true;
  setRevision(0);
  setStatus("idle");
  setViewMode("draft", { load: false });
  showPreviewEmpty(false);
  byTestId("preview-frame").removeAttribute("srcdoc");
}

function applySession(session) {
  if (!session || typeof session !== "object") return;
  state.session = { ...(state.session || {}), ...session };
  const page = typeof state.session.page === "string" ? state.session.page : "";
  $('[data-role="session-page"]').textContent = page;
  $('[data-role="session-title"]').hidden = !page;
  document.title = page ? `${page} · charlotte` : "charlotte · page builder";
  if (typeof session.status === "string") setStatus(session.status);
  if (Number.isInteger(session.revision)) setRevision(session.revision);
}

function scheduleStatus() {
  clearTimeout(state.statusTimer);
  const id = state.sessionId;
  state.statusTimer = setTimeout(async () => {
    try {
      const answer = await api("GET", sessionPath(id));
      if (state.sessionId === id) applySession(answer.session);
    } catch (error) {
      if (state.sessionId === id) report(error);
    }
  }, STATUS_DELAY_MS);
}

// ------------------------------------------------------------------ toolbar

function setStatus(status) {
  state.status = status;
  const pill = byTestId("status");
  pill.dataset.status = status;
  pill.textContent = status;
  const busy = BUSY_STATUSES.has(status);
  const stop = byTestId("stop-button");
  stop.hidden = !busy;
  stop.disabled = status === "stopping";
  stop.textContent = status === "stopping" ? "Stopping…" : "Stop";
  updateSendButton();
  if (!busy) endAgentText();
}

function updateSendButton() {
  const busy = BUSY_STATUSES.has(state.status);
  byTestId("send-button").disabled = busy || state.sending;
  byTestId("chat-input").placeholder = busy ? "The builder is working… you can type your next message" : "Ask for a change…";
}

function setRevision(revision) {
  const badge = byTestId("revision");
  const changed = state.revision !== revision;
  state.revision = revision;
  badge.textContent = String(revision);
  badge.parentElement.dataset.revision = String(revision);
  if (changed && revision > 0) {
    const holder = badge.parentElement;
    holder.classList.add("is-bumped");
    setTimeout(() => holder.classList.remove("is-bumped"), 600);
  }
}

function setViewMode(mode, { load = true } = {}) {
  if (mode === "proposed" && !state.changeSet) mode = "draft";
  state.viewMode = mode;
  for (const button of $$("[data-view-mode]")) {
    button.setAttribute("aria-pressed", String(button.dataset.viewMode === mode));
  }
  const caption = { draft: "Draft", proposed: "Proposed changes", published: "Published" }[mode];
  $('[data-role="preview-caption"]').textContent = caption;
  if (load) schedulePreview(0);
}

// ------------------------------------------------------------------ preview

function schedulePreview(delay = REFRESH_DELAY_MS) {
  clearTimeout(state.previewTimer);
  state.previewTimer = setTimeout(loadPreview, delay);
}

async function loadPreview() {
  const id = state.sessionId;
  if (id === null) return;
  const request = ++state.previewRequest;
  const mode = state.viewMode;
  let html = "";
  let css = "";
  let caption = null;
  let empty = null;
  let shown = null;
  try {
    if (mode === "published") {
      try {
        const published = await api("GET", sessionPath(id, "/published"));
        html = published.html;
        css = published.css;
        caption = `Published · revision ${published.revision}`;
        shown = published.revision;
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 404) throw error;
        empty = ["Not published yet", "Publish the draft to see the live page here."];
      }
    } else if (mode === "proposed" && state.changeSet) {
      html = state.changeSet.html;
      css = state.changeSet.css;
      caption = `Proposed changes · working revision ${state.changeSet.revision}`;
      shown = state.changeSet.revision;
    } else {
      const draft = await api("GET", sessionPath(id, "/draft"));
      html = draft.html;
      css = draft.css;
      if (request === state.previewRequest && Number.isInteger(draft.revision)) setRevision(draft.revision);
      caption = `Draft · revision ${draft.revision}`;
      shown = draft.revision;
    }
  } catch (error) {
    if (request === state.previewRequest && state.sessionId === id) report(error);
    return;
  }
  // A newer request, or another session, has taken over meanwhile.
  if (request !== state.previewRequest || state.sessionId !== id) return;
  if (caption) $('[data-role="preview-caption"]').textContent = caption;
  if (empty === null && !html) {
    empty = mode === "published"
      ? ["The published page is empty", "Publish the draft once it has content."]
      : ["The page is empty", "Send a message and the draft appears here as the builder works."];
  }
  showPreviewEmpty(empty !== null, empty);
  renderFrame(typeof html === "string" ? html : "", typeof css === "string" ? css : "", shown);
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
  const key = `${css}\u0000${html}`;
  if (key === state.previewKey) return;
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

// ------------------------------------------------------------------ change set

function scheduleChangeSet(delay = REFRESH_DELAY_MS) {
  clearTimeout(state.changeSetTimer);
  state.changeSetTimer = setTimeout(loadChangeSet, delay);
}

async function loadChangeSet() {
  const id = state.sessionId;
  if (id === null) return;
  const request = ++state.changeSetRequest;
  let changeSet = null;
  try {
    const answer = await api("GET", sessionPath(id, "/change-set"));
    changeSet = answer && answer.change_set ? answer.change_set : null;
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) {
      if (request === state.changeSetRequest && state.sessionId === id) report(error);
      return;
    }
  }
  if (request !== state.changeSetRequest || state.sessionId !== id) return;
  const previous = state.changeSet;
  state.changeSet = changeSet;
  renderChangeSet(changeSet);
  // A newly opened set is what the person wants to look at: the draft has not moved.
  if (changeSet && (!previous || previous.id !== changeSet.id) && state.viewMode === "draft") {
    setViewMode("proposed");
  } else if (state.viewMode === "proposed") {
    if (changeSet) schedulePreview(0);
    else setViewMode("draft");
  }
}

function renderChangeSet(changeSet) {
  const panel = byTestId("change-set");
  $('[data-view-mode="proposed"]').hidden = !changeSet;
  if (!changeSet) {
    panel.hidden = true;
    panel.removeAttribute("data-change-set-id");
    return;
  }
  panel.hidden = false;
  panel.dataset.changeSetId = String(changeSet.id);
  const diff = changeSet.diff || {};
  const added = Array.isArray(diff.added) ? diff.added : [];
  const removed = Array.isArray(diff.removed) ? diff.removed : [];
  const changed = Array.isArray(diff.changed) ? diff.changed : [];
  const parts = [plural(changeSet.ops, "edit"), `based on revision ${changeSet.base_revision}`];
  if (changeSet.draft_revision !== changeSet.base_revision) {
    parts.push(`the draft is now at revision ${changeSet.draft_revision}`);
  }
  $('[data-role="change-set-summary"]').textContent = parts.join(" · ");

  const rows = [];
  const row = (kind, label, ...content) => {
    const item = el("div", "diff-row");
    item.dataset.kind = kind;
    const tag = el("span", "diff-kind", label);
    tag.dataset.kind = kind;
    const body = el("div", "diff-body");
    body.append(...content);
    item.append(tag, body);
    rows.push(item);
  };
  const chip = (id, keys) => {
    const node = el("span", "diff-node", id);
    node.dataset.node = id;
    if (keys) node.append(el("span", "diff-keys", keys));
    return node;
  };
  if (added.length) row("added", `Added ${added.length}`, ...added.map((id) => chip(id)));
  if (removed.length) row("removed", `Removed ${removed.length}`, ...removed.map((id) => chip(id)));
  for (const change of changed) {
    const keys = [
      ...(change.props || []),
      ...(change.style || []).map((key) => `style ${key}`),
      ...(change.fields || []),
    ];
    row("changed", "Changed", chip(change.id, keys.join(", ")));
  }
  if (diff.meta) row("page", "Page", chip("settings", "title and meta"));
  if (diff.theme) row("page", "Page", chip("theme", "colours and fonts"));
  if (rows.length === 0) rows.push(el("p", "muted", "No differences from the current draft."));
  $('[data-role="diff"]').replaceChildren(...rows);
}

async function resolveChangeSet(action) {
  const id = state.sessionId;
  const buttons = [byTestId("approve-button"), byTestId("reject-button")];
  const pressed = action === "approve" ? buttons[0] : buttons[1];
  await whileBusy(pressed, async () => {
    const answer = await api("POST", sessionPath(id, `/change-set/${action}`));
    const resolution = answer.resolution || {};
    if (resolution.status === "conflicted") {
      showError("These changes no longer fit the draft, which was edited meanwhile, so they were not applied.");
    }
  }, buttons);
  if (state.sessionId === id) {
    scheduleChangeSet(0);
    schedulePreview(0);
    scheduleStatus();
  }
}

// ------------------------------------------------------------------ chat log

function chatLog() {
  return byTestId("chat-log");
}

function append(node) {
  const log = chatLog();
  $(".chat-empty", log)?.remove();
  log.append(node);
  if (state.pinned) log.scrollTop = log.scrollHeight;
  return node;
}

function renderChatIntro() {
  const log = chatLog();
  if (log.childElementCount > 0) return;
  const intro = el("div", "chat-empty");
  intro.append(el("p", "chat-empty-title", "What should the builder do first?"));
  const brief = state.session && typeof state.session.brief === "string" ? state.session.brief : "";
  if (brief) intro.append(el("p", "chat-brief", brief));
  intro.append(
    el(
      "p",
      "muted chat-mode",
      state.session && state.session.approve_on_save
        ? "The builder's changes wait for your approval before they reach the draft."
        : "The builder's changes go straight to the draft; nothing is live until you publish.",
    ),
  );
  const suggestion = el("button", "suggestion", "Build the first draft from the brief");
  suggestion.type = "button";
  suggestion.addEventListener("click", () => sendMessage(FIRST_MESSAGE));
  intro.append(suggestion);
  log.append(intro);
}

function addUserMessage(text) {
  endAgentText();
  return append(el("div", "message message-user", text));
}

function appendAgentText(text) {
  if (typeof text !== "string" || !text) return;
  if (!state.currentText) {
    state.currentText = append(el("div", "message message-agent is-streaming"));
  }
  state.currentText.append(document.createTextNode(text));
  const log = chatLog();
  if (state.pinned) log.scrollTop = log.scrollHeight;
}

function endAgentText() {
  if (state.currentText) state.currentText.classList.remove("is-streaming");
  state.currentText = null;
}

function addNote(text, tone = "") {
  endAgentText();
  const note = el("div", "note", text);
  if (tone) note.dataset.tone = tone;
  return append(note);
}

function toolDetail(name, args) {
  if (!args || typeof args !== "object") return "";
  if (name === "cms_apply" && Array.isArray(args.ops)) return plural(args.ops.length, "op");
  if (name === "cms_get" && Array.isArray(args.ids)) return plural(args.ids.length, "node");
  if (name === "cms_find" && typeof args.query === "string") return `“${args.query}”`;
  if (name === "cms_ready" && typeof args.summary === "string") return args.summary;
  return "";
}

function addToolCall(payload) {
  endAgentText();
  const name = typeof payload.name === "string" ? payload.name : "tool";
  const row = el("div", "tool");
  row.dataset.state = "pending";
  row.dataset.tool = name;
  const detail = toolDetail(name, payload.arguments);
  const label = TOOL_LABELS[name] || "Used a tool";
  row.append(
    el("span", "tool-mark"),
    el("span", "tool-label", detail ? `${label} · ${detail}` : label),
    el("span", "tool-name", name),
  );
  row.title = name;
  if (typeof payload.call_id === "string") state.tools.set(payload.call_id, row);
  // Consecutive tool calls share one block: activity reads as one step, not a wall.
  const last = chatLog().lastElementChild;
  const block = last && last.classList.contains("activity") ? last : append(el("div", "activity"));
  block.append(row);
  const log = chatLog();
  if (state.pinned) log.scrollTop = log.scrollHeight;
}

function addToolResult(payload) {
  endAgentText();
  let row = typeof payload.call_id === "string" ? state.tools.get(payload.call_id) : null;
  if (!row) {
    // A result without its call (a replay that starts mid-turn): show it alone.
    addToolCall({ name: payload.name, call_id: payload.call_id });
    row = state.tools.get(payload.call_id) || $(".activity:last-child .tool:last-child", chatLog());
  }
  const failed = payload.is_error === true;
  row.dataset.state = failed ? "error" : "ok";
  $(".tool-mark", row).textContent = failed ? "✗" : "✓";
  if (failed && typeof payload.code === "string") {
    row.dataset.code = payload.code;
    row.insertBefore(el("span", "tool-code", payload.code), $(".tool-name", row));
  }
  if (Number.isInteger(payload.revision)) {
    row.append(el("span", "tool-revision", `r${payload.revision}`));
  }
  if (failed && payload.code === "checks_failing") addFindings(payload);
}

function addFindings(payload) {
  const box = el("div", "findings");
  box.dataset.code = payload.code;
  box.append(
    el("div", "findings-title", "Checks found problems"),
    el("div", "muted", `The page is not ready yet at revision ${payload.revision}; the builder is asked to fix what the checks report before it finishes.`),
  );
  append(box);
}

// ------------------------------------------------------------------ events

function openStream() {
  const id = state.sessionId;
  if (id === null) return;
  if (state.source) state.source.close();
  const after = state.lastSeq > 0 ? `?after=${state.lastSeq}` : "";
  const source = new EventSource(endpoint(sessionPath(id, `/stream${after}`)));
  state.source = source;
  for (const type of EVENT_TYPES) source.addEventListener(type, onStreamMessage);
  source.addEventListener("open", () => {
    state.reconnectDelay = 1000;
  });
  source.addEventListener("error", () => {
    // CONNECTING: the browser retries by itself (sending Last-Event-ID).
    // CLOSED: the server refused the stream; ask why, then try again later.
    if (source !== state.source || source.readyState !== EventSource.CLOSED) return;
    state.source = null;
    recoverStream(id);
  });
}

async function recoverStream(id) {
  try {
    const answer = await api("GET", sessionPath(id));
    if (state.sessionId !== id) return;
    applySession(answer.session);
  } catch (error) {
    if (state.sessionId !== id) return;
    report(error);
  }
  const delay = state.reconnectDelay;
  state.reconnectDelay = Math.min(delay * 2, 15000);
  clearTimeout(state.reconnectTimer);
  state.reconnectTimer = setTimeout(() => {
    if (state.sessionId === id) openStream();
  }, delay);
}

function onStreamMessage(message) {
  let event;
  try {
    event = JSON.parse(message.data);
  } catch {
    return;
  }
  if (!event || typeof event !== "object") return;
  const seq = Number.isInteger(event.seq) ? event.seq : Number.parseInt(message.lastEventId, 10);
  // Replays after a reconnect may repeat what was already shown.
  if (Number.isInteger(seq)) {
    if (seq <= state.lastSeq) return;
    state.lastSeq = seq;
  }
  try {
    handleEvent(typeof event.type === "string" ? event.type : message.type, event);
  } catch (error) {
    console.error(error);
  }
}

/** Show one session event: chat rows, toolbar state, preview and change-set refreshes. */
export function handleEvent(type, event) {
  const payload = event.payload && typeof event.payload === "object" ? event.payload : {};
  const approving = Boolean(state.session && state.session.approve_on_save);
  switch (type) {
    case "session.opened":
      // The chat's introduction already shows the brief and the mode.
      break;
    case "turn.queued":
      addUserMessage(typeof payload.message === "string" ? payload.message : "");
      setStatus("queued");
      scheduleStatus();
      break;
    case "turn.started":
      setStatus("running");
      scheduleStatus();
      break;
    case "run.started":
      if (Number.isInteger(payload.run) && payload.run > 1) addNote("Continuing where the last reply stopped…");
      break;
    case "text.delta":
      appendAgentText(payload.text);
      break;
    case "tool.called":
      addToolCall(payload);
      break;
    case "tool.result":
      addToolResult(payload);
      break;
    case "page.changed":
      if (!approving && Number.isInteger(payload.revision)) {
        setRevision(payload.revision);
      }
      schedulePreview();
      if (approving) scheduleChangeSet();
      break;
    case "run.finished":
      break;
    case "run.failed":
      addNote(`The turn failed: ${codeText(payload.code)}.`, "bad").dataset.code = String(payload.code || "");
      scheduleStatus();
      break;
    case "turn.finished":
      addNote(payload.ready ? "Done · the page is ready for review" : "Done", payload.ready ? "ok" : "");
      setStatus("idle");
      scheduleStatus();
      break;
    case "turn.stopped":
      addNote("Stopped", "warn");
      setStatus("idle");
      scheduleStatus();
      break;
    case "proposal.opened":
      addNote("The builder's changes are collected for your approval", "accent");
      scheduleChangeSet();
      break;
    case "proposal.approved":
      addNote(`Approved ${plural(payload.ops, "edit")} · revision ${payload.revision}`, "ok");
      scheduleChangeSet();
      schedulePreview();
      break;
    case "proposal.rejected":
      addNote(`Rejected ${plural(payload.ops, "edit")}`, "warn");
      scheduleChangeSet();
      schedulePreview();
      break;
    case "proposal.conflicted":
      addNote(`Changes not applied: ${codeText(payload.code)}`, "bad");
      scheduleChangeSet();
      schedulePreview();
      break;
    case "page.published":
      addNote(`Published revision ${payload.revision}`, "ok");
      if (state.viewMode === "published") schedulePreview();
      break;
    case "human.edited":
      addNote(`${event.actor || "Someone"} edited the draft · revision ${payload.revision}`);
      schedulePreview();
      if (approving) scheduleChangeSet();
      break;
    default:
      break;
  }
}

// ------------------------------------------------------------------ actions

async function sendMessage(text) {
  const id = state.sessionId;
  const message = text.trim();
  if (!id || !message || state.sending || BUSY_STATUSES.has(state.status)) return;
  state.sending = true;
  updateSendButton();
  const seqBefore = state.lastSeq;
  try {
    const answer = await api("POST", sessionPath(id, "/turns"), { message });
    if (state.sessionId !== id) return;
    clearError();
    const input = byTestId("chat-input");
    if (input.value.trim() === message) input.value = "";
    const turnStatus = answer.turn && answer.turn.status;
    // Only move forward: the stream may already have reported the turn running or done.
    if ((turnStatus === "queued" || turnStatus === "running") && state.lastSeq === seqBefore) {
      setStatus(turnStatus);
    }
    scheduleStatus();
  } catch (error) {
    report(error);
  } finally {
    state.sending = false;
    updateSendButton();
  }
}

async function stopTurn() {
  const id = state.sessionId;
  const button = byTestId("stop-button");
  button.disabled = true;
  try {
    const answer = await api("POST", sessionPath(id, "/stop"));
    if (state.sessionId === id && typeof answer.status === "string") setStatus(answer.status);
  } catch (error) {
    report(error);
    button.disabled = false;
  } finally {
    scheduleStatus();
  }
}

async function publish() {
  const id = state.sessionId;
  const button = byTestId("publish-button");
  // Publish exactly the revision on the badge: if the draft has moved on
  // meanwhile, the server answers stale_revision instead of publishing it.
  const revision = state.revision;
  await whileBusy(button, async () => {
    let answer;
    try {
      answer = await api("POST", sessionPath(id, "/publish"), { revision });
    } catch (error) {
      if (error.code === "stale_revision") {
        // Show the person the draft as it is now before they try again.
        scheduleStatus();
        schedulePreview(0);
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

// ------------------------------------------------------------------ wiring

function wire() {
  $('[data-role="start-form"]').addEventListener("submit", startSession);
  $('[data-action="add-fact"]').addEventListener("click", () => addFactRow());
  $('[data-action="dismiss-error"]').addEventListener("click", clearError);
  for (const link of $$('[data-action="new-session"]')) {
    link.addEventListener("click", (event) => {
      event.preventDefault();
      clearError();
      history.pushState(null, "", location.pathname + location.search);
      showStart();
    });
  }

  const input = byTestId("chat-input");
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
  byTestId("stop-button").addEventListener("click", stopTurn);
  byTestId("publish-button").addEventListener("click", publish);
  byTestId("approve-button").addEventListener("click", () => resolveChangeSet("approve"));
  byTestId("reject-button").addEventListener("click", () => resolveChangeSet("reject"));
  for (const button of $$("[data-view-mode]")) {
    button.addEventListener("click", () => {
      const mode = button.dataset.viewMode;
      // The published button is a toggle: pressing it again goes back to the draft.
      setViewMode(mode === state.viewMode && mode !== "draft" ? "draft" : mode);
    });
  }

  const log = chatLog();
  log.addEventListener("scroll", () => {
    state.pinned = log.scrollHeight - log.scrollTop - log.clientHeight < 80;
  });

  window.addEventListener("hashchange", route);
  window.addEventListener("popstate", route);
}

wire();
route();
