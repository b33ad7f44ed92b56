// The session's copy of its page: the draft and, in an approve-on-save
// session, the open change set's working copy, each a document at a revision.
// The stream's page.changed keeps them current: when an event's revision lines
// up with the copy (`revision - ops`), its `applied` ops are reduced here with
// js/ops.js; otherwise the copy is read once (never two reads of a copy at a
// time: events that arrive meanwhile wait for the answer and are applied on
// top of it). Views read the copies and subscribe to their changes.
// Pure: the reads are given to it, nothing here touches the DOM or the network.
// Guard: tests/unit/web/js/store.test.mjs.

import { reduceAll, touchedNodeIds } from "./ops.js";
import { unescapeHtml } from "./hrefs.js";
import { escapeHtml } from "./render.js";
import { get, isDict } from "./tree.js";

/** How long an own write waits for its page.changed before the copy is read instead. */
export const REACH_WAIT_MS = 1500;
// How deep `unknownAsset` looks into an op (an inserted node's props sit at depth 3).
const ASSET_DEPTH = 6;

/**
 * The asset ids an HTML rendering of `doc` shows, with their URLs: each image
 * node's `<img src>` as the server rendered it, or null when it rendered none
 * (an asset the library does not have). The page cannot ask the host's asset
 * library, so this is what it knows of it.
 */
export function assetsShown(doc, html, known = new Map()) {
  const out = new Map(known);
  if (typeof html !== "string" || !isDict(doc) || !isDict(get(doc, "nodes"))) return out;
  for (const [id, node] of Object.entries(doc.nodes)) {
    if (!isDict(node) || get(node, "type") !== "image") continue;
    const asset = get(get(node, "props"), "asset");
    if (typeof asset !== "string" || !asset) continue;
    const at = html.indexOf(`data-cms="${escapeHtml(id)}"`);
    if (at < 0) continue; // not rendered (outside the tree): says nothing of the asset
    const tail = /^[^>]*>(<img src="([^"]*)")?/.exec(html.slice(at));
    out.set(asset, tail && tail[2] !== undefined ? unescapeHtml(tail[2]) : null);
  }
  return out;
}

/** Whether an op names an asset `known` has no answer for (its rendering would be a guess). */
export function unknownAsset(ops, known) {
  const look = (value, depth) => {
    if (depth > ASSET_DEPTH || value === null || typeof value !== "object") return false;
    if (Array.isArray(value)) return value.some((item) => look(item, depth + 1));
    return Object.entries(value).some(([key, inner]) =>
      key === "asset" && typeof inner === "string" && inner ? !known.has(inner) : look(inner, depth + 1));
  };
  return look(ops, 0);
}

/** An asset library (`render.js`'s `{exists, url}`) over what `assetsShown` learnt. */
export function assetLibrary(known) {
  return { exists: (id) => typeof known.get(id) === "string", url: (id) => known.get(id) };
}

function copyOf(answer, known) {
  return { doc: answer.page, revision: answer.revision, assets: assetsShown(answer.page, answer.html, known) };
}

/**
 * The page copies of one session. `read(copy)` answers `{revision, page, html}`
 * (the draft's `GET /draft`), or null when that copy has no read of its own
 * (the working copy is fed by the change set's reads through `accept`).
 */
export class PageStore {
  constructor({ read, waitMs = REACH_WAIT_MS, timers = globalThis } = {}) {
    this._read = read;
    this._waitMs = waitMs;
    this._timers = timers;
    this._listeners = new Set();
    this._open();
  }

  // Everything a session's copies are; `reset` starts it over.
  _open() {
    this._generation = (this._generation ?? 0) + 1;
    this._copies = { draft: null, working: null };
    this._reading = { draft: null, working: null };
    this._waiting = { draft: [], working: [] }; // events that came while the copy was read
    this._waiters = []; // [{revision, resolve}]: own writes waiting for their page.changed
  }

  /** Forget the session's copies (a session closed or another opened); reads in flight are ignored. */
  reset() {
    for (const waiter of this._waiters) waiter.resolve(false);
    this._open();
  }

  /** `{doc, revision, assets}` of a copy ("draft" or "working"), or null before it is known. */
  get(copy = "draft") {
    return this._copies[copy] ?? null;
  }

  /** The draft's revision known here, or null. */
  revision() {
    return this._copies.draft ? this._copies.draft.revision : null;
  }

  /** `fn({copy, revision, before, ops, nodeIds})` after each change; `ops` null when the copy was read anew. */
  subscribe(fn) {
    this._listeners.add(fn);
    return () => this._listeners.delete(fn);
  }

  _notify(change) {
    for (const fn of this._listeners) fn(change);
    if (change.copy !== "draft") return;
    const reached = this._waiters.filter((waiter) => waiter.revision <= change.revision);
    this._waiters = this._waiters.filter((waiter) => waiter.revision > change.revision);
    for (const waiter of reached) waiter.resolve(true);
  }

  /** A whole copy read (`{revision, page, html?}`; null: the change set is gone); older than the copy: ignored. */
  accept(copy, answer) {
    if (answer === null) {
      this._copies[copy] = null;
      this._notify({ copy, revision: null, before: null, ops: null, nodeIds: null });
      return;
    }
    if (!isDict(answer) || !Number.isInteger(answer.revision) || !isDict(answer.page)) return;
    const current = this._copies[copy];
    if (current && answer.revision < current.revision) return;
    if (current && answer.revision === current.revision && copy === "draft") return;
    this._copies[copy] = copyOf(answer, current ? current.assets : undefined);
    this._notify({ copy, revision: answer.revision, before: null, ops: null, nodeIds: null });
  }

  /** A `page.changed` payload: applied when it lines up with the copy, else the copy is read once. */
  changed(payload) {
    if (!isDict(payload) || !Number.isInteger(payload.revision)) return;
    const copy = payload.copy === "working" ? "working" : "draft";
    if (this._reading[copy]) {
      this._waiting[copy].push(payload);
      return;
    }
    const current = this._copies[copy];
    if (current && payload.revision <= current.revision) return; // known already (a read got there first)
    const ops = Array.isArray(payload.applied) ? payload.applied : null;
    const lined = current && ops && Number.isInteger(payload.ops) && current.revision === payload.revision - payload.ops;
    if (lined && !unknownAsset(ops, current.assets)) {
      const { doc, skipped } = reduceAll(current.doc, ops);
      // The server applied every one of them: a refusal here means this copy is not the server's.
      if (skipped.length === 0) {
        this._copies[copy] = { doc, revision: payload.revision, assets: current.assets };
        this._notify({ copy, revision: payload.revision, before: current.revision, ops, nodeIds: touchedNodeIds(ops) });
        return;
      }
    }
    if (copy === "working") {
      // Its reads are the change set's (js/review.js reads it on every such event).
      this._copies.working = null;
      return;
    }
    this.refresh(copy).catch(() => {});
  }

  /** Read a copy now; a read already on its way is shared. Resolves with the copy (null: not read). */
  refresh(copy = "draft") {
    if (this._reading[copy]) return this._reading[copy];
    const generation = this._generation;
    const reading = (async () => {
      try {
        const answer = this._read ? await this._read(copy) : null;
        if (generation === this._generation && answer) this.accept(copy, answer);
      } finally {
        if (generation === this._generation) {
          this._reading[copy] = null;
          const waiting = this._waiting[copy].splice(0);
          for (const payload of waiting) this.changed(payload);
        }
      }
      return this._copies[copy];
    })();
    this._reading[copy] = reading;
    return reading;
  }

  /**
   * Resolves once the draft is at `revision` or later: an own write's answer
   * names its revision, and its page.changed brings the ops. If the event has
   * not come within the wait (the stream is away), the draft is read once.
   * Resolves false when the session was closed meanwhile.
   */
  reach(revision) {
    const current = this.revision();
    if (!Number.isInteger(revision) || (current !== null && current >= revision)) return Promise.resolve(true);
    const generation = this._generation;
    return new Promise((resolve) => {
      const waiter = { revision, resolve };
      this._waiters.push(waiter);
      this._timers.setTimeout(() => {
        if (generation !== this._generation || !this._waiters.includes(waiter)) return;
        this.refresh("draft")
          .catch(() => null)
          .then(() => {
            if (generation !== this._generation) return;
            this._waiters = this._waiters.filter((other) => other !== waiter);
            resolve(true);
          });
      }, this._waitMs);
    });
  }
}
