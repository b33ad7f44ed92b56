import assert from "node:assert/strict";
import { test } from "node:test";
import { WEB_JS, freeze, node, page } from "./helpers.mjs";

const { assetsFrom, escapeHtml, renderHtml, renderNode } = await import(new URL("render.js", WEB_JS));
const { isSafeHref } = await import(new URL("hrefs.js", WEB_JS));

const leaf = (type, props) => renderHtml(freeze(page(node("x", null, "V", { type, props }))));

test("text is escaped as markupsafe escapes it", () => {
  assert.equal(leaf("text", { content: "Hi <you>" }), '<div data-cms="x">Hi &lt;you&gt;</div>');
  assert.equal(escapeHtml("\"'><script>alert(1)</script>&"), "&#34;&#39;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;");
  assert.equal(escapeHtml("a\u0000b\ud800c\ufffe\u{1fffe}\t\u{1f600}"), "a\ufffdb\ufffdc\ufffd\ufffd\t\u{1f600}");
});

test("unsafe hrefs are dropped, safe ones kept", () => {
  for (const href of ["javascript:alert(1)", " java\tscript:x", "&#106;avascript:x", "%6Aavascript:x", "//evil.example", "//charlotte.invalid/",
    "https://a@b.example", "data:text/html,x", "/a\ud800"]) {
    assert.equal(isSafeHref(href), false, href);
    assert.equal(leaf("link", { content: "x", href }), '<div data-cms="x"><a>x</a></div>');
  }
  for (const href of ["/about", "#top", "?q=1&amp;b", "https://example.com/x", "mailto:a@b.c", "tel:+351"]) {
    assert.equal(isSafeHref(href), true, href);
  }
  assert.equal(leaf("button", { label: "Go", href: "/a?b=1&c=2", variant: "evil x" }),
    '<div data-cms="x"><a href="/a?b=1&amp;c=2" class="cms-button cms-button--primary" data-cms-button="primary">Go</a></div>');
});

test("images come from the asset library only; richtext never renders", () => {
  const doc = freeze(page(node("i", null, "V", { type: "image", props: { asset: "logo", alt: "<L>", src: "/x.png" } })));
  assert.equal(renderHtml(doc), '<div data-cms="i"></div>');
  assert.equal(renderHtml(doc, { assets: assetsFrom({ logo: "/m/l.png" }) }), '<div data-cms="i"><img src="/m/l.png" alt="&lt;L&gt;"></div>');
  assert.equal(leaf("richtext", { content: "<b>hi</b>" }), '<div data-cms="x"></div>');
});

test("children in order by code point, then id; islands empty; renderNode one subtree", () => {
  const doc = freeze(page(
    node("r"), node("astral", "r", "\u{10000}"), node("private", "r", "\ue000"),
    node("isl", null, "W", { island: true, type: "widget" }), node("hidden", "isl"),
  ));
  const html = '<div data-cms="r"><div data-cms="private"></div><div data-cms="astral"></div></div>';
  assert.equal(renderHtml(doc), `${html}<div data-cms="isl" data-cms-island="widget"></div>`);
  assert.equal(renderNode(doc, "r"), html);
  assert.equal(renderNode(doc, "missing"), "");
});

test("malformed and very deep documents render without throwing", () => {
  for (const bad of [null, [], 3, {}, { nodes: "x" }, { nodes: { a: { id: 5 } } }]) assert.equal(renderHtml(bad), "");
  const deep = [node("n0")];
  for (let i = 1; i < 5000; i += 1) deep.push(node(`n${i}`, `n${i - 1}`));
  const html = renderHtml(page(...deep));
  assert.ok(html.startsWith('<div data-cms="n0"><div data-cms="n1"><div data-cms="n2">'));
  assert.ok(html.endsWith('<div data-cms="n4999"></div>'.concat("</div>".repeat(4999))));
  assert.equal(html.split("<div ").length, 5001);
});
