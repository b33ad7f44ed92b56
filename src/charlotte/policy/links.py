"""Which links the agent may add: safe hrefs, and external origins only when allowed.

``LinkPolicy.assert_ops`` runs on the agent's ops before they are written. It
reads every href an op introduces: ``props.href`` of a node being inserted or
restored, ``patch.href`` of ``set_node_props``, and the ``href`` / ``endpoint``
of an action's handler (``{"on": ..., "do": {"kind": "navigate", "href": ...}}``)
in ``set_action`` or in an inserted node's ``actions``. Malformed ops are left
for ``PageSession`` to refuse; only what they would introduce is read here.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from charlotte.errors import Refused
from charlotte.page.hrefs import external_origin, is_safe_href

#: Handler fields that hold a URL the page navigates to or sends data to.
ACTION_URL_FIELDS = ("href", "endpoint")

_NODE_OPS = ("insert_node", "restore_node")


def introduced_hrefs(op: object) -> Iterator[tuple[str, object]]:
    """(field path inside the op, value) for every href ``op`` would write.

    ``None`` values remove a link and are skipped; any other non-string value
    (a ``{"$bind": ...}`` binding, a number) is yielded as is so the policy can
    refuse it: a link whose target is unknown before render cannot be checked.

    >>> list(introduced_hrefs({"t": "set_node_props", "id": "a", "patch": {"href": "/x"}}))
    [('patch.href', '/x')]
    """
    if not isinstance(op, dict):
        return
    kind = op.get("t")
    if kind in _NODE_OPS:
        node = op.get("node")
        if not isinstance(node, dict):
            return
        props = node.get("props")
        if isinstance(props, dict) and props.get("href") is not None:
            yield "node.props.href", props["href"]
        actions = node.get("actions")
        if isinstance(actions, list):
            for i, action in enumerate(actions):
                yield from action_urls(action, f"node.actions[{i}]")
    elif kind == "set_node_props":
        patch = op.get("patch")
        if isinstance(patch, dict) and patch.get("href") is not None:
            yield "patch.href", patch["href"]
    elif kind == "set_action":
        yield from action_urls(op.get("action"), "action")


def action_urls(action: object, path: str) -> Iterator[tuple[str, object]]:
    """(field path under ``path``, value) for every URL an action's handler holds (``None`` skipped)."""
    if not isinstance(action, dict):
        return
    handler = action.get("do")
    if not isinstance(handler, dict):
        return
    for name in ACTION_URL_FIELDS:
        if handler.get(name) is not None:
            yield f"{path}.do.{name}", handler[name]


class LinkPolicy:
    """The agent's link rules; stateless, so ``assert_ops`` is a classmethod.

    >>> LinkPolicy.assert_ops(
    ...     [{"t": "set_node_props", "id": "cta", "patch": {"href": "javascript:alert(1)"}}],
    ...     site_origin="https://bakery.test", allowed_origins=[])
    Traceback (most recent call last):
    ...
    charlotte.errors.Refused: unsafe_link
    """

    @classmethod
    def assert_ops(
        cls,
        ops: Sequence[Any],
        *,
        site_origin: str,
        allowed_origins: Iterable[str] | None,
    ) -> None:
        """Raise ``Refused`` (``unsafe_link`` or ``external_link``) for the first bad href.

        ``detail`` carries the op index (``at``), the field inside the op and,
        for ``external_link``, the refused origin. Links to ``site_origin`` and
        relative links are never external. ``allowed_origins=None`` accepts
        every external origin (human writes: any *safe* link).
        """
        allowed = (
            None if allowed_origins is None else normalised_origins(allowed_origins, site_origin)
        )
        for at, op in enumerate(ops):
            for field, href in introduced_hrefs(op):
                if not isinstance(href, str) or not is_safe_href(href):
                    raise Refused("unsafe_link", detail={"at": at, "field": field})
                if allowed is None:
                    continue
                origin = external_origin(href, site_origin)
                if origin is not None and origin not in allowed:
                    raise Refused(
                        "external_link", detail={"at": at, "field": field, "origin": origin}
                    )


def normalised_origins(origins: Iterable[str], site_origin: str) -> frozenset[str]:
    """Allowed origins as given and as ``external_origin`` spells them (lower case, no default port)."""
    out: set[str] = set()
    for entry in origins:
        if not isinstance(entry, str):
            continue
        out.add(entry)
        origin = external_origin(entry, site_origin)
        if origin is not None:
            out.add(origin)
    return frozenset(out)
