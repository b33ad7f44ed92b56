"""The links check: unsafe hrefs, external origins not allowed, in-page links to nowhere.

Hrefs are read where the page keeps them: ``props.href`` (links and buttons)
and the URL fields of action handlers (``{"on": "click", "do": {"kind":
"navigate", "href": ...}}``), the same places ``LinkPolicy`` guards on write.
Every node is checked, shown or not: a hidden node can be moved into view.

An in-page link (``#…``) must reach something the rendered page can scroll
to. The renderer writes every node as ``<div data-cms="<id>">``, with no
``id`` attribute (the fancy-cms format), so a node id is no target: only
``#`` and ``#top``, which the HTML standard scrolls to the top of the page,
lead somewhere. Any other fragment is a ``dead_link`` error, so ``cms_ready``
is refused until the link is changed or removed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Final
from urllib.parse import unquote

from charlotte.checks.copytext import props_of
from charlotte.checks.findings import Finding
from charlotte.errors import MESSAGES
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


#: The fragments a rendered page can scroll to: the top of the page (the renderer gives
#: no element an ``id``; ``tests/unit/checks/test_links.py`` renders every type to keep it so).
SCROLL_TARGETS: Final = frozenset({"", "top"})


def reaches(href: str) -> bool:
    """False for an in-page link (``#…``) that the rendered page has nothing to scroll to."""
    if not href.startswith("#"):
        return True
    return unquote(href[1:]).lower() in SCROLL_TARGETS


def check_links(
    nodes: list[dict[str, Any]],
    *,
    is_safe: Callable[[object], bool],
    origin_of: Callable[[object], str | None],
    allowed: frozenset[str],
) -> list[Finding]:
    """Findings for every href of ``nodes`` (in that order)."""
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
            elif not reaches(href):
                out.append(
                    Finding(
                        "links",
                        node_id,
                        "error",
                        "dead_link",
                        f'The link "{_quote(href)}" leads nowhere: the published page gives '
                        "its nodes no id to scroll to. Link to a phone (tel:), an e-mail "
                        "(mailto:) or a page, or leave the link out.",
                    )
                )
    return out


def _quote(text: str) -> str:
    return text if len(text) <= _QUOTE_LIMIT else text[: _QUOTE_LIMIT - 1] + "…"
