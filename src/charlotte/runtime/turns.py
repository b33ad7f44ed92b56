"""``Turns``: the database side of a turn, from ``send`` to its end.

A turn's life, each step **one transaction** together with its event::

    send      → turn queued,  session queued,  ``turn.queued``   (then the queue gets the id)
    claim     → turn running, session running, ``turn.started``  (only from queued: runs once)
    finish    → turn finished,                 ``turn.finished`` ┐
    stopped   → turn stopped,                  ``turn.stopped``  ├ session idle, stop flag cleared
    fail      → turn failed,                   ``run.failed``    ┘
    stop      → a queued turn ends at once like ``stopped``; a running one's session is ``stopping``
    sweep     → a running turn whose heartbeat went stale ends like ``fail("worker_lost")``
    redeliver → a turn left queued is handed to the queue again (or ends ``queue_lost``)

Every step that touches a turn of a session locks the session row first (the
event log locks it too), so all writers take their locks in the same order:
session, then turn. On SQLite ``BEGIN IMMEDIATE`` serialises writers anyway.
The rows are read and written through ``TurnStore`` (``charlotte.storage.turns``).

"Busy" is decided under the session lock (the session must be ``idle``); the
partial unique index "one queued-or-running turn per session" is the backstop,
and its ``StorageError("conflict")`` also becomes ``Refused("busy")``.

Every end also stores the turn's row of the conversation (``ConversationStore``)
in its transaction: the runner's ``ConversationEntry`` (reply, messages, tool
work), or the person's message alone for an end without a runner (a stop
while queued, a sweep, a lost queue). See ``docs/conversation.md``.

Ending steps are idempotent: against a turn that already ended they change
nothing, write no event and return False. A swept turn is never run again
(its tools may already have written). A queued turn never started, so
delivering it again is always safe: the claim runs it once, whichever
delivery comes first. ``redeliver`` stamps the turn's ``heartbeat_at`` (unused
while a turn is queued) with the time it was handed over again, so each
left-behind turn is re-delivered once per interval by one process, however
many processes look.

>>> turns = Turns(engine, InlineQueue(runner.run))                # doctest: +SKIP
>>> turn = turns.send(session_id, "tenant-a", "Build a bakery page", "user-1")  # doctest: +SKIP
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, Final

import sqlalchemy as sa

from charlotte.errors import MESSAGES, Refused, StorageError, code_of
from charlotte.events import AGENT_ACTOR, EventTypes, NewEvent, utc_now
from charlotte.policy.text import is_person_text
from charlotte.runtime.queues import TurnQueue
from charlotte.storage import (
    ConversationEntry,
    ConversationStore,
    EventLog,
    SessionStore,
    TurnRecord,
    TurnStore,
    UnitOfWork,
    Units,
)
from charlotte.storage.turns import ACTIVE

__all__ = ["DEFAULT_HEARTBEAT_TIMEOUT", "MAX_MESSAGE", "QUEUE_LOST", "REDELIVER_BATCH", "Turns"]

log = logging.getLogger(__name__)

#: The longest message a person may send (characters).
MAX_MESSAGE: Final = 20_000

#: A running turn whose heartbeat is older than this is swept as ``worker_lost``.
DEFAULT_HEARTBEAT_TIMEOUT: Final = timedelta(minutes=2)

#: The code of a turn left queued that no queue would take again.
QUEUE_LOST: Final = "queue_lost"

#: Turns ``redeliver`` hands over per call at most (the next call takes the rest).
REDELIVER_BATCH: Final = 200

#: ``turn.finished`` usage of a turn that reported none (the runner always hands the turn's own).
NO_USAGE: Final[Mapping[str, int]] = {"input_tokens": 0, "output_tokens": 0, "requests": 0}


class Turns:
    """Send, stop, claim and end turns; each call is one transaction with its event."""

    def __init__(
        self,
        engine: sa.Engine,
        queue: TurnQueue,
        *,
        events: EventLog | None = None,
        sessions: SessionStore | None = None,
        store: TurnStore | None = None,
        conversation: ConversationStore | None = None,
        heartbeat_timeout: timedelta = DEFAULT_HEARTBEAT_TIMEOUT,
    ) -> None:
        if heartbeat_timeout <= timedelta(0):
            raise ValueError("heartbeat_timeout must be positive")
        self._units = Units(engine, sessions=sessions, events=events)
        self._queue = queue
        self._events: EventLog = self._units.events
        self._sessions = self._units.sessions
        self._store = store if store is not None else TurnStore()
        self._conversation = conversation if conversation is not None else ConversationStore()
        self._timeout = heartbeat_timeout

    # -- the person's side --------------------------------------------------------

    def send(self, session_id: str, tenant: str, message: str, user: str) -> TurnRecord:
        """Queue a turn for ``message``; after commit the queue gets its id.

        Refuses ``invalid_request`` (message not 1-20,000 characters, or a NUL or lone surrogate),
        ``not_found`` (no such session in this tenant) and ``busy`` (a turn is
        queued or running, or the session is not idle).
        """
        _check_message(message)  # before the session is looked up, as the API refuses it
        with self._units.write(session_id, tenant) as unit:
            return self.queue(unit, message, user)

    def queue(self, unit: UnitOfWork, message: str, user: str) -> TurnRecord:
        """``send`` in the caller's write unit: the turn is handed to the queue once the unit commits."""
        _check_message(message)
        session, conn = unit.session, unit.conn
        now = utc_now()
        record = TurnRecord(
            id=uuid.uuid4().hex,
            session_id=session.id,
            tenant=session.tenant,
            message=message,
            user=user,
            status="queued",
            ready=False,
            error_code=None,
            created_at=now,
            started_at=None,
            finished_at=None,
            heartbeat_at=None,
        )
        if session.status != "idle" or not self._sessions.update(
            conn, session.id, session.tenant, status="queued", expect_status=["idle"]
        ):
            raise Refused("busy")
        try:
            self._store.insert(conn, record)
        except StorageError as error:
            if error.code == "conflict":
                # The active-turn index fired: another turn got in first.
                raise Refused("busy") from error
            raise
        unit.emit(NewEvent(EventTypes.TURN_QUEUED, {"turn_id": record.id, "message": message}, user))
        unit.after_commit(lambda: self._deliver(record))
        return record

    def _deliver(self, record: TurnRecord) -> None:
        try:
            self._queue.enqueue(record.id)
        except Exception as error:
            # The turn is committed but no queue took it: end it now with a
            # code, or the session would stay busy for good (the sweeper only
            # looks at running turns). A turn an inline queue already ran and
            # ended is left as it is.
            self.fail(record.id, code_of(error, "queue_unavailable"))
            raise

    def stop(self, session_id: str, tenant: str, user: str) -> bool:
        """Stop the session's turn; False when the session is idle (nothing to stop).

        A queued turn never started: it ends at once (``turn.stopped``, the
        session idle, in this one transaction), and its delivery, whenever it
        comes, finds nothing to claim. A running turn's session becomes
        ``stopping``; the turn sees the flag and ends ``turn.stopped``.
        Refuses ``not_found``.
        """
        with self._units.write(session_id, tenant) as unit:
            return self.stop_in(unit, user)

    def stop_in(self, unit: UnitOfWork, user: str) -> bool:
        """``stop`` in the caller's write unit (its session row locked)."""
        session, conn = unit.session, unit.conn
        session_id, tenant = session.id, session.tenant
        if session.status == "idle":
            return False
        if session.status == "queued":
            turn = self._store.active_of(conn, session_id)
            if turn is None:
                # A queued session without a turn would stay busy for good.
                return self._sessions.update(conn, session_id, tenant, status="idle", stop_requested=False)
            if turn.status == "queued":
                event = NewEvent(EventTypes.TURN_STOPPED, {"turn_id": turn.id}, user)
                return self._end_in(conn, turn, ("queued",), event, status="stopped")
        status = "stopping" if session.status == "running" else None
        return self._sessions.update(
            conn,
            session_id,
            tenant,
            status=status,
            stop_requested=True,
            expect_status=[session.status],
        )

    # -- the worker's side --------------------------------------------------------

    def get(self, turn_id: str) -> TurnRecord | None:
        """The turn, or None when there is none with this id."""
        with self._units.reading() as conn:
            return self._store.get(conn, turn_id)

    def claim(self, turn_id: str) -> TurnRecord | None:
        """Start a queued turn (``turn.started``); None when it is not queued any more.

        A turn delivered twice runs once: only one claim finds it ``queued``.
        """
        with self._units.writing() as conn:
            turn = self._store.get(conn, turn_id)
            if turn is None or turn.status != "queued":
                return None
            self._sessions.lock(conn, turn.session_id, turn.tenant)
            now = utc_now()
            claimed = self._store.change(
                conn, turn_id, ("queued",), status="running", started_at=now, heartbeat_at=now
            )
            if claimed is None:
                return None
            self._sessions.update(
                conn,
                turn.session_id,
                turn.tenant,
                status="running",
                expect_status=["queued"],
            )
            self._events.append(
                conn,
                turn.session_id,
                EventTypes.TURN_STARTED,
                {"turn_id": turn_id},
                actor=AGENT_ACTOR,
                tenant=turn.tenant,
            )
            return claimed

    def heartbeat(self, turn_id: str) -> bool:
        """Record that the worker is alive; False when the turn is not running."""
        with self._units.writing() as conn:
            return self._store.heartbeat(conn, turn_id, utc_now())

    def should_stop(self, turn_id: str, conn: sa.Connection | None = None) -> bool:
        """True when a stop was asked for, or the turn is no longer active (e.g. swept).

        Read inside ``conn`` when given (a transaction the caller opened
        anyway), else in a short read transaction of its own.
        """
        if conn is None:
            with self._units.reading() as own:
                return self.should_stop(turn_id, own)
        flag = self._store.stop_flag(conn, turn_id)
        if flag is None:
            return True
        status, stop_requested = flag
        return status not in ACTIVE or stop_requested

    def finish(
        self,
        turn_id: str,
        *,
        ready: bool,
        entry: ConversationEntry | None = None,
        usage: Mapping[str, int] = NO_USAGE,
    ) -> bool:
        """End the turn as ``finished`` (``turn.finished`` with ``ready`` and the turn's ``usage``).

        Every end stores the turn's conversation row with its event: ``entry``
        (the runner's reply, messages and tool work) or, without one, the
        person's message alone.
        """
        payload = {"turn_id": turn_id, "ready": ready, "usage": dict(usage)}
        event = NewEvent(EventTypes.TURN_FINISHED, payload, AGENT_ACTOR)
        return self._end(turn_id, ACTIVE, event, status="finished", ready=ready, entry=entry)

    def stopped(self, turn_id: str, entry: ConversationEntry | None = None) -> bool:
        """End the turn as ``stopped`` (``turn.stopped``) after a stop request."""
        event = NewEvent(EventTypes.TURN_STOPPED, {"turn_id": turn_id}, AGENT_ACTOR)
        return self._end(turn_id, ACTIVE, event, status="stopped", entry=entry)

    def fail(
        self, turn_id: str, code: str, *, only_if_queued: bool = False, entry: ConversationEntry | None = None
    ) -> bool:
        """End the turn as ``failed`` with ``run.failed`` carrying the turn's id and ``code`` only.

        A code that is not in ``charlotte.errors.MESSAGES`` (an exception's
        text, say) is recorded as ``run_failed``. With ``only_if_queued`` a
        turn that has started meanwhile is left alone.
        """
        code = code if code in MESSAGES else "run_failed"
        event = NewEvent(EventTypes.RUN_FAILED, {"turn_id": turn_id, "code": code}, AGENT_ACTOR)
        statuses = ("queued",) if only_if_queued else ACTIVE
        return self._end(turn_id, statuses, event, status="failed", error_code=code, entry=entry)

    def sweep(self, now: datetime | None = None) -> list[str]:
        """Fail running turns whose heartbeat is stale (``worker_lost``); returns their ids."""
        cutoff = (now if now is not None else utc_now()) - self._timeout
        with self._units.reading() as conn:
            candidates = self._store.stale_running(conn, cutoff)
        return [
            turn_id
            for turn_id in candidates
            # Re-checked under the lock: a heartbeat may have arrived since.
            if self._end(
                turn_id,
                ("running",),
                NewEvent(EventTypes.RUN_FAILED, {"turn_id": turn_id, "code": "worker_lost"}, AGENT_ACTOR),
                status="failed",
                error_code="worker_lost",
                stale_before=cutoff,
            )
        ]

    def redeliver(self, queued_before: datetime | None = None, *, limit: int = REDELIVER_BATCH) -> list[str]:
        """Hand turns left queued to the queue again; the ids handed over.

        A turn qualifies when it was queued before the cutoff and not
        re-delivered since: the cutoff is ``heartbeat_timeout`` ago, or
        ``queued_before`` when that is later (a process starting up passes
        its start: every turn queued before it). Each turn is stamped under
        its session lock before it is handed over, so two processes never
        both re-deliver it in one interval. A turn the queue refuses ends
        ``run.failed`` ``queue_lost``; one claimed meanwhile is left alone.
        At most ``limit`` turns per call, oldest first (the next call takes
        the rest).
        """
        now = utc_now()
        cutoff = now - self._timeout
        if queued_before is not None and queued_before > cutoff:
            cutoff = queued_before
        with self._units.reading() as conn:
            candidates = self._store.left_queued(conn, cutoff, limit)
        handed: list[str] = []
        for turn_id, session_id, tenant in candidates:
            with self._units.writing() as conn:
                self._sessions.lock(conn, session_id, tenant)
                if not self._store.mark_redelivered(conn, turn_id, cutoff, now):
                    continue
            try:
                self._queue.enqueue(turn_id)
            except Exception:
                log.warning("turn %s: left queued and the queue refused it again", turn_id)
                self.fail(turn_id, QUEUE_LOST, only_if_queued=True)
                continue
            handed.append(turn_id)
        return handed

    def _end(self, turn_id: str, from_statuses: Sequence[str], event: NewEvent, **ending: Any) -> bool:
        """``_end_in`` in a transaction of its own (``ending``: its keyword arguments)."""
        with self._units.writing() as conn:
            turn = self._store.get(conn, turn_id)
            if turn is None or turn.status not in from_statuses:
                return False
            self._sessions.lock(conn, turn.session_id, turn.tenant)
            return self._end_in(conn, turn, from_statuses, event, **ending)

    def _end_in(
        self,
        conn: sa.Connection,
        turn: TurnRecord,
        from_statuses: Sequence[str],
        event: NewEvent,
        *,
        status: str,
        ready: bool = False,
        error_code: str | None = None,
        stale_before: datetime | None = None,
        entry: ConversationEntry | None = None,
    ) -> bool:
        """End ``turn`` inside ``conn``, whose transaction holds its session's lock; its conversation row too."""
        ended = self._store.change(
            conn,
            turn.id,
            from_statuses,
            stale_before=stale_before,
            status=status,
            ready=ready,
            error_code=error_code,
            finished_at=utc_now(),
        )
        if ended is None:
            return False
        self._sessions.update(conn, turn.session_id, turn.tenant, status="idle", stop_requested=False)
        (seq,) = self._events.append_many(conn, turn.session_id, [event], tenant=turn.tenant)
        entry = entry if entry is not None else ConversationEntry()
        self._conversation.insert(
            conn,
            turn_id=turn.id,
            session_id=turn.session_id,
            tenant=turn.tenant,
            seq=seq,
            status=status,
            message=turn.message,
            asked_at=turn.created_at,
            entry=ConversationEntry(
                entry.reply,
                entry.messages,
                {**entry.record, "ended": status, "ready": ready, "code": error_code},
            ),
        )
        return True


def _check_message(message: object) -> None:
    """``invalid_request`` (field ``message``) unless 1-20,000 characters of a person's text."""
    if not isinstance(message, str) or not 1 <= len(message) <= MAX_MESSAGE or not is_person_text(message):
        raise Refused("invalid_request", detail={"field": "message"})
