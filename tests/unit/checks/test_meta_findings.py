"""The copy check reads the page's title and description: missing ones are warnings on ``#meta``."""

from __future__ import annotations

from typing import Any

import pytest

from charlotte.checks import PageChecks
from charlotte.page.model import empty_doc


def _page(title: object = "Rose Bakery", description: object = "A bakery in Bristol.", **seo: Any) -> dict[str, Any]:
    doc = empty_doc("home")
    doc["nodes"] = {
        "h": {"id": "h", "type": "heading", "parent": None, "order": "V",
              "props": {"content": "Rose Bakery", "level": 1}, "style": {"base": {}}},
    }  # fmt: skip
    doc["meta"]["title"] = title
    if description is not None:
        doc["meta"]["seo"] = {"description": description, **seo}
    return doc


def findings(doc: object) -> list[tuple[str | None, str, str, str]]:
    return [(f.node, f.code, f.severity, f.message) for f in PageChecks().run(doc)]


TITLE = (
    "#meta", "missing_title", "warning",
    "The page has no title: give it one of at most 120 characters, such as the business name.",
)  # fmt: skip
DESCRIPTION = (
    "#meta", "missing_description", "warning",
    "The page has no description: give it one plain sentence of at most 300 characters about "
    "the business for search results.",
)  # fmt: skip


def test_a_titled_and_described_page_has_no_meta_finding() -> None:
    assert findings(_page()) == []


@pytest.mark.parametrize("title", ["Untitled", "", "   ", " Untitled ", 5])
def test_no_title_or_the_default_one_is_a_warning(title: object) -> None:
    assert findings(_page(title=title)) == [TITLE]


@pytest.mark.parametrize("description", [None, "", "  ", 7])
def test_no_description_is_a_warning(description: object) -> None:
    assert findings(_page(description=description)) == [DESCRIPTION]


def test_a_new_page_gets_both_after_its_other_copy_findings() -> None:
    doc = empty_doc("home")
    codes = [(f.check, f.node, f.code) for f in PageChecks().run(doc)]
    assert codes == [
        ("copy", None, "no_heading"), ("copy", "#meta", "missing_title"), ("copy", "#meta", "missing_description")
    ]  # fmt: skip
    assert PageChecks().run(doc, only=["facts", "links", "assets"]) == []


def test_placeholders_in_the_title_or_description_are_errors() -> None:
    got = findings(_page(title="[Business Name]", description="Your tagline goes here"))
    assert [(node, code, severity) for node, code, severity, _ in got] == [
        ("#meta", "bracket_placeholder", "error"), ("#meta", "placeholder_copy", "error")
    ]  # fmt: skip


@pytest.mark.parametrize("doc", [{"nodes": {}}, {"meta": 3, "nodes": {}}, None, [], "page"])
def test_a_document_without_a_meta_object_has_nothing_to_report(doc: object) -> None:
    assert [f for f in PageChecks().run(doc) if f.node == "#meta"] == []


def test_an_unknown_social_image_is_an_assets_error_on_meta() -> None:
    got = PageChecks().run(_page(image="missing.png"))
    assert [(f.check, f.node, f.code, f.severity) for f in got] == [("assets", "#meta", "authored_asset", "error")]
