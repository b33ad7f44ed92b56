"""The client's renderer (``web/js/render.js``, ``hrefs.js``) is byte for byte ``render_html``.

One Node process per test renders every case; compared with
``charlotte.page.render.render_html`` on drawn documents (before and after
their op sequences, and the renderer tests' own malformed-document strategy),
hostile and malformed documents; ``renderNode`` equals the page rendered from
that node's subtree alone; ``isSafeHref`` gives ``is_safe_href``'s verdict on
the obfuscation tables and thousands of generated hrefs (entities, percent
escapes, schemes, controls, lone surrogates).
"""

from __future__ import annotations

import json
import random
import re
import unicodedata
from html.entities import html5
from typing import Any, Final

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markupsafe import escape
from tests.support.node_js import first_difference, module_url, needs_node, run_node
from tests.support.page_cases import HOSTILE_TEXTS, MALFORMED_DOCS, generated, hostile_docs
from tests.unit.page.test_hrefs import ACCEPTED, REFUSED, obfuscated
from tests.unit.page.test_render import documents

from charlotte.page.assets import InMemoryAssetLibrary
from charlotte.page.hrefs import is_safe_href
from charlotte.page.ops import reduce_all
from charlotte.page.render import render_html
from charlotte.page.tree import descendants_of

pytestmark = needs_node

URLS: Final = {"img-1": "/media/1.png", "logo": "/media/logo.png", "odd": '/m/"a<b>.png'}
ASSETS: Final = InMemoryAssetLibrary(URLS)

RUNNER: Final = """
import { assetsFrom, renderHtml, renderNode } from %s;
import { isSafeHref } from %s;
const { docs, nodes, hrefs, urls } = INPUT;
const assets = assetsFrom(urls);
console.log(JSON.stringify({
  html: docs.map((doc) => renderHtml(doc, { assets })),
  nodes: nodes.map(([doc, id]) => renderNode(doc, id, { assets })),
  hrefs: hrefs.map((href) => isSafeHref(href)),
}));
"""


def _run(docs: list[Any] = [], nodes: list[Any] = [], hrefs: list[Any] = []) -> dict[str, Any]:  # noqa: B006
    script = RUNNER % (f'"{module_url("render")}"', f'"{module_url("hrefs")}"')
    found: dict[str, Any] = run_node(script, {"docs": docs, "nodes": nodes, "hrefs": hrefs, "urls": URLS})
    return found


def _drawn_malformed(n: int) -> list[Any]:
    found: list[Any] = []

    @settings(max_examples=n, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(documents())
    def draw(doc: Any) -> None:
        found.append(doc)

    draw()
    return found


def _subtree(doc: Any, id: str) -> Any:
    """The page of ``id``'s subtree alone, ``id`` its one root: what ``renderNode`` must render."""
    nodes = {key: doc["nodes"][key] for key in [id, *descendants_of(doc, id)]}
    nodes[id] = {**nodes[id], "parent": None}
    return {"nodes": nodes}


def test_documents_render_the_same_bytes() -> None:
    cases = generated(120)
    docs: list[Any] = [doc for doc, _ops in cases] + [reduce_all(doc, ops)[0] for doc, ops in cases]
    docs += [*hostile_docs(), *MALFORMED_DOCS, *_drawn_malformed(80)]
    got = _run(docs=docs)["html"]
    expected = [render_html(doc, assets=ASSETS) for doc in docs]
    assert got == expected, first_difference(got, expected, docs)


def test_one_node_renders_as_it_does_inside_the_page() -> None:
    valid = [doc for doc, _ops in generated(40)] + hostile_docs()
    pairs = [(i, id) for i, doc in enumerate(valid) for id in doc["nodes"]]
    cases: list[Any] = [(valid[i], id) for i, id in pairs]
    cases += [(valid[0], "missing"), ({"nodes": {"k": {"id": "other"}}}, "k"), (None, "x")]
    found = _run(docs=valid, nodes=cases)
    expected = [
        render_html(_subtree(doc, id), assets=ASSETS)
        if isinstance(doc, dict) and doc["nodes"].get(id, {}).get("id") == id
        else ""
        for doc, id in cases
    ]
    assert found["nodes"] == expected, first_difference(found["nodes"], expected, cases)
    # A node on the page (an orphan's subtree is not) is there exactly as renderNode renders it.
    on_page = [(found["html"][i], piece) for (i, id), piece in zip(pairs, found["nodes"], strict=False)
               if f' data-cms="{escape(id)}"' in found["html"][i]]
    assert on_page and all(piece in page for page, piece in on_page)


PIECES: Final = [
    "javascript", "JaVaScRiPt", "data", "vbscript", "http", "https", "mailto", "tel", "file", ":", "//", "/",
    "#", "?", "=", "&", ";", "%", "@", ".", "a", "x", "0", "6A", "3A", "%3A", "%6A", "%25", "%0A", "%E2%80%8B",
    "%C3", "%A9", "%FF", "%ED%A0%80", "&amp;", "&amp", "&#106;", "&#x6A;", "&#X6a", "&#0;", "&#128;", "&#129;",
    "&#9;", "&#1;", "&#xD800;", "&#1114112;", "&#65534;", "&colon;", "&Tab;", "&NewLine;", "&lpar;", "&copy;",
    "&copyx", "&notin;", "&notit;", "&hearts;", "&shy", "&zwj;", "&fjlig;", "&percnt;", "&num;", "&semi;",
    "&amp;#106;", "&#37;", "\t", "\n", " ", "\x00", "\x7f", "\\", "\u00a0", "\u200b", "\ufeff", "\u202e",
    "\ud800", "\udc00", "\U0001f600", "\u05d0", "\ue000", "é", "example.com", "user:pw@", "evil.example",
]


def _hrefs(count: int) -> list[str]:
    rng = random.Random()
    hrefs = [h for h in REFUSED + ACCEPTED if isinstance(h, str)] + HOSTILE_TEXTS
    hrefs += ["/" * 2, "a" * 2049, "/" + "a" * 2047, "/" + "\U0001f600" * 2047, "https://a.example:99999/"]
    while len(hrefs) < count:
        parts = rng.choices(PIECES, k=rng.randint(1, 8))
        if rng.random() < 0.5:
            parts.insert(0, rng.choice(["https://", "http://", "mailto:", "tel:", "/", "#", "?", "./", "../"]))
        hrefs.append("".join(parts))
    return hrefs


def _obfuscated(n: int) -> list[str]:
    found: list[str] = []

    @settings(max_examples=n, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(obfuscated() | st.text(max_size=40))
    def draw(href: str) -> None:
        found.append(href)

    draw()
    return found


def _every_entity() -> list[str]:
    # Every named reference Python knows, where it could hide a scheme or a control, or is harmless.
    return [
        href
        for name in html5
        for href in (f"java&{name}script:x", f"javascript&{name}x", f"&{name}tel:1", f"/a&{name}%41b", f"&amp;{name}:")
    ]


def _right_to_left_host(href: str) -> bool:
    host = href[href.find("//") + 2 :]
    host = re.split(r"[/?#]", host, maxsplit=1)[0]
    return any(unicodedata.bidirectional(ch) in ("R", "AL", "AN") for ch in host)


def test_hrefs_get_the_same_verdict() -> None:
    # As JSON carries them: two lone surrogates side by side arrive as one pair.
    hrefs: list[str] = json.loads(json.dumps(_hrefs(4000) + _obfuscated(300) + _every_entity()))
    hrefs += ["https://\u05e9\u05dc\u05d5\u05dd.example/", "https://a\u0645.example", "https://a.example/\u05d0"]
    got = _run(hrefs=hrefs)["hrefs"]
    expected = [is_safe_href(href) for href in hrefs]
    # The one documented difference: a right-to-left host is refused by the client, stricter.
    stricter = [i for i, (g, e) in enumerate(zip(got, expected, strict=True)) if e and not g]
    assert all(_right_to_left_host(hrefs[i]) for i in stricter), hrefs[stricter[0]]
    for i in stricter:
        got[i] = True
    assert got == expected, first_difference(got, expected, hrefs)
    assert sum(expected) > 300 and len(expected) - sum(expected) > 300  # both verdicts are exercised
