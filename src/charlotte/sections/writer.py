"""What the offline builder writes: the batches of ops that build a page from a brief.

``plan_page(brief, facts)`` reads the brief and the host's facts and returns a
``PagePlan``: one ``cms_apply`` batch per band of the page — the hero, then the
sections the brief names (in its order) or the facts feed, each built by
``bands.build_section``'s builder, a call to action when the brief asks for
one, contact last. A section nothing feeds is left out, never filled with a
sentence that would fit any business. Copy states only what the brief or the
facts say, verbatim (prices, hours, phone numbers, addresses, the offerings
the brief lists); directions in the brief (sections, tone) are never copy, the
tone words pick the look (``style.scheme_for``). No link points inside the
page: the rendered page gives its nodes no ``id`` to scroll to, so the hero's
button calls or writes to the business. The hero's batch also writes the
page's title, description and language (``sections.meta``).

The plan is a pure function of its inputs, so the same brief gives the same page.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from charlotte.sections.bands import build_section, scheme_of, section_batch
from charlotte.sections.batch import MAX_TEXT, Batch, Builder
from charlotte.sections.catalogue import KIND_BY_KEY, KIND_KEYS, KIND_NAMES, OFFER_KINDS
from charlotte.sections.context import Context, context_of
from charlotte.sections.fact_bands import (
    SOCIAL_KEYS,
    batch_texts,
    fact_band,
    social_band,
    social_links,
    unshown,
)
from charlotte.sections.facts import capitalised, contact_items, fact, fact_items, priced
from charlotte.sections.meta import meta_patch
from charlotte.sections.section_list import kinds_named, sections_of
from charlotte.sections.style import Scheme, hero_fit

__all__ = [
    "KIND_KEYS",
    "KIND_NAMES",
    "NOTHING_TO_SAY",
    "Batch",
    "PagePlan",
    "build_section",
    "plan_page",
    "scheme_of",
]


@dataclass(frozen=True, slots=True)
class PagePlan:
    """The page the offline builder means to build, batch by batch."""

    name: str
    subheading: str
    batches: tuple[Batch, ...]
    #: The sections the brief asked for and the page lacks: ``(title, why)``, ``why`` a
    #: clause the reply says after the titles (``NOTHING_TO_SAY``).
    left_out: tuple[tuple[str, str], ...] = ()

    def summary(self, present: Sequence[str], mentions: int | None) -> str:
        """A short summary: the sections on the page (``present``: its root ids), name mentions."""
        titles = [b.title for b in self.batches if b.root in present]
        listed = ", ".join(titles) if titles else "no sections of its own"
        places = "1 place" if mentions == 1 else f"{mentions} places"
        named = "" if mentions is None else f" The name appears in {places}."
        return (
            f"Landing page for {self.name}: {listed}.{named} The copy states only what the "
            "brief and the facts say; the checks report no errors."
        )[:500]


def _hero(ctx: Context, scheme: Scheme) -> Batch:
    b = Builder(scheme)
    b.ops.append({"t": "set_meta", "patch": meta_patch(ctx)})
    b.node("hero", "section", None, "hero", layout="stack")
    base, md, lg = hero_fit(ctx.name)
    b.node(
        "hero-heading",
        "heading",
        "hero",
        "hero-heading",
        {"content": ctx.name, "level": 1},
        size=base,
        style={"md": {"fontSize": _px(md)}, "lg": {"fontSize": _px(lg)}},
    )
    if ctx.subheading:
        b.text("hero-text", "hero", ctx.subheading[:MAX_TEXT], "hero-text")
    # The button does what a visitor came to do: call or write (an in-page "#" link would
    # reach nothing on the rendered page).
    for label, words, href in contact_items(ctx.facts):
        if href is None or label == "address":
            continue
        text = f"Call {words}" if label == "phone" else f"Email {words}"
        if len(text) > 40:
            text = "Call us" if label == "phone" else "Send an e-mail"
        b.node(
            "hero-button",
            "button",
            "hero",
            "hero-button",
            {"label": text, "href": href, "variant": "primary"},
        )
        break
    return b.batch("hero", "hero")


def _priced(ctx: Context, kind: str) -> bool:
    """True when the facts that feed the offer band ``kind`` are priced ("Full service £65")."""
    return priced(fact_items(fact(ctx.facts, KIND_BY_KEY[kind].facts)))


def _fact_title(key: str) -> str:
    return capitalised(key.replace("_", " "))


def _px(value: float) -> dict[str, Any]:
    return {"value": value, "unit": "px"}


#: Why a section the brief asked for is not on the first page.
NOTHING_TO_SAY = "nothing in the brief or the facts says what to put there"
#: Why a fact is not on the first page: more facts than bands of their own.
NO_ROOM = "the page has a band for each of the first facts, and more would bury them; add them by hand"


#: The bands that close a page: the facts no catalogue band shows go before them.
_CLOSING: Final = ("location", "cta", "contact")
#: Bands of facts no catalogue band shows, at most (the rest are named in the reply).
MAX_FACT_BANDS: Final = 8


def plan_page(brief: str, facts: object) -> PagePlan:
    """The page for ``brief`` and ``facts``: hero, the sections that have something to say, contact.

    Every fact is used: one the catalogue's bands do not show gets a band of its
    own before the closing bands (``fact_bands``), or is named in the reply.
    """
    ctx = context_of(brief, facts)
    facts_in = facts if isinstance(facts, Mapping) else {}
    scheme = scheme_of(ctx.brief, facts_in)
    first = _plan(ctx, scheme, ())
    missing = unshown(ctx, batch_texts(first.batches))
    if not missing:
        return first
    plan = _plan(ctx, scheme, missing[:MAX_FACT_BANDS])
    over = [(_fact_title(key), NO_ROOM) for key in missing[MAX_FACT_BANDS:]]
    return replace(plan, left_out=plan.left_out + tuple(over))


def _plan(ctx: Context, scheme: Scheme, extra: Sequence[str]) -> PagePlan:
    """The page's batches, with a band for each fact key of ``extra`` before the closing bands."""
    sections = sections_of(ctx.brief, ctx.facts, offers=bool(ctx.offerings.items or ctx.featured))
    offer_kind = next((s.kind for s in sections if s.kind in OFFER_KINDS), None)
    batches = [_hero(ctx, scheme)]
    taken = set(batches[0].node_ids())
    asked = set(kinds_named(ctx.brief))
    left_out: list[tuple[str, str]] = []
    unfilled: list[str] = []  # left_out's kinds
    built: set[str] = set()
    closing = next((n for n, s in enumerate(sections) if s.kind in _CLOSING), len(sections))
    for n, section in enumerate([*sections, None]):
        if n == closing:
            for batch in _fact_batches(ctx, scheme, extra, len(batches) - 1, taken):
                batches.append(batch)
                taken |= set(batch.node_ids())
        if section is None:
            break
        band = section_batch(
            section.kind,
            ctx,
            scheme,
            index=len(batches) - 1,
            taken=taken,
            offerings=section.kind == offer_kind,
        )
        if band is not None:
            batches.append(band)
            taken |= set(band.node_ids())
            built.add(section.kind)
        elif section.kind in asked:
            left_out.append((section.title, NOTHING_TO_SAY))
            unfilled.append(section.kind)
    if "pricing" in unfilled and offer_kind in built and _priced(ctx, offer_kind):
        # The offer band shows the prices: the page has its pricing, only not as a band.
        del left_out[unfilled.index("pricing")]
    return PagePlan(ctx.name, ctx.subheading or "", tuple(batches), tuple(left_out))


def _fact_batches(
    ctx: Context, scheme: Scheme, keys: Sequence[str], index: int, taken: set[str]
) -> list[Batch]:
    """The bands of ``keys`` (the social handles together in one), ids clear of ``taken``."""
    out: list[Batch] = []
    social = [k for k in keys if k in SOCIAL_KEYS]
    for key in [k for k in keys if k not in SOCIAL_KEYS] + (["follow-us"] if social else []):
        slug = re.sub(r"[^a-z0-9]+", "-", key.lower()).strip("-") or "facts"
        root = next(r for n in range(1, 100) if (r := slug if n == 1 else f"{slug}-{n}") not in taken)
        at = index + len(out)
        if key == "follow-us" and social:
            batch = social_band(social, ctx, scheme, root=root, index=at)
        else:
            batch = fact_band(key, ctx, scheme, root=root, index=at)
        if batch is not None and taken.isdisjoint(batch.node_ids()):
            out.append(batch)
            taken = taken | set(batch.node_ids())
            links = social_links(batch) if key == "follow-us" else None
            if links is not None and taken.isdisjoint(links.node_ids()):
                out.append(links)  # its own batch: a host that allows no such link keeps the words
                taken = taken | set(links.node_ids())
    return out
