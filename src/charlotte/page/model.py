"""The fancy-cms page document: a flat node map with parent pointers.

Documents are plain JSON-shaped dicts at the edges (they are stored and sent as
JSON); the ``TypedDict``s here document their shape for readers and type
checkers. Nothing in this module validates: that is ``PageSession``'s job.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypedDict

#: Breakpoint name → min-width in px, as the fancy-cms emitters know them.
#: Any other breakpoint name is skipped by the CSS emitter.
BREAKPOINT_PX: Mapping[str, int] = {"md": 768, "lg": 1024}

Json = Any

#: The title of a new page (``empty_doc``); the checks read a page still titled so as untitled.
DEFAULT_TITLE = "Untitled"

#: A page document as charlotte passes it around: plain JSON-shaped dicts, shaped
#: ``{"id", "seq", "meta": Meta, "theme", "breakpoints", "nodes": {id: Node}}``.
Doc = dict[str, Any]
#: One op of a batch (``{"t": <op type>, ...}``; the shapes are ``page.ops``'s).
Op = dict[str, Any]


class Length(TypedDict):
    value: float
    unit: Literal["px", "%", "vw", "vh", "rem", "fr"]


class Meta(TypedDict):
    title: str
    slug: str
    scrollMode: Literal["snap", "smooth"]
    seo: NotRequired[dict[str, str]]


class Node(TypedDict):
    id: str
    type: str
    parent: str | None
    order: str
    props: dict[str, Json]
    style: dict[str, dict[str, Json]]
    layout: NotRequired[Literal["free", "stack", "grid"]]
    constraints: NotRequired[dict[str, dict[str, Json]]]
    animations: NotRequired[list[dict[str, Json]]]
    actions: NotRequired[list[dict[str, Json]]]
    repeat: NotRequired[dict[str, Json]]
    className: NotRequired[str]
    island: NotRequired[bool]


def empty_doc(id: str, slug: str = "/") -> dict[str, Any]:
    """A new, empty page document.

    >>> empty_doc("home")["breakpoints"]
    ['base', 'md', 'lg']
    """
    return {
        "id": id,
        "seq": 0,
        "meta": {"title": DEFAULT_TITLE, "slug": slug, "scrollMode": "smooth"},
        "theme": {"name": "default"},
        "breakpoints": ["base", "md", "lg"],
        "nodes": {},
    }


def has_node_map(value: object) -> bool:
    """True when ``value`` is a dict whose ``nodes`` is a dict (walkable)."""
    return isinstance(value, dict) and isinstance(value.get("nodes"), dict)


def node_map(doc: object) -> dict[str, Any]:
    """The ``nodes`` map of ``doc``, or an empty map for a malformed document.

    Malformed input never crashes a walk, the CSS emitter or the renderer: they
    see an empty page. Entries that are not dicts are skipped by the callers.
    """
    if has_node_map(doc):
        nodes: dict[str, Any] = doc["nodes"]  # type: ignore[index]
        return nodes
    return {}
