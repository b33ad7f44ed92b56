"""What the offline builder writes: the business name, the copy and the sections of a page.

``plan_page(brief, facts)`` reads the brief and the host's facts and returns a
``PagePlan``: one ``cms_apply`` batch per band of the page (hero, the sections
the brief names or the facts support, a call to action, contact). Copy states
only what the brief or the facts say, copied verbatim (prices, hours, phone
numbers, addresses); everything else is a generic sentence that claims nothing.
The plan is a pure function of its inputs, so the same brief gives the same page.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from charlotte.checks.contacts import parse_phone
from charlotte.runtime.offline_style import Palette, palette_for, style_of

__all__ = ["Batch", "PagePlan", "Section", "plan_page"]

#: Longest business name used as the headline (the copy check warns past 80).
MAX_NAME: Final = 60
#: Items a section shows at most (keeps a batch far below the op limit).
MAX_ITEMS: Final = 12
_MAX_TEXT: Final = 2_000
_HEADING_LIMIT: Final = 80
_LINK_TEXT: Final = 300

Op = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Section:
    """A band of the page: its node id (from its name), title and kind."""

    id: str
    title: str
    kind: str


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


@dataclass(frozen=True, slots=True)
class _Kind:
    """A section kind: its default title, the brief's words for it, the facts that feed it."""

    key: str
    title: str
    words: str  # a regex alternation, matched as whole words
    facts: tuple[str, ...]
    generic: str  # claim-free copy when no fact feeds it; {name} is the business name


_KINDS: tuple[_Kind, ...] = (
    _Kind("menu", "Menu", r"menu|our bakes|dishes", ("menu", "products", "bakes", "dishes", "food"),
          "Ask us what is on the menu today."),
    _Kind("pricing", "Pricing", r"pricing|prices|plans", ("pricing", "prices", "plans", "price_list"),
          "Get in touch and we will talk you through the options."),
    _Kind("services", "Services", r"services|treatments", ("services", "treatments"),
          "Get in touch to find out how {name} can help."),
    _Kind("features", "Features", r"features", ("features",),
          "See what {name} can do for you."),
    _Kind("about", "About us", r"about(?!\s+\d)|our story", ("about", "story", "about_us"),
          "Learn more about {name}."),
    _Kind("team", "Team", r"team|our\s+staff", ("team", "staff", "people"),
          "Meet the people behind {name}."),
    _Kind("testimonials", "What people say", r"testimonials|reviews", ("testimonials", "reviews"),
          "Tell us what you think of {name}."),
    _Kind("faq", "Questions", r"faqs?|questions", ("faq", "faqs", "questions"),
          "Send us your questions about {name}."),
    _Kind("hours", "Opening hours", r"opening\s+hours|opening\s+times|hours",
          ("opening_hours", "hours", "opening_times"),
          "Get in touch to ask when we are open."),
    _Kind("contact", "Contact", r"contact|get\s+in\s+touch", ("contact",),
          "Get in touch with {name}."),
)
_KIND_BY_KEY: Mapping[str, _Kind] = {k.key: k for k in _KINDS}

_NAME_KEYS = ("name", "business_name", "business", "company", "brand", "product", "product_name", "site_name")
_TAGLINE_KEYS = ("tagline", "slogan", "summary", "description")
_PHONE_KEYS = ("phone", "telephone", "tel", "phone_number")
_EMAIL_KEYS = ("email", "e_mail", "mail")
_ADDRESS_KEYS = ("address", "location")

_INSTRUCTION = re.compile(
    r"(?i)\b(?:sections?|landing\s+page|web\s*page|website|site|pages?|include|should|must|"
    r"please|want|needs?|make|build|create|add|show|list|call\s+to\s+action|cta)\b"
)
_NAME_WORD = r"[A-Z0-9][\w'\u2019&.+-]*"
_JOINER = r"(?:&|and|of|the|de|la|le)"
_STOP_START = frozenset({"A", "An", "This", "We", "Our", "Please", "Make", "Build", "Create", "It", "They"})


def _key(name: str) -> str:
    return re.sub(r"[\s-]+", "_", name.strip().lower())


def _fact(facts: Mapping[str, Any], keys: Sequence[str]) -> Any:
    for key in keys:
        if key in facts:
            return facts[key]
    return None


def _scalar(value: Any) -> str | None:
    """A fact value as the page shows it: strings verbatim, numbers as JSON writes them."""
    if isinstance(value, str):
        return value.strip() or None
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return None


def _items(value: Any) -> list[tuple[str | None, str | None]]:
    """A fact as (title, detail) pairs, each part verbatim from the fact."""
    out: list[tuple[str | None, str | None]] = []
    if isinstance(value, Mapping):
        for key, item in value.items():
            detail = _scalar(item)
            if detail is None and isinstance(item, Mapping | list):
                parts = [s for s in map(_scalar, item.values() if isinstance(item, Mapping) else item) if s]
                detail = " · ".join(parts) or None
            out.append((str(key).strip() or None, detail))
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, Mapping):
                title = _scalar(_fact(item, ("name", "title", "plan", "item", "day", "days")))
                rest = [s for k, v in item.items() if k not in ("name", "title", "plan", "item")
                        and (s := _scalar(v))]
                out.append((title, " · ".join(rest) or None))
            elif (text := _scalar(item)) is not None:
                out.append((text, None))
    elif (text := _scalar(value)) is not None:
        out.append((None, text))
    return [(t, d) for t, d in out if t or d][:MAX_ITEMS]


def _sentences(brief: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+|\n+", brief) if s.strip()]


def _clean_name(words: str) -> str | None:
    words = re.sub(rf"(?:\s+{_JOINER})+$", "", words.strip(" ,;:")).strip()
    if not words or len(words) > MAX_NAME or words.split()[0] in _STOP_START:
        return None
    return words


def business_name(brief: str, facts: Mapping[str, Any]) -> str | None:
    """The business name: a ``name``-like fact, else a quoted or leading name in the brief."""
    named = _scalar(_fact(facts, _NAME_KEYS))
    if named and len(named) <= MAX_NAME:
        return named
    quoted = re.search(r"[\"“]([^\"”\n]{2,60})[\"”]", brief)
    if quoted:
        return quoted.group(1).strip()
    run = rf"{_NAME_WORD}(?:\s+(?:{_JOINER}|{_NAME_WORD})){{0,5}}"
    leading = re.match(rf"\s*({run})\s+(?:is|are)\b", brief)
    if leading and (found := _clean_name(leading.group(1))):
        return found
    for match in re.finditer(rf"\b(?:for|called|named)\s+({run})", brief):
        if found := _clean_name(match.group(1)):
            return found
    return None


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def _subheading(brief: str, facts: Mapping[str, Any], name: str | None) -> tuple[str | None, str | None]:
    """The subheading, and the fact key or brief sentence it came from (the about text skips it)."""
    for key in _TAGLINE_KEYS:
        if (text := _scalar(facts.get(key))) is not None:
            return text, key
    for sentence in _sentences(brief):
        if name:
            after = re.match(rf"\s*{re.escape(name)}\s+(?:is|are)\s+(.+)$", sentence)
            if after:
                return _capitalised(after.group(1)), sentence
            after = re.search(rf"\bfor\s+{re.escape(name)}\s*,\s*(.+)$", sentence)
            if after:
                return _capitalised(after.group(1)), sentence
        if not _INSTRUCTION.search(sentence):
            return sentence, sentence
    return None, None


def _mentioned(brief: str) -> list[str]:
    """Section kinds the brief names, in the order it names them."""
    found: list[tuple[int, str]] = []
    for kind in _KINDS:
        match = re.search(rf"(?i)\b(?:{kind.words})\b", brief)
        if match:
            found.append((match.start(), kind.key))
    return [key for _, key in sorted(found)]


def _slug(title: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    return slug[:40] or "section"


def _sections(brief: str, facts: Mapping[str, Any]) -> list[Section]:
    keys = _mentioned(brief)
    for kind in _KINDS:
        if kind.key not in keys and _fact(facts, kind.facts) is not None:
            keys.append(kind.key)
    if any(_fact(facts, k) is not None for k in (_PHONE_KEYS, _EMAIL_KEYS, _ADDRESS_KEYS)):
        keys.append("contact")
    # Contact closes the page: the call to action points at it.
    keys = [k for k in dict.fromkeys(keys) if k != "contact"] + ["contact"]
    taken = {"hero", "call-to-action"}
    out: list[Section] = []
    for key in keys:
        kind = _KIND_BY_KEY[key]
        slug = _slug(kind.title)
        unique, n = slug, 2
        while unique in taken:
            unique, n = f"{slug}-{n}", n + 1
        taken.add(unique)
        out.append(Section(unique, kind.title, key))
    return out


class _Builder:
    """Ops for one batch: nodes appended under their parents, styled from the palette."""

    def __init__(self, palette: Palette) -> None:
        self.palette = palette
        self.ops: list[Op] = []

    def node(self, node_id: str, node_type: str, parent: str | None, role: str,
             props: Mapping[str, Any] | None = None, layout: str | None = None) -> str:
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
    first = next((s for s in sections if s.kind in ("menu", "pricing")), None)
    if first is not None:
        label, href = f"See the {first.title.lower()}", f"#{first.id}"
    else:
        label, href = "Get in touch", f"#{sections[-1].id}"
    b.node("hero-button", "button", "hero", "hero-button", {"label": label, "href": href, "variant": "primary"})
    return Batch("hero", "hero", tuple(b.ops))


def _contact_items(facts: Mapping[str, Any]) -> list[tuple[str, str, str | None]]:
    """(label, words, href) for the phone, e-mail and address facts, verbatim."""
    out: list[tuple[str, str, str | None]] = []
    phone = _scalar(_fact(facts, _PHONE_KEYS))
    if phone:
        digits = re.sub(r"[^\d+]", "", phone)
        said, dialled = parse_phone(phone), parse_phone(digits, dialled=True)
        # A tel: link is a phone claim of its own: only for text that reads as that number.
        linked = said is not None and dialled is not None and said.matches(dialled)
        out.append(("phone", phone, f"tel:{digits}" if linked else None))
    email = _scalar(_fact(facts, _EMAIL_KEYS))
    if email:
        plain = re.fullmatch(r"[^\s@<>\"]+@[^\s@<>\"]+\.[A-Za-z]{2,}", email)
        out.append(("email", email, f"mailto:{email}" if plain else None))
    address = _scalar(_fact(facts, _ADDRESS_KEYS))
    if address:
        out.append(("address", address, None))
    return out


def _section(section: Section, index: int, name: str, facts: Mapping[str, Any], about: str | None,
             palette: Palette) -> Batch:
    b = _Builder(palette)
    sid = section.id
    kind = _KIND_BY_KEY[section.kind]
    tone = "section-tint" if index % 2 else "section"
    b.node(sid, "section", None, tone, layout="stack")
    title = f"About {name}" if section.kind == "about" and len(name) < 60 else section.title
    b.node(f"{sid}-heading", "heading", sid, "section-heading", {"content": title, "level": 2})
    if section.kind == "contact":
        contacts = _contact_items(facts)
        for label, words, href in contacts:
            if href and len(words) <= _LINK_TEXT:
                b.node(f"{sid}-{label}", "link", sid, "link", {"content": words, "href": href})
            else:
                b.words(f"{sid}-{label}", sid, words)
        if not contacts:
            b.words(f"{sid}-text", sid, kind.generic.format(name=name))
        return Batch(sid, section.title.lower(), tuple(b.ops))
    if section.kind == "about" and about:
        b.words(f"{sid}-text", sid, about)
        return Batch(sid, section.title.lower(), tuple(b.ops))
    items = _items(_fact(facts, kind.facts))
    if not items:
        b.words(f"{sid}-text", sid, kind.generic.format(name=name))
    elif section.kind == "hours" or all(t is None or d is None for t, d in items):
        # A plain list: one line per entry, "day: hours" as the facts put it.
        listing = b.node(f"{sid}-list", "stack", sid, "list", layout="stack")
        for n, (t, d) in enumerate(items, 1):
            line = f"{t}: {d}" if t and d else (t or d or "")
            b.words(f"{sid}-item-{n}", listing, line)
    else:
        grid = b.node(f"{sid}-grid", "grid", sid, f"grid-{min(len(items), 3)}", layout="grid")
        for n, (t, d) in enumerate(items, 1):
            card = b.node(f"{sid}-item-{n}", "card", grid, "card", layout="stack")
            if t:
                b.words(f"{card}-title", card, t, role="title")
            if d:
                b.words(f"{card}-text", card, d)
    return Batch(sid, section.title.lower(), tuple(b.ops))


def _call_to_action(name: str, contact: Section, product: bool, palette: Palette) -> Batch:
    b = _Builder(palette)
    b.node("call-to-action", "section", None, "cta", layout="stack")
    heading = f"Get started with {name}" if product else f"Get in touch with {name}"
    if len(heading) > _HEADING_LIMIT:
        heading = "Get in touch"
    b.node("call-to-action-heading", "heading", "call-to-action", "cta-heading", {"content": heading, "level": 2})
    b.node("call-to-action-button", "button", "call-to-action", "cta-button",
           {"label": "Contact us", "href": f"#{contact.id}", "variant": "secondary"})
    return Batch("call-to-action", "call to action", tuple(b.ops))


def _about(brief: str, facts: Mapping[str, Any], used: str | None) -> str | None:
    """The about text: an about-like fact, else the brief's descriptive sentences not yet shown."""
    keys = ["about", "story", "about_us"] + ([] if used == "description" else ["description"])
    text = _scalar(_fact(facts, keys))
    if text:
        return text
    rest = [s for s in _sentences(brief) if not _INSTRUCTION.search(s) and s != used]
    return " ".join(rest[:3]) or None


def plan_page(brief: str, facts: object) -> PagePlan:
    """The page for ``brief`` and ``facts``: hero, sections, call to action, contact."""
    brief = brief if isinstance(brief, str) else ""
    table = {_key(str(k)): v for k, v in facts.items()} if isinstance(facts, Mapping) else {}
    name = business_name(brief, table)
    subheading, used = _subheading(brief, table, name)
    display = name or "Welcome"
    if subheading is None:
        subheading = f"Welcome to {name}." if name else "Good to have you here."
    sections = _sections(brief, table)
    lowered = brief.lower()
    product = any(k in ("pricing", "features") for k in (s.kind for s in sections)) or bool(
        re.search(r"\b(?:saas|software|app|platform|product|tool)\b", lowered)
    )
    palette = palette_for(lowered, zlib.crc32(display.encode("utf-8")))
    about = _about(brief, table, used)
    batches = [_hero(display, subheading, sections, palette)]
    body = [s for s in sections if s.kind != "contact"]
    batches += [_section(s, n, display, table, about, palette) for n, s in enumerate(body)]
    contact = sections[-1]
    batches.append(_call_to_action(display, contact, product, palette))
    batches.append(_section(contact, len(body), display, table, about, palette))
    return PagePlan(display, subheading, tuple(batches))
