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
    node_ids: ["hero", "hero-heading"],
  });
  const nameOf = (id) => (id === "hero" ? "Fresh bread" : "");
  const current = history.describeGroup(group, { revision: 5, published: 4, nameOf, now: NOW });
  assert.deepEqual(current, {
    kind: "turn", first: 3, last: 5, who: "The builder · turn",
    details: "17 edits · 2 minutes ago · “Fresh bread”, hero-heading", at: "2024-05-01T11:58:00Z",
    revisions: "Revisions 3–5", current: true, published: true,
    restores: [{ text: "Restore to before this", revision: 2 }],
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
