import assert from "node:assert/strict";
import { test } from "node:test";
import { WEB_JS, freeze } from "./helpers.mjs";

const meta = await import(new URL("meta.js", WEB_JS));

test("the metadata is read from any document, a missing or malformed field as not set", () => {
  const doc = freeze({ meta: { title: "Rosa's", seo: { description: "Bread.", lang: "pt-PT", canonical: "/", image: "hero", "og:type": "website" } } });
  assert.deepEqual(meta.readMeta(doc), { title: "Rosa's", description: "Bread.", lang: "pt-PT", canonical: "/", image: "hero" });
  assert.deepEqual(meta.readMeta({ meta: { title: 3, seo: "x" } }), { title: "", description: "", lang: "", canonical: "", image: "" });
  assert.deepEqual(meta.readMeta(null), { title: "", description: "", lang: "", canonical: "", image: "" });
  // Inherited keys are not the page's.
  assert.equal(meta.readMeta({ meta: Object.create({ title: "inherited" }) }).title, "");
});

test("title and description are counted as Python counts (code points) against their bounds", () => {
  assert.deepEqual(meta.counter("title", "Rosa"), { text: "4/120", over: false, words: "4 of 120 characters" });
  assert.equal(meta.counter("title", "😀".repeat(120)).over, false);
  assert.equal(meta.counter("title", "a".repeat(121)).over, true);
  assert.equal(meta.counter("description", "  x  ").text, "1/300");
  assert.equal(meta.counter("lang", "en"), null);
  assert.equal(meta.fieldProblem("title", "a".repeat(120)), "");
  assert.match(meta.fieldProblem("title", "a".repeat(121)), /at most 120 characters \(it has 121\)/);
  assert.equal(meta.fieldProblem("description", "d".repeat(300)), "");
  assert.match(meta.fieldProblem("description", "d".repeat(301)), /at most 300/);
});

test("a description is one line: every kind of line break is refused", () => {
  for (const brk of ["\n", "\r", "\u0085", "\u2028", "\u2029", "\t"]) {
    assert.match(meta.fieldProblem("description", `one${brk}two`), /one line/, JSON.stringify(brk));
  }
  assert.match(meta.fieldProblem("title", "one\ntwo"), /one line/);
});

test("a language is a BCP 47 tag; empty means not set", () => {
  for (const good of ["", "en", "en-GB", "pt-BR", "zh-Hant-TW", "sr-Latn-RS", "cy", "haw"]) {
    assert.equal(meta.fieldProblem("lang", good), "", good);
  }
  // Well formed but no language too: zz, english, a private-use tag alone (axe's html-lang-valid).
  for (const bad of ["e", "en_GB", "english language", "en-", "-en", "abcdefghi", "en-abcdefghi", "de--x", `en${"-ab".repeat(12)}`, "zz", "english", "x-private"]) {
    assert.match(meta.fieldProblem("lang", bad), /Not a language tag/, bad);
  }
  assert.equal(meta.isLang("en"), true);
  assert.equal(meta.isLang(""), false);
});

test("a canonical path stays on the page's own site", () => {
  for (const good of ["", "/", "/about", "/en/menu/", "/a?b=1#c", "/café"]) {
    assert.equal(meta.fieldProblem("canonical", good), "", good);
  }
  assert.match(meta.fieldProblem("canonical", "https://evil.example/"), /starts with \//);
  assert.match(meta.fieldProblem("canonical", "//evil.example/x"), /no other site/);
  assert.match(meta.fieldProblem("canonical", "about"), /starts with \//);
  for (const bad of ["/a//b", "/a b", "/a\\b", "/a\u00a0b", "/a\u2028b", "/a\ufeffb"]) {
    assert.match(meta.fieldProblem("canonical", bad), /Not a path on this site/, JSON.stringify(bad));
  }
  assert.match(meta.fieldProblem("canonical", `/${"a".repeat(500)}`), /at most 500/);
});

test("an asset id is at most 200 characters", () => {
  assert.equal(meta.fieldProblem("image", "i".repeat(200)), "");
  assert.match(meta.fieldProblem("image", "i".repeat(201)), /at most 200/);
});

test("the first problem in the panel's order names its field", () => {
  assert.equal(meta.firstProblem({ title: "ok", description: "", lang: "bad_tag", canonical: "nope", image: "" }).field, "lang");
  assert.equal(meta.firstProblem({ title: "ok", description: "", lang: "en", canonical: "/", image: "" }), null);
});

test("only the fields the person changed are edited, spaces at the ends dropped", () => {
  const baseline = freeze({ title: "Old", description: "Same", lang: "", canonical: "/", image: "" });
  assert.deepEqual(meta.editedFields({ title: " New ", description: "Same ", lang: "", canonical: "/", image: "" }, baseline), { title: "New" });
  assert.deepEqual(meta.editedFields(baseline, baseline), {});
});

test("one set_meta: the title alone, or the whole seo map with every entry kept", () => {
  const current = freeze({ title: "Old", slug: "/", scrollMode: "smooth", seo: { description: "Old d", "og:type": "website", lang: "en" } });
  assert.deepEqual(meta.metaOps(current, freeze({ title: "New" })), [{ t: "set_meta", patch: { title: "New" } }]);
  assert.deepEqual(meta.metaOps(current, freeze({ description: "New d", lang: "" })), [
    { t: "set_meta", patch: { seo: { "og:type": "website", description: "New d" } } },
  ]);
  assert.deepEqual(meta.metaOps(current, freeze({ title: "Old", lang: "en" })), []);
  // A meta without seo gets one; an odd key of the stored map is kept as an own key.
  assert.deepEqual(meta.metaOps(freeze({ title: "T" }), freeze({ lang: "pt-PT" })), [{ t: "set_meta", patch: { seo: { lang: "pt-PT" } } }]);
  const odd = freeze(JSON.parse('{"seo": {"__proto__": "x"}}'));
  const [op] = meta.metaOps(odd, { canonical: "/a" });
  assert.equal(JSON.stringify(op.patch.seo), '{"__proto__":"x","canonical":"/a"}');
});

test("a server refusal is put beside its field in words", () => {
  const invalid = { code: "invalid_props", message: "The node properties are not valid for its type.", body: { code: "invalid_props", at: 0 } };
  assert.deepEqual(meta.refusalOf(invalid, { lang: "en_GB" }).field, "lang");
  assert.match(meta.refusalOf(invalid, { lang: "en_GB" }).message, /Not a language tag/);
  // The only edited field, when the panel's own bounds find nothing.
  assert.deepEqual(meta.refusalOf(invalid, { title: "Fine" }), { field: "title", message: "The server refused this value: The node properties are not valid for its type." });
  // The body's field, when the server names one.
  assert.equal(meta.refusalOf({ ...invalid, body: { field: "meta.seo.canonical" } }, { title: "A", canonical: "/x" }).field, "canonical");
  assert.equal(meta.refusalOf(invalid, { title: "A", canonical: "/x" }).field, null);
  const asset = { code: "authored_asset", message: "…", body: { field: "meta.seo.image" } };
  assert.equal(meta.refusalOf(asset, { image: "nope" }).field, "image");
  assert.deepEqual(meta.refusalOf({ code: "network", message: "Could not reach the server." }, { title: "A" }), {
    field: null, message: "Not saved: Could not reach the server.",
  });
});
