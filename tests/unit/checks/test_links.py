"""The links check: unsafe hrefs, external origins not allowed, in-page links to nowhere."""

from __future__ import annotations

from typing import Any

import html5lib
import pytest

from charlotte.checks import Finding, PageChecks
from charlotte.errors import MESSAGES
from charlotte.page.assets import InMemoryAssetLibrary
from charlotte.page.document import render_page

SITE = "https://rosebakery.co.uk"


def link_findings(doc: dict[str, Any], **options: Any) -> list[tuple[str | None, str, str]]:
    checks = PageChecks(site_origin=SITE, **options)
    return [(f.node, f.code, f.severity) for f in checks.run(doc, only=["links"])]


@pytest.mark.parametrize(
    "href",
    [
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        "java\tscript:alert(1)",
        " javascript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "vbscript:msgbox(1)",
        "file:///etc/passwd",
        "%6Aavascript:alert(1)",
        "//evil.example/x",
        "/\\evil.example/x",
        "",
    ],
)
def test_unsafe_hrefs_are_errors(build: Any, href: str) -> None:
    doc = build(("cta", "button", {"label": "Order", "href": href}))
    assert PageChecks(site_origin=SITE).run(doc, only=["links"]) == [
        Finding("links", "cta", "error", "unsafe_link", MESSAGES["unsafe_link"])
    ]


@pytest.mark.parametrize(
    "href",
    [
        "/order",
        "order.html",
        "?ref=hero",
        "#",
        "#top",
        "#TOP",
        "mailto:hello@rosebakery.co.uk",
        "tel:+441174960123",
        "https://rosebakery.co.uk/cakes",
        "https://ROSEBAKERY.co.uk:443/x",
    ],
)
def test_safe_links_on_the_site_pass(build: Any, href: str) -> None:
    doc = build(("menu", "section", {}), ("l", "link", {"content": "Go", "href": href}))
    assert link_findings(doc) == []


def test_external_origins_must_be_allowed(build: Any) -> None:
    doc = build(
        ("insta", "link", {"content": "Instagram", "href": "https://www.instagram.com/rosebakery"}),
        ("maps", "link", {"content": "Map", "href": "https://maps.example.com/?q=rose"}),
    )
    findings = PageChecks(site_origin=SITE, allowed_origins=["https://WWW.Instagram.com/"]).run(
        doc, only=["links"]
    )
    assert findings == [
        Finding(
            "links",
            "maps",
            "error",
            "external_link",
            "The link leads to https://maps.example.com, which is not on this site's list of "
            "allowed origins.",
        )
    ]


def test_without_a_site_origin_every_absolute_link_is_external(build: Any) -> None:
    doc = build(("l", "link", {"content": "Cakes", "href": "https://rosebakery.co.uk/cakes"}))
    assert [f.code for f in PageChecks().run(doc, only=["links"])] == ["external_link"]
    assert PageChecks(allowed_origins=[SITE]).run(doc, only=["links"]) == []


def test_an_in_page_link_to_a_node_is_dead_because_the_rendered_page_has_no_ids(
    build: Any,
) -> None:
    doc = build(
        ("menu", "section", {}),
        ("node", "link", {"content": "Menu", "href": "#menu"}),
        ("gone", "link", {"content": "Prices", "href": "#prices"}),
        ("enc", "button", {"label": "Menu", "href": "#m%65nu"}),
        ("top", "link", {"content": "Back to the top", "href": "#top"}),
    )
    findings = PageChecks(site_origin=SITE).run(doc, only=["links"])
    assert [(f.node, f.code, f.severity) for f in findings] == [
        ("node", "dead_link", "error"),
        ("gone", "dead_link", "error"),
        ("enc", "dead_link", "error"),
    ]
    assert findings[1].message == (
        'The link "#prices" leads nowhere: the published page gives its nodes no id to '
        "scroll to. Link to a phone (tel:), an e-mail (mailto:) or a page, or leave the link out."
    )


def test_the_renderer_writes_no_id_a_fragment_could_reach(build: Any) -> None:
    # The links check counts on this: if the renderer ever gives nodes an id, the check's
    # SCROLL_TARGETS must learn those ids, or it refuses links that work.
    doc = build(
        *[
            (f"n-{t}", t, props)
            for t, props in (
                ("section", {}),
                ("frame", {}),
                ("stack", {}),
                ("grid", {}),
                ("card", {}),
                ("text", {"content": "id=x"}),
                ("heading", {"content": "h", "level": 2}),
                ("link", {"content": "l", "href": "#n-text"}),
                ("button", {"label": "b", "href": "#n-text"}),
                ("button", {"label": "b2"}),
                ("image", {"asset": "a", "alt": "x"}),
                ("divider", {}),
                ("callout", {"content": "c"}),
                ("code", {"content": "c"}),
            )
        ]
    )
    html = render_page(doc, assets=InMemoryAssetLibrary({"a": "/a.png"}))
    tags = html5lib.parse(html, namespaceHTMLElements=False).iter()
    assert [el.tag for el in tags if "id" in el.attrib] == []
    assert 'data-cms="n-text"' in html


def test_action_handlers_are_links_too(build: Any) -> None:
    doc = build(
        {
            "id": "card",
            "type": "card",
            "actions": [
                {"on": "click", "do": {"kind": "navigate", "href": "javascript:alert(1)"}},
                {"on": "click", "do": {"kind": "navigate", "href": "https://evil.example/"}},
                {"on": "submit", "do": {"kind": "submitForm", "endpoint": "/api/order"}},
                {"on": "click", "do": {"kind": "navigate", "href": "#nowhere"}},
                {"on": "click", "do": {"kind": "openModal", "node": "card"}},
                "not an action",
                {"on": "click", "do": "not a handler"},
            ],
        }
    )
    assert link_findings(doc) == [
        ("card", "unsafe_link", "error"),
        ("card", "external_link", "error"),
        ("card", "dead_link", "error"),
    ]


def test_bound_or_non_string_hrefs_cannot_be_checked_and_are_unsafe(build: Any) -> None:
    doc = build(
        ("a", "link", {"content": "Profile", "href": {"$bind": "user.url"}}),
        ("b", "button", {"label": "Go", "href": 42}),
        ("c", "button", {"label": "No link", "href": None}),
    )
    assert link_findings(doc) == [("a", "unsafe_link", "error"), ("b", "unsafe_link", "error")]


def test_hidden_nodes_are_checked_after_the_visible_ones(build: Any) -> None:
    doc = build(("shown", "link", {"content": "x", "href": "javascript:1"}))
    doc["nodes"]["a-orphan"] = {
        "id": "a-orphan",
        "type": "link",
        "parent": "missing",
        "order": "V",
        "props": {"content": "x", "href": "javascript:1"},
        "style": {"base": {}},
    }
    assert [node for node, _, _ in link_findings(doc)] == ["shown", "a-orphan"]
