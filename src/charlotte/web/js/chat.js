// The conversation: the person's messages, the builder's reply as it
// streams, its tool calls (running, done, failed, stopped) and notes.

import { codeText } from "./api.js";
import { $, byId, el, plural } from "./dom.js";
import { undoRow } from "./undo.js";

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

// What a tool row's mark shows (and a screen reader reads) in each state.
const TOOL_MARKS = {
  running: ["", "running"],
  done: ["✓", "done"],
  failed: ["✗", "failed"],
  stopped: ["■", "stopped"],
};

const chat = { currentText: null, tools: new Map(), pinned: true, onUnread: null };

const log = () => byId("chat-log");

/** Start a fresh log; `onUnread` hears of every row added (the Chat tab's dot). */
export function resetChat(onUnread) {
  log().replaceChildren();
  Object.assign(chat, { currentText: null, tools: new Map(), pinned: true, onUnread });
}

export function watchScroll() {
  const node = log();
  node.addEventListener("scroll", () => {
    chat.pinned = node.scrollHeight - node.scrollTop - node.clientHeight < 80;
  });
}

function follow() {
  const node = log();
  if (chat.pinned) node.scrollTop = node.scrollHeight;
}

function append(node) {
  $(".chat-empty", log())?.remove();
  log().append(node);
  follow();
  if (chat.onUnread) chat.onUnread();
  return node;
}

/** The empty log's introduction: the brief, the mode and a first suggestion. */
export function renderIntro(session, onSuggest) {
  if (log().childElementCount > 0) return;
  const intro = el("div", "chat-empty");
  intro.append(el("p", "chat-empty-title", "What should the builder do first?"));
  const brief = session && typeof session.brief === "string" ? session.brief : "";
  if (brief) intro.append(el("p", "chat-brief", brief));
  intro.append(
    el(
      "p",
      "muted chat-mode",
      session && session.approve_on_save
        ? "The builder's changes wait for your approval before they reach the draft."
        : "The builder's changes go straight to the draft; nothing is live until you publish.",
    ),
  );
  const suggestion = el("button", "suggestion", "Build the first draft from the brief");
  suggestion.type = "button";
  suggestion.addEventListener("click", onSuggest);
  intro.append(suggestion);
  log().append(intro);
}

export function addUserMessage(text) {
  endAgentText();
  return append(el("div", "message message-user", text));
}

/** One piece of the builder's reply, added to the reply being written. */
export function appendAgentText(text) {
  if (typeof text !== "string" || !text) return;
  if (!chat.currentText) chat.currentText = append(el("div", "message message-agent"));
  chat.currentText.classList.add("is-streaming");
  chat.currentText.setAttribute("aria-busy", "true");
  chat.currentText.append(document.createTextNode(text));
  follow();
}

/**
 * The session reads idle: the reply no longer looks written, but stays the
 * one its turn's later pieces join. The status poll can answer before the
 * stream has delivered every piece of the reply; only the stream's own rows
 * (a tool call, a note, the turn's end, the next message) end a reply.
 */
export function pauseAgentText() {
  if (!chat.currentText) return;
  chat.currentText.classList.remove("is-streaming");
  chat.currentText.removeAttribute("aria-busy");
}

export function endAgentText() {
  if (chat.currentText) {
    chat.currentText.classList.remove("is-streaming");
    chat.currentText.removeAttribute("aria-busy");
  }
  chat.currentText = null;
}

/** The "Undo this turn" row under a finished turn (none in approve-on-save sessions). */
export function addUndo(turnId) {
  const row = undoRow(turnId);
  if (row) append(row);
}

export function addNote(text, tone = "") {
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

function setToolState(row, toolState) {
  const [mark, words] = TOOL_MARKS[toolState];
  row.dataset.state = toolState;
  const holder = $(".tool-mark", row);
  holder.textContent = mark;
  holder.setAttribute("aria-label", words);
}

/** A tool call's row; `by`: the outside agent that made it (its actor after `agent:`), named on the row. */
export function addToolCall(payload, by = null) {
  endAgentText();
  const name = typeof payload.name === "string" ? payload.name : "tool";
  const row = el("div", "tool");
  row.dataset.tool = name;
  if (by) row.dataset.actor = by;
  const detail = toolDetail(name, payload.arguments);
  const label = (by ? `${by} · ` : "") + (TOOL_LABELS[name] || "Used a tool");
  const mark = el("span", "tool-mark");
  mark.setAttribute("role", "img");
  row.append(mark, el("span", "tool-label", detail ? `${label} · ${detail}` : label), el("span", "tool-name", name));
  setToolState(row, "running");
  row.title = name;
  if (typeof payload.call_id === "string") chat.tools.set(payload.call_id, row);
  // Consecutive tool calls share one block: activity reads as one step, not a wall.
  const last = log().lastElementChild;
  const block = last && last.classList.contains("activity") ? last : append(el("div", "activity"));
  block.append(row);
  follow();
}

export function addToolResult(payload) {
  endAgentText();
  let row = typeof payload.call_id === "string" ? chat.tools.get(payload.call_id) : null;
  if (!row) {
    // A result without its call (a replay that starts mid-turn): show it alone.
    addToolCall({ name: payload.name, call_id: payload.call_id });
    row = chat.tools.get(payload.call_id) || $(".activity:last-child .tool:last-child", log());
  }
  const failed = payload.is_error === true;
  setToolState(row, failed ? "failed" : "done");
  if (typeof payload.call_id === "string") chat.tools.delete(payload.call_id);
  if (failed && typeof payload.code === "string") {
    row.dataset.code = payload.code;
    row.insertBefore(el("span", "tool-code", payload.code), $(".tool-name", row));
  }
  if (Number.isInteger(payload.revision)) row.append(el("span", "tool-revision", `r${payload.revision}`));
  if (failed && payload.code === "checks_failing") addFindings(payload);
}

/** The turn ended: every tool row still running ends `toolState` ("stopped" or "failed"). */
export function settleTools(toolState) {
  for (const row of chat.tools.values()) setToolState(row, toolState);
  chat.tools.clear();
  endAgentText();
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

/** One ended turn of GET messages: the message, the reply, how it ended. */
export function renderPastTurn(turn) {
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
    if (Number.isInteger(record.nodes_changed) && record.nodes_changed > 0) addUndo(turn.turn_id);
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
