"""Session rows: create, read (always by id *and* tenant), lock, and update.

Nothing here appends events or enforces the turn lifecycle; the runtime does,
in the same transaction. Reads by (id, tenant) mean a session id from another
tenant behaves exactly like an unknown id.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Collection, Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any, Final

import sqlalchemy as sa

from charlotte.errors import StorageError
from charlotte.events import utc_now
from charlotte.storage._direct import Direct, one_of
from charlotte.storage._translate import translated
from charlotte.storage.tables import SESSION_STATUSES, sessions, turns

__all__ = ["DEFAULT_MODE", "SessionRecord", "SessionStore"]

#: The builder mode a session runs unless it names another.
DEFAULT_MODE = "charlotte_builder"


@dataclass(frozen=True, slots=True)
class SessionRecord:
    """One stored session, as read in the current transaction."""

    id: str
    tenant: str
    page: str
    brief: str
    facts: Any
    status: str
    stop_requested: bool
    guide_hash: str | None
    mode: str
    approve_on_save: bool
    created_by: str
    created_at: datetime
    updated_at: datetime
    last_seq: int

    @property
    def busy(self) -> bool:
        """True while a turn is queued, running or stopping."""
        return self.status != "idle"


_FIELDS = tuple(field.name for field in fields(SessionRecord))
_COLUMNS = [sessions.c[name] for name in _FIELDS]
# Built once: constructing a statement costs about as much as running it on
# SQLite (docs/performance.md, "Figures by part", ``storage/_direct.py``).
_SELECTED: Final = sa.select(*_COLUMNS).where(
    sessions.c.id == sa.bindparam("get_id"), sessions.c.tenant == sa.bindparam("get_tenant")
)
# Every tool call reads its session: on the driver's cursor (see ``Direct``).
_SELECT: Final = Direct(_SELECTED)
_SELECT_LOCKED: Final = Direct(_SELECTED.with_for_update())
# The facts a session opened without any starts with: its page's newest (stored "{}": none).
_PAGE_FACTS: Final = Direct(
    sa.select(sessions.c.facts)
    .where(
        sessions.c.tenant == sa.bindparam("facts_tenant"),
        sessions.c.page == sa.bindparam("facts_page"),
        sa.type_coerce(sessions.c.facts, sa.Text) != "{}",
    )
    .order_by(sessions.c.created_at.desc())
    .limit(1)
)
@functools.lru_cache(maxsize=32)
def _update(columns: tuple[str, ...], expected: tuple[str, ...] | None) -> Direct:
    """``SessionStore.update``'s statement for these columns (and expected statuses), built once."""
    statement = (
        sa.update(sessions)
        .where(sessions.c.id == sa.bindparam("update_id"), sessions.c.tenant == sa.bindparam("update_tenant"))
        .values({name: sa.bindparam(f"update_{name}", type_=sessions.c[name].type) for name in columns})
        .returning(sessions.c.id)
    )
    if expected is not None:
        statement = statement.where(one_of(sessions.c.status, expected))
    return Direct(statement)


# One IN list stays well under every driver's parameter limit.
_IDS_PER_QUERY: Final = 500


def _check_status(status: str) -> None:
    if status not in SESSION_STATUSES:
        raise StorageError("invalid_value")


class SessionStore:
    """Session rows in ``charlotte_sessions``; every method joins the caller's transaction."""

    def create(
        self,
        conn: sa.Connection,
        *,
        tenant: str,
        page: str,
        created_by: str,
        brief: str = "",
        facts: Any = None,
        mode: str = DEFAULT_MODE,
        approve_on_save: bool = False,
        guide_hash: str | None = None,
        session_id: str | None = None,
    ) -> SessionRecord:
        """Insert an ``idle`` session and return it (a new random id unless given)."""
        now = utc_now()
        record = SessionRecord(
            id=session_id or uuid.uuid4().hex,
            tenant=tenant,
            page=page,
            brief=brief,
            facts={} if facts is None else facts,
            status="idle",
            stop_requested=False,
            guide_hash=guide_hash,
            mode=mode,
            approve_on_save=approve_on_save,
            created_by=created_by,
            created_at=now,
            updated_at=now,
            last_seq=0,
        )
        values = {name: getattr(record, name) for name in _FIELDS}
        with translated():
            conn.execute(sa.insert(sessions).values(**values))
        return record

    def get(self, conn: sa.Connection, session_id: str, tenant: str) -> SessionRecord | None:
        """The session, or None when there is none with this id in this tenant."""
        return self._select(conn, session_id, tenant, lock=False)

    def lock(self, conn: sa.Connection, session_id: str, tenant: str) -> SessionRecord | None:
        """Like ``get``, and hold the row until the transaction ends.

        PostgreSQL: ``SELECT … FOR UPDATE``. SQLite: the write transaction's
        ``BEGIN IMMEDIATE`` already excludes every other writer.
        """
        return self._select(conn, session_id, tenant, lock=True)

    def last_seqs(self, conn: sa.Connection, session_ids: Sequence[str]) -> dict[str, int]:
        """The ``last_seq`` of each of these sessions that exists, by id alone (any tenant).

        For the stream notifier, which watches sessions whose readers were
        already admitted in their tenant. One query per ``_IDS_PER_QUERY`` ids,
        so an IN list stays under every driver's parameter limit.
        """
        found: dict[str, int] = {}
        with translated():
            for start in range(0, len(session_ids), _IDS_PER_QUERY):
                chunk = list(session_ids[start : start + _IDS_PER_QUERY])
                query = sa.select(sessions.c.id, sessions.c.last_seq).where(sessions.c.id.in_(chunk))
                found.update((row.id, row.last_seq) for row in conn.execute(query))
        return found

    def update(
        self,
        conn: sa.Connection,
        session_id: str,
        tenant: str,
        *,
        status: str | None = None,
        stop_requested: bool | None = None,
        guide_hash: str | None = None,
        expect_status: Collection[str] | None = None,
    ) -> bool:
        """Change the given fields (None leaves one as it is); True when a row changed.

        With ``expect_status`` the row changes only while its status is one of
        those: a compare-and-set, e.g. ``status="queued", expect_status=["idle"]``.
        """
        values: dict[str, Any] = {"updated_at": utc_now()}
        if status is not None:
            _check_status(status)
            values["status"] = status
        if stop_requested is not None:
            values["stop_requested"] = stop_requested
        if guide_hash is not None:
            values["guide_hash"] = guide_hash
        expected = None if expect_status is None else tuple(expect_status)
        for status_name in expected or ():
            _check_status(status_name)
        params = {f"update_{name}": value for name, value in values.items()}
        params |= {"update_id": session_id, "update_tenant": tenant}
        with translated():
            return _update(tuple(values), expected).first(conn, params) is not None

    def page_facts(self, conn: sa.Connection, tenant: str, page: str) -> Any:
        """The facts of the tenant's newest session of ``page`` that has any, or ``{}``.

        One statement on the (tenant, page, created_at) index, walking the
        page's sessions from the newest: a session opened without facts starts
        with these (see ``Charlotte.for_user``), so the newest usually has them.
        """
        with translated():
            row = _PAGE_FACTS.first(conn, {"facts_tenant": tenant, "facts_page": page})
        return {} if row is None else row[0]

    def of_page(
        self, conn: sa.Connection, tenant: str, page: str, limit: int, before: str | None = None
    ) -> list[tuple[SessionRecord, int]]:
        """The tenant's sessions of ``page``, newest first, each with its number of turns.

        At most ``limit`` rows; ``before``: a session id of this page, the
        ones created before it (an unknown one gives nothing).
        """
        count = (
            sa.select(sa.func.count())
            .select_from(turns)
            .where(turns.c.session_id == sessions.c.id)
            .scalar_subquery()
        )
        query = sa.select(*_COLUMNS, count).where(sessions.c.tenant == tenant, sessions.c.page == page)
        with translated():
            if before is not None:
                cursor = conn.execute(
                    sa.select(sessions.c.created_at).where(
                        sessions.c.id == before, sessions.c.tenant == tenant, sessions.c.page == page
                    )
                ).scalar()
                if cursor is None:
                    return []
                query = query.where(
                    sa.or_(
                        sessions.c.created_at < cursor,
                        sa.and_(sessions.c.created_at == cursor, sessions.c.id < before),
                    )
                )
            query = query.order_by(sessions.c.created_at.desc(), sessions.c.id.desc()).limit(limit)
            rows = conn.execute(query).all()
        return [(SessionRecord(*row[:-1]), int(row[-1])) for row in rows]

    @staticmethod
    def _select(
        conn: sa.Connection, session_id: str, tenant: str, *, lock: bool
    ) -> SessionRecord | None:
        query = _SELECT_LOCKED if lock else _SELECT
        with translated():
            row = query.first(conn, {"get_id": session_id, "get_tenant": tenant})
        return None if row is None else SessionRecord(*row)
