"""What the host's authorizer is handed, and the checks on what a host opens a session with.

``ABILITIES`` are every ability an authorizer is asked about; ``OpenRequest``
is what it sees for ``open`` (built and checked by ``open_request`` within
the ``MAX_*`` bounds and the ``PAGE_KEY`` shape), ``PublishedRequest`` what it
sees for ``read_published`` (``published_key`` checks one); ``actor_of`` is the
id the events record for a user; ``SessionBuilder`` collects what a session is
opened with. ``CharlotteSession`` (``session.py``) and ``Charlotte``
(``app.py``) use them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Final
from uuid import UUID

from charlotte.errors import Refused
from charlotte.events import format_at, is_agent_actor
from charlotte.policy.text import is_person_text
from charlotte.runtime.modes import BUILDER_MODE, MAX_MODE_NAME
from charlotte.storage import SessionStore

if TYPE_CHECKING:
    from charlotte.app import Charlotte
    from charlotte.session import CharlotteSession
    from charlotte.storage import SessionRecord

__all__ = [
    "ABILITIES",
    "MAX_BRIEF",
    "MAX_FACTS",
    "MAX_FACT_KEY",
    "MAX_FACT_VALUE",
    "MAX_PAGE",
    "MAX_SESSIONS_LISTED",
    "MAX_TENANT",
    "PAGE_KEY",
    "Authorizer",
    "OpenRequest",
    "PublishedRequest",
    "SessionBuilder",
    "actor_of",
    "open_request",
    "page_sessions",
    "published_key",
    "valid_tenant",
]

#: Every ability the host's authorizer is asked about.
ABILITIES: Final = ("open", "view", "send", "stop", "edit", "approve", "publish", "read_published")

_MAX_ACTOR: Final = 255

#: Bounds of what a session is opened with (characters, entries).
MAX_PAGE: Final = 200
MAX_BRIEF: Final = 20_000
MAX_FACTS: Final = 100
MAX_FACT_KEY: Final = 200
MAX_FACT_VALUE: Final = 20_000
MAX_TENANT: Final = 128

#: A page key (``home``, ``about-us``, ``blog.post-1``): 1-200 ASCII letters, digits,
#: ``.``, ``_`` or ``-``, starting with a letter or digit. No spaces, no slashes:
#: a host maps its own page paths onto keys. Linear: one class, one bounded run.
PAGE_KEY: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,199}")


@dataclass(frozen=True, slots=True)
class OpenRequest:
    """What the authorizer sees for ``open``: the session about to be created."""

    tenant: str
    page: str
    brief: str
    facts: Mapping[str, str]
    approve_on_save: bool
    mode: str


@dataclass(frozen=True, slots=True)
class PublishedRequest:
    """What the authorizer sees for ``read_published``: the published page about to be read."""

    tenant: str
    page: str


#: ``fn(user, ability, session) -> bool``; ``session`` is the stored
#: ``SessionRecord``, an ``OpenRequest`` for the ``open`` ability, or a
#: ``PublishedRequest`` for ``read_published``.
Authorizer = Callable[[Any, str, "SessionRecord | OpenRequest | PublishedRequest"], bool]


def valid_tenant(tenant: object) -> bool:
    """True for a tenant key: 1-128 characters, not all blank, storable text."""
    return (
        isinstance(tenant, str)
        and 1 <= len(tenant) <= MAX_TENANT
        and bool(tenant.strip())
        and is_person_text(tenant)
    )


def published_key(tenant: object, page: object) -> PublishedRequest:
    """The checked key of a published page: ``invalid_request`` (``tenant``) or ``invalid_page_key``."""
    if not valid_tenant(tenant):
        raise Refused("invalid_request", detail={"field": "tenant"})
    if not isinstance(page, str) or PAGE_KEY.fullmatch(page) is None:
        raise Refused("invalid_page_key", detail={"field": "page"})
    assert isinstance(tenant, str)
    return PublishedRequest(tenant, page)


def open_request(
    *,
    tenant: object,
    page: object,
    brief: object,
    facts: object,
    approve_on_save: object,
    mode: object,
) -> OpenRequest:
    """The checked ``OpenRequest`` for a host's opening values (``None`` facts: none).

    The values are whatever the host handed on, so each is checked here:
    ``Refused("invalid_request", detail={"field": name})`` for the first bad one
    (``invalid_page_key`` for a page key of another shape than ``PAGE_KEY``).
    """

    def refuse(name: str) -> Refused:
        return Refused("invalid_request", detail={"field": name})

    if not valid_tenant(tenant):
        raise refuse("tenant")
    if not isinstance(page, str):
        raise refuse("page")
    if len(page) > MAX_PAGE or PAGE_KEY.fullmatch(page) is None:
        raise Refused("invalid_page_key", detail={"field": "page"})
    if (
        not isinstance(brief, str)
        or not 1 <= len(brief) <= MAX_BRIEF
        or not brief.strip()
        or not is_person_text(brief)
    ):
        raise refuse("brief")
    facts = {} if facts is None else facts
    if not isinstance(facts, Mapping) or len(facts) > MAX_FACTS:
        raise refuse("facts")
    for name, value in facts.items():
        if (
            not isinstance(name, str)
            or not 1 <= len(name) <= MAX_FACT_KEY
            or not is_person_text(name)
        ):
            raise refuse("facts")
        if not isinstance(value, str) or len(value) > MAX_FACT_VALUE or not is_person_text(value):
            raise refuse("facts")
    if not isinstance(approve_on_save, bool):
        raise refuse("approve_on_save")
    if not isinstance(mode, str) or not 1 <= len(mode) <= MAX_MODE_NAME:
        raise refuse("mode")
    assert isinstance(tenant, str)
    return OpenRequest(tenant, page, brief, dict(facts), approve_on_save, mode)


def actor_of(user: object) -> str:
    """The id events record for ``user``: a string itself, else its ``id`` (attribute or key;
    an integer or UUID is recorded as its text).

    ``Refused("invalid_request")`` when there is none, it would read as the agent,
    or no text column could hold it (a NUL, a lone surrogate).
    """
    raw: object = user
    if not isinstance(user, str):
        raw = user.get("id") if isinstance(user, Mapping) else getattr(user, "id", None)
    if (isinstance(raw, int) and not isinstance(raw, bool)) or isinstance(raw, UUID):
        # Integer and UUID primary keys (a Django user's ``id``) record as their text.
        raw = str(raw)
    # A person can never act as an agent: "agent" and "agent:<client>" are the actors of tool writes only.
    if not isinstance(raw, str) or not raw or len(raw) > _MAX_ACTOR or is_agent_actor(raw):
        raise Refused("invalid_request", detail={"field": "user"})
    if not is_person_text(raw):
        raise Refused("invalid_request", detail={"field": "user"})
    return raw


#: The most sessions one ``page_sessions`` call lists.
MAX_SESSIONS_LISTED: Final = 50


def page_sessions(
    app: Charlotte,
    tenant: str,
    page: str,
    user: object,
    *,
    limit: int = 20,
    before: str | None = None,
) -> dict[str, Any]:
    """``{"sessions", "next_before"}``: the tenant's sessions of ``page``, newest first.

    At most ``limit`` (1 … 50) rows the user may ``view`` (rows they may not
    are passed over, read on in batches of ``limit``); ``next_before``: the
    last row shown when there may be more, else None; ``before``: a session
    id of the page, the sessions opened before it. Each
    row: ``id``, ``page``, ``status``, ``created_at``, ``created_by``,
    ``brief`` (its first 200 characters), ``turns`` (how many were sent),
    ``approve_on_save``.
    """
    if user is None:
        raise Refused("unauthorized")
    if not valid_tenant(tenant):
        raise Refused("forbidden")
    if not isinstance(page, str) or PAGE_KEY.fullmatch(page) is None:
        raise Refused("invalid_page_key", detail={"field": "page"})
    if type(limit) is not int or not 1 <= limit <= MAX_SESSIONS_LISTED:
        raise Refused("invalid_request", detail={"field": "limit"})
    if before is not None and not (
        isinstance(before, str) and 1 <= len(before) <= 64 and is_person_text(before)
    ):
        raise Refused("invalid_request", detail={"field": "before"})
    listed: list[dict[str, Any]] = []
    cursor = before
    while len(listed) < limit:
        # Read on past rows the user may not view: a page is ``limit`` shown
        # rows, and its cursor is the last one shown (a hidden id never leaves).
        with app.units.reading() as conn:
            rows = SessionStore().of_page(conn, tenant, page, limit, cursor)
        for record, turns in rows:
            if len(listed) < limit and app.allows(user, "view", record):
                listed.append(_listed(record, turns))
        if len(rows) < limit:
            return {"sessions": listed, "next_before": None}
        cursor = rows[-1][0].id
    return {"sessions": listed, "next_before": listed[-1]["id"]}


def _listed(record: SessionRecord, turns: int) -> dict[str, Any]:
    return {
        "id": record.id,
        "page": record.page,
        "status": record.status,
        "created_at": format_at(record.created_at),
        "created_by": record.created_by,
        "brief": record.brief[:200],
        "turns": turns,
        "approve_on_save": record.approve_on_save,
    }


@dataclass(frozen=True, slots=True)
class SessionBuilder:
    """Collects what a new session is opened with; each step returns a new builder.

    The values are the caller's, checked only by ``open`` (a host may hand on
    anything its request carried): ``invalid_request`` naming the field.
    """

    _charlotte: Charlotte = field(repr=False)
    _user: object
    _tenant: str | None = None
    _page: str | None = None
    _brief: str | None = None
    _facts: Mapping[str, str] | None = None
    _approve_on_save: bool = False
    _mode: str = BUILDER_MODE

    def tenant(self, tenant: str) -> SessionBuilder:
        """The tenant (from the host's request, never from a request body)."""
        return replace(self, _tenant=tenant)

    def page(self, page: str) -> SessionBuilder:
        """The host page key (1-200 characters)."""
        return replace(self, _page=page)

    def brief(self, brief: str) -> SessionBuilder:
        """What the page is for (1-20,000 characters)."""
        return replace(self, _brief=brief)

    def facts(self, facts: Mapping[str, str]) -> SessionBuilder:
        """The page's facts: up to 100 names with string values (none or ``{}``: the page's own)."""
        return replace(self, _facts=facts)

    def approve_on_save(self, approve: bool) -> SessionBuilder:
        """When True the agent's writes wait in a change set for a person's approval."""
        return replace(self, _approve_on_save=approve)

    def mode(self, name: str) -> SessionBuilder:
        """The builder mode (default ``charlotte_builder``; hosts register others on ``charlotte.modes``)."""
        return replace(self, _mode=name)

    def open(self) -> CharlotteSession:
        """Check everything (``invalid_request``), ask for ``open``, store the session and ``session.opened``."""
        request = open_request(
            tenant=self._tenant,
            page=self._page,
            brief=self._brief,
            facts=self._facts,
            approve_on_save=self._approve_on_save,
            mode=self._mode,
        )
        return self._charlotte._open(self._user, request)
