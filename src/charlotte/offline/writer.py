"""What the offline builder writes: the batches of ops that build a page from a brief.

``plan_page(brief, facts)`` reads the brief and the host's facts and returns a
``PagePlan``: one ``cms_apply`` batch per band of the page (hero, the sections
the brief names or the facts support, a call to action, contact). Copy states
only what the brief or the facts say, copied verbatim (prices, hours, phone
numbers, addresses, the offerings the brief lists); everything else is a
generic sentence that claims nothing. Directions in the brief (sections, tone)
are never copy.
The plan is a pure function of its inputs, so the same brief gives the same page.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from charlotte.offline.brief import (
    Offerings,
    about_text,
    business_name,
    lead_of,
    offerings_of,
    sections_of,
)
from charlotte.offline.facts import (
    contact_items,
    fact,
    fact_items,
    fact_key,
    featured_items,
)
from charlotte.offline.sections import KIND_BY_KEY, OFFER_KINDS, Section
from charlotte.offline.style import Palette, palette_for, style_of
from charlotte.page.model import Op

__all__ = ["Batch", "PagePlan", "plan_page"]

_MAX_TEXT: Final = 2_000
_HEADING_LIMIT: Final = 80
_LINK_TEXT: Final = 300



@dataclass(frozen=True, slots=True)
class Batch:
    """One ``cms_apply`` batch: it inserts the root node ``root`` and its subtree."""

    root: str
    title: str
    ops: tuple[Op, ...]


@dataclass(frozen=True, slots=True)
class PagePlan:
    """The page the offline builder means to build, batch by batch."""

    name: str
    subheading: str
    batches: tuple[Batch, ...]

    def summary(self, present: Sequence[str], mentions: int | None) -> str:
        """A short summary: the sections on the page (``present``: its root ids), name mentions."""
        titles = [b.title for b in self.batches if b.root in present]
        listed = ", ".join(titles) if titles else "no sections of its own"
        named = "" if mentions is None else f" The name appears in {mentions} places."
        return (
            f"Landing page for {self.name}: {listed}.{named} The copy states only what the "
            "brief and the facts say; the checks report no errors."
        )[:500]


class _Builder:
    """Ops for one batch: nodes appended under their parents, styled from the palette."""

    def __init__(self, palette: Palette) -> None:
        self.palette = palette
        self.ops: list[Op] = []

    def node(
        self,
        node_id: str,
        node_type: str,
        parent: str | None,
        role: str,
        props: Mapping[str, Any] | None = None,
        layout: str | None = None,
    ) -> str:
        node: dict[str, Any] = {"id": node_id, "type": node_type, "parent": parent}
        if props:
            node["props"] = dict(props)
        if layout:
            node["layout"] = layout
        node["style"] = style_of(role, self.palette)
        self.ops.append({"t": "insert_node", "node": node})
        return node_id

    def words(self, node_id: str, parent: str, text: str, role: str = "body") -> None:
        if role == "title" and len(text) <= _HEADING_LIMIT:
            self.node(node_id, "heading", parent, role, {"content": text, "level": 3})
        else:
            self.node(node_id, "text", parent, "body", {"content": text[:_MAX_TEXT]})


def _hero(name: str, subheading: str, sections: Sequence[Section], palette: Palette) -> Batch:
    b = _Builder(palette)
    b.ops.append({"t": "set_meta", "patch": {"title": name}})
    b.node("hero", "section", None, "hero", layout="stack")
    b.node("hero-heading", "heading", "hero", "hero-heading", {"content": name, "level": 1})
    b.node("hero-text", "text", "hero", "hero-text", {"content": subheading[:_MAX_TEXT]})
    first = next(
        (s for s in sections if s.kind in ("menu", "pricing", "services", "features")), None
    )
    if first is not None:
        label, href = f"See the {first.title.lower()}", f"#{first.id}"
    else:
        label, href = "Get in touch", f"#{sections[-1].id}"
    b.node(
        "hero-button",
        "button",
        "hero",
        "hero-button",
        {"label": label, "href": href, "variant": "primary"},
    )
    return Batch("hero", "hero", tuple(b.ops))


@dataclass(frozen=True, slots=True)
class _Copy:
    """What the sections may say: the facts, the about text, the offerings and highlights."""

    name: str
    facts: Mapping[str, Any]
    about: str | None
    offerings: Offerings
    featured: tuple[tuple[str, str], ...]
    offer_section: str | None  # the id of the section that shows the offerings


_LABELS: Final[Mapping[str, str]] = {"phone": "Call us", "email": "Write to us", "address": "Visit us"}


def _contact(b: _Builder, sid: str, copy: _Copy, kind_generic: str) -> None:
    contacts = contact_items(copy.facts)
    if not contacts:
        b.words(f"{sid}-text", sid, kind_generic.format(name=copy.name))
        return
    grid = b.node(f"{sid}-grid", "grid", sid, f"grid-{min(len(contacts), 3)}", layout="grid")
    for label, words, href in contacts:
        card = b.node(f"{sid}-{label}-card", "card", grid, "card", layout="stack")
        b.node(f"{sid}-{label}-label", "text", card, "label", {"content": _LABELS[label]})
        if href and len(words) <= _LINK_TEXT:
            b.node(f"{sid}-{label}", "link", card, "link", {"content": words, "href": href})
        else:
            b.words(f"{sid}-{label}", card, words)


def _cards(b: _Builder, sid: str, items: Sequence[tuple[str | None, str | None]]) -> None:
    grid = b.node(f"{sid}-grid", "grid", sid, f"grid-{min(len(items), 3)}", layout="grid")
    for n, (t, d) in enumerate(items, 1):
        card = b.node(f"{sid}-item-{n}", "card", grid, "card", layout="stack")
        if t:
            b.words(f"{card}-title", card, t, role="title")
        if d:
            b.words(f"{card}-text", card, d)


def _offer(b: _Builder, sid: str, copy: _Copy, facts_shown: bool) -> bool:
    """The offerings the brief lists (unless facts already list them) and the highlighted facts."""
    shown = False
    if not facts_shown and copy.offerings.items:
        if copy.offerings.note:
            b.words(f"{sid}-note", sid, copy.offerings.note)
        _cards(b, sid, [(item, None) for item in copy.offerings.items])
        shown = True
    for n, (label, words) in enumerate(copy.featured, 1):
        card = b.node(f"{sid}-featured-{n}", "card", sid, "card-featured", layout="stack")
        b.node(f"{card}-label", "text", card, "label", {"content": label})
        b.words(f"{card}-text", card, words, role="title")
        shown = True
    return shown


def _section(section: Section, index: int, copy: _Copy, palette: Palette) -> Batch:
    b = _Builder(palette)
    sid = section.id
    kind = KIND_BY_KEY[section.kind]
    name = copy.name
    tone = "section-tint" if index % 2 else "section"
    b.node(sid, "section", None, tone, layout="stack")
    title = f"About {name}" if section.kind == "about" and len(name) < 60 else section.title
    b.node(f"{sid}-heading", "heading", sid, "section-heading", {"content": title, "level": 2})
    if section.kind == "contact":
        _contact(b, sid, copy, kind.generic)
        return Batch(sid, section.title.lower(), tuple(b.ops))
    if section.kind == "about" and copy.about:
        b.words(f"{sid}-text", sid, copy.about)
        return Batch(sid, section.title.lower(), tuple(b.ops))
    items = fact_items(fact(copy.facts, kind.facts))
    if items and (section.kind == "hours" or all(t is None or d is None for t, d in items)):
        # A plain list: one line per entry, "day: hours" as the facts put it.
        listing = b.node(f"{sid}-list", "stack", sid, "list", layout="stack")
        for n, (t, d) in enumerate(items, 1):
            line = f"{t}: {d}" if t and d else (t or d or "")
            b.words(f"{sid}-item-{n}", listing, line)
    elif items:
        _cards(b, sid, items)
    offered = sid == copy.offer_section and _offer(b, sid, copy, bool(items))
    if not items and not offered:
        b.words(f"{sid}-text", sid, kind.generic.format(name=name))
    return Batch(sid, section.title.lower(), tuple(b.ops))


def _call_to_action(name: str, contact: Section, product: bool, palette: Palette) -> Batch:
    b = _Builder(palette)
    b.node("call-to-action", "section", None, "cta", layout="stack")
    heading = f"Get started with {name}" if product else f"Get in touch with {name}"
    if len(heading) > _HEADING_LIMIT:
        heading = "Get in touch"
    b.node(
        "call-to-action-heading",
        "heading",
        "call-to-action",
        "cta-heading",
        {"content": heading, "level": 2},
    )
    b.node(
        "call-to-action-button",
        "button",
        "call-to-action",
        "cta-button",
        {"label": "Contact us", "href": f"#{contact.id}", "variant": "secondary"},
    )
    return Batch("call-to-action", "call to action", tuple(b.ops))


def plan_page(brief: str, facts: object) -> PagePlan:
    """The page for ``brief`` and ``facts``: hero, sections, call to action, contact."""
    brief = brief if isinstance(brief, str) else ""
    table = {fact_key(str(k)): v for k, v in facts.items()} if isinstance(facts, Mapping) else {}
    name = business_name(brief, table)
    lead = lead_of(brief, table, name)
    display = name or "Welcome"
    subheading = lead.subheading
    if subheading is None:
        subheading = f"Welcome to {name}." if name else "Good to have you here."
    offerings = offerings_of(brief, lead)
    featured = tuple(featured_items(table))
    sections = sections_of(brief, table, offers=bool(offerings.items or featured))
    lowered = brief.lower()
    product = any(k in ("pricing", "features") for k in (s.kind for s in sections)) or bool(
        re.search(r"\b(?:saas|software|app|platform|product|tool)\b", lowered)
    )
    palette = palette_for(lowered, zlib.crc32(display.encode("utf-8")))
    offer_section = next((s.id for s in sections if s.kind in OFFER_KINDS), None)
    copy = _Copy(
        display, table, about_text(brief, table, name, lead), offerings, featured, offer_section
    )
    batches = [_hero(display, subheading, sections, palette)]
    body = [s for s in sections if s.kind != "contact"]
    batches += [_section(s, n, copy, palette) for n, s in enumerate(body)]
    contact = sections[-1]
    batches.append(_call_to_action(display, contact, product, palette))
    batches.append(_section(contact, len(body), copy, palette))
    return PagePlan(display, subheading, tuple(batches))
