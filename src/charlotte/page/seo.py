"""The page's metadata (title, description, language, canonical path, social image) and its bounds.

The fields live where the fancy-cms format already keeps them, so a page stays
a fancy-cms page: the title is ``meta.title``, the others are entries of the
``meta.seo`` string map (``description``, ``lang``, ``canonical``, ``image``).
``integrity.check_meta`` keeps the format's own bounds for every stored
document (a title of up to 300 characters, any ``seo`` entry up to 1,000);
``check_meta_patch`` adds the stricter bounds to what a ``set_meta`` writes,
so a stored page written elsewhere still loads while every new write, the
agent's or a person's, keeps them:

- ``title``: at most 120 characters;
- ``seo.description``: one line of at most 300 characters;
- ``seo.lang``: a BCP 47 language tag (``en``, ``en-GB``, ``pt-BR``,
  ``zh-Hant-TW``): letters, digits and ``-`` only, at most 35 characters;
- ``seo.canonical``: a same-site path: ``/`` first, no ``//`` anywhere (no
  scheme, no host), no backslash, whitespace or control character, at most
  500 characters;
- ``seo.image``: an asset id of the host's library (at most 200 characters,
  as an image node's ``asset``); that it exists is ``AssetPolicy``'s check.

An empty string is allowed for each ``seo`` field and means "not set", as a
missing entry does. ``meta.seo`` is one value: a ``set_meta`` whose patch
holds ``seo`` replaces the whole map (the format's shallow merge), so a writer
sends every entry it keeps. Other ``seo`` entries keep the format's bounds.
The inverse of a ``set_meta`` whose old values break these bounds (a long
stored title) is a ``restore_meta`` (``page.inverse``), so an undo can always
put a stored page's meta back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final

from charlotte.errors import PageSessionError
from charlotte.page.model import DEFAULT_TITLE

__all__ = [
    "CANONICAL_PATTERN",
    "DEFAULT_TITLE",
    "LANG_PATTERN",
    "MAX_CANONICAL",
    "MAX_DESCRIPTION",
    "MAX_IMAGE_ID",
    "MAX_LANG",
    "MAX_TITLE",
    "SEO_FIELDS",
    "PageMeta",
    "check_meta_patch",
    "is_lang",
    "is_same_site_path",
    "meta_patch_problem",
    "page_meta",
]

MAX_TITLE: Final = 120
MAX_DESCRIPTION: Final = 300
MAX_LANG: Final = 35
MAX_CANONICAL: Final = 500
MAX_IMAGE_ID: Final = 200
#: The ``meta.seo`` entries charlotte gives a meaning (and a bound).
SEO_FIELDS: Final = ("description", "lang", "canonical", "image")

#: A ``seo.lang`` value as a regular expression (also the tools' schema
#: ``pattern``): empty (not set) or a BCP 47 tag, a 2-8 letter language (or
#: ``x`` for a private-use tag), then subtags of 1-8 letters or digits.
LANG_PATTERN: Final = r"^(?:(?:[A-Za-z]{2,8}|[Xx])(?:-[A-Za-z0-9]{1,8})*)?$"
#: A ``seo.canonical`` value (also the tools' schema ``pattern``): empty (not
#: set) or a same-site path: ``/`` first, never
#: ``//``, no backslash (a browser reads it as ``/``), whitespace or control
#: character. Segments joined by one ``/`` each, so no lookahead (some model
#: providers' schema dialects lack it) and no backtracking blow-up; spelt with
#: ASCII escapes so JSON Schema's ECMA-262 dialect and Python read it alike.
_SEGMENT: Final = r"[^/\x00-\x20\x7f-\xa0\\\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+"
CANONICAL_PATTERN: Final = rf"^(?:/(?:{_SEGMENT}(?:/{_SEGMENT})*/?)?)?$"
_LANG = re.compile(LANG_PATTERN)
#: ISO 639-1's two-letter languages (with the six withdrawn ones browsers still read): a tag
#: whose language has two letters names one of them, or it names no language (``zz``), which
#: screen readers and axe's ``html-lang-valid`` reject. Three-letter languages (ISO 639-2/3,
#: some 8,000) are taken on their shape.
_ISO_639_1: Final = """
    aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv
    cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr
    ht hu hy hz ia id ie ig ii ik in io is it iu iw ja ji jv jw ka kg ki kj kk kl km kn ko kr
    ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mo mr ms mt my na nb nd ne ng
    nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg sh si sk
    sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve
    vi vo wa wo xh yi yo za zh zu
    """
_TWO_LETTER_LANGUAGES: Final = frozenset(_ISO_639_1.split())
_CANONICAL = re.compile(CANONICAL_PATTERN)
# What ends a line besides the C0 controls the format refuses already.
_LINE_BREAK = re.compile(r"[\x85\u2028\u2029]")


def is_lang(value: object) -> bool:
    """True for a BCP 47 language tag within the bound (``en``, ``pt-BR``, ``zh-Hant-TW``).

    A two-letter language must be one ISO 639-1 has (``zz-GB`` is no language);
    a language is two or three letters (BCP 47 registers none longer, so
    ``english`` is no tag), and a private-use tag alone (``x-klingon``) names
    none a reader knows.
    """
    if type(value) is not str or not 0 < len(value) <= MAX_LANG or _LANG.fullmatch(value) is None:
        return False
    language = value.split("-", 1)[0].lower()
    return len(language) == 3 or language in _TWO_LETTER_LANGUAGES


def is_same_site_path(value: object) -> bool:
    """True for a path on the page's own site (``/menu``, ``/en/about?x=1``), never another host."""
    return (
        type(value) is str
        and 0 < len(value) <= MAX_CANONICAL
        and _CANONICAL.fullmatch(value) is not None
    )


def check_meta_patch(patch: dict[str, Any]) -> None:
    """The bounds a ``set_meta`` keeps (module docstring); raises ``invalid_props`` naming the field.

    Runs on a patch whose merged meta ``integrity.check_meta`` accepted, so
    the format's own refusals (a non-string, a control character) come first.
    """
    problem = meta_patch_problem(patch)
    if problem is not None:
        raise PageSessionError("invalid_props", detail=f"{problem[0]}: {problem[1]}")


def meta_patch_problem(patch: object) -> tuple[str, str] | None:
    """(field path, reason) of the first bound ``patch`` breaks as a ``set_meta``, or None; never raises.

    Total on any value (``page.inverse`` asks it of the values an op
    overwrites). Constant work on a valid meta: at most the four meta keys
    and twenty ``seo`` entries of bounded length.
    """
    if not isinstance(patch, dict):
        return None
    title = patch.get("title")
    if isinstance(title, str) and len(title) > MAX_TITLE:
        return "meta.title", f"must be at most {MAX_TITLE} chars"
    seo = patch.get("seo")
    if not isinstance(seo, dict):
        return None
    description = seo.get("description")
    if isinstance(description, str) and (
        len(description) > MAX_DESCRIPTION or _LINE_BREAK.search(description) is not None
    ):
        return "meta.seo.description", f"must be one line of at most {MAX_DESCRIPTION} chars"
    lang = seo.get("lang")
    if isinstance(lang, str) and lang and not is_lang(lang):
        return "meta.seo.lang", "must be a BCP 47 language tag such as en, en-GB or pt-BR"
    canonical = seo.get("canonical")
    if isinstance(canonical, str) and canonical and not is_same_site_path(canonical):
        return "meta.seo.canonical", "must be a path on this site such as /about (no scheme, host or //)"
    image = seo.get("image")
    if isinstance(image, str) and len(image) > MAX_IMAGE_ID:
        return "meta.seo.image", f"must be an asset id of at most {MAX_IMAGE_ID} chars"
    return None


@dataclass(frozen=True, slots=True)
class PageMeta:
    """A page's metadata as read from any document: each field a string, ``""`` when not set."""

    title: str
    description: str
    lang: str
    canonical: str
    image: str


def page_meta(doc: object) -> PageMeta:
    """The metadata of ``doc``; a malformed document or field reads as not set (never raises)."""
    meta = doc.get("meta") if isinstance(doc, dict) else None
    meta = meta if isinstance(meta, dict) else {}
    seo = meta.get("seo")
    seo = seo if isinstance(seo, dict) else {}

    def text(source: dict[Any, Any], key: str) -> str:
        value = source.get(key)
        return value if isinstance(value, str) else ""

    return PageMeta(
        title=text(meta, "title"),
        description=text(seo, "description"),
        lang=text(seo, "lang"),
        canonical=text(seo, "canonical"),
        image=text(seo, "image"),
    )
