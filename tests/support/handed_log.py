"""``HandedLog``: the real database event log, noting every payload handed to it.

For tests of what a writer (the recorder, the telemetry) hands the log before
storage repairs anything; the events are still stored as usual.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import sqlalchemy as sa

from charlotte.events import NewEvent
from charlotte.storage import DatabaseEventLog


class HandedLog(DatabaseEventLog):
    """The real event log, noting every payload it is handed (before storage repairs any).

    ``DatabaseEventLog.append`` hands its one event to ``append_many``, so
    noting there sees both.
    """

    def __init__(self) -> None:
        self.payloads: list[Mapping[str, Any]] = []

    def append_many(
        self, conn: sa.Connection, session_id: str, new_events: Sequence[NewEvent], *, tenant: str | None = None
    ) -> list[int]:
        self.payloads.extend(new.payload for new in new_events)
        return super().append_many(conn, session_id, new_events, tenant=tenant)
