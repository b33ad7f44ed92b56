// Writing the person's edits: one queue (each batch sent after the one before
// it, on the revision the model last saw), a stale revision read again and
// retried once, and the undo and redo stacks over the undo route. An edit's
// answer names its revision; the store (js/draft.js) gets there with the ops
// the stream's page.changed carries, so the next edit is built on it.

import { ApiError, api, sessionPath } from "./api.js";
import { state } from "./dom.js";
import { store } from "./draft.js";
import { draftRevision, keyName, model, nodeOf, rootIds, select } from "./editor.js";

const STACK_LIMIT = 100;
const undoStack = []; // [{from, to}]: the revisions of one of this person's writes
const redoStack = [];
let queue = Promise.resolve();
let noticeFn = () => {};
const stacksFns = new Set();
const stacksFn = () => stacksFns.forEach((fn) => fn());

/** Call `fn` whenever the undo or redo stack changes (the Undo buttons follow). */
export function onStacks(fn) {
  stacksFns.add(fn);
}

/** Where the editor's sentences go (the notice line of the editor panel). */
export function onNotice(fn) {
  noticeFn = fn;
}

/** Say a sentence in the editor's notice line ("ok", "bad" or "" for its tone). */
export function notice(message, tone = "") {
  noticeFn(message, tone);
}

export function resetEdits() {
  undoStack.length = 0;
  redoStack.length = 0;
  written.clear();
  queue = Promise.resolve();
  stacksFn();
}

/** A write of this person's made elsewhere on the page (a History restore or reset): Undo takes it back too. */
export function rememberOwnWrite(answer) {
  if (!answer || typeof answer !== "object") return;
  remember(undoStack, answer);
  redoStack.length = 0;
  stacksFn();
}

export const canUndo = () => undoStack.length > 0;
export const canRedo = () => redoStack.length > 0;

/** A refusal the caller shows itself (beside a field, in the notice line). */
export class EditRefused extends Error {}

function rangeOf(answer) {
  return { from: answer.revision - answer.applied + 1, to: answer.revision };
}

const written = new Set(); // the revisions this page wrote (their events need no chat note)
const WRITTEN_LIMIT = 1000;

const outside = new Set(); // this page's writes not made through the queue, still waiting for their answers

/** Whether this page wrote `revision` (an edit, an undo, a redo, a restore, a reset here), once its writes in flight have answered. */
export function wroteRevision(revision) {
  return Promise.allSettled([queue, ...outside]).then(() => written.has(revision));
}

/**
 * A write of this page made outside the edit queue (History's restore and
 * reset, *Undo this turn*): `request` is its pending answer `{revision,
 * applied}`, whose revision then counts as this page's (its event adds no
 * chat note). Returns `request`.
 */
export function ownWrite(request) {
  const held = request.then((answer) => {
    if (answer && Number.isInteger(answer.revision) && Number.isInteger(answer.applied) && answer.applied > 0) {
      noteWritten(answer.revision);
    }
  });
  outside.add(held);
  held.catch(() => {}).finally(() => outside.delete(held));
  return request;
}

function noteWritten(revision) {
  written.add(revision);
  if (written.size > WRITTEN_LIMIT) written.delete(written.values().next().value);
}

function remember(stack, answer) {
  if (!Number.isInteger(answer.revision) || !Number.isInteger(answer.applied) || answer.applied < 1) return;
  noteWritten(answer.revision);
  stack.push(rangeOf(answer));
  if (stack.length > STACK_LIMIT) stack.shift();
}

// Whether the ops can still be applied as they are: every node they name is there.
function stillApplies(ops) {
  const inserted = new Set(); // a batch may insert a node under one it inserts first
  const exists = (id) => inserted.has(id) || nodeOf(id) !== null;
  return ops.every((op) => {
    if (op.t === "insert_node") {
      const parent = op.node.parent;
      if (nodeOf(op.node.id) || (parent !== null && !exists(parent))) return false;
      inserted.add(op.node.id);
      return true;
    }
    if (op.t === "reorder_roots") {
      const roots = rootIds();
      return roots.length === op.order.length && op.order.every((id) => roots.includes(id));
    }
    if (op.t === "move_node" && op.parent !== null && !exists(op.parent)) return false;
    return typeof op.id !== "string" || exists(op.id);
  });
}

async function post(ops) {
  return api("POST", sessionPath(state.sessionId, "/edits"), { ops, basedOn: draftRevision() ?? 0 });
}

async function send(build, selectAfter, selectedBefore) {
  const id = state.sessionId;
  // Built now, on the draft the edits before it left (each waits until the store has its revision).
  const ops = typeof build === "function" ? build() : build;
  if (!ops.length) return null;
  let answer;
  try {
    answer = await post(ops);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "stale_revision") throw error;
    // Someone (the builder, another tab) wrote meanwhile: catch up with it, try once more.
    const newer = error.body ? error.body.revision : undefined;
    if (Number.isInteger(newer)) await store.reach(newer);
    else await store.refresh().catch(() => null);
    if (state.sessionId !== id) throw new EditRefused("The session was closed.");
    if (!stillApplies(ops)) throw new EditRefused("The page changed meanwhile, so your edit was not applied.");
    answer = await post(ops);
  }
  if (state.sessionId !== id) return answer;
  remember(undoStack, answer);
  redoStack.length = 0;
  stacksFn();
  await store.reach(answer.revision);
  // The node the edit selects, unless the person has selected another meanwhile
  // (a selection the edit removed counts as unchanged).
  const unchanged = model.selected === selectedBefore || (model.selected === null && !nodeOf(selectedBefore));
  if (selectAfter !== undefined && unchanged && state.sessionId === id) {
    select(typeof selectAfter === "function" ? selectAfter(answer) : selectAfter);
  }
  return answer;
}

/**
 * Queue one batch of ops as one edit; resolves with the edit's answer (null: no ops).
 * `ops` may be a function building them when the edits before have landed.
 * `selectAfter` is the node to select once it has landed (null: none).
 * Rejects with the ApiError (a field shows its words) or an EditRefused.
 */
export function submit(ops, { selectAfter } = {}) {
  const selectedBefore = model.selected;
  const done = queue.then(() => send(ops, selectAfter, selectedBefore));
  queue = done.catch(() => {});
  return done;
}

/** submit, with any refusal said in the notice line. */
export function submitOrSay(ops, options) {
  return submit(ops, options).catch((error) => {
    noticeFn(error.message || "The edit was not applied.", "bad");
    return null;
  });
}

// ------------------------------------------------------------------ undo and redo

function refusal(error, doing) {
  if (!(error instanceof ApiError)) return error.message;
  if (error.code === "conflicted") {
    const nodes = error.body && Array.isArray(error.body.nodes) ? error.body.nodes.map(keyName) : [];
    const named = nodes.length ? `: later changes touched ${nodes.join(", ")}` : ": later changes touched the same nodes";
    return `Could not ${doing}${named}.`;
  }
  if (error.code === "not_own_edit") return `Could not ${doing}: that change is not one of yours.`;
  if (error.code === "history_truncated") return `Could not ${doing}: that change is too old to take back.`;
  return `Could not ${doing}: ${error.message}`;
}

async function takeBack(from, onto, doing) {
  const range = from.pop();
  stacksFn();
  if (!range) {
    noticeFn(`Nothing to ${doing}.`, "");
    return;
  }
  const id = state.sessionId;
  try {
    const body = { from: range.from, to: range.to };
    const path = sessionPath(id, "/edits/undo");
    // The draft moved between the server's read and its write: once more.
    const answer = await api("POST", path, body).catch((error) => {
      if (error instanceof ApiError && error.code === "stale_revision") return api("POST", path, body);
      throw error;
    });
    if (state.sessionId !== id) return;
    remember(onto, answer);
    stacksFn();
    noticeFn(doing === "undo" ? "Undone." : "Redone.", "ok");
    await store.reach(answer.revision);
    // The nodes it touched that still exist stay selectable; an undone insert deselects.
    if (model.selected !== null) select(model.selected);
  } catch (error) {
    if (state.sessionId === id) noticeFn(refusal(error, doing), "bad");
  }
}

/** Take back this person's own last edit (a new write of theirs; redo takes that back). */
export function undo() {
  queue = queue.then(() => takeBack(undoStack, redoStack, "undo"));
  return queue;
}

export function redo() {
  queue = queue.then(() => takeBack(redoStack, undoStack, "redo"));
  return queue;
}
