// An approve-on-save session's change set: what it would change, one entry
// per node (the server's diff, named from the store's draft and the set's
// working copy, which each read of the set hands to the store), each
// shown in the preview on a click and rejected alone or with others chosen
// (POST change-set/reject-nodes); Approve / Reject take the whole set.

import { ApiError, api, codeText, sessionPath } from "./api.js";
import { changeEntries } from "./changes.js";
import { $, $$, byId, el, plural, report, showError, state, whileBusy } from "./dom.js";
import { store } from "./draft.js";
import { flashNode, onFrameLoad, whenFrameLoads } from "./highlight.js";
import { scheduleStatus } from "./panels.js";
import { schedulePreview, setViewMode } from "./preview.js";

const REFRESH_DELAY_MS = 150;
let timer = 0;

export function scheduleChangeSet(delay = REFRESH_DELAY_MS) {
  clearTimeout(timer);
  timer = setTimeout(loadChangeSet, delay);
}

export function cancelChangeSet() {
  clearTimeout(timer);
}

export function resetChangeSet() {
  byId("change-set").hidden = true;
  chosen.clear();
  say("");
}

// The entries the person has chosen.
const chosen = new Set();
// The set a rejection of single nodes opened: its note stays when it is shown.
let opened = null;
let refocus = false;
let idsOf = new Map(); // each entry's key → the keys that reject it

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
  // The draft the set is compared with names the nodes it changes and removes.
  const draft = store.get("draft");
  const previous = state.changeSet;
  state.changeSet = changeSet;
  store.accept("working", changeSet);
  renderChangeSet(changeSet, draft ? draft.doc : null);
  // A newly opened set is what the person wants to look at: the draft has not moved.
  if (changeSet && (!previous || previous.id !== changeSet.id) && state.viewMode === "draft") {
    setViewMode("proposed");
  } else if (state.viewMode === "proposed") {
    if (changeSet) schedulePreview(0);
    else setViewMode("draft");
  }
}

function renderChangeSet(changeSet, page) {
  const panel = byId("change-set");
  $('[data-view-mode="proposed"]').hidden = !changeSet;
  if (!changeSet) {
    panel.hidden = true;
    panel.removeAttribute("data-change-set-id");
    chosen.clear();
    return;
  }
  if (panel.dataset.changeSetId !== String(changeSet.id) && opened !== changeSet.id) say("");
  panel.hidden = false;
  panel.dataset.changeSetId = String(changeSet.id);
  const parts = [plural(changeSet.ops, "edit"), `based on revision ${changeSet.base_revision}`];
  if (changeSet.draft_revision !== changeSet.base_revision) {
    parts.push(`the draft is now at revision ${changeSet.draft_revision}`);
  }
  $('[data-role="change-set-summary"]').textContent = parts.join(" · ");
  const focused = focusedControl();
  // The draft names what the set changes and removes; its working copy what it adds.
  const docs = [page, changeSet.page].filter((doc) => doc && typeof doc === "object");
  const entries = changeEntries(changeSet.diff || {}, docs, { show: showNode });
  idsOf = new Map(entries.map((entry) => [entry.key, entry.ids]));
  const keys = new Set(idsOf.keys());
  for (const key of [...chosen]) if (!keys.has(key)) chosen.delete(key);
  const list = el("ol", "change-list");
  list.setAttribute("aria-label", "Changes, one per node");
  for (const entry of entries) list.append(withControls(entry));
  const holder = $('[data-role="diff"]');
  holder.replaceChildren(entries.length ? list : el("p", "muted", "No differences from the current draft."));
  updateChosen();
  if (refocus && (!document.activeElement || document.activeElement === document.body)) {
    // The entry whose button was pressed is gone: go on with the first one left.
    const next = $(".change-name", holder) || byId("approve-button");
    next.focus();
  }
  refocus = false;
  if (focused) {
    const again = $(`.change[data-node="${CSS.escape(focused.key)}"] [data-control="${focused.control}"]`, holder);
    if (again) again.focus();
  }
}

// An entry's checkbox (choose it) and its "Reject this change" button.
function withControls(entry) {
  const item = entry.element;
  item.classList.add("diff-row");
  const name = $(".change-name", item);
  if (name.tagName === "BUTTON") {
    name.dataset.control = "name";
    name.setAttribute("aria-label", `Show in the preview: ${entry.name}`);
  }
  const box = document.createElement("input");
  box.type = "checkbox";
  box.className = "change-choose";
  box.dataset.control = "choose";
  box.checked = chosen.has(entry.key);
  box.setAttribute("aria-label", `Choose ${entry.name}`);
  box.addEventListener("change", () => {
    if (box.checked) chosen.add(entry.key);
    else chosen.delete(entry.key);
    updateChosen();
  });
  entry.head.prepend(box);
  const reject = el("button", "button button-small button-quiet change-reject", "Reject this change");
  reject.type = "button";
  reject.dataset.control = "reject";
  reject.setAttribute("aria-label", `Reject this change: ${entry.name}`);
  reject.addEventListener("click", () => rejectNodes(entry.ids, reject, 1));
  entry.head.append(reject);
  // A click anywhere else on the entry shows the node too (its name is the keyboard's way).
  item.addEventListener("click", (event) => {
    if (!event.target.closest("button, input, label, a")) showNode(entry.key, item);
  });
  return item;
}

function focusedControl() {
  const active = document.activeElement;
  const item = active && active.closest ? active.closest('[data-role="diff"] .change') : null;
  if (!item) return null;
  return active.dataset.control ? { key: item.dataset.node, control: active.dataset.control } : null;
}

// An added node is on the proposed page only, a removed one on the draft only:
// the preview switches to the page that has it first.
function showNode(key, item) {
  if (key.startsWith("#")) return;
  say("");
  const wanted = { added: "proposed", removed: "draft" }[item.dataset.kind];
  const shown = flashNode(key);
  if (!shown && wanted && state.viewMode !== wanted) {
    whenFrameLoads(() => flashed(key, item));
    setViewMode(wanted);
    return;
  }
  flashed(key, item, shown);
}

function flashed(key, item, shown = flashNode(key)) {
  item.dataset.shown = String(shown);
  if (!shown && item.isConnected) say(`${$(".change-name", item).textContent} is not on the page the preview shows.`);
}

function updateChosen() {
  const button = byId("reject-selected");
  button.disabled = chosen.size === 0;
  button.textContent = chosen.size ? `Reject ${chosen.size} chosen` : "Reject chosen";
}

function say(text) {
  const note = $('[data-role="change-set-note"]');
  if (note) note.textContent = text;
}

/** Take `keys`' changes (those of `entries` entries) out of the open set (the server replays the rest as a new set). */
async function rejectNodes(keys, pressed, entries) {
  const id = state.sessionId;
  if (!keys.length) return;
  const buttons = [byId("approve-button"), byId("reject-button"), byId("reject-selected"), ...$$(".change-reject")];
  say("");
  await whileBusy(pressed, async () => {
    try {
      const answer = await api("POST", sessionPath(id, "/change-set/reject-nodes"), { nodes: keys });
      for (const key of keys) chosen.delete(key);
      opened = answer.change_set_id;
      refocus = true;
      const kept = answer.kept ? `; ${plural(answer.kept, "edit")} still wait for approval` : "; nothing else waits";
      say(`Rejected ${plural(entries, "change")} (${plural(answer.dropped, "edit")} taken out)${kept}.`);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      say(refusal(error));
    }
  }, buttons);
  if (state.sessionId === id) {
    scheduleChangeSet(0);
    schedulePreview(0);
  }
}

function refusal(error) {
  if (error.code === "no_open_change_set") return "Nothing was rejected: no changes wait for approval any more.";
  if (error.code === "invalid_request") return "Nothing was rejected: the set no longer holds those changes. It is shown again as it is now.";
  if (error.code === "conflicted") {
    const nodes = error.body && Array.isArray(error.body.nodes) ? error.body.nodes.map(String).slice(0, 8) : [];
    const named = nodes.length ? ` (${nodes.join(", ")})` : "";
    return `Nothing was rejected: the other changes no longer fit the draft, which was edited meanwhile${named}. Approve or reject the whole set.`;
  }
  return `Nothing was rejected: ${codeText(error.code)}.`;
}

/** Wire the chosen entries' Reject button, and name added nodes once the preview shows them. */
export function wireReview() {
  byId("reject-selected").addEventListener("click", (event) => {
    const keys = new Set();
    for (const key of chosen) for (const id of idsOf.get(key) || [key]) keys.add(id);
    rejectNodes([...keys], event.currentTarget, chosen.size);
  });
  onFrameLoad(() => {
    const changeSet = state.changeSet;
    const added = changeSet && changeSet.diff && Array.isArray(changeSet.diff.added) ? changeSet.diff.added : [];
    const draft = store.get("draft");
    if (added.length && state.viewMode === "proposed") renderChangeSet(changeSet, draft ? draft.doc : null);
  });
}

export async function resolveChangeSet(action) {
  const id = state.sessionId;
  const buttons = [byId("approve-button"), byId("reject-button")];
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
