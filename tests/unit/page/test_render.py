"""The HTML renderer: structure, escaping, link and asset safety, malformed input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import html5lib
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from charlotte.page.assets import InMemoryAssetLibrary
from charlotte.page.css import emit_css
from charlotte.page.document import render_page
from charlotte.page.render import BASE_CSS, render_html

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "css"
ASSETS = InMemoryAssetLibrary({"logo": "/media/logo.png", "odd": '/m/"a<b>.png'})


def node(
    id: str, type: str = "section", parent: str | None = None, order: str = "V", **extra: Any
) -> dict[str, Any]:
    n: dict[str, Any] = {
        "id": id,
        "type": type,
        "parent": parent,
        "order": order,
        "props": extra.pop("props", {}),
        "style": {"base": {}},
    }
    n.update(extra)
    return n


def doc(*nodes: dict[str, Any], title: str = "Home") -> dict[str, Any]:
    return {
        "id": "p",
        "seq": 0,
        "meta": {"title": title, "slug": "/", "scrollMode": "smooth"},
        "theme": {"name": "default"},
        "breakpoints": ["base", "md", "lg"],
        "nodes": {n["id"]: n for n in nodes},
    }


def html(*nodes: dict[str, Any]) -> str:
    return render_html(doc(*nodes), assets=ASSETS)


def leaf(type: str, **props: Any) -> str:
    """The rendered inner content of a single root leaf of ``type``."""
    out = html(node("x", type, props=props))
    prefix, suffix = '<div data-cms="x">', "</div>"
    assert out.startswith(prefix) and out.endswith(suffix)
    return out[len(prefix) : -len(suffix)]


# ── structure ────────────────────────────────────────────────────────────────


def test_roots_and_children_in_order() -> None:
    out = html(
        node("b", order="a1"),
        node("a", order="a0"),
        node("t2", "text", "a", "a1", props={"content": "two"}),
        node("t1", "text", "a", "a0", props={"content": "one"}),
        node("s", "stack", "b", "a0"),
        node("deep", "text", "s", "a0", props={"content": "deep"}),
        node("orphan", "text", "missing", props={"content": "lost"}),
    )
    assert out == (
        '<div data-cms="a"><div data-cms="t1">one</div><div data-cms="t2">two</div></div>'
        '<div data-cms="b"><div data-cms="s"><div data-cms="deep">deep</div></div></div>'
    )


def test_class_name_and_unknown_types() -> None:
    out = html(node("c", "fancy-thing", className="hero dark"), node("k", "text", "c"))
    assert out == '<div data-cms="c" class="hero dark"><div data-cms="k"></div></div>'
    assert html(node("c", className="")) == '<div data-cms="c"></div>'
    assert html(node("c", className=5)) == '<div data-cms="c"></div>'


def test_leaves_never_render_children() -> None:
    out = html(node("t", "text", props={"content": "hi"}), node("k", "text", "t"))
    assert out == '<div data-cms="t">hi</div>'


def test_island_is_an_empty_placeholder_without_children() -> None:
    out = html(
        node("w", "fancy-widget", island=True, className="w"),
        node("inner", "text", "w", props={"content": "INNER"}),
        node("img", "image", island=True, props={"asset": "logo"}, order="b"),
    )
    assert out == (
        '<div data-cms="w" data-cms-island="fancy-widget" class="w"></div>'
        '<div data-cms="img" data-cms-island="image"></div>'
    )


# ── content by type ──────────────────────────────────────────────────────────


@pytest.mark.parametrize(
    ("level", "tag"),
    [
        (1, "h1"),
        (2, "h2"),
        (3, "h3"),
        (6, "h6"),
        (0, "h1"),
        (-4, "h1"),
        (7, "h6"),
        (99, "h6"),
        (4.0, "h4"),
        (2.5, "h2"),
        ("3", "h2"),
        (True, "h2"),
        (None, "h2"),
        (float("nan"), "h2"),
    ],
)
def test_heading_levels(level: object, tag: str) -> None:
    assert leaf("heading", content="Hi", level=level) == f"<{tag}>Hi</{tag}>"


def test_heading_default_level() -> None:
    assert leaf("heading", content="Hi") == "<h2>Hi</h2>"


def test_text_link_divider_callout_code() -> None:
    assert leaf("text", content="a & b") == "a &amp; b"
    assert leaf("text", content=5) == ""
    assert leaf("text", content={"$bind": "user.name"}) == ""
    assert leaf("link", content="About", href="/about") == '<a href="/about">About</a>'
    assert leaf("divider") == "<hr>"
    assert leaf("callout", content="Careful", variant="warning") == (
        '<div class="cms-callout cms-callout--warning" data-cms-callout="warning">Careful</div>'
    )
    assert leaf("callout", content="x", variant="x y") == (
        '<div class="cms-callout cms-callout--info" data-cms-callout="info">x</div>'
    )
    assert leaf("code", content="if a < b:\n    pass", lang="py") == (
        "<pre><code>if a &lt; b:\n    pass</code></pre>"
    )


def test_buttons() -> None:
    assert leaf("button", label="Go", href="/go", variant="ghost") == (
        '<a href="/go" class="cms-button cms-button--ghost" data-cms-button="ghost">Go</a>'
    )
    assert leaf("button", label="Go", variant="secondary") == (
        '<button type="button" class="cms-button cms-button--secondary"'
        ' data-cms-button="secondary">Go</button>'
    )
    assert leaf("button", label="Go", href="javascript:alert(1)", variant='"><x') == (
        '<button type="button" class="cms-button cms-button--primary"'
        ' data-cms-button="primary">Go</button>'
    )


def test_images_come_from_the_asset_library_only() -> None:
    assert leaf("image", asset="logo", alt="Our logo") == (
        '<img src="/media/logo.png" alt="Our logo">'
    )
    assert leaf("image", asset="logo") == '<img src="/media/logo.png" alt="">'
    assert leaf("image", asset="unknown", alt="x") == ""
    assert leaf("image", src="https://evil.example/x.png", alt="x") == ""
    assert leaf("image", asset=["logo"]) == ""


def test_richtext_is_never_rendered() -> None:
    out = html(
        node("r", "richtext", props={"content": "<p>secret</p>", "html": "<b>x</b>"}),
        node("k", "text", "r", props={"content": "child"}),
    )
    assert out == '<div data-cms="r"></div>'


# ── escaping and link safety ─────────────────────────────────────────────────

EVIL = "\"'><script>alert(1)</script>&"
EVIL_ESCAPED = "&#34;&#39;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;"


def test_everything_from_the_document_is_escaped() -> None:
    out = html(
        node(EVIL, "fancy", className=EVIL, island=True),
        node("t", "text", order="b", props={"content": EVIL}),
        node("h", "heading", order="c", props={"content": EVIL}),
        node("l", "link", order="d", props={"content": EVIL, "href": "/a?q=\"'<x>&y"}),
        node("i", "image", order="e", props={"asset": "odd", "alt": EVIL}),
        node("b", "button", order="f", props={"label": EVIL}),
        node("c", "code", order="g", props={"content": EVIL}),
        node("k", "callout", order="h", props={"content": EVIL}),
    )
    assert "<script>" not in out and "'" not in out
    assert f'data-cms="{EVIL_ESCAPED}"' in out
    assert f'data-cms-island="fancy" class="{EVIL_ESCAPED}"' in out
    assert f'<div data-cms="t">{EVIL_ESCAPED}</div>' in out
    assert f"<h2>{EVIL_ESCAPED}</h2>" in out
    # quotes and brackets in a query are safe once escaped
    assert f'<a href="/a?q=&#34;&#39;&lt;x&gt;&amp;y">{EVIL_ESCAPED}</a>' in out
    assert f'<img src="/m/&#34;a&lt;b&gt;.png" alt="{EVIL_ESCAPED}">' in out
    assert f'data-cms-button="primary">{EVIL_ESCAPED}</button>' in out
    assert f"<pre><code>{EVIL_ESCAPED}</code></pre>" in out
    assert f'data-cms-callout="info">{EVIL_ESCAPED}</div>' in out


def test_characters_html_forbids_are_replaced() -> None:
    out = html(node("t", "text", props={"content": "a\x00b\x01c\ud800d\ufffee\tf"}))
    assert out == '<div data-cms="t">a\ufffdb\ufffdc\ufffdd\ufffde\tf</div>'
    page = render_page(
        doc(node("t", "text", props={"content": "\udfff"})), assets=ASSETS, title="\x07"
    )
    assert page.encode("utf-8")


def test_safe_href_with_special_characters_is_escaped() -> None:
    assert leaf("link", content="x", href="/a?b=1&c=2") == '<a href="/a?b=1&amp;c=2">x</a>'


@pytest.mark.parametrize(
    "href",
    [
        "javascript:alert(1)",
        " javascript:alert(1)",
        "java\tscript:x",
        "&#106;avascript:x",
        "data:text/html,x",
        "//evil.example",
        "/\\evil.example",
        "",
        None,
        5,
    ],
)
def test_unsafe_hrefs_are_dropped(href: object) -> None:
    assert leaf("link", content="x", href=href) == "<a>x</a>"


# ── malformed documents and cycles ───────────────────────────────────────────


@pytest.mark.parametrize(
    "bad",
    [
        None,
        [],
        "## Welcome\n\nThis is your guided tour.",
        3,
        {},
        {"meta": {"title": "W"}},
        {"nodes": None},
        {"nodes": []},
        {"nodes": "x"},
        {"nodes": {"a": None, "b": "x", "c": [1]}},
        {"nodes": {"a": {"type": "text"}}},
        {"nodes": {"a": {"id": 5, "parent": None}}},
    ],
)
def test_malformed_documents_render_empty(bad: object) -> None:
    assert render_html(bad, assets=ASSETS) == ""
    page = render_page(bad, assets=ASSETS)
    assert "<body><main></main></body>" in page and "<style data-cms-styles></style>" in page


def test_malformed_nodes_render_what_they_can() -> None:
    out = render_html(
        {
            "nodes": {
                "a": {"id": "a", "parent": None, "order": "a", "type": "text", "props": "oops"},
                "b": {"id": "b", "parent": None, "order": "b", "type": 7, "props": {}},
                "c": {"id": "c", "parent": None, "type": "link", "props": {"content": "x"}},
            }
        },
        assets=ASSETS,
    )
    assert out == '<div data-cms="c"><a>x</a></div><div data-cms="a"></div><div data-cms="b"></div>'


def test_cycles_are_never_followed_forever() -> None:
    # A two-node cycle has no root: it is simply not on the page.
    assert html(node("a", parent="b"), node("b", parent="a")) == ""
    # Map keys that disagree with node ids can make a walk revisit an id.
    nodes = {
        "k1": {"id": "r", "type": "section", "parent": None, "order": "a"},
        "k2": {"id": "c", "type": "section", "parent": "r", "order": "a"},
        "k3": {"id": "r", "type": "section", "parent": "c", "order": "a"},
    }
    assert render_html({"nodes": nodes}, assets=ASSETS) == (
        '<div data-cms="r"><div data-cms="c"></div></div>'
    )


def test_very_deep_documents_do_not_overflow_the_stack() -> None:
    depth = 5000
    nodes = [node("n0")] + [node(f"n{i}", parent=f"n{i - 1}") for i in range(1, depth)]
    out = html(*nodes)
    assert out.count("<div") == depth and out.endswith("</div>" * depth)


# ── the full page ────────────────────────────────────────────────────────────


def test_full_page() -> None:
    d = doc(
        node("s", layout="stack"),
        node("t", "text", "s", props={"content": "Hello"}),
        title="Our <bakery>",
    )
    page = render_page(d, assets=ASSETS)
    assert page == (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n'
        '<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        "<title>Our &lt;bakery&gt;</title>\n"
        '<meta property="og:type" content="website">\n'
        '<meta property="og:title" content="Our &lt;bakery&gt;">\n'
        '<meta name="robots" content="index,follow">\n'
        f"<style data-charlotte-base>{BASE_CSS}</style>\n"
        "<style data-cms-styles>"
        '[data-cms="s"] {\n  display: flex;\n  flex-direction: column;\n}\n'
        "</style>\n</head>\n"
        '<body><main><div data-cms="s"><div data-cms="t">Hello</div></div></main></body>\n'
        "</html>\n"
    )
    assert "<title>Chosen</title>" in render_page(d, assets=ASSETS, title="Chosen")
    no_meta = {"nodes": {}}
    assert "<title></title>" in render_page(no_meta, assets=ASSETS)


def test_stylesheet_cannot_close_the_style_element() -> None:
    d = doc(node("s", style={"base": {"background": "red</style><script>alert(1)</script>"}}))
    page = render_page(d, assets=ASSETS)
    assert page.count("</style>") == 2 and "<script>" not in page  # base + page styles
    assert "background: red\\3c /style>\\3c script>" in page
    assert "<" in emit_css(d)  # emit_css itself stays byte-identical to upstream


def test_canonical_document_renders() -> None:
    canonical = json.loads((FIXTURES / "canonical-doc.json").read_text())
    canonical.pop("sections")
    out = render_html(canonical, assets=ASSETS)
    assert out == (
        '<div data-cms="hero"><div data-cms="logo"></div>'
        '<div data-cms="title">Fancy CMS</div></div>'
        '<div data-cms="body"><div data-cms="grid">'
        '<div data-cms="card" data-cms-island="image"></div></div></div>'
    )


# ── any document renders as well-formed HTML ─────────────────────────────────

_text = st.text(max_size=12)
_props = st.fixed_dictionaries(
    {},
    optional={
        "content": st.one_of(_text, st.integers()),
        "label": _text,
        "alt": _text,
        "href": st.one_of(_text, st.sampled_from(["/a", "javascript:x", "https://e.x/"])),
        "asset": st.sampled_from(["logo", "odd", "none"]),
        "level": st.integers(-2, 9),
        "variant": _text,
    },
)
_types = st.sampled_from(
    [
        "section",
        "stack",
        "text",
        "heading",
        "link",
        "button",
        "image",
        "divider",
        "callout",
        "code",
        "richtext",
        "widget",
    ]
)


@st.composite
def documents(draw: st.DrawFn) -> dict[str, Any]:
    count = draw(st.integers(0, 12))
    nodes: dict[str, Any] = {}
    for i in range(count):
        nid = draw(st.sampled_from([f"n{i}", f'x"{i}<', f"n{i}&"]))
        parent = draw(
            st.one_of(st.none(), st.sampled_from([*nodes, "ghost"]) if nodes else st.none())
        )
        nodes[nid] = {
            "id": nid,
            "type": draw(_types),
            "parent": parent,
            "order": draw(st.sampled_from("abc")),
            "props": draw(_props),
            "style": {"base": {}},
            "island": draw(st.booleans()),
            "className": draw(_text),
        }
    return {"meta": {"title": draw(_text)}, "breakpoints": ["base"], "nodes": nodes}


@settings(deadline=None, max_examples=60)
@given(documents())
def test_any_document_renders_as_well_formed_html(d: dict[str, Any]) -> None:
    page = render_page(d, assets=ASSETS)
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    tree = parser.parse(page)
    body = tree.find("body")
    assert body is not None
    rendered = [el.get("data-cms") for el in body.iter() if el.get("data-cms") is not None]
    assert len(rendered) == len(set(rendered))
    assert all(el.tag != "script" for el in tree.iter())
