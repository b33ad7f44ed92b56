"""The page's metadata bounds: what a ``set_meta`` may write, for every actor; stored pages still load."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from charlotte.errors import PageSessionError
from charlotte.page.model import DEFAULT_TITLE, empty_doc
from charlotte.page.seo import (
    MAX_CANONICAL,
    MAX_DESCRIPTION,
    MAX_LANG,
    MAX_TITLE,
    PageMeta,
    is_lang,
    is_same_site_path,
    page_meta,
)
from charlotte.page.session import PageSession

ACTORS = ("agent", "person-1")


def _set_meta(patch: dict[str, Any], actor: str = "agent", doc: dict[str, Any] | None = None) -> PageSession:
    session = PageSession(doc if doc is not None else empty_doc("home"))
    session.apply([{"t": "set_meta", "patch": patch}], based_on=session.revision, actor=actor)
    return session


def _refusal(patch: dict[str, Any], actor: str = "agent") -> tuple[str, str]:
    session = PageSession(empty_doc("home"))
    before = session.doc
    with pytest.raises(PageSessionError) as caught:
        session.apply([{"t": "set_meta", "patch": patch}], based_on=0, actor=actor)
    assert session.doc is before and session.revision == 0  # nothing written
    detail = caught.value.detail
    assert isinstance(detail, str)
    return caught.value.code, detail.split(":")[0]


REFUSED: list[tuple[dict[str, Any], str]] = [
    ({"title": "t" * (MAX_TITLE + 1)}, "meta.title"),
    ({"seo": {"description": "d" * (MAX_DESCRIPTION + 1)}}, "meta.seo.description"),
    ({"seo": {"description": "two\nlines"}}, "meta.seo.description"),
    ({"seo": {"description": "two\u2028lines"}}, "meta.seo.description"),
    ({"seo": {"description": "next\x85line"}}, "meta.seo.description"),
    ({"seo": {"lang": "english please"}}, "meta.seo.lang"),
    ({"seo": {"lang": "en_GB"}}, "meta.seo.lang"),
    ({"seo": {"lang": "en-"}}, "meta.seo.lang"),
    ({"seo": {"lang": '"><script>'}}, "meta.seo.lang"),
    ({"seo": {"lang": "en-" + "a" * MAX_LANG}}, "meta.seo.lang"),
    # Well formed, but no language: screen readers and axe's html-lang-valid reject them.
    ({"seo": {"lang": "zz"}}, "meta.seo.lang"),
    ({"seo": {"lang": "xx-GB"}}, "meta.seo.lang"),
    ({"seo": {"lang": "x-klingon"}}, "meta.seo.lang"),
    ({"seo": {"canonical": "https://evil.example/"}}, "meta.seo.canonical"),
    ({"seo": {"canonical": "//evil.example/x"}}, "meta.seo.canonical"),
    ({"seo": {"canonical": "/\\evil.example"}}, "meta.seo.canonical"),
    ({"seo": {"canonical": "/a//b"}}, "meta.seo.canonical"),
    ({"seo": {"canonical": "javascript:alert(1)"}}, "meta.seo.canonical"),
    ({"seo": {"canonical": "about"}}, "meta.seo.canonical"),
    ({"seo": {"canonical": "/a b"}}, "meta.seo.canonical"),
    ({"seo": {"canonical": "/a\u00a0b"}}, "meta.seo.canonical"),
    ({"seo": {"canonical": "/" + "a" * MAX_CANONICAL}}, "meta.seo.canonical"),
    ({"seo": {"image": "i" * 201}}, "meta.seo.image"),
    ({"seo": {"image": 5}}, "meta.seo.image"),
]


@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize(("patch", "path"), REFUSED)
def test_a_set_meta_breaking_a_bound_is_refused_with_the_fields_path(
    patch: dict[str, Any], path: str, actor: str
) -> None:
    assert _refusal(patch, actor) == ("invalid_props", path)


@pytest.mark.parametrize("actor", ACTORS)
def test_every_field_at_its_bound_is_written(actor: str) -> None:
    seo = {
        "description": "d" * MAX_DESCRIPTION,
        "lang": "zh-Hant-TW",
        "canonical": "/en/about-us/?ref=home#team",
        "image": "hero.jpg",
        "og:type": "website",  # the format's other entries keep its own bounds
    }
    session = _set_meta({"title": "t" * MAX_TITLE, "seo": seo}, actor)
    assert session.doc["meta"]["title"] == "t" * MAX_TITLE
    assert session.doc["meta"]["seo"] == seo
    assert page_meta(session.doc) == PageMeta(
        "t" * MAX_TITLE, "d" * MAX_DESCRIPTION, "zh-Hant-TW", "/en/about-us/?ref=home#team", "hero.jpg"
    )


def test_an_empty_field_means_not_set_and_is_written() -> None:
    session = _set_meta({"seo": {"description": "", "lang": "", "canonical": "", "image": ""}})
    assert page_meta(session.doc) == PageMeta(DEFAULT_TITLE, "", "", "", "")


def test_a_stored_title_of_the_formats_length_still_loads_and_other_fields_can_be_written() -> None:
    doc = empty_doc("home")
    doc["meta"]["title"] = "t" * 300  # the format's bound, written elsewhere
    doc["meta"]["seo"] = {"description": "d" * 900}  # likewise
    session = PageSession(doc)
    session.apply([{"t": "set_meta", "patch": {"slug": "/home"}}], based_on=0, actor="person-1")
    assert session.doc["meta"]["title"] == "t" * 300  # only what the patch writes is bounded anew
    with pytest.raises(PageSessionError) as caught:
        session.apply([{"t": "set_meta", "patch": {"title": "t" * 121}}], based_on=1, actor="agent")
    assert caught.value.detail == "meta.title: must be at most 120 chars"


def test_an_undo_puts_a_stored_long_title_back() -> None:
    doc = empty_doc("home")
    doc["meta"]["title"] = "t" * 200
    session = PageSession(doc)
    applied = session.apply([{"t": "set_meta", "patch": {"title": "Short"}}], based_on=0, actor="agent")
    session.apply(applied.inverse, based_on=1, actor="person-1")
    assert session.doc["meta"]["title"] == "t" * 200


def test_the_format_bound_still_comes_first_for_what_it_refuses() -> None:
    assert _refusal({"title": "t" * 301}) == ("invalid_props", "meta.title")
    assert _refusal({"seo": {"description": 3}}) == ("invalid_props", "meta.seo.description")


@given(st.text(max_size=MAX_DESCRIPTION + 20))
def test_a_description_is_written_exactly_when_it_is_one_bounded_line(text: str) -> None:
    one_line = all(ord(c) >= 0x20 and c not in "\x7f\x85\u2028\u2029" for c in text)
    expected = len(text) <= MAX_DESCRIPTION and one_line
    session = PageSession(empty_doc("home"))
    try:
        session.apply([{"t": "set_meta", "patch": {"seo": {"description": text}}}], based_on=0, actor="a")
    except PageSessionError as e:
        assert not expected and e.code == "invalid_props"
        assert str(e.detail).startswith("meta.seo.description:")
    else:
        assert expected


_SUBTAG = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", min_size=1, max_size=8)
_LANGUAGE = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=3, max_size=3)
_ISO_639_1 = st.sampled_from(["en", "EN", "cy", "pt", "zh", "ga", "zu", "iw"])


@given(st.one_of(_LANGUAGE, _ISO_639_1), st.lists(_SUBTAG, max_size=3))
def test_a_well_formed_language_tag_is_a_lang(language: str, subtags: list[str]) -> None:
    tag = "-".join([language, *subtags])
    assert is_lang(tag) == (len(tag) <= MAX_LANG)


@pytest.mark.parametrize("language", ["zz", "xx", "qq", "ez", "english", "abcd"])
def test_a_language_iso_639_lacks_is_no_lang(language: str) -> None:
    assert not is_lang(language) and not is_lang(f"{language}-GB")


@given(st.text(max_size=40))
def test_a_lang_holds_only_letters_digits_and_hyphens(text: str) -> None:
    if is_lang(text):
        assert text.isascii() and all(c.isalnum() or c == "-" for c in text)
        assert not text.startswith("-") and not text.endswith("-") and "--" not in text


@given(st.text(max_size=60))
def test_a_canonical_path_never_leaves_the_site(text: str) -> None:
    if is_same_site_path(text):
        assert text.startswith("/") and "//" not in text and "\\" not in text
        assert not any(c.isspace() or ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in text)


@given(st.lists(st.text(alphabet="abc-_.~%?=&:@!$'()*+,;éß", min_size=1, max_size=8), max_size=5))
def test_a_path_of_plain_segments_is_a_canonical_path(segments: list[str]) -> None:
    path = "/" + "/".join(segments)
    assert is_same_site_path(path)


@pytest.mark.parametrize(
    "doc", [None, 5, {}, {"meta": 3}, {"meta": {"title": 4, "seo": []}}, {"meta": {"seo": {"lang": 1}}}]
)
def test_page_meta_reads_a_malformed_document_as_not_set(doc: object) -> None:
    assert page_meta(doc) == PageMeta("", "", "", "", "")
