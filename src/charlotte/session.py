"""``CharlotteSession``: a host's handle on one stored builder session.

A handle holds only the session's id, its tenant and the acting user. Every
method **re-reads the stored session** first, so a handle kept across
requests never acts on a stale status or stop flag, then asks the host's
authorizer for the method's ability:

=================================  ==========
``status``, ``events``, ``draft``,  ``view``
``change_set``, ``published``,
``messages``, ``history``,
``publish_preview``, ``palette``,
``palette_section``
``send``                            ``send``
``stop``                            ``stop``
``edit``, ``undo_turn``,            ``edit``
``undo_edit``, ``restore``,
``reset``
``approve``, ``reject``,            ``approve``
``reject_nodes``
``publish``                         ``publish``
=================================  ==========

``charlotte.access.page_sessions`` lists a page's sessions the user may
``view``; undo, history, restore and reset live in ``charlotte.drafts.history``,
the palette in ``charlotte.sections.palette`` (``docs/editing.md``).

A session that does not exist in the handle's tenant is ``Refused("not_found")``
(another tenant's session is indistinguishable from an unknown one); an
ability the authorizer denies is ``Refused("forbidden")`` (``unauthorized``
when there is no user at all).

>>> handle = charlotte.find(session_id, "acme", user=user)   # doctest: +SKIP
>>> handle.send("Make the hero warmer")                       # doctest: +SKIP
{'id': '…', 'session_id': '…', 'status': 'queued', 'ready': False, 'error_code': None}
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Final

from charlotte.access import actor_of
from charlotte.drafts.gate import check_override
from charlotte.drafts.history import DraftHistory
from charlotte.drafts.review import reject_nodes
from charlotte.errors import Refused
from charlotte.events import format_at
from charlotte.page.css import emit_css
from charlotte.page.diff import diff_docs
from charlotte.page.node_types import NodeTypes
from charlotte.page.render import render_html
from charlotte.page.tree import root_ids
from charlotte.sections import palette
from charlotte.storage import ConversationStore, SessionRecord, UnitOfWork

if TYPE_CHECKING:
    from charlotte.app import Charlotte
    from charlotte.drafts.change_sets import Resolution
    from charlotte.drafts.workspace import Written

__all__ = [
    "MAX_EVENTS",
    "MAX_MESSAGES",
    "MAX_SEQ",
    "MAX_WAIT_SECONDS",
    "CharlotteSession",
]

#: The most events one ``events`` call returns.
MAX_EVENTS: Final = 1_000
#: The most turns one ``messages`` call returns (the default is 50).
MAX_MESSAGES: Final = 100

#: The largest seq ``events(after=)`` and ``messages(before=)`` take: nine digits, what
#: an HTTP query carries (``charlotte.http.bodies``); a database column cannot bind
#: every Python integer, so a larger one is refused as HTTP refuses it.
MAX_SEQ: Final = 999_999_999

#: The longest one ``wait`` / ``wait_async`` call may be asked to wait (seconds).
MAX_WAIT_SECONDS: Final = 86_400.0


class CharlotteSession:
    """A handle on one session of one tenant, acting as one user (see module docstring)."""

    __slots__ = ("_app", "_events", "_sessions", "id", "tenant", "user")

    def __init__(self, app: Charlotte, session_id: str, tenant: str, user: object) -> None:
        self._app = app
        self._sessions = app.units.sessions
        self._events = app.units.events
        self.id = session_id
        self.tenant = tenant
        self.user = user

    def __repr__(self) -> str:
        return f"CharlotteSession(id={self.id!r}, tenant={self.tenant!r})"

    # -- reads -------------------------------------------------------------------

    def status(self) -> dict[str, Any]:
        """The stored session: ids, page, status, brief, facts, the draft revision, times."""
        with self._read("view") as unit:
            record = unit.session
            _doc, revision = self._app.workspace.load_draft(unit)
            # Any session may have one: an outside agent's writes wait in a change set whatever the setting.
            change_set = self._app.change_sets.open_change_set(unit)
        return {
            "id": record.id,
            "tenant": record.tenant,
            "page": record.page,
            "status": record.status,
            "stop_requested": record.stop_requested,
            "mode": record.mode,
            "approve_on_save": record.approve_on_save,
            "brief": record.brief,
            "facts": dict(record.facts) if isinstance(record.facts, Mapping) else {},
            "revision": revision,
            "change_set_open": change_set is not None,
            "last_seq": record.last_seq,
            "created_by": record.created_by,
            "created_at": format_at(record.created_at),
            "updated_at": format_at(record.updated_at),
        }

    def events(self, after: int = 0, limit: int = 100) -> list[dict[str, Any]]:
        """Events with seq > ``after`` (0 … ``MAX_SEQ``), oldest first, at most ``limit`` (1 … 1,000)."""
        if type(after) is not int or not 0 <= after <= MAX_SEQ:
            raise Refused("invalid_request", detail={"field": "after"})
        if type(limit) is not int or not 1 <= limit <= MAX_EVENTS:
            raise Refused("invalid_request", detail={"field": "limit"})
        with self._read("view") as unit:
            found = self._events.read(unit.conn, self.id, after, limit, tenant=self.tenant)
        return [
            {"seq": e.seq, "type": e.type, "at": e.at, "actor": e.actor, "payload": dict(e.payload)}
            for e in found
        ]

    def messages(self, limit: int = 50, before: int | None = None) -> list[dict[str, Any]]:
        """The conversation: the newest ``limit`` (1 … 100) ended turns, oldest first.

        With ``before`` (a turn's ``seq``, 1 … ``MAX_SEQ``), the turns that ended before that one.
        Each: ``turn_id``, ``seq`` (its end event), ``status`` (finished,
        stopped, failed), the person's ``message``, the agent's ``reply``, the
        ``record`` of its tool work and how it ended, ``asked_at``, ``ended_at``.
        """
        if type(limit) is not int or not 1 <= limit <= MAX_MESSAGES:
            raise Refused("invalid_request", detail={"field": "limit"})
        if before is not None and (type(before) is not int or not 1 <= before <= MAX_SEQ):
            raise Refused("invalid_request", detail={"field": "before"})
        with self._read("view") as unit:
            rows = ConversationStore().recent(
                unit.conn, self.id, self.tenant, limit, before=before, with_messages=False
            )
        return [
            {
                "turn_id": row.turn_id,
                "seq": row.seq,
                "status": row.status,
                "message": row.message,
                "reply": row.reply,
                "record": row.record,
                "asked_at": format_at(row.asked_at),
                "ended_at": format_at(row.created_at),
            }
            for row in rows
        ]

    def draft(self) -> dict[str, Any]:
        """``{"revision", "page", "html", "css"}``: the draft, its rendered HTML and its stylesheet."""
        with self._read("view") as unit:
            doc, revision = self._app.workspace.draft(unit)
        return self._rendered(doc, revision)

    def change_set(self) -> dict[str, Any] | None:
        """The open change set (its working copy's revision and HTML, and the diff), or None."""
        app = self._app
        with self._read("view") as unit:
            change_set = app.change_sets.open_change_set(unit)
            if change_set is None:
                return None
            draft, draft_revision = app.workspace.load_draft(unit)
        working = change_set.working
        return {
            "id": change_set.id,
            "status": change_set.status,
            "ops": change_set.op_count,
            "base_revision": change_set.base_revision,
            "revision": change_set.revision,
            "draft_revision": draft_revision,
            "created_at": format_at(change_set.created_at),
            "html": render_html(working, assets=app.assets),
            "css": emit_css(working),
            "diff": diff_docs(draft, working).to_json(),
            # The working copy itself, so a reviewer can name the nodes it adds.
            "page": working,
        }

    def published(self) -> dict[str, Any] | None:
        """``{"revision", "page", "html", "css"}`` of the published copy, or None before the first publish."""
        with self._read("view") as unit:
            found = self._app.workspace.published(unit)
        if found is None:
            return None
        doc, revision = found
        return self._rendered(doc, revision)

    def history(self, limit: int = 50, before: int | None = None) -> dict[str, Any]:
        """The draft's revisions, newest first, grouped by turn and by person (``DraftHistory.history``)."""
        with self._read("view") as unit:
            return DraftHistory(self._app.workspace).history(unit, limit=limit, before=before)

    def palette(self) -> dict[str, Any]:
        """``{"types", "sections"}``: the node types with their bounds, the section kinds a person may add."""
        record = self._load("view")
        return {
            "types": NodeTypes.allowed().describe(),
            "sections": palette.sections(record.brief, record.facts),
        }

    def palette_section(self, kind: str, after: str | None = None) -> dict[str, Any]:
        """A new ``kind`` section's ops after the top-level node ``after`` (none written: send them as an edit)."""
        with self._read("view") as unit:
            record = unit.session
            doc, _revision = self._app.workspace.draft(unit)
        if kind not in palette.KIND_KEYS:
            raise Refused("invalid_request", detail={"field": "kind"})
        if after is not None and after not in root_ids(doc):
            raise Refused("invalid_request", detail={"field": "after"})
        built = palette.section_ops(kind, record.brief, record.facts, doc, after=after)
        if built is None:
            raise Refused("nothing_to_build")
        return built

    def publish_preview(self) -> dict[str, Any]:
        """What publishing now would change: the published copy against the draft, node by node."""
        with self._read("view") as unit:
            return DraftHistory(self._app.workspace).publish_preview(unit)

    def wait(self, timeout: float) -> bool:
        """Block until the session is idle (its turn ended): True, or False when ``timeout`` passed first.

        ``timeout`` is in seconds (0 … ``MAX_WAIT_SECONDS``; 0 only looks).
        The wait follows the instance's notifier (woken when the session's
        log moves, which every turn end does), not a polling loop. Needs ``view``.

        >>> handle.send("Build the page")        # doctest: +SKIP
        >>> handle.wait(timeout=120)             # doctest: +SKIP
        True
        """
        deadline = time.monotonic() + _wait_seconds(timeout)
        # Subscribe before reading: a turn that ends after the read still wakes us.
        subscription = self._app.notifier.subscribe(self.id)
        try:
            while True:
                record = self._load("view")
                if not record.busy:
                    return True
                subscription.seen(record.last_seq)
                remaining = deadline - time.monotonic()
                if remaining <= 0 or subscription.closed:
                    return False
                subscription.wait(remaining)
        finally:
            subscription.close()

    async def wait_async(self, timeout: float) -> bool:
        """``wait`` without blocking the event loop (the session is read in a worker thread)."""
        deadline = time.monotonic() + _wait_seconds(timeout)
        subscription = self._app.notifier.subscribe(self.id)
        try:
            while True:
                record = await asyncio.to_thread(self._load, "view")
                if not record.busy:
                    return True
                subscription.seen(record.last_seq)
                remaining = deadline - time.monotonic()
                if remaining <= 0 or subscription.closed:
                    return False
                await subscription.wait_async(remaining)
        finally:
            subscription.close()

    # -- writes ------------------------------------------------------------------

    def send(self, message: str) -> dict[str, Any]:
        """Queue a turn for ``message`` (1-20,000 characters); ``busy`` while one is active."""
        turns = self._app.turns
        with self._write("send") as unit:
            queued = turns.queue(unit, message, actor_of(self.user))
        # An inline queue has already run the turn: report where it is now.
        turn = turns.get(queued.id) or queued
        return {
            "id": turn.id,
            "session_id": turn.session_id,
            "status": turn.status,
            "ready": turn.ready,
            "error_code": turn.error_code,
        }

    def stop(self) -> dict[str, Any]:
        """Ask the running or queued turn to stop; ``stop_requested`` is False when idle."""
        with self._write("stop") as unit:
            requested = self._app.turns.stop_in(unit, actor_of(self.user))
            # The row as this unit left it (the stop may have changed its status).
            now = self._sessions.get(unit.conn, self.id, self.tenant)
        return {"stop_requested": requested, "status": now.status if now else unit.session.status}

    def edit(self, ops: list[Any], based_on: int) -> dict[str, Any]:
        """A person's edit of the draft (``stale_revision`` when ``based_on`` is not current)."""
        with self._write("edit") as unit:
            written = self._app.workspace.human_edit(
                unit, ops, based_on=based_on, user=actor_of(self.user)
            )
        return _written(written)

    def undo_turn(self, turn_id: str) -> dict[str, Any]:
        """Take back one finished turn's draft changes as this person's write (one revision range)."""
        with self._write("edit") as unit:
            written = self._history.undo_turn(unit, turn_id, user=actor_of(self.user))
        return _written(written)

    def undo_edit(self, first: int, last: int) -> dict[str, Any]:
        """Take back revisions ``first`` … ``last`` of this person's own write (Ctrl+Z; redo undoes the undo)."""
        with self._write("edit") as unit:
            written = self._history.undo_edit(unit, first, last, user=actor_of(self.user))
        return _written(written)

    def restore(self, revision: int, based_on: int) -> dict[str, Any]:
        """The draft becomes what it was at ``revision``, as this person's write on ``based_on``."""
        with self._write("edit") as unit:
            written = self._history.restore(
                unit, revision, based_on=based_on, user=actor_of(self.user)
            )
        return _written(written)

    def reset(self, based_on: int) -> dict[str, Any]:
        """The draft becomes the published copy again (``not_published`` before a first publish)."""
        with self._write("edit") as unit:
            written = self._history.reset(unit, based_on=based_on, user=actor_of(self.user))
        return _written(written)

    def approve(self) -> dict[str, Any]:
        """Approve the open change set (``no_open_change_set`` without one); a conflict is a result."""
        with self._write("approve") as unit:
            return _resolution(self._app.change_sets.approve(unit, actor_of(self.user)))

    def reject(self) -> dict[str, Any]:
        """Reject the open change set; the draft is untouched."""
        with self._write("approve") as unit:
            return _resolution(self._app.change_sets.reject(unit, actor_of(self.user)))

    def reject_nodes(self, nodes: list[str]) -> dict[str, Any]:
        """Take these nodes' changes out of the open change set (``charlotte.drafts.review``)."""
        with self._write("approve") as unit:
            rejected = reject_nodes(self._app.change_sets, unit, nodes, actor_of(self.user))
        return rejected.to_json()

    def publish(self, revision: int | None = None, override: Sequence[str] = ()) -> dict[str, Any]:
        """Publish the draft; ``{"revision"}`` of the published copy.

        ``revision`` is the draft revision the person reviewed: when the draft
        has moved on since, nothing is published (``stale_revision``, with the
        current revision), so no one publishes a change they have not seen.
        A page with quality errors (placeholders, text under 3:1, no ``h1``…)
        is ``quality_gate`` with the findings, unless ``override`` names every
        error code (at most 20 quality codes); the event records them.
        """
        if revision is not None and (type(revision) is not int or revision < 0):
            raise Refused("invalid_request", detail={"field": "revision"})
        codes = check_override(override)
        with self._write("publish") as unit:
            published = self._app.workspace.publish(
                unit, actor_of(self.user), revision=revision, override=codes
            )
        return {"revision": published}

    # -- helpers -----------------------------------------------------------------

    def _rendered(self, doc: dict[str, Any], revision: int) -> dict[str, Any]:
        return {
            "revision": revision,
            "page": doc,
            "html": render_html(doc, assets=self._app.assets),
            "css": emit_css(doc),
        }

    @property
    def _history(self) -> DraftHistory:
        return DraftHistory(self._app.workspace)

    def _load(self, ability: str) -> SessionRecord:
        with self._read(ability) as unit:
            return unit.session

    @contextmanager
    def _read(self, ability: str) -> Iterator[UnitOfWork]:
        """A read unit on this session, once the authorizer allowed ``ability`` (the row read once)."""
        with self._app.units.read(self.id, self.tenant) as unit:
            self._allow(unit.session, ability)
            yield unit

    @contextmanager
    def _write(self, ability: str) -> Iterator[UnitOfWork]:
        """A write unit on this session, its row locked, once the authorizer allowed ``ability``."""
        with self._app.units.write(self.id, self.tenant) as unit:
            self._allow(unit.session, ability)
            yield unit

    def _allow(self, record: SessionRecord, ability: str) -> None:
        if not self._app.allows(self.user, ability, record):
            raise Refused("unauthorized" if self.user is None else "forbidden")


def _wait_seconds(timeout: object) -> float:
    """``timeout`` as seconds, or ``Refused("invalid_request", field "timeout")``."""
    if isinstance(timeout, bool) or not isinstance(timeout, int | float):
        raise Refused("invalid_request", detail={"field": "timeout"})
    if not 0 <= timeout <= MAX_WAIT_SECONDS:  # NaN fails this too
        raise Refused("invalid_request", detail={"field": "timeout"})
    return float(timeout)


def _written(written: Written) -> dict[str, Any]:
    return {
        "revision": written.revision,
        "applied": len(written.ops),
        "node_ids": list(written.node_ids),
    }


def _resolution(resolution: Resolution) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": resolution.change_set_id,
        "status": resolution.status,
        "ops": resolution.ops,
        "revision": resolution.revision,
    }
    if resolution.code is not None:
        out["code"] = resolution.code
        out["at"] = resolution.at
    return out
