import assert from "node:assert/strict";
import { test } from "node:test";
import { WEB_JS, freeze } from "./helpers.mjs";

const f = await import(new URL("findings.js", WEB_JS));

const page = freeze({
  nodes: {
    s: { id: "s", type: "section", parent: null, order: "V", props: {}, style: { base: {} } },
    h: { id: "h", type: "heading", parent: "s", order: "V", props: { level: 2, content: "Rosa's Bakery" }, style: { base: {} } },
  },
});
const FOUND = freeze([
  { code: "heading_skip", node: "h", severity: "warning", message: "A heading level is skipped." },
  { code: "low_contrast", node: "h", severity: "error", message: "The text's contrast is 1.9:1." },
  { code: "missing_lang", node: null, severity: "warning", message: "The page has no language." },
  { code: "placeholder", node: "gone", severity: "error", message: "" },
  { code: "low_contrast", node: "s", severity: "error", message: "Again." },
]);

test("findings are read errors first, the server's order kept within each severity", () => {
  const read = f.readFindings(FOUND);
  assert.deepEqual(read.map((x) => x.code), ["low_contrast", "placeholder", "low_contrast", "heading_skip", "missing_lang"]);
  assert.deepEqual(f.errorCodes(read), ["low_contrast", "placeholder"]);
});

test("malformed findings are dropped, never a throw", () => {
  const bad = [null, 3, "x", {}, { code: "X Y", severity: "error" }, { code: "ok", severity: "fatal" }, { code: "ok", severity: "error", node: 4 }];
  assert.deepEqual(f.readFindings(bad), []);
  assert.deepEqual(f.readFindings(undefined), []);
  assert.equal(f.hasFindings({ preview: {} }), false);
  assert.equal(f.hasFindings({ findings: [] }), true);
  assert.equal(f.hasFindings(null), false);
});

test("each finding names its node as the change list does and says what fixes it", () => {
  const [contrast, placeholder] = f.readFindings(FOUND).map((x) => f.findingWords(x, [page]));
  assert.equal(contrast.place, "Heading “Rosa's Bakery”");
  assert.equal(contrast.message, "The text's contrast is 1.9:1.");
  assert.match(contrast.fix, /4\.5:1/);
  // A node the draft no longer has is named by its id; no node is the page.
  assert.equal(placeholder.place, "gone");
  assert.match(placeholder.fix, /placeholder/i);
  assert.equal(f.findingWords(FOUND[2], [page]).place, "The page");
  // The page's settings, where missing_title and missing_description sit, are said as such.
  const meta = { code: "missing_title", node: "#meta", severity: "warning", message: "No title." };
  assert.equal(f.findingWords(meta, [page]).place, "The page settings");
  assert.ok(f.isPageWide(meta) && f.isPageWide(FOUND[2]) && !f.isPageWide(FOUND[0]));
  assert.equal(f.findingWords({ code: "new_code", node: null, severity: "warning" }, []).fix, "");
});

test("the summary counts, and the override question names the codes in words", () => {
  const read = f.readFindings(FOUND);
  assert.equal(f.findingsSummary(read), "The check found 3 problems that should be fixed before publishing and 2 warnings.");
  assert.equal(f.findingsSummary(read.slice(3)), "The check found 2 warnings; the page can still be published.");
  assert.equal(f.findingsSummary([]), "");
  assert.match(f.overrideQuestion(["low_contrast", "placeholder"]), /low contrast, placeholder/);
  assert.equal(f.PUBLISH_ANYWAY, "Publish anyway…");
  const many = Array.from({ length: 30 }, (_, i) => ({ code: `c${i}`, severity: "error", node: null }));
  assert.equal(f.errorCodes(many).length, f.MAX_OVERRIDE);
});
