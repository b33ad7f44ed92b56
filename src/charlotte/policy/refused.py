"""``Refused``: the one exception for "not allowed", with a fixed sentence per reason.

Every reason a host or a model can see maps to one human sentence in
``Refused.MESSAGES``. API bodies carry ``{"code", "message"}`` for refusals and
for ``PageSessionError`` codes alike, so the table holds a sentence for those
codes too. The sentences are fixed text: no exception message, user input or
document content ever becomes part of one.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar

from charlotte.page.errors import CharlotteError

#: JSON-shaped detail a refusal may carry: short data of our own (a node id, a
#: field path, an op index), never the text of another exception.
Detail = Mapping[str, str | int]

_POLICY_MESSAGES: dict[str, str] = {
    "forbidden": "You are not allowed to do this.",
    "not_found": "The requested item does not exist.",
    "busy": "The session is busy with another turn; try again when it is idle.",
    "unsafe_link": "The link is not safe: use a relative path, #fragment, http(s), mailto or tel link.",
    "external_link": "The link points to a site that is not on this site's list of allowed origins.",
    "authored_asset": "Images must use an asset from the site's asset library, not an authored URL.",
    "asset_dimensions": "Image dimensions come from the asset library and cannot be set by hand.",
    "css_fetch": "Style values may not load or run anything (url(), image-set(), @import and similar).",
    "css_escape": "Style values may not contain backslash escapes.",
    "css_comment": "Style values may not contain comments.",
    "css_invalid": "Style values must be a single plain CSS value without ; { } < > or control characters.",
    "guide_mode_stale": "The page guide or mode changed; reload the session before continuing.",
    "body_too_large": "The request body is too large.",
    "invalid_json": "The request body is not valid JSON.",
    "invalid_request": "The request is not valid.",
    "no_open_change_set": "There is no open change set to approve or reject.",
    "revision_unknown": (
        "That revision no longer names a version of the page (a change set was resolved "
        "since); read the page again with cms_get and go on from the revision it gives."
    ),
    "publish_refused": "The page cannot be published in its current state.",
    "unauthorized": "You need to sign in to do this.",
    "unsupported_media_type": "The request must be sent as application/json.",
    "cross_site": "Requests sent from another site's page are not accepted here.",
    "internal": "Something went wrong on our side; please try again.",
    "checks_failing": "The page still has errors that must be fixed first.",
    "output_limit": "The response was cut short because it reached the output limit.",
    "worker_lost": "The worker running this turn stopped; the turn was not finished.",
    "run_failed": "The turn could not be completed.",
    "usage_limit": "The turn reached its usage limit.",
    "invalid_arguments": "The tool arguments are not valid.",
    "unknown_tool": "There is no tool with that name.",
}

# ``PageSessionError`` codes (charlotte.page.errors): they are not refusals, but
# API bodies and tool results show them with a sentence from the same table.
_PAGE_SESSION_MESSAGES: dict[str, str] = {
    "stale_revision": "The page changed since the revision you based this on; read the changes and retry.",
    "history_truncated": "That revision is too old; read the whole page again.",
    "node_not_found": "No node with that id exists on the page.",
    "duplicate_id": "A node with that id already exists on the page.",
    "parent_not_found": "The parent node does not exist on the page.",
    "cycle": "That move would put a node inside itself.",
    "invalid_reorder": "The new order must list every top-level section exactly once.",
    "unknown_op": "That operation is not known.",
    "type_not_allowed": "That node type is not allowed.",
    "invalid_props": "The node properties are not valid for its type.",
    "invalid_style": "The style or constraint values are not valid.",
    "invalid_id": "Node ids must be 1 to 64 letters, digits, '-' or '_', starting with a letter or digit.",
    "limit_exceeded": "The change goes over a page limit (nodes, depth, operations or value length).",
    "invalid_state": "The stored page is damaged and cannot be edited.",
}


class Refused(CharlotteError):
    """An action is not allowed; ``reason`` (= ``code``) is a key of ``MESSAGES``.

    >>> Refused("css_fetch", detail={"node": "hero", "field": "style.base.background"})
    Refused('css_fetch', detail={'node': 'hero', 'field': 'style.base.background'})
    """

    MESSAGES: ClassVar[Mapping[str, str]] = MappingProxyType(
        {**_POLICY_MESSAGES, **_PAGE_SESSION_MESSAGES}
    )

    reason: str
    code: str
    detail: dict[str, str | int] | None

    def __init__(self, reason: str, *, detail: Detail | None = None) -> None:
        # An unknown reason would reach a person without a sentence: a bug, not a refusal.
        if reason not in self.MESSAGES:
            raise ValueError("Refused needs a reason listed in Refused.MESSAGES")
        super().__init__(reason)
        self.reason = reason
        self.code = reason
        self.detail = dict(detail) if detail is not None else None

    @property
    def message(self) -> str:
        """The fixed human sentence for this reason."""
        return self.MESSAGES[self.reason]

    @property
    def at(self) -> int | None:
        """The op index from ``detail["at"]`` when the refusal concerns one op."""
        at = self.detail.get("at") if self.detail else None
        return at if isinstance(at, int) else None

    def __repr__(self) -> str:
        if self.detail is None:
            return f"{type(self).__name__}({self.reason!r})"
        return f"{type(self).__name__}({self.reason!r}, detail={self.detail!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Keyword-only ``detail`` is not in ``args``: rebuild from reason, restore the rest.
        return (type(self), (self.reason,), {"detail": self.detail})
