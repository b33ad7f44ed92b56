"""The bands of a page the offline builder writes, one kind at a time, from the brief and facts only.

``build_section(kind, brief, facts, scheme, index=, taken_ids=)`` builds one
band (a root ``section`` and its subtree, as one ``cms_apply`` batch) of a kind
of ``catalogue.KIND_KEYS``, or returns None when the brief and the facts give it
nothing true to say: there is no fallback copy. ``plan_page`` builds its
sections through it, so a follow-up that adds a section writes what the first
draft would have.

What each kind shows, verbatim from the facts or the brief:

- offerings (menu, services, features, "what we offer"): the fact's items, a
  price list when they carry prices, else the offerings the brief names;
- pricing, hours: one row per entry (name left, price or hours right);
- about: the about fact, or what the brief says beyond the hero's line;
- team, testimonials: the host's facts only;
- faq: the host's questions, else questions the facts answer (where, when,
  how to reach, what is offered, what it costs), at least two;
- gallery: the asset ids the facts list, else marked image slots;
- location: the address; contact: phone and e-mail as links, the address;
- cta: a call or e-mail button.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable, Collection, Mapping
from typing import Any, Final

from charlotte.sections.about import about_band, about_title
from charlotte.sections.batch import Batch, Builder
from charlotte.sections.brief_look import brief_look
from charlotte.sections.catalogue import KIND_BY_KEY, KIND_KEYS, MAX_ITEMS, OFFER_KINDS
from charlotte.sections.context import Context, context_of
from charlotte.sections.facts import (
    capitalised,
    contact_items,
    fact,
    fact_items,
    priced,
    quotes_in,
    scalar,
    split_figure,
)
from charlotte.sections.faq import questions_of
from charlotte.sections.section_list import section_slug
from charlotte.sections.style import (
    CARD_WIDTH,
    PHONE_WIDTH,
    Scheme,
    columns_for,
    fit,
    fits,
    scheme_for,
)

__all__ = ["build_section", "link_label", "rows", "scheme_of", "section_batch"]

_Items = list[tuple[str | None, str | None]]
_LABEL_LIMIT: Final = 100
_GALLERY_SLOTS: Final = 4


def scheme_of(brief: str, facts: Mapping[str, Any] | None) -> Scheme:
    """The colour scheme of the page for ``brief`` and ``facts``: the one ``plan_page`` uses."""
    ctx = context_of(brief, facts)
    scheme = scheme_for(f"{ctx.brief.lower()} {ctx.name.lower()}", zlib.crc32(ctx.name.encode()))
    return brief_look(scheme, ctx.brief)


def build_section(
    kind: str,
    brief: str,
    facts: Mapping[str, Any],
    scheme: Scheme,
    *,
    index: int,
    taken_ids: Collection[str],
) -> Batch | None:
    """One band of kind ``kind`` built from ``brief`` and ``facts`` only, or None.

    None when the kind is unknown or nothing in the brief and the facts feeds
    it. ``index`` is the band's place among the page's sections (odd ones are
    tinted); no node id of the batch is in ``taken_ids``. The same inputs give
    the same batch.

    >>> batch = build_section("hours", "", {"hours": "Mon-Fri 9-5"}, scheme_of("", {}),
    ...                       index=1, taken_ids={"hero"})
    >>> batch.root, batch.title
    ('opening-hours', 'opening hours')
    >>> build_section("testimonials", "", {}, scheme_of("", {}), index=0, taken_ids=()) is None
    True
    """
    return section_batch(
        kind, context_of(brief, facts), scheme, index=index, taken=taken_ids, offerings=True
    )


def section_batch(
    kind: str,
    ctx: Context,
    scheme: Scheme,
    *,
    index: int,
    taken: Collection[str],
    offerings: bool,
) -> Batch | None:
    """``build_section`` on a read brief; ``offerings``: an offer kind shows the brief's offerings."""
    if kind not in KIND_BY_KEY:
        return None
    slug, taken = section_slug(kind), set(taken)
    for n in range(1, 50):
        root = slug if n == 1 else f"{slug}-{n}"
        if root in taken:
            continue
        batch = _band(kind, root, ctx, scheme, index, offerings)
        if batch is None or taken.isdisjoint(batch.node_ids()):
            return batch
    return None


def _band(
    kind: str, root: str, ctx: Context, p: Scheme, index: int, offerings: bool
) -> Batch | None:
    b = Builder(p)
    if kind == "cta":
        b.node(root, "section", None, "cta", layout="stack")
        return b.batch(root, "call to action") if _cta(b, root, ctx) else None
    b.node(root, "section", None, "section-tint" if index % 2 else "section", layout="stack")
    title = _title(kind, ctx)
    b.node(f"{root}-heading", "heading", root, "section-heading", {"content": title, "level": 2})
    if kind in OFFER_KINDS:
        shown = _offer(b, root, ctx, kind, offerings)
    else:
        shown = _FILLS[kind](b, root, ctx)
    return b.batch(root, KIND_BY_KEY[kind].title.lower()) if shown else None


def _title(kind: str, ctx: Context) -> str:
    if kind == "about" and (ctx.person is not None or (len(ctx.name) < 60 and ctx.named)):
        return about_title(ctx.brief, ctx.person, ctx.name)
    if kind in ("services", "pricing", "menu"):
        # The brief's own word for it: "Treatments", "Classes", "Prices"; the last one it
        # uses, as a brief names its sections after describing the business.
        said = list(re.finditer(rf"(?i)\b(?:{KIND_BY_KEY[kind].words})\b", ctx.brief))
        if said:
            words = " ".join(said[-1].group(0).split())
            return words[:1].upper() + words[1:].lower()
    return KIND_BY_KEY[kind].title


# --- the layouts --------------------------------------------------------------------


def rows(b: Builder, root: str, items: _Items) -> None:
    """A price list or timetable: one row per entry, the name left and the figure right."""
    listing = b.node(f"{root}-list", "stack", root, "list", layout="stack")
    for n, (name, figure) in enumerate(items, 1):
        row = b.node(f"{root}-row-{n}", "stack", listing, "row", layout="stack")
        if name and figure:
            b.node(f"{row}-name", "text", row, "row-name", {"content": name})
            b.node(f"{row}-figure", "text", row, "row-figure", {"content": figure})
        else:
            b.node(f"{row}-name", "text", row, "row-name", {"content": name or figure or ""})


def _cards(b: Builder, root: str, items: _Items, *, prefix: str = "item") -> None:
    words = [t or "" for t, _d in items] + [d or "" for _t, d in items]
    columns = columns_for(words, len(items))
    grid = b.node(f"{root}-grid", "grid", root, f"grid-{columns}", layout="grid")
    for n, (title, detail) in enumerate(items, 1):
        card = b.node(f"{root}-{prefix}-{n}", "card", grid, "card", layout="stack")
        if title:
            # A card's title starts with a capital, as the brief's items do ("puncture repair" in the facts).
            b.title(f"{card}-title", card, capitalised(title))
        if detail:
            b.text(f"{card}-text", card, detail)


# --- the kinds ------------------------------------------------------------------------


def _offer(b: Builder, root: str, ctx: Context, kind: str, offerings: bool) -> bool:
    """The fact's items (a price list when priced), else the brief's offerings; the highlights."""
    items = fact_items(fact(ctx.facts, KIND_BY_KEY[kind].facts))
    shown = bool(items)
    if items and ctx.prices_in == kind:
        _cards(b, root, [(name or figure, None) for name, figure in items])  # priced under Prices
    elif items and priced(items):
        rows(b, root, items)
    elif items:
        _cards(b, root, items)
    elif offerings and ctx.offerings.items:
        if ctx.offerings.note:
            b.text(f"{root}-note", root, ctx.offerings.note, "lead")
        _cards(b, root, [(item, None) for item in ctx.offerings.items])
        shown = True
    if offerings:
        for n, (label, words) in enumerate(ctx.featured, 1):
            card = b.node(f"{root}-featured-{n}", "card", root, "card-featured", layout="stack")
            b.node(f"{card}-label", "text", card, "label", {"content": label})
            b.title(f"{card}-text", card, words)
            shown = True
    return shown


def _listed(kind: str) -> Callable[[Builder, str, Context], bool]:
    def fill(b: Builder, root: str, ctx: Context) -> bool:
        # One entry of a one-line fact ("Tue-Sun 7:00-15:00") is a row of its own too.
        # The pricing band prices the offer kind's items when no fact is a price list.
        keys = KIND_BY_KEY[ctx.prices_in if kind == "pricing" and ctx.prices_in else kind].facts
        items = [
            split_figure(d) if t is None and d else (t, d)
            for t, d in fact_items(fact(ctx.facts, keys))
        ]
        if not items:
            return False
        if kind == "hours" or priced(items) or all(d for _t, d in items):
            rows(b, root, items)
        else:
            _cards(b, root, items)
        return True

    return fill


def _about(b: Builder, root: str, ctx: Context) -> bool:
    return about_band(b, root, ctx.about, ctx.subheading, ctx.name)


def _team(b: Builder, root: str, ctx: Context) -> bool:
    items = fact_items(fact(ctx.facts, KIND_BY_KEY["team"].facts))
    if not items:
        return False
    _cards(b, root, items, prefix="person")
    return True


def _testimonials(b: Builder, root: str, ctx: Context) -> bool:
    value = fact(ctx.facts, KIND_BY_KEY["testimonials"].facts)
    quotes: list[tuple[str, str | None]] = []
    if isinstance(value, Mapping):
        quotes = [(q, str(who)) for who, v in value.items() if (q := scalar(v))]
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, Mapping):
                quote = scalar(fact(item, ("quote", "text", "review", "words")))
                who = scalar(fact(item, ("name", "author", "by", "who")))
                if quote:
                    quotes.append((quote, who))
            elif (quote := scalar(item)) is not None:
                quotes.append((quote, None))
    elif (text := scalar(value)) is not None:
        quotes.extend(quotes_in(text))
    if not quotes:
        return False
    grid = b.node(
        f"{root}-grid", "grid", root, f"grid-{columns_for([], len(quotes))}", layout="grid"
    )
    for n, (quote, who) in enumerate(quotes[:MAX_ITEMS], 1):
        card = b.node(f"{root}-quote-{n}", "card", grid, "card", layout="stack")
        b.text(f"{card}-text", card, f"“{quote}”", "quote")
        if who:
            b.node(f"{card}-by", "text", card, "label", {"content": who[:_LABEL_LIMIT]})
    return True


def _photos(ctx: Context) -> list[tuple[str, str]]:
    """The gallery's photos the facts name, ``[(asset id, alt)]``; empty when they name none."""
    value = fact(ctx.facts, KIND_BY_KEY["gallery"].facts)
    if isinstance(value, Mapping):
        return [(str(k), scalar(v) or "") for k, v in value.items()]
    if isinstance(value, list):
        return [(a, "") for v in value if (a := scalar(v))]
    return [(t, "") for t, d in fact_items(value) if t and not d]


def _gallery(b: Builder, root: str, ctx: Context) -> bool:
    images = _photos(ctx)
    grid = b.node(f"{root}-grid", "grid", root, "grid-2", layout="grid")
    height = {
        "base": {"width": "fill", "height": {"value": 150, "unit": "px"}},
        "md": {"height": {"value": 260, "unit": "px"}},
    }
    if images:
        for n, (asset, alt) in enumerate(images[:MAX_ITEMS], 1):
            b.node(
                f"{root}-image-{n}", "image", grid, "body", {"asset": asset[:200], "alt": alt[:300]}
            )
        return True
    # No photos named: slots a person fills from the asset library, marked as such.
    for n in range(1, _GALLERY_SLOTS + 1):
        slot = b.node(f"{root}-slot-{n}", "frame", grid, "slot", layout="stack", constraints=height)
        b.node(
            f"{slot}-label",
            "text",
            slot,
            "label",
            {"content": f"Image slot {n}: choose a photo"},
        )
    return True


def _faq(b: Builder, root: str, ctx: Context) -> bool:
    pairs = questions_of(ctx)
    if len(pairs) < 2:
        return False
    listing = b.node(f"{root}-list", "stack", root, "list", layout="stack")
    for n, (question, answer) in enumerate(pairs[:MAX_ITEMS], 1):
        card = b.node(f"{root}-q-{n}", "card", listing, "card", layout="stack")
        b.title(f"{card}-question", card, question)
        b.text(f"{card}-answer", card, answer)
    return True


def _location(b: Builder, root: str, ctx: Context) -> bool:
    address = next((w for label, w, _h in contact_items(ctx.facts) if label == "address"), None)
    if address is None:
        return False
    b.text(f"{root}-address", root, address, "lead")
    return True


_CONTACT_LABELS: Final[Mapping[str, str]] = {
    "phone": "Phone",
    "email": "E-mail",
    "address": "Address",
}


def _contact(b: Builder, root: str, ctx: Context) -> bool:
    contacts = contact_items(ctx.facts)
    if not contacts:
        return False
    columns = columns_for([w for _l, w, _h in contacts], len(contacts))
    grid = b.node(f"{root}-grid", "grid", root, f"grid-{columns}", layout="grid")
    for label, words, href in contacts:
        card = b.node(f"{root}-{label}-card", "card", grid, "card", layout="stack")
        b.node(f"{root}-{label}-label", "text", card, "label", {"content": _CONTACT_LABELS[label]})
        _reach(b, f"{root}-{label}", card, words, href)
    return True


def link_label(words: str, href: str, width: int, largest: int) -> tuple[str, int]:
    """A link's label and size: its words when they fit ``width`` at 12 px or more, else a verb.

    A word a browser cannot break (an e-mail address of 60 characters) would push the page
    sideways on a phone; the link still calls or writes to it.
    """
    size = fit(words, width, largest, 12)
    if fits(words, width, size):
        return words, size
    return ("Call us" if href.startswith("tel:") else "Send an e-mail"), largest


def _reach(b: Builder, node_id: str, parent: str, words: str, href: str | None) -> None:
    """A phone number or e-mail address as a link in the page's colours, sized to fit a phone."""
    if href and len(words) <= _LABEL_LIMIT:
        # A button renders as a link that takes its colour from the page's style (a plain
        # link would show the browser's blue).
        label, size = link_label(words, href, CARD_WIDTH, 18)
        b.node(
            node_id,
            "button",
            parent,
            "contact-link",
            {"label": label, "href": href, "variant": "primary"},
            size=size,
        )
    else:
        b.text(node_id, parent, words)


def _cta(b: Builder, root: str, ctx: Context) -> bool:
    contacts = {label: (words, href) for label, words, href in contact_items(ctx.facts) if href}
    if not contacts:
        return False
    first = "phone" if "phone" in contacts else "email"
    verb = "Call" if first == "phone" else "Write to"
    heading = _asked_action(ctx.brief)
    if heading is None:
        heading = f"{verb} {ctx.name}" if ctx.named and len(ctx.name) <= 60 else f"{verb} us"
    size = fit(heading, PHONE_WIDTH - 80, 28, 18)
    b.node(
        f"{root}-heading",
        "heading",
        root,
        "cta-heading",
        {"content": heading, "level": 2},
        size=size,
    )
    for label in ("phone", "email"):
        if label in contacts and len(contacts[label][0]) <= _LABEL_LIMIT:
            words, href = contacts[label]
            words, size = link_label(words, href, PHONE_WIDTH - 80 - 28, 17)
            b.node(
                f"{root}-{label}",
                "button",
                root,
                "cta-button",
                {"label": words, "href": href, "variant": "primary"},
                size=size,
            )
    return True


_ACTION = re.compile(r"(?i)\bcall\s+to\s+action\s*:")


def _asked_action(brief: str) -> str | None:
    """The words the brief gives its call to action ("Call to action: book an assessment.")."""
    found = _ACTION.search(brief)
    if found is None:
        return None
    words = re.split(r"[.;!?\n]", brief[found.end() :], maxsplit=1)[0].strip()
    if not 3 <= len(words) <= 60 or re.search(r"\d", words):
        return None  # no figures: a heading of the brief's words states no fact
    return capitalised(words)


_Fill = Callable[[Builder, str, Context], bool]
#: How each kind but the offer kinds (``_offer``) and the call to action (``_cta``) is filled.
_FILLS: Final[Mapping[str, _Fill]] = {
    "pricing": _listed("pricing"),
    "hours": _listed("hours"),
    "about": _about,
    "team": _team,
    "gallery": _gallery,
    "testimonials": _testimonials,
    "faq": _faq,
    "location": _location,
    "contact": _contact,
}
assert {*_FILLS, *OFFER_KINDS, "cta"} == set(KIND_KEYS)
