// An approve-on-save session's change set: what it would change, node by
// node (the server's diff), and the Approve / Reject buttons.

import { ApiError, api, sessionPath } from "./api.js";
import { $, byTestId, el, plural, report, showError, state, whileBusy } from "./dom.js";
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
  byTestId("change-set").hidden = true;
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

/** Rows of a diff (`{added, removed, changed, meta, theme}`), as the change set and the publish dialog show it. */
export function diffRows(diff, tag = "div") {
  const added = Array.isArray(diff.added) ? diff.added : [];
  const removed = Array.isArray(diff.removed) ? diff.removed : [];
  const changed = Array.isArray(diff.changed) ? diff.changed : [];
  const rows = [];
  const row = (kind, label, ...content) => {
    const item = el(tag, "diff-row");
    item.dataset.kind = kind;
    const kindTag = el("span", "diff-kind", label);
    kindTag.dataset.kind = kind;
    const body = el("div", "diff-body");
    body.append(...content);
    item.append(kindTag, body);
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
  return rows;
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
  const parts = [plural(changeSet.ops, "edit"), `based on revision ${changeSet.base_revision}`];
  if (changeSet.draft_revision !== changeSet.base_revision) {
    parts.push(`the draft is now at revision ${changeSet.draft_revision}`);
  }
  $('[data-role="change-set-summary"]').textContent = parts.join(" · ");
  const rows = diffRows(changeSet.diff || {});
  if (rows.length === 0) rows.push(el("p", "muted", "No differences from the current draft."));
  $('[data-role="diff"]').replaceChildren(...rows);
}

export async function resolveChangeSet(action) {
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
