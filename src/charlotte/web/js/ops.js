// The reducer, as the server's: charlotte.page.ops (reduce, reduce_all,
// touched_node_ids) over the op table of charlotte.page.op_table, with the
// same checks, effects and reason strings. The builder applies the ops a
// `page.changed` event carries to its own copy of the draft with it.
//
// Pure: the document given is never mutated. A batch copies the top level and
// the node map once and each node the first time an op changes it, so
// documents share unchanged nodes; nothing may mutate a document in place.
// A map entry is a node only when it is an object whose `id` equals its key;
// an entry whose `parent` is neither null nor a string belongs to no parent.
// Guard: tests/unit/web/test_ops_js.py (against the Python reducer).

import { keyBetween } from "./order.js";
import { copy, get, has, isDict, isInt, merged, pyEqual, put, sortNodes } from "./tree.js";

export const NODE_EXISTS = "node id already exists";
export const PARENT_NOT_FOUND = "parent not found";
export const NODE_NOT_FOUND = "node not found";
export const SELF_PARENT = "cannot parent a node to itself";
export const NEW_PARENT_NOT_FOUND = "new parent not found";
export const CYCLE = "move would create a cycle";
export const BAD_REORDER = "reorder must be a permutation of the current roots";
export const MALFORMED_OP = "malformed op";
export const MALFORMED_DOC = "malformed document";

/** The reason for an op whose `t` the reducer does not know. */
export function unknownOp(t) {
  return `unknown op "${t}"`;
}

const isPayloadNode = (v) => isDict(v) && typeof get(v, "id") === "string";
const SHAPES = {
  str: (v) => typeof v === "string",
  "str|None": (v) => v === null || typeof v === "string",
  object: isDict,
  list: Array.isArray,
  int: isInt,
  any: () => true,
  node: (v) => isPayloadNode(v) && has(v, "parent") && SHAPES["str|None"](v.parent),
  "any node": isPayloadNode,
};

// The parent an entry is indexed under; STRAY when it is no node or its parent is no id.
const STRAY = Symbol("stray");
function slot(key, value) {
  if (!isDict(value) || get(value, "id") !== key) return STRAY;
  const parent = get(value, "parent") ?? null;
  return parent === null || typeof parent === "string" ? parent : STRAY;
}

function isDoc(doc) {
  return isDict(doc) && isDict(get(doc, "nodes")) && isInt(get(doc, "seq"));
}

/** A page document changed op by op, copy-on-write (charlotte.page.working_copy.WorkingCopy). */
export class WorkingCopy {
  constructor(doc) {
    this._doc = doc;
    this._ok = isDoc(doc);
    this._nodes = this._ok ? doc.nodes : {};
    this._writable = false;
    this._owned = new Set();
    this._kids = null;
  }

  /** The current document (the input object itself while no op has applied). */
  get doc() {
    this._writable = false;
    return this._doc;
  }

  /** The current node `id`, or null (do not mutate it). */
  node(id) {
    const value = get(this._nodes, id);
    return isDict(value) && get(value, "id") === id ? value : null;
  }

  /** Child ids of `parent` (null: the roots), by `order` then id. */
  children(parent) {
    const kids = this._index().get(parent);
    if (!kids) return [];
    return sortNodes([...kids.keys()].map((k) => this._nodes[k]), (node) => node.id).map((node) => node.id);
  }

  /** Transitive descendant ids of `id`, in `tree.descendants_of` order. */
  descendants(id) {
    const out = [];
    const seen = new Set([id]);
    const stack = [id];
    while (stack.length) {
      for (const child of this.children(stack.pop())) {
        if (seen.has(child)) continue;
        seen.add(child);
        out.push(child);
        stack.push(child);
      }
    }
    return out;
  }

  /** Ancestor ids of `id`, nearest first; cycle-safe, stops at a missing id. */
  ancestors(id) {
    const out = [];
    const seen = new Set([id]);
    let node = this.node(id);
    while (node !== null) {
      const parent = get(node, "parent");
      if (typeof parent !== "string" || seen.has(parent)) break;
      node = this.node(parent);
      if (node === null) break;
      seen.add(parent);
      out.push(parent);
    }
    return out;
  }

  /** Apply `op`; on an invalid op return the reason and change nothing (null when applied). */
  apply(op) {
    const reason = this.check(op);
    if (reason === null) {
      if (!this._writable) {
        this._nodes = copy(this._nodes);
        this._doc = put(copy(this._doc), "nodes", this._nodes);
        this._owned.clear();
        this._writable = true;
      }
      OPS[op.t][2](this, op);
      this._doc.seq += 1;
    }
    return reason;
  }

  /** The reason `op` cannot apply to the current state, or null. */
  check(op) {
    if (!this._ok) return MALFORMED_DOC;
    if (!isDict(op)) return MALFORMED_OP;
    const t = get(op, "t");
    if (typeof t !== "string") return MALFORMED_OP;
    if (!Object.hasOwn(OPS, t)) return unknownOp(t);
    const [fields, check] = OPS[t];
    for (const [name, shape] of Object.entries(fields)) {
      if (!has(op, name) || !SHAPES[shape](op[name])) return MALFORMED_OP;
    }
    return check(this, op);
  }

  _index() {
    if (this._kids === null) {
      this._kids = new Map();
      for (const [key, value] of Object.entries(this._nodes)) this._link(key, value);
    }
    return this._kids;
  }

  _link(key, value) {
    const parent = slot(key, value);
    if (this._kids === null || parent === STRAY) return;
    if (!this._kids.has(parent)) this._kids.set(parent, new Map());
    this._kids.get(parent).set(key, true);
  }

  _unlink(key, value) {
    const parent = slot(key, value);
    if (this._kids === null || parent === STRAY) return;
    const kids = this._kids.get(parent);
    if (kids === undefined) return;
    kids.delete(key);
    if (kids.size === 0) this._kids.delete(parent);
  }

  _own(id) {
    let node = this._nodes[id];
    if (!this._owned.has(id)) {
      node = copy(node);
      put(this._nodes, id, node);
      this._owned.add(id);
    }
    return node;
  }

  _put(id, node) {
    if (has(this._nodes, id)) this._unlink(id, this._nodes[id]);
    put(this._nodes, id, node);
    this._owned.delete(id); // a node from an op is shared with the op: copy before changing
    this._link(id, node);
  }

  _setParent(id, parent, order) {
    const node = this._own(id);
    this._unlink(id, node);
    put(node, "parent", parent);
    put(node, "order", order);
    this._link(id, node);
  }

  _remove(id) {
    const doomed = [id, ...this.descendants(id)];
    const kids = this._index();
    for (const key of doomed) {
      const value = this._nodes[key];
      delete this._nodes[key];
      this._unlink(key, value);
      kids.delete(key);
      this._owned.delete(key);
    }
  }
}

// -- the op table: field shapes, a check, an effect --------------------------

const found = (wc, op) => (wc.node(op.id) !== null ? null : NODE_NOT_FOUND);

function checkInsert(wc, op) {
  const { id, parent } = op.node;
  if (has(wc._nodes, id)) return NODE_EXISTS;
  return parent !== null && wc.node(parent) === null ? PARENT_NOT_FOUND : null;
}

function checkMove(wc, op) {
  const { id, parent } = op;
  if (wc.node(id) === null) return NODE_NOT_FOUND;
  if (parent === id) return SELF_PARENT;
  if (parent !== null) {
    if (wc.node(parent) === null) return NEW_PARENT_NOT_FOUND;
    if (wc.ancestors(parent).includes(id)) return CYCLE;
  }
  return null;
}

function checkReorder(wc, op) {
  const order = op.order;
  const roots = wc._index().get(null) ?? new Map();
  const ok = order.length === roots.size
    && order.every((id) => typeof id === "string" && roots.has(id))
    && new Set(order).size === order.length;
  return ok ? null : BAD_REORDER;
}

function checkRestore(wc, op) {
  const id = op.node.id;
  return has(wc._nodes, id) && wc.node(id) === null ? MALFORMED_DOC : null;
}

const hasObject = (key) => (wc) => (isDict(get(wc._doc, key)) ? null : MALFORMED_DOC);

function doProps(wc, op) {
  const node = wc._own(op.id);
  put(node, "props", merged(get(node, "props"), op.patch));
}

function doLayout(wc, op) {
  const node = wc._own(op.id);
  const layout = get(op, "layout") ?? null;
  if (layout === null) delete node.layout;
  else put(node, "layout", layout);
}

function doBreakpointMerge(key, fallback) {
  return (wc, op) => {
    const node = wc._own(op.id);
    const current = get(node, key);
    const outer = isDict(current) ? current : fallback();
    const bp = op.breakpoint;
    put(node, key, put(copy(outer), bp, merged(get(outer, bp), op.patch)));
  };
}

const hug = () => ({ base: { width: "hug", height: "hug" } });

function listOf(node, key) {
  const value = get(node, key);
  return Array.isArray(value) ? value : [];
}

const sameAnim = (item, animId) => isDict(item) && pyEqual(get(item, "id"), animId);

function doSetAnimation(wc, op) {
  const node = wc._own(op.id);
  const anim = op.anim;
  const items = [...listOf(node, "animations")];
  const at = items.findIndex((a) => sameAnim(a, get(anim, "id")));
  if (at < 0) items.push(anim);
  else items[at] = anim;
  put(node, "animations", items);
}

function doRemoveAnimation(wc, op) {
  const node = wc._own(op.id);
  put(node, "animations", listOf(node, "animations").filter((a) => !sameAnim(a, op.animId)));
}

function doSetAction(wc, op) {
  const node = wc._own(op.id);
  const items = [...listOf(node, "actions")];
  const { index, action } = op;
  if (action === null) {
    if (index >= 0 && index < items.length) items.splice(index, 1);
  } else if (index >= items.length) {
    items.push(action);
  } else if (index >= 0) { // a negative index matches no position: nothing changes
    items[index] = action;
  }
  put(node, "actions", items);
}

function doReorder(wc, op) {
  let key = null;
  for (const id of op.order) {
    key = keyBetween(key, null);
    put(wc._own(id), "order", key);
  }
}

function doTop(key, field, merge) {
  return (wc, op) => put(wc._doc, key, merge ? merged(wc._doc[key], op[field]) : op[field]);
}

const doPut = (wc, op) => wc._put(op.node.id, op.node);
const BP_PATCH = { id: "str", breakpoint: "str", patch: "object" };

/** t → [field shapes, check, effect]; the effect runs only after the check passed. */
const OPS = {
  insert_node: [{ node: "node" }, checkInsert, doPut],
  remove_node: [{ id: "str" }, found, (wc, op) => wc._remove(op.id)],
  move_node: [{ id: "str", parent: "str|None", order: "str" }, checkMove,
    (wc, op) => wc._setParent(op.id, op.parent, op.order)],
  set_node_props: [{ id: "str", patch: "object" }, found, doProps],
  set_layout: [{ id: "str" }, found, doLayout],
  set_style: [BP_PATCH, found, doBreakpointMerge("style", () => ({}))],
  set_constraints: [BP_PATCH, found, doBreakpointMerge("constraints", hug)],
  set_animation: [{ id: "str", anim: "object" }, found, doSetAnimation],
  remove_animation: [{ id: "str", animId: "str" }, found, doRemoveAnimation],
  set_action: [{ id: "str", index: "int", action: "any" }, found, doSetAction],
  set_meta: [{ patch: "object" }, hasObject("meta"), doTop("meta", "patch", true)],
  set_theme: [{ patch: "object" }, hasObject("theme"), doTop("theme", "patch", true)],
  reorder_roots: [{ order: "list" }, checkReorder, doReorder],
  restore_node: [{ node: "any node" }, checkRestore, doPut],
  restore_meta: [{ meta: "object" }, hasObject("meta"), doTop("meta", "meta", false)],
  restore_theme: [{ theme: "object" }, hasObject("theme"), doTop("theme", "theme", false)],
};
Object.setPrototypeOf(OPS, null);

/** The op types of the spec table and charlotte's own restore ops, as the Python side names them. */
export const RESTORE_OP_TYPES = Object.freeze(["restore_node", "restore_meta", "restore_theme"]);
export const OP_TYPES = Object.freeze(Object.keys(OPS).filter((t) => !RESTORE_OP_TYPES.includes(t)));

/** Apply one op: `{doc, reason: null}`, or `{doc: the same doc, reason}` when invalid. */
export function reduce(doc, op) {
  const wc = new WorkingCopy(doc);
  const reason = wc.apply(op);
  return { doc: wc.doc, reason };
}

/** Apply ops in order, skipping invalid ones: `{doc, skipped: [[index, reason], ...]}`. */
export function reduceAll(doc, ops) {
  const wc = new WorkingCopy(doc);
  const skipped = [];
  ops.forEach((op, i) => {
    const reason = wc.apply(op);
    if (reason !== null) skipped.push([i, reason]);
  });
  return { doc: wc.doc, skipped };
}

/** The id of the node `op` writes (an inserted node's own id, else the op's `id`), or null. */
export function writtenNodeId(op) {
  if (!isDict(op)) return null;
  const node = get(op, "node");
  const id = isDict(node) ? get(node, "id") : get(op, "id");
  return typeof id === "string" ? id : null;
}

/** Ids of the nodes a batch of ops writes, first-seen order (`touched_node_ids`). */
export function touchedNodeIds(ops) {
  const seen = new Set();
  for (const op of ops) {
    const id = writtenNodeId(op);
    if (id !== null) seen.add(id);
  }
  return [...seen];
}
