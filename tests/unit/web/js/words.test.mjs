import assert from "node:assert/strict";
import { test } from "node:test";
import { WEB_JS, node, page } from "./helpers.mjs";

const words = await import(new URL("words.js", WEB_JS));

test("a node is named by its type and its own words, a box by its first heading", () => {
  const doc = page(
    node("about", null, "V"),
    node("about-text", "about", "a", { type: "text", props: { content: "We bake   every\nmorning." } }),
    node("about-heading", "about", "b", { type: "heading", props: { content: "About Rosa's Bakery" } }),
  );
  assert.equal(words.nameFrom("about-text", words.describeInDocs("about-text", [doc])), "Text “We bake every morning.”");
  assert.equal(words.nameFrom("about", words.describeInDocs("about", [doc])), "Section “About Rosa's Bakery”");
  assert.equal(words.describeInDocs("gone", [doc]), null);
  assert.equal(words.nameFrom("gone", { type: "", words: "" }), "gone");
  assert.equal(words.nameFrom("x", { type: "fancyWidget", words: "" }), "fancy widget x");
});

test("a long text is cut with an ellipsis; keys, styles and fields read as words", () => {
  assert.equal(words.excerpt("a".repeat(70)).length, 60);
  assert.ok(words.excerpt("a".repeat(70)).endsWith("…"));
  assert.equal(words.keyWords("fontSize"), "font size");
  assert.deepEqual(words.styleWords(["base.fontSize", "md.fontSize", "lg.color"]), [
    "font size (all widths, tablets and up)", "color (desktops)",
  ]);
  assert.deepEqual(words.fieldWords(["parent", "order", "layout"]), ["moved to another place", "moved", "layout"]);
});

test("a section's name inside a sentence reads as a person writes it", () => {
  assert.equal(words.inSentence("FAQ"), "FAQ");
  assert.equal(words.inSentence("FAQs"), "FAQs");
  assert.equal(words.inSentence("Opening hours"), "opening hours");
  assert.equal(words.inSentence("Menu"), "menu");
  assert.equal(words.inSentence("a"), "a");
  assert.equal(words.inSentence(""), "");
});
