"""The page as a site serves it: head tags, language, scoped base rules, the standalone document."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from charlotte.page.assets import InMemoryAssetLibrary
from charlotte.page.document import (
    DEFAULT_LANG,
    page_lang,
    page_title,
    render_head,
    render_page,
    scoped_base_css,
)
from charlotte.page.model import empty_doc
from charlotte.page.render import BASE_CSS

ASSETS = InMemoryAssetLibrary({"hero-photo": "https://cdn.example/hero.jpg"})


def page(title: str = "Rosa's Bakery", **seo: str) -> dict[str, Any]:
    doc = empty_doc("home")
    doc["meta"]["title"] = title
    if seo:
        doc["meta"]["seo"] = dict(seo)
    return doc


def test_the_head_carries_every_field_escaped() -> None:
    doc = page(
        'Rosa\'s "Bakery" <Norwich>',
        description="Sourdough & rye, baked at 5am.",
        canonical="/bakery?x=1&y=2",
        image="hero-photo",
        lang="en-GB",
    )
    head = str(render_head(doc, assets=ASSETS, site_origin="https://rosa.example/"))
    assert head.splitlines() == [
        "<title>Rosa&#39;s &#34;Bakery&#34; &lt;Norwich&gt;</title>",
        '<meta name="description" content="Sourdough &amp; rye, baked at 5am.">',
        '<link rel="canonical" href="https://rosa.example/bakery?x=1&amp;y=2">',
        '<meta property="og:type" content="website">',
        '<meta property="og:title" content="Rosa&#39;s &#34;Bakery&#34; &lt;Norwich&gt;">',
        '<meta property="og:description" content="Sourdough &amp; rye, baked at 5am.">',
        '<meta property="og:image" content="https://cdn.example/hero.jpg">',
        '<meta name="robots" content="index,follow">',
    ]


def test_empty_fields_get_no_tag_and_untitled_is_no_title() -> None:
    head = str(render_head(page("Untitled", image="not-in-the-library", canonical="//evil.example/x"), assets=ASSETS))
    assert head.splitlines() == [
        '<meta property="og:type" content="website">',
        '<meta name="robots" content="index,follow">',
    ]
    assert page_title(page("Untitled")) == "" and page_title({"meta": 3}) == ""


def test_the_language_is_a_tag_or_the_default() -> None:
    assert page_lang(page(lang="pt-BR")) == "pt-BR"
    assert page_lang(page(lang="zh-Hant-TW")) == "zh-Hant-TW"
    for wrong in ("", "e", "english language", 'en"><script>', "en-" + "x" * 40):
        assert page_lang(page(lang=wrong)) == DEFAULT_LANG
    assert page_lang({"nodes": {}}) == DEFAULT_LANG


@given(st.text(max_size=200))
def test_no_text_breaks_out_of_the_head(text: str) -> None:
    doc = page(text, description=text, canonical="/" + text, lang=text, image=text)
    head = str(render_head(doc, assets=ASSETS))
    # Every tag is one of ours, whole: the text never opens or closes an element.
    for line in head.splitlines():
        assert re.fullmatch(r'<(title>[^<>]*</title|meta [^<>]*|link [^<>]*)>', line), line
    standalone = render_page(doc, assets=ASSETS)
    assert standalone.count("<html") == 1 and standalone.count("</head>") == 1


def test_the_scoped_base_rules_style_only_inside_the_page() -> None:
    scoped = scoped_base_css()
    selectors = [rule.partition("{")[0] for rule in scoped.splitlines()]
    assert len(selectors) == len(BASE_CSS.strip().splitlines())
    for group in selectors:
        for selector in group.split(","):
            assert selector.strip().startswith(".cms-page"), selector
    assert ".cms-page .cms-button {" in scoped and "body" not in scoped
    assert ".cms-page, .cms-page *, .cms-page *::before, .cms-page *::after { box-sizing" in scoped


def test_the_standalone_document_names_its_language() -> None:
    html = render_page(page(lang="cy"), assets=ASSETS)
    assert html.startswith('<!DOCTYPE html>\n<html lang="cy">\n<head>\n')
    assert "<title></title>" in render_page(page("Untitled"), assets=ASSETS)
