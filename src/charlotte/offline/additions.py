"""The sections a follow-up may add, built from the brief and the facts only.

``section_batch(kind, brief, facts, index=, taken_ids=)`` is the one place a
follow-up gets a new section's batch; it returns None when the brief and the
facts cannot support that kind honestly (an FAQ with no question the facts
answer, a location with no address). The kinds the page writer knows
(``sections.KINDS``) come from ``writer.plan_page``; the FAQ the facts answer,
a gallery (the facts' asset ids, else clearly marked photo slots), a location
and a call to action are built here. Ids already on the page get a suffix.
"""

from __future__ import annotations

import zlib
from collections.abc import Collection, Mapping
from typing import Any, Final

from charlotte.offline.facts import contact_items, fact, fact_items, fact_key, has_contact, scalar
from charlotte.offline.sections import KIND_BY_KEY
from charlotte.offline.style import Palette, palette_for, style_of
from charlotte.offline.writer import Batch, plan_page
from charlotte.page.model import Op

__all__ = ["KIND_TITLES", "section_batch"]

#: Each kind a person may add and what the reply calls it.
KIND_TITLES: Final[Mapping[str, str]] = {
    "services": "services", "pricing": "pricing", "hours": "opening hours", "faq": "FAQ",
    "team": "team", "gallery": "gallery", "testimonials": "testimonials", "about": "about",
    "contact": "contact", "location": "location", "cta": "call to action", "menu": "menu",
    "features": "features",
}  # fmt: skip
_GALLERY_KEYS = ("gallery", "images", "photos", "pictures")
_SLOTS: Final = 3


def section_batch(
    kind: str, brief: str, facts: object, *, index: int, taken_ids: Collection[str]
) -> Batch | None:
    """The batch adding a ``kind`` section (its ids clear of ``taken_ids``), or None."""
    table = {fact_key(str(k)): v for k, v in facts.items()} if isinstance(facts, Mapping) else {}
    plan = plan_page(brief, table)
    palette = palette_for(brief.lower(), zlib.crc32(plan.name.encode("utf-8")))
    batch: Batch | None
    if kind == "faq" and fact(table, KIND_BY_KEY["faq"].facts) is None:
        batch = _faq(table, palette, index)
    elif kind == "gallery":
        batch = _gallery(table, plan.name, palette, index)
    elif kind == "location":
        batch = _location(table, palette, index)
    elif kind == "cta":
        batch = _call_to_action(plan.name, table, palette, taken_ids)
    elif kind in KIND_BY_KEY:
        batch = _written(kind, brief, table, plan.name)
    else:
        batch = None
    return None if batch is None else _clear_of(batch, taken_ids)


def _written(kind: str, brief: str, table: Mapping[str, Any], name: str) -> Batch | None:
    """The section as the page writer builds it, when facts (or, for about, the brief) feed it."""
    spec = KIND_BY_KEY[kind]
    if kind == "contact" and not has_contact(table):
        return None
    if kind not in ("about", "contact") and fact(table, spec.facts) is None:
        return None
    plan = plan_page(f"{brief} Sections: {kind}.", table)
    batch = next((b for b in plan.batches if b.title == spec.title.lower()), None)
    generic = spec.generic.format(name=name)
    if batch is None or any(
        op.get("node", {}).get("props", {}).get("content") == generic for op in batch.ops
    ):
        return None  # only the claim-free fallback sentence: nothing of the facts to show
    return batch


class _Ops:
    def __init__(self, palette: Palette) -> None:
        self.palette = palette
        self.ops: list[Op] = []

    def node(
        self,
        node_id: str,
        kind: str,
        parent: str | None,
        role: str,
        props: dict[str, Any] | None = None,
    ) -> str:
        node: dict[str, Any] = {"id": node_id, "type": kind, "parent": parent}
        if props:
            node["props"] = props
        if kind in ("section", "card", "stack"):
            node["layout"] = "stack"
        elif kind == "grid":
            node["layout"] = "grid"
        node["style"] = style_of(role, self.palette)
        self.ops.append({"t": "insert_node", "node": node})
        return node_id

    def band(self, sid: str, index: int, title: str) -> None:
        self.node(sid, "section", None, "section-tint" if index % 2 else "section")
        self.node(
            f"{sid}-heading", "heading", sid, "section-heading", {"content": title, "level": 2}
        )


def _faq(table: Mapping[str, Any], palette: Palette, index: int) -> Batch | None:
    """Questions the facts answer, each answer the facts' words verbatim."""
    pairs: list[tuple[str, str]] = []
    hours = fact_items(fact(table, KIND_BY_KEY["hours"].facts))
    if hours:
        pairs.append(
            (
                "When are you open?",
                "; ".join(f"{t}: {d}" if t and d else (t or d or "") for t, d in hours),
            )
        )
    for label, words, _href in contact_items(table):
        question = {"phone": "What is your phone number?", "email": "How can I e-mail you?",
                    "address": "Where are you?"}[label]  # fmt: skip
        pairs.append((question, words))
    for key in ("pricing", "menu", "services"):
        items = fact_items(fact(table, KIND_BY_KEY[key].facts))
        if items:
            question = {"pricing": "What does it cost?", "menu": "What is on the menu?",
                        "services": "What services do you offer?"}[key]  # fmt: skip
            pairs.append(
                (question, "; ".join(f"{t}: {d}" if t and d else (t or d or "") for t, d in items))
            )
    if not pairs:
        return None
    b = _Ops(palette)
    b.band("faq", index, "Questions")
    listing = b.node("faq-list", "stack", "faq", "list")
    for n, (question, answer) in enumerate(pairs, 1):
        card = b.node(f"faq-item-{n}", "card", listing, "card")
        b.node(
            f"faq-item-{n}-question", "heading", card, "title", {"content": question, "level": 3}
        )
        b.node(f"faq-item-{n}-answer", "text", card, "body", {"content": answer[:2_000]})
    return Batch("faq", "FAQ", tuple(b.ops))


def _gallery(table: Mapping[str, Any], name: str, palette: Palette, index: int) -> Batch:
    """Images from the facts' asset ids, else photo slots marked as such for a person to fill."""
    value = fact(table, _GALLERY_KEYS)
    if isinstance(value, str):
        value = [part.strip() for part in value.split(",")]  # "shop-front, loaves": asset ids
    assets: list[tuple[str, str]] = []
    if isinstance(value, Mapping):
        assets = [(str(k), scalar(v) or name) for k, v in value.items()]
    elif isinstance(value, list):
        assets = [(s, name) for s in map(scalar, value) if s]
    assets = assets[:12]
    b = _Ops(palette)
    b.band("gallery", index, "Gallery")
    grid = b.node("gallery-grid", "grid", "gallery", "grid-3")
    if assets:
        for n, (asset, alt) in enumerate(assets, 1):
            b.node(
                f"gallery-image-{n}",
                "image",
                grid,
                "card",
                {"asset": asset[:200], "alt": alt[:300]},
            )
        return Batch("gallery", "gallery", tuple(b.ops))
    for n in range(1, _SLOTS + 1):
        card = b.node(f"gallery-slot-{n}", "card", grid, "card")
        b.node(f"gallery-slot-{n}-label", "text", card, "label", {"content": f"Photo slot {n}"})
        b.node(
            f"gallery-slot-{n}-text", "text", card, "body",
            {"content": "Choose a photo from the asset library for this slot."},
        )  # fmt: skip
    return Batch("gallery", "gallery", tuple(b.ops))


def _location(table: Mapping[str, Any], palette: Palette, index: int) -> Batch | None:
    address = next((w for label, w, _h in contact_items(table) if label == "address"), None)
    if address is None:
        return None
    b = _Ops(palette)
    b.band("location", index, "Find us")
    b.node("location-address", "text", "location", "body", {"content": address})
    return Batch("location", "location", tuple(b.ops))


def _call_to_action(
    name: str, table: Mapping[str, Any], palette: Palette, taken: Collection[str]
) -> Batch | None:
    target = next((f"#{i}" for i in ("contact", "location") if i in taken), None)
    if target is None:
        target = next((h for _l, _w, h in contact_items(table) if h), None)
    if target is None:
        return None
    heading = f"Get in touch with {name}" if len(name) < 60 else "Get in touch"
    b = _Ops(palette)
    b.node("call-to-action", "section", None, "cta")
    b.node(
        "call-to-action-heading",
        "heading",
        "call-to-action",
        "cta-heading",
        {"content": heading, "level": 2},
    )
    b.node(
        "call-to-action-button", "button", "call-to-action", "cta-button",
        {"label": "Contact us", "href": target, "variant": "secondary"},
    )  # fmt: skip
    return Batch("call-to-action", "call to action", tuple(b.ops))


def _clear_of(batch: Batch, taken: Collection[str]) -> Batch:
    """``batch`` with every node id (and ``#id`` link) renamed when the page already has its root."""
    ids = [op["node"]["id"] for op in batch.ops if op.get("t") == "insert_node"]
    suffix, n = "", 2
    while any(f"{i}{suffix}" in taken for i in ids):
        suffix, n = f"-{n}", n + 1
    if not suffix:
        return batch
    renamed = {i: f"{i}{suffix}" for i in ids}
    ops: list[Op] = []
    for op in batch.ops:
        if op.get("t") != "insert_node":
            continue  # a page-wide op (the meta title) belongs to the first build only
        node = dict(op["node"])
        node["id"] = renamed[node["id"]]
        if node.get("parent") in renamed:
            node["parent"] = renamed[node["parent"]]
        props = node.get("props")
        if isinstance(props, dict):
            href = props.get("href")
            if isinstance(href, str) and href.startswith("#") and href[1:] in renamed:
                node["props"] = {**props, "href": f"#{renamed[href[1:]]}"}
        ops.append({"t": "insert_node", "node": node})
    return Batch(renamed[batch.root], batch.title, tuple(ops))
