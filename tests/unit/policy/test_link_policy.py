from __future__ import annotations

from typing import Any

import pytest

from charlotte.errors import Refused
from charlotte.policy import LinkPolicy, introduced_hrefs

SITE = "https://bakery.test"
ALLOWED = ["https://maps.example.com", "HTTPS://Partner.Example:443/"]


def _link(href: Any) -> dict[str, Any]:
    return {
        "t": "insert_node",
        "node": {
            "id": "l1",
            "type": "link",
            "parent": None,
            "order": "V",
            "props": {"content": "Go", "href": href},
            "style": {"base": {}},
        },
    }


def _restore(href: Any) -> dict[str, Any]:
    return {**_link(href), "t": "restore_node"}


def _patch(href: Any) -> dict[str, Any]:
    return {"t": "set_node_props", "id": "cta", "patch": {"label": "Order", "href": href}}


def _action(href: Any, field: str = "href") -> dict[str, Any]:
    return {
        "t": "set_action",
        "id": "cta",
        "index": 0,
        "action": {"on": "click", "do": {"kind": "navigate", field: href}},
    }


def _node_action(href: Any) -> dict[str, Any]:
    op = _link("/ok")
    op["node"]["actions"] = [
        {"on": "hover", "do": {"kind": "toggleNode", "node": "x"}},
        {"on": "click", "do": {"kind": "navigate", "href": href}},
    ]
    return op


SHAPES = [
    (_link, "node.props.href"),
    (_restore, "node.props.href"),
    (_patch, "patch.href"),
    (_action, "action.do.href"),
    (lambda h: _action(h, "endpoint"), "action.do.endpoint"),
    (_node_action, "node.actions[1].do.href"),
]

# (href, expected reason or None)
HREFS = [
    ("/menu", None),
    ("#order", None),
    ("?page=2", None),
    ("menu/cakes", None),
    ("https://bakery.test/about", None),
    ("https://BAKERY.test:443/about", None),
    ("mailto:hello@bakery.test", None),
    ("tel:+441234567", None),
    ("https://maps.example.com/place/1", None),
    ("https://partner.example/deals", None),
    ("javascript:alert(1)", "unsafe_link"),
    ("JaVaScRiPt:alert(1)", "unsafe_link"),
    ("java\tscript:alert(1)", "unsafe_link"),
    (" javascript:alert(1)", "unsafe_link"),
    ("data:text/html,<script>alert(1)</script>", "unsafe_link"),
    ("vbscript:msgbox(1)", "unsafe_link"),
    ("file:///etc/passwd", "unsafe_link"),
    ("//evil.example/x", "unsafe_link"),
    ("/\\evil.example/x", "unsafe_link"),
    ("&#106;avascript:alert(1)", "unsafe_link"),
    ("%6Aavascript:alert(1)", "unsafe_link"),
    ("", "unsafe_link"),
    ({"$bind": "profile.url"}, "unsafe_link"),
    (42, "unsafe_link"),
    ("https://evil.example/", "external_link"),
    ("http://maps.example.com/", "external_link"),
    ("https://maps.example.com:8443/", "external_link"),
    ("https://bakery.test.evil.example/", "external_link"),
]


@pytest.mark.parametrize(("make", "field"), SHAPES)
@pytest.mark.parametrize(("href", "reason"), HREFS)
def test_every_place_an_href_enters_is_checked(
    make: Any, field: str, href: Any, reason: str | None
) -> None:
    ops = [{"t": "set_meta", "patch": {"title": "Home"}}, make(href)]
    if reason is None:
        LinkPolicy.assert_ops(ops, site_origin=SITE, allowed_origins=ALLOWED)
        return
    with pytest.raises(Refused) as caught:
        LinkPolicy.assert_ops(ops, site_origin=SITE, allowed_origins=ALLOWED)
    assert caught.value.reason == reason
    assert caught.value.at == 1
    assert caught.value.detail is not None
    assert caught.value.detail["field"] == field
    if reason == "external_link":
        assert isinstance(caught.value.detail["origin"], str)


def test_external_link_detail_names_the_normalised_origin() -> None:
    with pytest.raises(Refused) as caught:
        LinkPolicy.assert_ops(
            [_patch("HTTPS://Evil.Example:443/x")], site_origin=SITE, allowed_origins=[]
        )
    assert caught.value.detail == {"at": 0, "field": "patch.href", "origin": "https://evil.example"}


def test_first_bad_op_wins() -> None:
    ops = [_patch("/fine"), _patch("https://evil.example/"), _patch("javascript:x")]
    with pytest.raises(Refused) as caught:
        LinkPolicy.assert_ops(ops, site_origin=SITE, allowed_origins=[])
    assert (caught.value.reason, caught.value.at) == ("external_link", 1)


def test_no_allowed_list_accepts_any_safe_link_but_never_an_unsafe_one() -> None:
    LinkPolicy.assert_ops(
        [_patch("https://anywhere.example/")], site_origin=SITE, allowed_origins=None
    )
    with pytest.raises(Refused) as caught:
        LinkPolicy.assert_ops([_patch("javascript:x")], site_origin=SITE, allowed_origins=None)
    assert caught.value.reason == "unsafe_link"


def test_an_empty_allowed_list_keeps_links_on_the_site() -> None:
    LinkPolicy.assert_ops(
        [_patch("https://bakery.test/x"), _patch("/y")], site_origin=SITE, allowed_origins=[]
    )
    with pytest.raises(Refused):
        LinkPolicy.assert_ops(
            [_patch("https://maps.example.com/")], site_origin=SITE, allowed_origins=()
        )


@pytest.mark.parametrize(
    "op",
    [
        None,
        "insert_node",
        [],
        {},
        {"t": "insert_node"},
        {"t": "insert_node", "node": "x"},
        {"t": "insert_node", "node": {"props": "x", "actions": "y"}},
        {"t": "insert_node", "node": {"props": {}, "actions": [None, {"do": "x"}, {"do": {}}]}},
        {"t": "set_node_props", "patch": None},
        {"t": "set_node_props", "patch": {"href": None}},
        {"t": "set_action", "id": "a", "index": 0, "action": None},
        {"t": "set_style", "id": "a", "breakpoint": "base", "patch": {"href": "javascript:x"}},
        {"t": "remove_node", "id": "a"},
    ],
)
def test_ops_that_introduce_no_href_pass(op: Any) -> None:
    LinkPolicy.assert_ops([op], site_origin=SITE, allowed_origins=[])
    assert list(introduced_hrefs(op)) == []


def test_introduced_hrefs_reads_every_place() -> None:
    op = _node_action("/b")
    assert list(introduced_hrefs(op)) == [
        ("node.props.href", "/ok"),
        ("node.actions[1].do.href", "/b"),
    ]
    assert list(introduced_hrefs(_action("/api", "endpoint"))) == [("action.do.endpoint", "/api")]
