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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from charlotte.sections.bands import build_section, scheme_of, section_batch
from charlotte.sections.batch import MAX_TEXT, Batch, Builder
from charlotte.sections.brief import kinds_named, sections_of
from charlotte.sections.catalogue import KIND_BY_KEY, KIND_KEYS, KIND_NAMES, OFFER_KINDS
from charlotte.sections.context import Context, context_of
from charlotte.sections.facts import contact_items, fact, fact_items, priced
from charlotte.sections.meta import meta_patch
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


def _px(value: float) -> dict[str, Any]:
    return {"value": value, "unit": "px"}


#: Why a section the brief asked for is not on the first page.
NOTHING_TO_SAY = "nothing in the brief or the facts says what to put there"


def plan_page(brief: str, facts: object) -> PagePlan:
    """The page for ``brief`` and ``facts``: hero, the sections that have something to say, contact."""
    ctx = context_of(brief, facts)
    facts_in = facts if isinstance(facts, Mapping) else {}
    scheme = scheme_of(ctx.brief, facts_in)
    sections = sections_of(ctx.brief, ctx.facts, offers=bool(ctx.offerings.items or ctx.featured))
    offer_kind = next((s.kind for s in sections if s.kind in OFFER_KINDS), None)
    batches = [_hero(ctx, scheme)]
    taken = set(batches[0].node_ids())
    asked = set(kinds_named(ctx.brief))
    left_out: list[tuple[str, str]] = []
    unfilled: list[str] = []  # left_out's kinds
    built: set[str] = set()
    for section in sections:
        batch = section_batch(
            section.kind,
            ctx,
            scheme,
            index=len(batches) - 1,
            taken=taken,
            offerings=section.kind == offer_kind,
        )
        if batch is not None:
            batches.append(batch)
            taken |= set(batch.node_ids())
            built.add(section.kind)
        elif section.kind in asked:
            left_out.append((section.title, NOTHING_TO_SAY))
            unfilled.append(section.kind)
    if "pricing" in unfilled and offer_kind in built and _priced(ctx, offer_kind):
        # The offer band shows the prices: the page has its pricing, only not as a band.
        del left_out[unfilled.index("pricing")]
    return PagePlan(ctx.name, ctx.subheading or "", tuple(batches), tuple(left_out))
