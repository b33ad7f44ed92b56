import assert from "node:assert/strict";
import { test } from "node:test";
import { WEB_JS } from "./helpers.mjs";

const { compareCodePoints, get, pyEqual, pyTruthy } = await import(new URL("tree.js", WEB_JS));

test("strings compare by code point, lone surrogates as themselves", () => {
  assert.ok(compareCodePoints("\ue000", "\u{10000}") < 0); // UTF-16 units say the opposite
  assert.ok(compareCodePoints("\ud800", "\ue000") < 0); // a lone surrogate is U+D800
  assert.ok(compareCodePoints("a\u{10000}", "a\ue000") > 0);
  assert.ok(compareCodePoints("\u{10000}", "\ud800\ue000") > 0); // a pair against a lone half
  assert.ok(compareCodePoints("ab", "abc") < 0);
  assert.equal(compareCodePoints("x", "x"), 0);
});

test("reads see own keys only", () => {
  assert.equal(get({}, "constructor"), undefined);
  assert.equal(get({ constructor: 1 }, "constructor"), 1);
  assert.equal(get([1], "0"), undefined);
});

test("Python's == and truthiness on JSON values", () => {
  assert.ok(pyEqual(true, 1) && pyEqual(undefined, null) && pyEqual({ a: [1, false] }, { a: [true, 0] }));
  assert.ok(!pyEqual({ a: 1 }, { a: 1, b: 2 }) && !pyEqual("1", 1) && !pyEqual([], {}));
  assert.deepEqual([{}, [], "", 0, null, { a: 1 }, [0], "0"].map(pyTruthy), [false, false, false, false, false, true, true, true]);
});
