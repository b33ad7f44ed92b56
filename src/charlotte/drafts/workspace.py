"""``Workspace``: every page mutation and the event that records it, in the caller's unit of work.

Every write is a function of a ``UnitOfWork`` (``charlotte.storage.unit_of_work``)
that the caller opened, its session row locked, and follows the one pipeline
``Workspace.write``::

    (LinkPolicy) → the draft row, locked (or the change set's working copy)
    → PageSession → apply → AssetPolicy → store the draft + op history
    → emit page.changed → (the unit appends it and commits)

Anything raised on the way rolls the unit back, so a refused or failed write
leaves the draft, the op history and the event log exactly as they were:
there is no window in which a change is stored without its event or the other
way round. The workspace opens no transaction: ``units`` is where its callers
open theirs.

- ``agent_apply``: actor ``agent`` (``AGENT_ACTOR``, fixed, never taken from arguments);
  LinkPolicy runs on the ops *before* the write (safe links, allowed external
  origins only).
- ``human_edit``: actor is the host user's id; any *safe* link is allowed.
- ``publish``: the **only** code that writes the published copy; AssetPolicy
  checks the whole document first.

AssetPolicy after a write checks the nodes the batch touched: every stored
draft already passed it, so the rest of the document cannot have changed. The
full document is checked again at publish (an asset the host library dropped
since is caught there).

``PageSessionError("invalid_state")`` (a corrupt stored document) propagates
unchanged: it is host corruption, never a tool result.

>>> ws = Workspace(engine)                                    # doctest: +SKIP
>>> with ws.units.write(session_id, tenant) as unit:          # doctest: +SKIP
...     ws.agent_apply(unit, ops, based_on=3)
Written(revision=5, ops=[...], inverse=[...], node_ids=('hero',))
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from charlotte.drafts._writes import (
    Written,
    apply_in_pieces,
    check_person,
    check_vocabulary,
    link_view,
    page_changed,
    touched_node_ids,
)
from charlotte.drafts.gate import gate
from charlotte.drafts.published import PublishHooks
from charlotte.errors import PageSessionError, Refused
from charlotte.events import AGENT_ACTOR, EventTypes, NewEvent, utc_now
from charlotte.page.assets import AssetLibrary, InMemoryAssetLibrary
from charlotte.page.model import empty_doc
from charlotte.page.node_types import NodeTypes
from charlotte.page.ops import writes_meta
from charlotte.page.session import Applied, PageSession, ValidatedDocs
from charlotte.page.tree import root_ids
from charlotte.policy import AssetPolicy, LinkPolicy
from charlotte.storage import (
    DatabasePageRepository,
    EventLog,
    OpEntry,
    PageRepository,
    PublishedPageStore,
    SessionRecord,
    SessionStore,
    UnitOfWork,
    Units,
)

__all__ = ["SiteLinks", "Workspace", "Written"]


@dataclass(frozen=True, slots=True)
class SiteLinks:
    """Where the site lives and which external origins the agent may link to."""

    site_origin: str = "https://site.invalid"
    allowed_origins: tuple[str, ...] = ()


class Workspace:
    """All page mutations of charlotte and the events they record (see module docstring).

    ``pages`` is a host's ``PageRepository``; without one the workspace keeps
    pages in charlotte's tables (``DatabasePageRepository``).
    """

    def __init__(
        self,
        engine: sa.Engine,
        *,
        pages: PageRepository | None = None,
        events: EventLog | None = None,
        sessions: SessionStore | None = None,
        assets: AssetLibrary | None = None,
        node_types: NodeTypes | None = None,
        links: SiteLinks | None = None,
        history_limit: int = 1_000,
    ) -> None:
        self.engine = engine
        #: Where callers open the units of work the workspace's functions take.
        self.units = Units(engine, sessions=sessions, events=events)
        self.pages: PageRepository = (
            pages if pages is not None else DatabasePageRepository.sharing()
        )
        self.events: EventLog = self.units.events
        self.sessions = self.units.sessions
        self.assets: AssetLibrary = assets if assets is not None else InMemoryAssetLibrary()
        self.node_types = node_types if node_types is not None else NodeTypes.allowed()
        self.links = links if links is not None else SiteLinks()
        self.history_limit = history_limit
        #: Which revision of each page is published (charlotte's table, whatever holds the copy).
        self.published_pages = PublishedPageStore()
        #: The host's ``on_publish`` hooks, run after each publish commits.
        self.publish_hooks = PublishHooks()
        self._asset_policy = AssetPolicy(self.assets)
        # Drafts this workspace stored or validated are not validated again on
        # the next write (the main cost of an apply on a large page). Only with
        # charlotte's own repository, whose loads are freshly decoded JSON or
        # the very document a write stored (``SharedDrafts``): a host
        # repository may hand back objects it still holds and changes, so its
        # documents are always validated in full.
        self._validated: ValidatedDocs | None = (
            ValidatedDocs(self.node_types, limit=16) if pages is None else None
        )

    def __repr__(self) -> str:
        return f"Workspace(engine={self.engine!r}, pages={self.pages!r})"

    # -- reads ---------------------------------------------------------------

    def draft(self, unit: UnitOfWork) -> tuple[dict[str, Any], int]:
        """The session page's draft and its revision (an empty page before the first write)."""
        return self.load_draft(unit)

    def published(self, unit: UnitOfWork) -> tuple[dict[str, Any], int] | None:
        """The session page's published copy and revision, or None when never published."""
        session = unit.session
        return self.pages.load_published(unit.conn, session.tenant, session.page)

    def changes_since(self, unit: UnitOfWork, revision: int) -> list[dict[str, Any]]:
        """``[{"revision", "actor", "op"}]`` applied to the draft after ``revision``.

        ``stale_revision`` above the current revision; ``history_truncated``
        further back than ``history_limit`` ops.
        """
        session = unit.session
        _doc, current = self.load_draft(unit)
        if type(revision) is not int or revision < 0 or revision < current - self.history_limit:
            raise PageSessionError("history_truncated", detail={"revision": current})
        if revision > current:
            raise PageSessionError("stale_revision", detail={"revision": current})
        if revision == current:
            return []
        entries = self.pages.ops_since(
            unit.conn, session.tenant, session.page, revision, limit=current - revision
        )
        if len(entries) != current - revision or (entries and entries[-1].revision != current):
            # The op history does not cover the window (e.g. a host repository
            # that keeps less): say so rather than return a partial answer.
            raise PageSessionError("history_truncated", detail={"revision": current})
        return [entry.to_dict() for entry in entries]

    def load_draft(
        self, unit: UnitOfWork, *, for_update: bool = False, shared: bool = False
    ) -> tuple[dict[str, Any], int]:
        """The draft inside ``unit``; a page with none starts from its published copy or empty.

        ``shared``: the caller only reads it (see ``PageRepository.load_draft``).
        """
        conn, session = unit.conn, unit.session
        loaded = self.pages.load_draft(conn, session.tenant, session.page, for_update=for_update, shared=shared)
        if loaded is None:
            loaded = self.pages.load_published(conn, session.tenant, session.page)
        if loaded is None:
            doc = empty_doc(session.page)
            return doc, 0
        return loaded

    # -- writes --------------------------------------------------------------

    def agent_apply(
        self,
        unit: UnitOfWork,
        ops: Sequence[object],
        *,
        based_on: int,
        links: SiteLinks | None = None,
        turn_id: str | None = None,
        actor: str = AGENT_ACTOR,
    ) -> Written:
        """Apply the agent's ops to the draft (LinkPolicy before, AssetPolicy after).

        ``turn_id``: the turn writing, kept on its op history rows (what
        undoing the turn reads). ``actor``: who its ``page.changed`` names (an
        outside agent's ``agent:<client>``); the op history keeps ``agent``,
        the kind of writer every undo and check reads. A refusal is raised before anything is
        written, so the caller's unit holds nothing of this write.
        """
        self.assert_agent_links(ops, links)
        page = self.page_of(unit.session, self.load_for_write(unit)[0])
        return self.write(
            unit, page, ops, based_on=based_on, actor=actor,
            store=lambda applied: self.store(unit, page.doc, applied, actor=AGENT_ACTOR, turn_id=turn_id),
        )  # fmt: skip

    def assert_agent_links(self, ops: object, links: SiteLinks | None = None) -> None:
        """LinkPolicy on the agent's ops: safe links, external ones only to allowed origins.

        ``links`` (default: the workspace's) gives the site and the allowed
        origins. Every agent write checks its ops here before anything is
        written: ``agent_apply``, a change set's write, and its replay at approval.
        """
        rules = links or self.links
        LinkPolicy.assert_ops(
            link_view(ops), site_origin=rules.site_origin, allowed_origins=rules.allowed_origins
        )

    def human_edit(
        self,
        unit: UnitOfWork,
        ops: Sequence[object],
        *,
        based_on: int,
        user: str,
        links: SiteLinks | None = None,
    ) -> Written:
        """Apply a person's edit to the draft (any safe link; AssetPolicy after)."""
        check_person(user)
        check_vocabulary(ops)
        rules = links or self.links
        LinkPolicy.assert_ops(link_view(ops), site_origin=rules.site_origin, allowed_origins=None)
        page = self.page_of(unit.session, self.load_for_write(unit)[0])
        return self.write(
            unit, page, ops, based_on=based_on, actor=user,
            store=lambda applied: self.store(unit, page.doc, applied, actor=user),
        )  # fmt: skip

    def revert(
        self,
        unit: UnitOfWork,
        ops: Sequence[dict[str, Any]],
        *,
        based_on: int,
        user: str,
        undoes: str | None = None,
    ) -> Written:
        """A person's write of stored inverses (an undo or a restore): one revision range, one event.

        Like ``human_edit`` (LinkPolicy for a person, AssetPolicy after), but
        of any length (applied ``MAX_OPS_PER_APPLY`` at a time). ``undoes``:
        the turn an undo takes back, kept on the rows so it is not undone twice.
        """
        check_person(user)
        LinkPolicy.assert_ops(list(ops), site_origin=self.links.site_origin, allowed_origins=None)
        page = self.page_of(unit.session, self.load_for_write(unit)[0])
        return self.write(
            unit, page, ops, based_on=based_on, actor=user, reverting=True,
            store=lambda applied: self.store(unit, page.doc, applied, actor=user, undoes=undoes),
        )  # fmt: skip

    def publish(
        self,
        unit: UnitOfWork,
        user: str,
        *,
        revision: int | None = None,
        override: Collection[str] = (),
    ) -> int:
        """Copy the draft to the published copy; returns the published revision.

        The only writer of the published copy. With ``revision`` (the draft
        revision the person reviewed), a draft that has moved on since is
        ``stale_revision`` (with the current revision). A page that renders no
        node (none, or orphans only) is ``empty_page``. AssetPolicy checks the
        whole document. The quality gate: ``error`` findings of
        ``quality_findings`` whose codes are not all in ``override`` are
        ``quality_gate`` (with the findings and their codes); the codes an
        override let through are the event's ``overridden``. A refusal leaves
        everything as it was. The page's row of
        published pages is written in ``unit`` too; the publish hooks run once
        it has committed.
        """
        session = unit.session
        doc, _revision = self.load_draft(unit, for_update=True)
        page = self.page_of(session, doc)
        if revision is not None and revision != page.revision:
            raise PageSessionError("stale_revision", detail={"revision": page.revision})
        if not root_ids(page.doc):
            raise Refused("empty_page")
        self._asset_policy.assert_doc(page.doc)
        overridden = gate(page.doc, self.assets, override)
        tenant, key, published = session.tenant, session.page, page.revision
        self.pages.save_published(unit.conn, tenant, key, page.doc)
        self.published_pages.record(unit.conn, tenant, key, published, utc_now())
        payload = {"revision": published, "overridden": overridden}
        unit.emit(NewEvent(EventTypes.PAGE_PUBLISHED, payload, user))
        unit.after_commit(lambda: self.publish_hooks.run(tenant, key, published))
        return published

    def write(
        self,
        unit: UnitOfWork,
        page: PageSession,
        ops: Sequence[object],
        *,
        based_on: int,
        actor: str,
        store: Callable[[Applied], None],
        reverting: bool = False,
        working: bool = False,
    ) -> Written:
        """THE write pipeline, over a draft or a change set's working copy (``working``).

        ``page`` (loaded, and locked, by the caller) → apply → AssetPolicy on
        the touched nodes → ``store`` → the write's ``page.changed``, emitted
        in ``unit``. Every refusal (``Refused``, ``PageSessionError``) is
        raised before ``store`` writes a row, so a unit that goes on after
        one holds nothing of this write; a failure after the first row is a
        ``StorageError``, which ends the unit too. ``reverting``: a person's
        undo or restore, one write of any length in pieces of the batch limit.
        """
        if reverting:
            applied = apply_in_pieces(page, ops, based_on=based_on, actor=actor)
        else:
            applied = page.apply(ops, based_on=based_on, actor=actor, fill_defaults=True)
        if not applied.ops:
            return Written(applied.revision, [], [], ())
        node_ids = touched_node_ids(applied.ops)
        self._asset_policy.assert_nodes(page.doc, node_ids, writes_meta(applied.ops))
        store(applied)
        if self._validated is not None and not working:
            # The next write loads exactly this document, once it is stored:
            # after the commit, so a rolled-back write vouches for nothing.
            memo, key = self._validated, (unit.session.tenant, unit.session.page)
            unit.after_commit(lambda: memo.remember(key, page))
        unit.emit(
            page_changed(
                applied.revision, len(applied.ops), node_ids, actor, working=working, applied=applied.ops
            )
        )
        return Written(applied.revision, applied.ops, applied.inverse, node_ids)

    def load_for_write(self, unit: UnitOfWork) -> tuple[dict[str, Any], int]:
        """The draft, locked, possibly shared: read it, never mutate it.

        Every writer of the draft loads it here (a write, a change set's
        approval). Writes never mutate what they load (ops are copy-on-write),
        so they ask for *shared* documents: charlotte's repository then hands
        back the document the last write stored, with no decoding and an
        identity-fast ``ValidatedDocs`` comparison. A page's first write
        gives the repository the row to lock (``ensure_draft``, holding what
        ``load_draft`` would start from), so two first writes meet on that
        row and the later one sees a stale revision.
        """
        conn, tenant, page = unit.conn, unit.session.tenant, unit.session.page
        loaded = self.pages.load_draft(conn, tenant, page, for_update=True, shared=True)
        if loaded is not None:
            return loaded
        start = self.pages.load_published(conn, tenant, page) or (empty_doc(page), 0)
        self.pages.ensure_draft(conn, tenant, page, start[0])
        return self.pages.load_draft(conn, tenant, page, for_update=True, shared=True) or start

    def page_of(self, session: SessionRecord, doc: dict[str, Any]) -> PageSession:
        """The loaded draft as a ``PageSession`` (validated unless known valid, see ``ValidatedDocs``)."""
        return PageSession(
            doc,
            node_types=self.node_types,
            validated=self._validated,
            # One entry per page: the document holds its revision (``seq``), so
            # an entry for an older revision is simply not equal any more.
            key=(session.tenant, session.page),
        )

    def store(
        self,
        unit: UnitOfWork,
        doc: dict[str, Any],
        applied: Applied,
        *,
        actor: str,
        turn_id: str | None = None,
        undoes: str | None = None,
    ) -> None:
        """Save ``doc`` as the draft and ``applied.ops`` in the op history (inside ``unit``).

        ``doc`` must not be mutated afterwards: it is saved *shared* (charlotte's
        repository keeps it as the next write's draft, see ``SharedDrafts``).
        Each row keeps its op's inverse (``applied.undo``), the agent turn that
        wrote it (``turn_id``) and, for a person's undo, the turn undone (``undoes``).
        """
        self.save_draft(unit, doc)
        self.store_ops(unit, applied, actor=actor, turn_id=turn_id, undoes=undoes)

    def save_draft(self, unit: UnitOfWork, doc: dict[str, Any]) -> None:
        """``store``'s draft alone, saved shared (an approval stores its op history as it goes)."""
        session = unit.session
        self.pages.save_draft(unit.conn, session.tenant, session.page, doc, shared=True)

    def store_ops(
        self, unit: UnitOfWork, applied: Applied, *, actor: str,
        turn_id: str | None = None, undoes: str | None = None, texts: Sequence[str | None] | None = None,
    ) -> None:  # fmt: skip
        """``store``'s op history rows alone (an approval's slice, with each op's stored ``texts``)."""
        session = unit.session
        count = len(applied.ops)
        first = applied.revision - count + 1
        undo = applied.undo if len(applied.undo) == count else [None] * count
        known = [None] * count if texts is None else texts  # zip(strict=True) refuses a wrong count
        self.pages.append_ops(
            unit.conn,
            session.tenant,
            session.page,
            [
                OpEntry(first + i, actor, op, session.id, turn_id, undoes, back, op_text=text)
                for i, (op, back, text) in enumerate(zip(applied.ops, undo, known, strict=True))
            ],
        )
