// What every module shares: the session's state, DOM helpers (text only,
// never parsed as HTML) and the error banner.

import { ApiError } from "./api.js";

export const BUSY_STATUSES = new Set(["queued", "running", "stopping"]);

function freshState() {
  return {
    sessionId: null,
    session: null,
    status: "idle",
    lastSeq: 0,
    viewMode: "draft",
    changeSet: null,
    sending: false,
    turnWrote: false, // the running turn changed the draft (so it can be undone)
    published: undefined, // the revision last published: null for none, undefined while not known
  };
}

/** The open session as this page knows it; `resetState` starts it over. */
export const state = { ...freshState(), previewRequest: 0, changeSetRequest: 0 };

export function resetState() {
  Object.assign(state, freshState());
  // Answers still in flight for the old session are ignored by these counters.
  state.previewRequest += 1;
  state.changeSetRequest += 1;
}

export const $ = (selector, root = document) => root.querySelector(selector);
export const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));
/** The page's element with this `id` (index.html gives one to every element a module drives). */
export const byId = (id) => document.getElementById(id);

/** An element with a class and text (set as text, never parsed as HTML). */
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

export { plural } from "./words.js";

export function showError(message) {
  const banner = byId("error-banner");
  $('[data-role="error-text"]', banner).textContent = message;
  banner.hidden = false;
}

export function clearError() {
  byId("error-banner").hidden = true;
}

/** Show a failure in the error banner: an API error's own sentence, else a generic one. */
export function report(error) {
  if (error instanceof ApiError) {
    showError(error.message);
  } else {
    showError("Something went wrong in the page. Reload to continue.");
    console.error(error);
  }
}

/** Runs `work` with `buttons` disabled and `pressed` marked busy; a failure shows in the error bar. */
export async function whileBusy(pressed, work, buttons = [pressed]) {
  for (const button of buttons) button.disabled = true;
  pressed.classList.add("is-busy");
  pressed.setAttribute("aria-busy", "true");
  try {
    await work();
  } catch (error) {
    report(error);
  } finally {
    for (const button of buttons) button.disabled = false;
    pressed.classList.remove("is-busy");
    pressed.removeAttribute("aria-busy");
  }
}
