"""What each route reads: its body's keys and its query's parameters, declared once.

A ``Body`` or ``Query`` is a tuple of ``Field``s (name, JSON type, required,
default, bounds, prose). ``Body.parse`` and ``Query.parse`` turn the request's
bytes and query string into checked values; ``charlotte.http.openapi`` turns
the same declarations into the document's request bodies and parameters, so
the two cannot drift apart.

Every failure is a ``Refused``: ``invalid_json`` for bytes that are not one
JSON value (``charlotte.http.bodies.json_body``), ``invalid_request`` for the
wrong shape, with ``field`` naming the key: ``body`` for a body that is not an
object, then the first unknown key (no route ignores one), the first missing
required key, the first key of the wrong type (required keys first), the
first value outside bounds this layer enforces. A field's bounds are enforced
here only when ``enforced`` says so; otherwise they are published, and the
layer that owns the value (``Charlotte``, ``Turns``, ``PageSession``) checks
them with its own code.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from charlotte.checks.quality import QUALITY_CODES
from charlotte.errors import Refused
from charlotte.http.bodies import json_body
from charlotte.session import MAX_SEQ

__all__ = [
    "EDIT",
    "EMPTY",
    "EVENTS",
    "HISTORY",
    "MESSAGES",
    "OPEN_SESSION",
    "PALETTE_SECTION",
    "PUBLISH",
    "REJECT_NODES",
    "RESET",
    "RESTORE",
    "SEND",
    "SESSIONS",
    "UNDO_EDIT",
    "Body",
    "Field",
    "Query",
]

# A count or cursor: up to the digits of the largest seq a session's reads take.
_COUNT: Final = re.compile(rf"[0-9]{{1,{len(str(MAX_SEQ))}}}")


@dataclass(frozen=True, slots=True)
class Field:
    """One body key or query parameter: its JSON type, presence, bounds and prose.

    ``kind`` is ``str``, ``int``, ``bool``, ``list`` or ``dict`` (a JSON
    string, integer, boolean, array, object; in a query, ``int`` is a
    decimal count of at most nine digits). ``items`` is an array's item
    schema, ``ref`` a component the value is (``Facts``).
    """

    name: str
    kind: type
    required: bool = False
    default: Any = None
    minimum: int | None = None
    maximum: int | None = None
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None
    min_items: int | None = None
    max_items: int | None = None
    items: Mapping[str, Any] | None = None
    ref: str | None = None
    description: str | None = None
    #: True: a value outside the bounds is refused here (``invalid_request`` naming the field).
    enforced: bool = False

    def has_type(self, value: Any) -> bool:
        """True when ``value`` is of this field's JSON type (a boolean is no integer)."""
        if isinstance(value, bool) and self.kind is not bool:
            return False
        return isinstance(value, self.kind)

    def within(self, value: Any) -> bool:
        """True when ``value`` keeps the bounds (or they are not this layer's to enforce)."""
        if not self.enforced:
            return True
        if isinstance(value, int):
            return (self.minimum is None or value >= self.minimum) and (
                self.maximum is None or value <= self.maximum
            )
        if isinstance(value, str):
            return (self.min_length is None or len(value) >= self.min_length) and (
                self.max_length is None or len(value) <= self.max_length
            )
        return True

    def refuse(self) -> Refused:
        """The refusal naming this field."""
        return Refused("invalid_request", detail={"field": self.name})


@dataclass(frozen=True, slots=True)
class Body:
    """A JSON object body: exactly these keys. ``name`` is its schema in the OpenAPI document."""

    name: str
    fields: tuple[Field, ...] = ()
    #: False when the body may be left out (empty bytes read as ``{}``).
    required: bool = True
    description: str | None = None

    def parse(self, body: bytes) -> dict[str, Any]:
        """The checked object in ``body`` (``invalid_json`` / ``invalid_request``)."""
        if not self.required and not body.strip():
            return {}
        return self.check(json_body(body))

    def check(self, value: Any) -> dict[str, Any]:
        """``value`` as an object holding exactly these keys with these JSON types."""
        if not isinstance(value, dict):
            raise Refused("invalid_request", detail={"field": "body"})
        known = {field.name for field in self.fields}
        for key in value:
            if key not in known:
                raise Refused("invalid_request", detail={"field": str(key)[:64]})
        for field in self.fields:
            if field.required and field.name not in value:
                raise field.refuse()
        ordered = sorted(self.fields, key=lambda field: not field.required)
        for field in ordered:
            if field.name in value and not field.has_type(value[field.name]):
                raise field.refuse()
        for field in ordered:
            if field.name in value and not field.within(value[field.name]):
                raise field.refuse()
        return value


#: The body of a route without fields: nothing, or ``{}`` (any key is unknown).
EMPTY: Final = Body(
    "EmptyRequest",
    required=False,
    description="An optional empty body: a route without fields still takes `{}` (any key is unknown: 400).",
)


@dataclass(frozen=True, slots=True)
class Query:
    """A route's query parameters, read in this order; any other parameter is ignored."""

    fields: tuple[Field, ...]

    def parse(self, query: Mapping[str, str]) -> dict[str, Any]:
        """Each field's value (its default when absent), checked in order."""
        return {field.name: _parameter(field, query.get(field.name)) for field in self.fields}


def _parameter(field: Field, raw: Any) -> Any:
    if raw is None:
        if field.required:
            raise field.refuse()
        return field.default
    if not isinstance(raw, str):
        raise field.refuse()
    if field.kind is int:
        if _COUNT.fullmatch(raw) is None:
            raise field.refuse()
        value: Any = int(raw)
    else:
        value = raw
    if not field.within(value):
        raise field.refuse()
    return value


# -- what each route reads ---------------------------------------------------------

_BASED_ON: Final = "the current revision the person saw (else 409 `stale_revision`)"
_MAX_TEXT: Final = 20_000
_PAGE_KEY: Final = "A-Za-z0-9][A-Za-z0-9._-]"

OPEN_SESSION: Final = Body(
    "OpenSessionRequest",
    (
        Field(
            "page",
            str,
            required=True,
            min_length=1,
            max_length=200,
            pattern=f"^[{_PAGE_KEY}*$",
            description="the host page key: letters, digits, `.`, `_` or `-`, starting with a letter"
            " or digit (`home`, `about-us`, `blog.post-1`); another shape is `invalid_page_key`",
        ),
        Field("brief", str, required=True, min_length=1, max_length=_MAX_TEXT),
        Field("facts", dict, ref="Facts"),
        Field("approve_on_save", bool, default=False),
    ),
    description="The tenant comes from the host's request, never from the body.",
)
SEND: Final = Body(
    "TurnRequest", (Field("message", str, required=True, min_length=1, max_length=_MAX_TEXT),)
)
EDIT: Final = Body(
    "EditRequest",
    (
        Field(
            "basedOn",
            int,
            required=True,
            minimum=0,
            enforced=True,
            description="the draft revision the ops were based on",
        ),
        Field("ops", list, required=True, items={"type": "object"}),
    ),
)
UNDO_EDIT: Final = Body(
    "UndoEditRequest",
    (
        Field(
            "from",
            int,
            required=True,
            minimum=1,
            description="the first revision of the write (an edit answer's `revision - applied + 1`)",
        ),
        Field(
            "to", int, required=True, minimum=1, description="its last revision (the edit answer's `revision`)"
        ),
    ),
)
RESTORE: Final = Body(
    "RestoreRequest",
    (
        Field(
            "revision",
            int,
            required=True,
            minimum=0,
            description="the revision whose document the draft becomes",
        ),
        Field("basedOn", int, required=True, minimum=0, description=_BASED_ON),
    ),
)
RESET: Final = Body(
    "ResetRequest", (Field("basedOn", int, required=True, minimum=0, description=_BASED_ON),)
)
REJECT_NODES: Final = Body(
    "RejectNodesRequest",
    (
        Field(
            "nodes",
            list,
            required=True,
            min_items=1,
            max_items=200,
            items={"type": "string", "minLength": 1, "maxLength": 64},
            description="node ids (or `#meta`, `#theme`, `#order`) whose changes to take out",
        ),
    ),
)
PUBLISH: Final = Body(
    "PublishRequest",
    (
        Field(
            "revision",
            int,
            minimum=0,
            description="the draft revision the person reviewed: a draft that moved on since is not"
            " published (409 `stale_revision` with the current `revision`)",
        ),
        Field(
            "override",
            list,
            max_items=20,
            items={"enum": list(QUALITY_CODES)},
            description="the quality codes the person publishes anyway (a page with error findings"
            " whose codes are not all named is 409 `quality_gate` with the `findings`); recorded in"
            " the `page.published` event as `overridden`",
        ),
    ),
    required=False,
)

# Query parameters are read in this order: the first bad one is the one named.
SESSIONS: Final = Query(
    (
        Field(
            "page",
            str,
            required=True,
            min_length=1,
            max_length=200,
            pattern=f"^[{_PAGE_KEY}{{0,199}}$",
            description="the page key",
        ),
        Field(
            "before",
            str,
            min_length=1,
            max_length=64,
            description="a session id of the page: the sessions opened before it (the `next_before`"
            " of a page)",
        ),
        Field(
            "limit",
            int,
            default=20,
            minimum=1,
            maximum=50,
            description="rows read (those the user may not view are left out)",
        ),
    )
)
EVENTS: Final = Query(
    (
        Field("after", int, default=0, minimum=0, maximum=MAX_SEQ),
        Field("limit", int, default=100, minimum=1, maximum=1000),
    )
)


def _pages(limit: str | None, before: str) -> Query:
    """A page of a list read newest first: ``before`` a cursor, ``limit`` rows (default 50)."""
    return Query(
        (
            Field("before", int, minimum=1, maximum=MAX_SEQ, description=before),
            Field("limit", int, default=50, minimum=1, maximum=100, description=limit),
        )
    )


MESSAGES: Final = _pages(None, "only turns whose seq is below this (the `next_before` of a page)")
HISTORY: Final = _pages(
    "the most groups", "only groups ending below this revision (the `next_before` of a page)"
)
PALETTE_SECTION: Final = Query(
    (
        Field(
            "kind",
            str,
            required=True,
            min_length=1,
            max_length=64,
            enforced=True,
            description="a section kind of the palette",
        ),
        Field(
            "after",
            str,
            min_length=1,
            max_length=64,
            enforced=True,
            description="a top-level node the section goes after (default: at the end)",
        ),
    )
)
