// The History sheet in words (pure, no DOM; `node --test`): a `GET /history`
// answer read defensively, each group's who, when, what and revisions, a
// person's steps inside it (a restore and a reset are steps of their own),
// what can be restored from each, the reset button's state and the sentences
// the sheet says. Nodes are named with the words the server read at that
// revision, never with the draft's present text. js/history.js draws them. Guard: tests/unit/web/js/history_groups.test.mjs.

import { plural } from "./words.js";

const NAMED_NODES = 4;
const NAME_LIMIT = 28;

/** `{groups, nextBefore, revision, published}` of a `GET /history` answer; malformed parts become null or are dropped. */
export function historyPage(answer) {
  const body = answer && typeof answer === "object" ? answer : {};
  const integer = (value) => (Number.isInteger(value) ? value : null);
  return {
    groups: Array.isArray(body.groups) ? body.groups.filter((group) => group && typeof group === "object") : [],
    nextBefore: integer(body.next_before),
    revision: integer(body.revision),
    published: integer(body.published_revision),
  };
}

/** "The builder · turn", "ann", "Undo of a turn · ann", "The builder · approved changes". */
export function groupWho(group) {
  if (group.kind === "turn") return group.turn_id ? "The builder · turn" : "The builder · approved changes";
  const actor = typeof group.actor === "string" && group.actor ? group.actor : "Someone";
  return group.undoes ? `Undo of a turn · ${actor}` : actor;
}

/** "just now", "2 minutes ago", "yesterday": `at` (an ISO time) seen from `now` (ms); "" when unreadable. */
export function ago(at, now = Date.now()) {
  const then = Date.parse(at);
  if (!Number.isFinite(then)) return "";
  const seconds = Math.round((then - now) / 1000);
  const words = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
  for (const [unit, size] of [["day", 86400], ["hour", 3600], ["minute", 60]]) {
    if (Math.abs(seconds) >= size) return words.format(Math.round(seconds / size), unit);
  }
  return seconds > -45 ? "just now" : words.format(seconds, "second");
}

/** A node as the list names it: its first words in quotes (cut to 28 characters), else its id. */
export function shortName(id, words) {
  if (!words) return id;
  const cut = words.length > NAME_LIMIT ? `${words.slice(0, NAME_LIMIT - 1).trimEnd()}…` : words;
  return `“${cut}”`;
}

/** The first four names of `ids` (`nameOf(id)` → the node's words), each once, and "+N more". */
export function namedNodes(ids, nameOf) {
  // A section and its heading often share their words: each name once.
  const names = [...new Set(ids.map((id) => shortName(id, nameOf(id))))];
  return names.slice(0, NAMED_NODES).join(", ") +
    (names.length > NAMED_NODES ? ` +${names.length - NAMED_NODES} more` : "");
}

/** `nameOf(id)` over a group's or a step's `names` (its nodes' words as they were then, from the server). */
export function namesOf(unit) {
  const names = unit && unit.names && typeof unit.names === "object" ? unit.names : {};
  return (id) => (Object.hasOwn(names, id) && typeof names[id] === "string" ? names[id] : "");
}

/** What a step did: "Back to revision 106", "Back to the published page (revision 12)", "Edited “Fresh bread”". */
export function stepWhat(step, published = null) {
  const back = Number.isInteger(step.back_to) ? step.back_to : null;
  if (back !== null) return back === published ? `Back to the published page (revision ${back})` : `Back to revision ${back}`;
  const ids = Array.isArray(step.node_ids) ? step.node_ids.map(String) : [];
  return ids.length ? `Edited ${namedNodes(ids, namesOf(step))}` : "Edited";
}

// Restore targets of revisions `first` … `last`: the version it made (unless it is the draft now) and the one before.
function restoresOf(first, last, revision) {
  const restores = [];
  if (last !== revision) restores.push({ text: "Restore this version", revision: last });
  restores.push({ text: "Restore to before this", revision: first - 1 });
  return restores;
}

function span(first, last) {
  return first === last ? `Revision ${last}` : `Revisions ${first}–${last}`;
}

/** One step of a person's group: `{first, last, what, details, revisions, current, published, restores}`. */
export function describeStep(step, { revision = null, published = null, now = Date.now() } = {}) {
  const first = Number(step.first_revision);
  const last = Number(step.last_revision);
  return {
    first,
    last,
    what: stepWhat(step, published),
    details: [plural(Number(step.ops) || 0, "edit"), step.at ? ago(step.at, now) : ""].filter(Boolean).join(" · "),
    revisions: span(first, last),
    current: last === revision,
    published: published !== null && first <= published && published <= last,
    restores: restoresOf(first, last, revision),
  };
}

/**
 * One group as the sheet shows it: `{kind, first, last, who, details, at,
 * revisions, current, published, restores, steps}`; `revision` and
 * `published` are the draft's and the published page's revisions (null:
 * none), `now` the clock (ms). Nodes are named with the group's `names` (as
 * they were at its revision); `steps` are a person's writes, newest first,
 * each described by `describeStep` (none for a turn).
 */
export function describeGroup(group, { revision = null, published = null, now = Date.now() } = {}) {
  const first = Number(group.first_revision);
  const last = Number(group.last_revision);
  const ids = Array.isArray(group.node_ids) ? group.node_ids.map(String) : [];
  const rawSteps = Array.isArray(group.steps) ? group.steps.filter((step) => step && typeof step === "object") : [];
  const steps = rawSteps.map((step) => describeStep(step, { revision, published, now }));
  const when = group.at ? ago(group.at, now) : "";
  // One step that went back: say so on the group's line; else name the nodes.
  const what = rawSteps.length === 1 && Number.isInteger(rawSteps[0].back_to) ? steps[0].what : namedNodes(ids, namesOf(group));
  const counted = steps.length > 1 ? `${plural(Number(group.ops) || 0, "edit")} in ${steps.length} steps` : plural(Number(group.ops) || 0, "edit");
  return {
    kind: String(group.kind),
    first,
    last,
    who: groupWho(group),
    details: [counted, when, what].filter(Boolean).join(" · "),
    at: group.at || null,
    revisions: span(first, last),
    // With its steps listed, the step that is current or published carries the mark, once.
    current: steps.length <= 1 && last === revision,
    published: steps.length <= 1 && published !== null && first <= published && published <= last,
    restores: restoresOf(first, last, revision),
    steps: steps.length > 1 ? steps : [],
  };
}

/** *Reset to published*: `{disabled, why}` for the draft at `revision` and the published `published` (null: never). */
export function resetState(published, revision) {
  if (published === null) return { disabled: true, why: "Nothing is published yet." };
  if (published === revision) return { disabled: true, why: `The draft is the published page (revision ${published}).` };
  return { disabled: false, why: `The published page is revision ${published}.` };
}

/** The question asked before a restore or a reset, and its button's word. */
export function question(kind, revision, current) {
  const text = kind === "reset"
    ? `Reset the draft to the published page (revision ${revision})?`
    : revision === 0
      ? "Restore the empty page the draft started from (revision 0)?"
      : `Restore the page as it was at revision ${revision}?`;
  return {
    text: `${text} This adds a new revision on top of revision ${current}; nothing is lost: ` +
      "the current version stays in the history and can be restored.",
    button: kind === "reset" ? "Reset" : "Restore",
  };
}

/** What a restore (`kind` "restore" of `revision`) or a reset wrote, from its answer `{applied, revision}`. */
export function doneText(kind, revision, answer) {
  if (answer.applied === 0) return "The draft already is that page; nothing changed.";
  const done = kind === "reset" ? "Reset to the published page" : `Restored revision ${revision}`;
  return `${done}: the draft is now revision ${answer.revision}.`;
}

/** A refused restore or reset in words (`code` and `body` of the answer); null for a code said generically. */
export function refusalText(code, body, revision) {
  const said = body && typeof body === "object" ? body : {};
  if (code === "stale_revision") {
    const now = Number.isInteger(said.revision) ? ` (it is now at revision ${said.revision})` : "";
    return `Nothing changed: the page changed meanwhile${now}. The list is read again; look at it, then choose again.`;
  }
  if (code === "history_truncated") return `Nothing changed: revision ${revision} is further back than the kept history reaches.`;
  if (code === "not_found" && said.field === "published") return "Nothing changed: nothing is published yet, so there is no published page to reset to.";
  if (code === "invalid_request") return `Nothing changed: there is no revision ${revision} to restore.`;
  if (code === "conflicted") return "Nothing changed: the older page could not be put back over later edits.";
  return null;
}
