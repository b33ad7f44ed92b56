"""The offline builder's page metadata: the business name as title, a sentence of the brief as description."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.unit.sections.test_pages import _built, _every_brief

from charlotte.checks import PageChecks
from charlotte.page.seo import MAX_DESCRIPTION, is_lang, page_meta
from charlotte.sections.context import context_of
from charlotte.sections.meta import description_of, lang_of
from charlotte.sections.writer import plan_page
from charlotte.tools import fact_texts

_WORD = re.compile(r"[^\W_]+")


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


def _sources(brief: str, facts: dict[str, Any]) -> set[str]:
    return _words(brief) | _words(" ".join(fact_texts(facts).values()))


@pytest.mark.parametrize(("brief", "facts"), _every_brief())
def test_every_built_page_has_the_briefs_title_and_description_and_no_meta_finding(
    brief: str, facts: dict[str, Any]
) -> None:
    doc = _built(brief, facts)
    meta = page_meta(doc)
    ctx = context_of(brief, facts)
    assert meta.title == ctx.name
    if ctx.named or ctx.subheading:
        assert meta.description, brief
    # Only words the brief or the facts contain ("is" joins the name to what the brief says it is).
    assert _words(meta.description) <= _sources(brief, facts) | {"is"}, meta.description
    assert len(meta.description) <= MAX_DESCRIPTION and "\n" not in meta.description
    codes = {f.code for f in PageChecks(facts=fact_texts(facts), brief=brief).run(doc)}
    if meta.description:
        assert not codes & {"missing_title", "missing_description"}


def test_what_the_brief_says_the_business_is_becomes_the_description() -> None:
    brief = "Rose Bakery is a family bakery in Lisbon baking sourdough every morning."
    assert page_meta(_built(brief, {})).description == brief
    ctx = context_of("Build a site for Spokes & Sprockets, a bike repair shop in Leeds.", {})
    assert description_of(ctx) == "Spokes & Sprockets is a bike repair shop in Leeds."


def test_a_description_over_the_bound_is_left_out_never_cut() -> None:
    long = "Rose Bakery is a bakery in Lisbon " + "baking bread and cakes " * 20 + "."
    assert description_of(context_of(long, {})) == "A bakery in Lisbon."  # the hero's line instead
    brief = "We bake " + "bread and cakes and " * 20 + "buns."
    assert description_of(context_of(brief, {})) is None
    assert "seo" not in plan_page(brief, {}).batches[0].ops[0]["patch"]


@pytest.mark.parametrize(
    ("facts", "lang"),
    [
        ({"language": "pt-BR"}, "pt-BR"),
        ({"Language": "Portuguese"}, "pt"),
        ({"lang": "en"}, "en"),
        ({"locale": "de-CH"}, "de-CH"),
        ({"language": "Klingon"}, None),
        ({"language": "en_GB"}, None),
        ({"language": ["en"]}, None),
        ({}, None),
    ],
)
def test_the_language_comes_from_the_facts_only(facts: dict[str, Any], lang: str | None) -> None:
    ctx = context_of("Rose Bakery is a bakery in Lisbon.", facts)
    assert lang_of(ctx.facts) == lang
    assert page_meta(_built("Rose Bakery is a bakery in Lisbon.", facts)).lang == (lang or "")


_BRIEF_WORDS = st.sampled_from(
    ["Rose", "Bakery", "is", "a", "family", "bakery", "in", "Lisbon", "for", "baking", "bread", ":", ",",
     ".", "Sections", "menu", "contact", "£4", "called", "Studio", "\n", "friendly", "tone"]
)  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(st.lists(_BRIEF_WORDS, max_size=30).map(" ".join), st.sampled_from(["", "en", "French", "x y"]))
def test_any_brief_gives_a_meta_the_page_core_writes_in_the_briefs_words(brief: str, language: str) -> None:
    facts = {"language": language} if language else {}
    doc = _built(brief, facts)  # PageSession applied the set_meta: every bound kept
    meta = page_meta(doc)
    assert _words(meta.description) <= _sources(brief, facts) | {"is"}
    assert meta.lang == "" or is_lang(meta.lang)
