// Page settings: a side sheet (a non-modal <dialog>, like History) where a
// person edits the page's title, description, language, canonical path and
// social image. Each field's bound is checked as they type (js/meta.js); Save
// sends one set_meta through the edit queue (js/edits.js), so Undo takes it
// back like any edit. The fields follow the store's draft: a change from
// anyone (the builder's set_meta, an undo) shows at once in every field the
// person has not changed. Above them, the quality gate's page-wide findings
// (js/quality.js).

import { byId, state } from "./dom.js";
import { store } from "./draft.js";
import { EditRefused, canUndo, onStacks, submit, undo } from "./edits.js";
import { closeHistory } from "./history.js";
import { META_FIELDS, counter, editedFields, fieldProblem, firstProblem, metaOps, readMeta, refusalOf } from "./meta.js";
import { pageFindings, refreshFindings } from "./quality.js";

const sheet = () => byId("settings-sheet");
let baseline = readMeta(null); // the draft's metadata as the fields last showed it
let saving = false;

function controls() {
  return {
    title: byId("settings-title"),
    description: byId("settings-description"),
    lang: byId("settings-lang"),
    canonical: byId("settings-canonical"),
    image: byId("settings-image"),
  };
}

function errors() {
  return {
    title: byId("settings-title-error"),
    description: byId("settings-description-error"),
    lang: byId("settings-lang-error"),
    canonical: byId("settings-canonical-error"),
    image: byId("settings-image-error"),
  };
}

function counts() {
  return { title: byId("settings-title-count"), description: byId("settings-description-count") };
}

function values() {
  const shown = controls();
  return Object.fromEntries(META_FIELDS.map((key) => [key, shown[key].value]));
}

/** Show `message` beside the field `key` ("" clears it); the control is marked invalid while it shows. */
function sayAt(key, message, code = "") {
  const line = errors()[key];
  if (line.textContent !== message) line.textContent = message;
  line.hidden = !message;
  line.dataset.code = code;
  controls()[key].setAttribute("aria-invalid", String(Boolean(message)));
}

function note(message, tone = "") {
  const line = byId("settings-note");
  line.textContent = message;
  line.dataset.tone = tone;
}

/** Check one field as it is now: its count, and its bound said beside it. */
function check(key) {
  const value = controls()[key].value;
  const count = counter(key, value);
  const shown = counts()[key];
  if (count && shown) {
    shown.textContent = count.text;
    shown.dataset.over = String(count.over);
    shown.setAttribute("aria-label", count.words);
  }
  sayAt(key, fieldProblem(key, value), "bounds");
}

/** The store's draft moved (or the sheet opened): every field the person has not changed shows it. */
function follow() {
  const copy = store.get("draft");
  const now = readMeta(copy ? copy.doc : null);
  const edited = editedFields(values(), baseline);
  const shown = controls();
  for (const key of META_FIELDS) {
    if (!(key in edited) && shown[key].value !== now[key]) {
      shown[key].value = now[key];
      check(key);
    }
  }
  baseline = now;
  listAssets(copy ? copy.assets : null);
}

// The social image is an asset id of the host's library: the page knows the
// ones its image nodes show (the store learnt them from the draft's rendering).
function listAssets(assets) {
  const list = byId("settings-image-assets");
  const ids = assets instanceof Map ? [...assets].filter(([, url]) => typeof url === "string").map(([id]) => id).sort() : [];
  const had = Array.from(list.options, (option) => option.value);
  if (had.length === ids.length && had.every((id, i) => id === ids[i])) return;
  list.replaceChildren(...ids.map((id) => new Option(id, id)));
}

async function save(event) {
  event.preventDefault();
  if (saving || state.sessionId === null) return;
  const typed = values();
  for (const key of META_FIELDS) check(key);
  const problem = firstProblem(typed);
  if (problem) {
    note("Not saved: fix the field marked below.", "bad");
    controls()[problem.field].focus();
    return;
  }
  const edited = editedFields(typed, baseline);
  if (!Object.keys(edited).length) {
    note("Nothing to save: these are the draft's settings.");
    return;
  }
  const id = state.sessionId;
  const button = byId("settings-save");
  saving = true;
  button.setAttribute("aria-busy", "true");
  note("Saving…");
  try {
    // Built when its turn in the queue comes, on the draft the edits before it left.
    const answer = await submit(() => {
      const copy = store.get("draft");
      return metaOps(copy && copy.doc ? copy.doc.meta : null, edited);
    });
    if (state.sessionId !== id) return;
    follow();
    note(answer === null ? "Nothing to save: the draft already says this." : "Saved to the draft.", "ok");
  } catch (error) {
    if (state.sessionId !== id) return;
    if (error instanceof EditRefused) {
      note(error.message, "bad");
      return;
    }
    const said = refusalOf(error, edited);
    if (said.field === null) note(said.message, "bad");
    else {
      note("Not saved: see the field marked below.", "bad");
      sayAt(said.field, said.message, typeof error.code === "string" ? error.code : "");
    }
  } finally {
    saving = false;
    button.removeAttribute("aria-busy");
  }
}

function updateUndo() {
  byId("settings-undo").disabled = !canUndo();
}

export function wireSettings() {
  byId("settings-button").addEventListener("click", () => (sheet().open ? closeSettings() : openSettings()));
  // One side sheet at a time: History opening closes this one.
  byId("history-button").addEventListener("click", () => closeSettings(false));
  byId("settings-close").addEventListener("click", () => closeSettings());
  byId("settings-form").addEventListener("submit", save);
  byId("settings-undo").addEventListener("click", () => undo());
  const shown = controls();
  for (const key of META_FIELDS) shown[key].addEventListener("input", () => check(key));
  // The description is one line: Enter saves, as in the other fields.
  shown.description.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.isComposing) {
      event.preventDefault();
      byId("settings-form").requestSubmit();
    }
  });
  sheet().addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    closeSettings();
  });
  sheet().addEventListener("close", () => byId("settings-button").setAttribute("aria-expanded", "false"));
  store.subscribe((change) => {
    if (change.copy === "draft") follow();
  });
  onStacks(updateUndo);
  // What the quality gate says of the page as a whole (no title, description, language…), above the fields.
  byId("settings-form").before(pageFindings(sheet()).box);
  // Below 769 px the composer spans the screen's foot: the sheet ends above it.
  const composer = document.querySelector('[data-role="composer"]');
  new ResizeObserver(() => sheet().style.setProperty("--history-foot", `${composer.offsetHeight}px`)).observe(composer);
  updateUndo();
}

export function openSettings() {
  if (state.sessionId === null) return;
  closeHistory();
  note("");
  follow();
  sheet().show();
  refreshFindings();
  byId("settings-button").setAttribute("aria-expanded", "true");
  controls().title.focus();
}

/** Close the sheet (Escape, Close, the button again, History); focus goes back to the button. */
export function closeSettings(refocus = true) {
  const inside = sheet().contains(document.activeElement);
  if (sheet().open) sheet().close();
  byId("settings-button").setAttribute("aria-expanded", "false");
  if (inside && refocus) byId("settings-button").focus();
}

/** The session closed: the sheet shut and its fields emptied (the next session's draft fills them). */
export function resetSettings() {
  closeSettings(false);
  baseline = readMeta(null);
  const shown = controls();
  for (const key of META_FIELDS) {
    shown[key].value = "";
    check(key);
  }
  note("");
}
