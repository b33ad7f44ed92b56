"""The page's metadata the offline builder writes: a title, a description and, when the facts say it, a language.

``meta_patch(ctx)`` is the ``set_meta`` patch of a built page (``page.seo``
says where each field lives and its bounds):

- the title is the business name (``Context.name``), at most 120 characters;
- the description is one plain sentence of the brief's or the facts' own
  words: what the brief says the business is ("Rose Bakery is a family bakery
  in Lisbon."), else the hero's line (a tagline fact, or the brief's first
  statement); one line of at most 300 characters, else none (never cut, never
  a stock sentence: the checks then report ``missing_description``);
- the language is a ``language``/``lang``/``locale`` fact that is one of a few
  language names given in English ("Portuguese" → ``pt``), or a BCP 47 tag
  whose language is 2-3 letters (``pt-BR``); anything else leaves it unset
  (the renderer's default).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from charlotte.page.seo import MAX_DESCRIPTION, MAX_TITLE, is_lang
from charlotte.sections.context import Context
from charlotte.sections.facts import fact, scalar

__all__ = ["LANG_KEYS", "description_of", "lang_of", "meta_patch"]

LANG_KEYS: Final = ("language", "lang", "locale")
#: Language names a host may write in place of a tag, and the tag each means.
_LANG_NAMES: Final = {
    "english": "en", "french": "fr", "german": "de", "spanish": "es", "portuguese": "pt",
    "italian": "it", "dutch": "nl", "danish": "da", "swedish": "sv", "norwegian": "no",
    "finnish": "fi", "polish": "pl", "czech": "cs", "greek": "el", "turkish": "tr",
    "japanese": "ja", "chinese": "zh", "korean": "ko", "arabic": "ar", "hebrew": "he",
}  # fmt: skip


def meta_patch(ctx: Context) -> dict[str, Any]:
    """The ``set_meta`` patch of a page built from ``ctx``: title, and description and lang when known."""
    patch: dict[str, Any] = {"title": ctx.name[:MAX_TITLE].rstrip()}
    seo: dict[str, str] = {}
    if (description := description_of(ctx)) is not None:
        seo["description"] = description
    if (lang := lang_of(ctx.facts)) is not None:
        seo["lang"] = lang
    if seo:
        patch["seo"] = seo
    return patch


def description_of(ctx: Context) -> str | None:
    """One plain sentence about the business in the brief's or the facts' words, or None."""
    candidates: list[str | None] = []
    if ctx.named and ctx.lead.description:
        candidates.append(f"{ctx.name} is {ctx.lead.description}.")
    candidates.append(ctx.subheading)
    for text in candidates:
        line = " ".join(text.split()) if text else ""
        if line and len(line) <= MAX_DESCRIPTION:
            return line
    return None


def lang_of(facts: Mapping[str, Any]) -> str | None:
    """The page's language when the facts give it as a BCP 47 tag or a known language name, else None."""
    text = scalar(fact(facts, LANG_KEYS))
    if text is None:
        return None
    if (named := _LANG_NAMES.get(text.lower())) is not None:
        return named
    # A language subtag in use is 2-3 letters (ISO 639); a longer word ("Klingon") is a name.
    return text if is_lang(text) and len(text.split("-")[0]) <= 3 else None
