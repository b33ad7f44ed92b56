"""The links check: unsafe hrefs, external origins not allowed, ``#fragment``s to nowhere.

Hrefs are read where the page keeps them: ``props.href`` (links and buttons)
and the URL fields of action handlers (``{"on": "click", "do": {"kind":
"navigate", "href": ...}}``), the same places ``LinkPolicy`` guards on write.
Every node is checked, shown or not: a hidden node can be moved into view.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import unquote

from charlotte.checks.copytext import props_of
from charlotte.checks.findings import Finding
from charlotte.errors import MESSAGES
from charlotte.page.model import node_map
from charlotte.policy.links import action_urls

_QUOTE_LIMIT = 60


def hrefs_of(node: dict[str, Any]) -> Iterator[object]:
    """Every href value ``node`` carries (``None`` values, meaning no link, are skipped)."""
    href = props_of(node).get("href")
    if href is not None:
        yield href
    actions = node.get("actions")
    if isinstance(actions, list):
        for action in actions:
            for _field, url in action_urls(action, "action"):
                yield url


def page_ids(doc: object) -> set[str]:
    """Every id a ``#fragment`` may name: node map keys and node ids."""
    ids: set[str] = set()
    for key, node in node_map(doc).items():
        if isinstance(key, str):
            ids.add(key)
        if isinstance(node, dict) and isinstance(node.get("id"), str):
            ids.add(node["id"])
    return ids


def check_links(
    doc: object,
    nodes: list[dict[str, Any]],
    *,
    is_safe: Callable[[object], bool],
    origin_of: Callable[[object], str | None],
    allowed: frozenset[str],
) -> list[Finding]:
    """Findings for every href of ``nodes`` (in that order)."""
    ids = page_ids(doc)
    out: list[Finding] = []
    for node in nodes:
        node_id: str = node["id"]
        for href in hrefs_of(node):
            if not isinstance(href, str) or not is_safe(href):
                out.append(
                    Finding(
                        "links", node_id, "error", "unsafe_link", MESSAGES["unsafe_link"]
                    )
                )
                continue
            origin = origin_of(href)
            if origin is not None and origin not in allowed:
                out.append(
                    Finding(
                        "links",
                        node_id,
                        "error",
                        "external_link",
                        f"The link leads to {_quote(origin)}, which is not on this site's "
                        "list of allowed origins.",
                    )
                )
            elif href.startswith("#") and len(href) > 1 and unquote(href[1:]) not in ids:
                out.append(
                    Finding(
                        "links",
                        node_id,
                        "warning",
                        "broken_fragment",
                        f'The link "{_quote(href)}" points to no node on this page.',
                    )
                )
    return out


def _quote(text: str) -> str:
    return text if len(text) <= _QUOTE_LIMIT else text[: _QUOTE_LIMIT - 1] + "…"
