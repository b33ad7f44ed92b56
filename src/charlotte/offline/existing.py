"""A build turn on a page that already has content: keep it, add only what is missing, say so.

"Build the page" on a draft with sections (a second session on a published
page, a page a person or another model made) must not cost the page anything
nobody asked to remove. The offline builder therefore, on such a page:

- keeps every node it found: its fixes after the checks touch only the nodes
  this turn inserted (``written_ids``), never what was there;
- adds only the sections of its plan whose kind the page lacks
  (``kinds_on``: a band's kind from its id or heading, ``PageView.kind``; a page
  with any band has its hero), so nothing is built twice under other ids;
- says in its reply that the page already had content, which sections it
  added (or that nothing was missing), and every section of the page it
  found that the turn removed (``removed_sections``; none, by the above).

Pure functions of the outline and the turn's tool calls, like the rest of the
builder.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, Protocol

from charlotte.sections.catalogue import kinds_in
from charlotte.sections.facts import listed
from charlotte.sections.page_view import PageView, outline_rows

__all__ = [
    "Applied",
    "batch_kind",
    "kinds_on",
    "outline_view",
    "removed_sections",
    "words_on_content",
    "written_ids",
]


#: Words of a band's id that make it the page's hero.
_HERO_WORDS: Final = frozenset({"hero", "banner", "masthead"})


class Applied(Protocol):
    """One tool call of the turn, as the builder reads it."""

    @property
    def name(self) -> str: ...
    @property
    def args(self) -> dict[str, Any]: ...
    @property
    def ok(self) -> bool: ...


def outline_view(outline: object) -> PageView:
    """The page a ``cms_outline`` result shows: its nodes, parents and the start of their words."""
    return PageView(
        [
            {"id": node_id, "type": node_type, "parent": parent,
             "props": {"content": words} if words else {}}
            for node_id, node_type, parent, words in outline_rows(outline)
        ]
    )  # fmt: skip


def kinds_on(view: PageView) -> set[str]:
    """The section kinds of the page's bands, by their ids and headings.

    ``"hero"`` only for a band its id calls one (``hero``, ``page-hero``,
    ``banner``): the outline does not show a heading's level, and a person's
    first band may be anything.
    """
    kinds: set[str] = set()
    for root in view.roots:
        words = set(root.lower().replace("_", "-").split("-"))
        if words & _HERO_WORDS:
            kinds.add("hero")
            continue
        found = kinds_in(root.replace("-", " ")) or kinds_in(view.title(root).lower())
        kinds.update(found[:1])
    return kinds


def batch_kind(root: str, title: str) -> str | None:
    """The kind of the section a plan batch builds (its root id, else its title, names it)."""
    if root == "hero":
        return "hero"
    found = kinds_in(root.replace("-", " ")) or kinds_in(title.lower())
    return found[0] if found else None


def written_ids(turn: Iterable[Applied]) -> set[str]:
    """The nodes this turn's applied batches inserted (the only ones its fixes may touch)."""
    out: set[str] = set()
    for exchange in turn:
        if exchange.name != "cms_apply" or not exchange.ok:
            continue
        ops = exchange.args.get("ops")
        for op in ops if isinstance(ops, list) else []:
            if not isinstance(op, Mapping):
                continue
            node = op.get("node")
            if op.get("t") == "insert_node" and isinstance(node, Mapping):
                node_id = node.get("id")
                if isinstance(node_id, str):
                    out.add(node_id)
    return out


def removed_sections(view: PageView, turn: Iterable[Applied]) -> list[str]:
    """The labels of the page's bands (as the turn found them) that this turn's ops removed."""
    removed: set[str] = set()
    for exchange in turn:
        if exchange.name != "cms_apply" or not exchange.ok:
            continue
        ops = exchange.args.get("ops")
        for op in ops if isinstance(ops, list) else []:
            if isinstance(op, Mapping) and op.get("t") == "remove_node":
                removed.add(str(op.get("id")))
    return [view.label(root) for root in view.roots if root in removed]


def words_on_content(added: Sequence[str], removed: Sequence[str]) -> str:
    """What the reply says a build turn did on a page that already had content."""
    if added:
        said = f"The page already had content: I kept all of it and added {listed(added)}."
    else:
        said = (
            "The page already had content: I kept all of it and added nothing, "
            "since it has every section I would build."
        )
    if removed:
        said += f" I removed {listed(removed)}."
    return said

