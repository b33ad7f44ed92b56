import assert from "node:assert/strict";
import { test } from "node:test";
import { WEB_JS, freeze, node, page } from "./helpers.mjs";

const { PageStore, assetsShown, unknownAsset, assetLibrary } = await import(new URL("store.js", WEB_JS));
const { renderHtml } = await import(new URL("render.js", WEB_JS));
const { reduceAll } = await import(new URL("ops.js", WEB_JS));

const text = (id, parent, content) => node(id, parent, "V", { type: "text", props: { content } });
const setText = (id, content) => ({ t: "set_node_props", id, patch: { content } });

/** A server of one draft: its reads are counted, and each may be held until released. */
function server(doc, revision = 3) {
  const s = { doc, revision, reads: 0, held: [] };
  s.write = (ops) => {
    s.doc = reduceAll(s.doc, ops).doc;
    s.revision += ops.length;
    return { revision: s.revision, actor: "u", ops: ops.length, node_ids: [], copy: "draft", applied: ops };
  };
  s.read = () => {
    s.reads += 1;
    const answer = { revision: s.revision, page: s.doc, html: renderHtml(s.doc) };
    return new Promise((resolve) => s.held.push(() => resolve(answer)));
  };
  s.release = async () => {
    for (const go of s.held.splice(0)) go();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return s;
}

function store(s, options = {}) {
  const made = new PageStore({ read: s.read, ...options });
  const changes = [];
  made.subscribe((change) => changes.push(change));
  return { made, changes };
}

test("an event that lines up is applied with its ops, and no read is made", async () => {
  const s = server(freeze(page(node("a"), text("t", "a", "old"))));
  const { made, changes } = store(s);
  made.refresh();
  await s.release();
  assert.equal(made.revision(), 3);
  made.changed(s.write([setText("t", "new")]));
  assert.equal(s.reads, 1);
  assert.equal(made.revision(), 4);
  assert.equal(made.get().doc.nodes.t.props.content, "new");
  assert.deepEqual(changes.at(-1).nodeIds, ["t"]);
  assert.equal(changes.at(-1).before, 3);
  assert.deepEqual(made.get().doc, s.doc);
});

test("a missed write, or ops left out of the event, make one read", async () => {
  const s = server(page(node("a"), text("t", "a", "old")));
  const { made } = store(s);
  made.refresh();
  await s.release();
  s.write([setText("t", "one")]);
  made.changed(s.write([setText("t", "two")])); // revision 5 on a copy at 3
  assert.equal(s.reads, 2);
  await s.release();
  assert.equal(made.revision(), 5);
  const event = s.write([setText("t", "three")]);
  delete event.applied;
  made.changed(event);
  assert.equal(s.reads, 3);
  await s.release();
  assert.deepEqual(made.get().doc, s.doc);
});

test("events during a read never start a second one; they are applied on top of its answer", async () => {
  const s = server(page(node("a"), text("t", "a", "old")));
  const { made } = store(s);
  made.refresh();
  const events = [s.write([setText("t", "1")]), s.write([setText("t", "2")])];
  for (const event of events) made.changed(event);
  made.refresh();
  assert.equal(s.reads, 1, "one read in flight at most");
  // The answer (read before the two writes) is at revision 3; both events apply on it.
  s.doc = page(node("a"), text("t", "a", "old"));
  s.revision = 3;
  await s.release();
  assert.equal(s.reads, 1);
  assert.equal(made.revision(), 5);
  assert.equal(made.get().doc.nodes.t.props.content, "2");
});

test("an op the copy refuses means the copy is not the server's: it is read", async () => {
  const s = server(page(node("a")));
  const { made } = store(s);
  made.refresh();
  await s.release();
  made.changed({ revision: 4, ops: 1, node_ids: ["x"], copy: "draft", applied: [{ t: "remove_node", id: "x" }] });
  assert.equal(s.reads, 2);
});

test("an own write waits for its event; without one the draft is read once after the wait", async () => {
  const s = server(page(node("a"), text("t", "a", "old")));
  const timers = [];
  const { made } = store(s, { timers: { setTimeout: (fn) => timers.push(fn) } });
  made.refresh();
  await s.release();
  const event = s.write([setText("t", "mine")]);
  const reached = made.reach(event.revision);
  made.changed(event);
  assert.equal(await reached, true);
  assert.equal(s.reads, 1);
  const silent = s.write([setText("t", "lost")]);
  const later = made.reach(silent.revision);
  timers.at(-1)();
  await s.release();
  assert.equal(await later, true);
  assert.equal(s.reads, 2);
  assert.equal(made.get().doc.nodes.t.props.content, "lost");
});

test("a reset forgets the copies and ignores the answer of a read in flight", async () => {
  const s = server(page(node("a")));
  const { made } = store(s);
  made.refresh();
  made.reset();
  await s.release();
  assert.equal(made.get(), null);
});

test("the working copy applies its events and is dropped, not read, when they do not line up", () => {
  const s = server(page(node("a"), text("t", "a", "old")));
  const { made, changes } = store(s);
  made.accept("working", { revision: 2, page: s.doc });
  made.changed({ revision: 3, ops: 1, node_ids: ["t"], copy: "working", applied: [setText("t", "w")] });
  assert.equal(made.get("working").doc.nodes.t.props.content, "w");
  assert.equal(changes.at(-1).copy, "working");
  made.changed({ revision: 9, ops: 1, node_ids: ["t"], copy: "working", applied: [setText("t", "x")] });
  assert.equal(made.get("working"), null);
  assert.equal(s.reads, 0);
});

test("assets are learnt from the server's rendering; an op naming an unknown one is read instead", async () => {
  const img = node("i", null, "V", { type: "image", props: { asset: "cat", alt: "A cat" } });
  const gone = node("j", null, "W", { type: "image", props: { asset: "gone", alt: "" } });
  const doc = page(img, gone);
  const library = assetLibrary(new Map([["cat", "https://cdn.example/c.png?a=1&b=2"]]));
  const html = renderHtml(doc, { assets: library });
  const known = assetsShown(doc, html);
  assert.equal(known.get("cat"), "https://cdn.example/c.png?a=1&b=2");
  assert.equal(known.get("gone"), null);
  assert.equal(renderHtml(doc, { assets: assetLibrary(known) }), html);
  assert.equal(unknownAsset([{ t: "set_node_props", id: "i", patch: { asset: "cat" } }], known), false);
  assert.equal(unknownAsset([{ t: "insert_node", node: { id: "k", props: { asset: "dog" } } }], known), true);
  const s = server(doc);
  s.read = () => {
    s.reads += 1;
    return Promise.resolve({ revision: s.revision, page: s.doc, html });
  };
  const { made } = store(s);
  await made.refresh();
  made.changed(s.write([{ t: "set_node_props", id: "i", patch: { asset: "dog" } }]));
  assert.equal(s.reads, 2);
});
