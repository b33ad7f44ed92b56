// The start view's list of a page's earlier sessions (GET /sessions?page=…,
// newest first): each with its brief, status, when it opened, its turn count
// and a Resume button that opens it as a new one is opened.

import { api } from "./api.js";
import { byId, el, plural } from "./dom.js";
import { isPageKey } from "./start.js";

// Rows shown; the server reads at most 50 a page.
const LIMIT = 20;
// The page key settles for this long before the list is read.
const TYPING_MS = 300;
const BRIEF_CHARS = 140;

let timer = 0;
let request = 0;

const box = () => byId("session-list");

function when(stamp) {
  const date = new Date(typeof stamp === "string" ? stamp : "");
  if (Number.isNaN(date.getTime())) return "";
  return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

function excerpt(brief) {
  const text = typeof brief === "string" ? brief.trim() : "";
  return text.length > BRIEF_CHARS ? `${text.slice(0, BRIEF_CHARS - 1)}…` : text;
}

function sessionRow(session, resume) {
  const row = el("li", "session-row");
  row.dataset.session = String(session.id);
  const brief = excerpt(session.brief) || "(no brief)";
  const facts = [
    typeof session.status === "string" ? session.status : "",
    when(session.created_at),
    Number.isInteger(session.turns) ? plural(session.turns, "turn") : "",
    session.approve_on_save ? "approve on save" : "",
  ].filter(Boolean);
  const text = el("div", "session-text");
  text.append(el("span", "session-brief", brief), el("span", "session-facts muted", facts.join(" · ")));
  const button = el("button", "button button-small", "Resume");
  button.type = "button";
  button.setAttribute("aria-label", `Resume “${brief}”`);
  button.addEventListener("click", () => resume(String(session.id)));
  row.append(text, button);
  return row;
}

/** Read and show the sessions of the page key now in the start form. */
export async function refreshSessionList(resume) {
  clearTimeout(timer);
  const mine = ++request;
  const page = byId("start-page").value.trim();
  const list = box();
  // A key the server would refuse has no sessions: not asked (the form says what is wrong when sent).
  if (!page || !isPageKey(page)) {
    list.hidden = true;
    return;
  }
  let answer;
  try {
    answer = await api("GET", `sessions?page=${encodeURIComponent(page)}&limit=${LIMIT}`);
  } catch (error) {
    // An unusable key or an unreachable server: the form says so when it is sent.
    if (mine === request) list.hidden = true;
    console.warn("the page's sessions could not be read", error);
    return;
  }
  if (mine !== request) return;
  const sessions = answer && Array.isArray(answer.sessions) ? answer.sessions : [];
  const rows = sessions.filter((item) => item && typeof item === "object" && typeof item.id === "string");
  const items = byId("session-rows");
  items.replaceChildren(...rows.map((session) => sessionRow(session, resume)));
  list.hidden = rows.length === 0;
}

/** The page key changed: read its sessions once the typing settles. */
export function wireSessionList(resume) {
  byId("start-page").addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => refreshSessionList(resume), TYPING_MS);
  });
}

/** Leaving the start view: answers still on their way are dropped. */
export function cancelSessionList() {
  clearTimeout(timer);
  request += 1;
}
