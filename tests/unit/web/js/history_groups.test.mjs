import assert from "node:assert/strict";
import { test } from "node:test";
import { WEB_JS, freeze } from "./helpers.mjs";

const history = await import(new URL("history_groups.js", WEB_JS));

const NOW = Date.parse("2024-05-01T12:00:00Z");

test("a history answer is read defensively", () => {
  const read = history.historyPage(freeze({
    groups: [{ kind: "turn" }, null, "x", { kind: "actor" }], next_before: 7, revision: 12, published_revision: 3,
  }));
  assert.deepEqual(read, { groups: [{ kind: "turn" }, { kind: "actor" }], nextBefore: 7, revision: 12, published: 3 });
  assert.deepEqual(history.historyPage({ groups: "no", next_before: "7", revision: 1.5, published_revision: null }), {
    groups: [], nextBefore: null, revision: null, published: null,
  });
  assert.deepEqual(history.historyPage(null), { groups: [], nextBefore: null, revision: null, published: null });
});

test("who made a group: a turn, an approval's replay, a person, an undo", () => {
  assert.equal(history.groupWho({ kind: "turn", turn_id: "t1" }), "The builder · turn");
  assert.equal(history.groupWho({ kind: "turn", turn_id: null }), "The builder · approved changes");
  assert.equal(history.groupWho({ kind: "actor", actor: "ann" }), "ann");
  assert.equal(history.groupWho({ kind: "actor", actor: "" }), "Someone");
  assert.equal(history.groupWho({ kind: "actor", actor: "ann", undoes: "t1" }), "Undo of a turn · ann");
});

test("when, in words, from the clock given", () => {
  assert.equal(history.ago("2024-05-01T11:59:40Z", NOW), "just now");
  assert.equal(history.ago("2024-05-01T11:59:10Z", NOW), "50 seconds ago");
  assert.equal(history.ago("2024-05-01T11:58:00Z", NOW), "2 minutes ago");
  assert.equal(history.ago("2024-05-01T09:00:00Z", NOW), "3 hours ago");
  assert.equal(history.ago("2024-04-30T12:00:00Z", NOW), "yesterday");
  assert.equal(history.ago("not a time", NOW), "");
});

test("nodes are named by their first words, each name once, four at most", () => {
  assert.equal(history.shortName("hero", ""), "hero");
  assert.equal(history.shortName("hero", "Rosa's Bakery"), "“Rosa's Bakery”");
  assert.equal(history.shortName("t", "a".repeat(40)), `“${"a".repeat(27)}…”`);
  const words = { about: "About us", "about-heading": "About us", a: "A", b: "B", c: "C", d: "" };
  assert.equal(history.namedNodes(["about", "about-heading", "a"], (id) => words[id]), "“About us”, “A”");
  assert.equal(history.namedNodes(["about", "a", "b", "c", "d"], (id) => words[id]), "“About us”, “A”, “B”, “C” +1 more");
});

test("a group: its line, its revisions, its marks and what it can restore", () => {
  const group = freeze({
    kind: "turn", turn_id: "t1", first_revision: 3, last_revision: 5, ops: 17, at: "2024-05-01T11:58:00Z",
    node_ids: ["hero", "hero-heading"], names: { hero: "Fresh bread" }, steps: [],
  });
  const current = history.describeGroup(group, { revision: 5, published: 4, now: NOW });
  assert.deepEqual(current, {
    kind: "turn", first: 3, last: 5, who: "The builder · turn",
    details: "17 edits · 2 minutes ago · “Fresh bread”, hero-heading", at: "2024-05-01T11:58:00Z",
    revisions: "Revisions 3–5", current: true, published: true,
    restores: [{ text: "Restore to before this", revision: 2 }], steps: [],
  });
  const older = history.describeGroup(
    { kind: "actor", actor: "ann", first_revision: 2, last_revision: 2, ops: 1 }, { revision: 5, published: null },
  );
  assert.equal(older.details, "1 edit");
  assert.equal(older.revisions, "Revision 2");
  assert.equal(older.at, null);
  assert.equal(older.current, false);
  assert.equal(older.published, false);
  assert.deepEqual(older.restores, [
    { text: "Restore this version", revision: 2 }, { text: "Restore to before this", revision: 1 },
  ]);
});

test("nodes are named with the words the server read at that revision, never the draft's", () => {
  const group = freeze({ kind: "turn", turn_id: "t", first_revision: 1, last_revision: 2, ops: 2,
    node_ids: ["title"], names: { title: "Caring for Norwich pets since 1998" } });
  assert.equal(history.describeGroup(group, { revision: 9, now: NOW }).details, "2 edits · “Caring for Norwich pets sin…”");
  // Without a name (history older than the walk reached), the id: not today's text.
  assert.equal(history.describeGroup({ ...group, names: { toString: "x" } }, { now: NOW }).details, "2 edits · title");
  assert.equal(history.namesOf({ names: { a: 1 } })("a"), "");
});

test("a person's steps: each write, a restore and a reset on their own, each one click from the version before it", () => {
  const group = freeze({
    kind: "person", actor: "local", first_revision: 107, last_revision: 150, ops: 44, at: "2024-05-01T11:59:30Z",
    node_ids: ["title"], names: { title: "Temporary headline" },
    steps: [
      { first_revision: 150, last_revision: 150, ops: 1, at: "2024-05-01T11:59:30Z", node_ids: ["title"], names: { title: "Fresh" }, back_to: null },
      { first_revision: 139, last_revision: 149, ops: 11, at: "2024-05-01T11:59:00Z", node_ids: ["title"], names: {}, back_to: 12 },
      { first_revision: 108, last_revision: 138, ops: 31, at: "2024-05-01T11:58:30Z", node_ids: ["title"], names: {}, back_to: 20 },
      { first_revision: 107, last_revision: 107, ops: 1, at: "2024-05-01T11:58:00Z", node_ids: [], back_to: null },
    ],
  });
  const said = history.describeGroup(group, { revision: 150, published: 12, now: NOW });
  assert.equal(said.details, "44 edits in 4 steps · just now · “Temporary headline”");
  // The marks are the steps', once: the current one is the newest step.
  assert.deepEqual([said.current, said.published], [false, false]);
  assert.deepEqual(said.steps.map((step) => step.current), [true, false, false, false]);
  assert.deepEqual(said.steps.map((step) => step.what), [
    "Edited “Fresh”", "Back to the published page (revision 12)", "Back to revision 20", "Edited",
  ]);
  const reset = said.steps[1];
  assert.deepEqual(reset, {
    first: 139, last: 149, what: "Back to the published page (revision 12)", details: "11 edits · 1 minute ago",
    revisions: "Revisions 139–149", current: false, published: false,
    restores: [{ text: "Restore this version", revision: 149 }, { text: "Restore to before this", revision: 138 }],
  });
  assert.deepEqual(said.steps[0].restores, [{ text: "Restore to before this", revision: 149 }]);
  // Every step's end and the version before it are offered: 106, 107, 138, 149, 150 (current).
  const offered = new Set(said.steps.flatMap((step) => step.restores.map((restore) => restore.revision)));
  assert.deepEqual([...offered].sort((a, b) => a - b), [106, 107, 138, 149]);
  // One step alone is the group: no list; a lone restore says so on the group's line.
  const lone = history.describeGroup({ ...group, ops: 11, steps: [group.steps[1]] }, { revision: 150, published: 3, now: NOW });
  assert.deepEqual(lone.steps, []);
  assert.match(lone.details, /Back to revision 12$/);
});

test("reset to published: disabled before a publish and while the draft is the published page", () => {
  assert.deepEqual(history.resetState(null, 4), { disabled: true, why: "Nothing is published yet." });
  assert.deepEqual(history.resetState(4, 4), { disabled: true, why: "The draft is the published page (revision 4)." });
  assert.deepEqual(history.resetState(3, 4), { disabled: false, why: "The published page is revision 3." });
});

test("the question, what was done, and refusals in words", () => {
  const reset = history.question("reset", 3, 9);
  assert.equal(reset.button, "Reset");
  assert.match(reset.text, /^Reset the draft to the published page \(revision 3\)\? This adds a new revision on top of revision 9; nothing is lost/);
  assert.match(history.question("restore", 0, 9).text, /^Restore the empty page the draft started from \(revision 0\)\?/);
  assert.equal(history.question("restore", 5, 9).button, "Restore");
  assert.equal(history.doneText("restore", 17, { applied: 3, revision: 19 }), "Restored revision 17: the draft is now revision 19.");
  assert.equal(history.doneText("reset", 4, { applied: 2, revision: 20 }), "Reset to the published page: the draft is now revision 20.");
  assert.equal(history.doneText("restore", 17, { applied: 0, revision: 19 }), "The draft already is that page; nothing changed.");
  assert.match(history.refusalText("stale_revision", { revision: 12 }, 5), /meanwhile \(it is now at revision 12\)/);
  assert.match(history.refusalText("stale_revision", null, 5), /meanwhile\. The list is read again/);
  assert.match(history.refusalText("history_truncated", {}, 5), /revision 5 is further back/);
  assert.match(history.refusalText("not_found", { field: "published" }, 5), /nothing is published yet/);
  assert.match(history.refusalText("invalid_request", {}, 5), /no revision 5 to restore/);
  assert.match(history.refusalText("conflicted", {}, 5), /could not be put back/);
  assert.equal(history.refusalText("not_found", { field: "session" }, 5), null);
  assert.equal(history.refusalText("busy", {}, 5), null);
});

test("the module touches no DOM", async () => {
  const { readFile } = await import("node:fs/promises");
  const source = await readFile(new URL("history_groups.js", WEB_JS), "utf-8");
  const imports = [...source.matchAll(/from "\.\/([a-z_]+)\.js"/g)].map((match) => match[1]);
  assert.deepEqual(imports, ["words"]);
  assert.doesNotMatch(source, /\bdocument\b|\bwindow\b/);
});
