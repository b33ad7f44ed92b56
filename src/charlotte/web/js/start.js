// The start form: the page key, the brief, the facts (rows added and
// removed by the person) and the approve-on-save switch.

import { api } from "./api.js";
import { $, $$, byId, clearError, el, showError, whileBusy } from "./dom.js";

// charlotte.access.PAGE_KEY: a key of another shape is refused (invalid_page_key), so it is never sent.
const PAGE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;
const PAGE_KEY_WORDS =
  "A page key is 1 to 200 letters, digits, dots, dashes or underscores, starting with a letter or digit, for example “home” or “about-us”.";

/** Whether `page` is a key the server takes (`charlotte.access.PAGE_KEY`). */
export function isPageKey(page) {
  return PAGE_KEY.test(page);
}

export function addFactRow(key = "", value = "") {
  const row = el("div", "fact-row");
  const input = (placeholder, maxLength, text, label, role) => {
    const field = el("input");
    Object.assign(field, { type: "text", placeholder, maxLength, value: text });
    field.setAttribute("aria-label", label);
    field.dataset.role = role;
    return field;
  };
  const keyInput = input("Name, e.g. phone", 200, key, "Fact name", "fact-key");
  const valueInput = input("Value, e.g. +1 555 0100", 20000, value, "Fact value", "fact-value");
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

/** The start form was sent: open the session, then `enter(id, session)` it. */
export async function startSession(event, enter) {
  event.preventDefault();
  const page = byId("start-page").value.trim();
  const brief = byId("start-brief").value.trim();
  if (!page || !brief) {
    showError(page ? "Write a brief: what should the page be about?" : "Give the page a key, for example “home”.");
    (page ? byId("start-brief") : byId("start-page")).focus();
    return;
  }
  if (!isPageKey(page)) {
    showError(PAGE_KEY_WORDS);
    byId("start-page").focus();
    return;
  }
  const body = { page, brief, approve_on_save: byId("start-approve").checked };
  const facts = readFacts();
  if (Object.keys(facts).length > 0) body.facts = facts;
  await whileBusy(byId("start-button"), async () => {
    const answer = await api("POST", "sessions", body);
    clearError();
    history.pushState(null, "", `#session=${encodeURIComponent(answer.session.id)}`);
    await enter(answer.session.id, answer.session);
  });
}
