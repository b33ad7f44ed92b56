"""A band for each of the host's facts that no section of the page shows, so every fact is used.

The catalogue's bands read the facts they know by name (``pricing``, ``hours``,
``team``…); a host's facts are open-ended (``schedule``, ``catering``,
``emergencies``, ``puppy_club``, ``instagram``). ``unshown(ctx, texts)`` is the
facts whose words the page does not say yet; ``fact_band`` builds one band for
such a fact, titled by its name, in the shape its value has:

- a list (entries split at ``;``, a new line or a bullet, never at a comma,
  which is prose: "Bath, Bristol and the Cotswolds" is one place list) is one
  row per entry; an entry becomes name · figure only when its figure is a price
  or a time (``facts.split_figure``), anything else stays whole ("Tue - UEA
  campus", "Children from age 6");
- one value is one paragraph, verbatim;
- the social handles (``instagram``, ``facebook``, …) are one "Follow us" band,
  a row per network with the handle as the host wrote it. They are words, not
  links: a link to another site must be on the host's list of allowed origins,
  which the page's checks judge, and a handle shown is the fact either way.

Facts that direct the page rather than fill it (the name, the language, the
tone, colours, a tagline the hero already reads) and the gallery's asset ids
are never a band.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, Final

from charlotte.sections.bands import rows
from charlotte.sections.batch import Batch, Builder
from charlotte.sections.brief import NAME_KEYS, TAGLINE_KEYS
from charlotte.sections.catalogue import KIND_BY_KEY
from charlotte.sections.context import Context
from charlotte.sections.facts import capitalised, fact_items, quotes_in, scalar, split_figure
from charlotte.sections.meta import LANG_KEYS
from charlotte.sections.profiles import profile_href
from charlotte.sections.style import Scheme

__all__ = ["SOCIAL_KEYS", "batch_texts", "fact_band", "social_band", "social_links", "unshown"]

#: Facts that steer the page (its name, language, look, the hero's line): never a band.
_STEERING: Final = frozenset(
    {*NAME_KEYS, *LANG_KEYS, *TAGLINE_KEYS, "tone", "style", "look", "colour", "colours", "color",
     "colors", "brand_colour", "brand_color", "font", "fonts", "sections", "brief", "notes"}
)  # fmt: skip
#: Facts that name assets, not words (the gallery's photos): shown as images, never a band.
_ASSETS: Final = frozenset(KIND_BY_KEY["gallery"].facts)
#: Social networks a handle or profile may be given for, and the title each is shown by.
SOCIAL_KEYS: Final[Mapping[str, str]] = {
    "instagram": "Instagram", "insta": "Instagram", "facebook": "Facebook", "tiktok": "TikTok",
    "twitter": "X (Twitter)", "x": "X", "linkedin": "LinkedIn", "youtube": "YouTube",
    "pinterest": "Pinterest", "threads": "Threads", "bluesky": "Bluesky", "mastodon": "Mastodon",
}  # fmt: skip
_BULLETS: Final = ("• ", "* ", "- ", "•")
_SPACE = re.compile(r"\s+")
_MAX_ENTRIES: Final = 12


def entries(value: Any) -> list[str]:
    """A fact's entries as written: a list's items, or one value split at ``;``, new lines, bullets.

    Never at a comma (prose: "Bath, Bristol and the Cotswolds"). Plain string
    splits, so linear in the value.
    """
    if isinstance(value, list):
        return [s for item in value if (s := scalar(item))][:_MAX_ENTRIES]
    if isinstance(value, Mapping):
        pairs = [(str(k).strip(), scalar(v)) for k, v in value.items()]
        return [f"{k}: {v}" if v else k for k, v in pairs if k or v][:_MAX_ENTRIES]
    text = scalar(value)
    if text is None:
        return []
    out: list[str] = []
    for line in text.replace("\r", "\n").split("\n"):
        for part in line.replace(" · ", ";").replace(" | ", ";").split(";"):
            part = part.strip()
            for bullet in _BULLETS:
                if part.startswith(bullet):
                    part = part[len(bullet) :].strip()
                    break
            if part:
                out.append(part)
    return out[:_MAX_ENTRIES]


def _plain(text: str) -> str:
    return _SPACE.sub(" ", text).strip().lower()


def batch_texts(batches: Iterable[Batch]) -> str:
    """Every word the batches write (content, labels, a ``mailto:`` link's address), lower case."""
    words: list[str] = []
    for batch in batches:
        for op in batch.ops:
            props = op.get("node", {}).get("props", {}) if op.get("t") == "insert_node" else {}
            words += [v for k, v in props.items() if k in ("content", "label") and isinstance(v, str)]
            href = props.get("href")
            if isinstance(href, str) and href.startswith("mailto:"):
                words.append(href[len("mailto:") :])  # "Send an e-mail" writes to the address
    return _plain("\n".join(words))


def unshown(ctx: Context, texts: str) -> list[str]:
    """The fact keys (in the host's order) whose entries the page's ``texts`` do not all say."""
    out = []
    for key, value in ctx.facts.items():
        if key in _STEERING or key in _ASSETS:
            continue
        said = entries(value)
        if said and not all(_said(entry, texts) for entry in said):
            out.append(key)
    return out


def _said(entry: str, texts: str) -> bool:
    """True when ``texts`` say ``entry`` whole, or as the catalogue's bands show it: its rows.

    (``facts.fact_items``: "Mon-Fri 08:30-18:00, Sat 09:00-16:00" as two rows, each
    a name and its figure; ``facts.quotes_in``: a quote and who said it, apart.)
    """
    if _plain(entry) in texts:
        return True
    for rows_of in ([split_figure(entry)], fact_items(entry), quotes_in(entry)):
        parts = [p for row in rows_of for p in row if p]
        if parts and all(_plain(p) in texts for p in parts):
            return True
    return False


def _title(key: str) -> str:
    return capitalised(key.replace("_", " ").strip())[:60] or "More"


def _open(b: Builder, root: str, title: str, index: int) -> None:
    b.node(root, "section", None, "section-tint" if index % 2 else "section", layout="stack")
    b.node(f"{root}-heading", "heading", root, "section-heading", {"content": title, "level": 2})


def fact_band(key: str, ctx: Context, scheme: Scheme, *, root: str, index: int) -> Batch | None:
    """One band showing the fact ``key`` whole (see the module docstring), or None when it is empty."""
    said = entries(ctx.facts.get(key))
    if not said:
        return None
    b = Builder(scheme)
    title = _title(key)
    _open(b, root, title, index)
    if len(said) == 1:
        b.text(f"{root}-text", root, said[0])
    else:
        # Name · figure only where the figure is a price or a time; else the entry whole.
        rows(b, root, [_row(entry) for entry in said])
    return b.batch(root, title.lower())


def _row(entry: str) -> tuple[str | None, str | None]:
    name, figure = split_figure(entry)
    # split_figure also splits at ": " and after a day: here only a price or a time is a figure.
    if figure is not None and split_figure(f"x {figure}")[1] == figure:
        return name, figure
    return entry, None


def social_band(keys: list[str], ctx: Context, scheme: Scheme, *, root: str, index: int) -> Batch | None:
    """One "Follow us" band: a row per network, the handle or address as the host wrote it."""
    handles = [(SOCIAL_KEYS[k], text) for k in keys if (text := scalar(ctx.facts.get(k)))]
    if not handles:
        return None
    b = Builder(scheme)
    _open(b, root, "Follow us", index)
    rows(b, root, [(network, handle) for network, handle in handles[:_MAX_ENTRIES]])
    return b.batch(root, "follow us")


#: The title of a batch that links a "Follow us" band's handles (``social_links``).
LINKS_TITLE: Final = "links to the profiles"


def social_links(band: Batch) -> Batch | None:
    """The "Follow us" band's handles made links to their profiles, each in its row's place.

    A batch of its own, after the band's: when the host's link policy refuses it,
    the band keeps the handles as words (and the reply says why). Its root is the
    first link's id, so a batch written or refused is not written again.
    """
    inserted = {str(op["node"]["id"]): op["node"] for op in band.ops if op["t"] == "insert_node"}
    ops: list[dict[str, Any]] = []
    for node_id, node in inserted.items():
        if not node_id.endswith("-figure"):
            continue
        title = str(inserted.get(node_id.removesuffix("-figure") + "-name", {}).get("props", {}).get("content", ""))
        handle = str(node.get("props", {}).get("content", ""))
        href = profile_href(title, handle)
        if href is None:
            continue
        link = {**node, "id": node_id.removesuffix("-figure") + "-link", "type": "link",
                "props": {"content": handle, "href": href}}  # fmt: skip
        ops += [{"t": "remove_node", "id": node_id}, {"t": "insert_node", "node": link}]
    if not ops:
        return None
    return Batch(str(ops[1]["node"]["id"]), LINKS_TITLE, tuple(ops))
