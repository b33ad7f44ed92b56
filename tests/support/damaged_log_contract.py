"""Damaged event rows, run against every database (subclass per backend).

A row is written with plain SQL, as an older charlotte left it (a lone
surrogate stored as its ``\\uD800`` escape) or as a hand edit or another
program could: text that is not UTF-8, a payload that is no JSON object, a
timestamp Python cannot hold, a type that would forge SSE fields. Reading the
log must return every row, repaired, with the rows around it; the notifier
must keep serving every other session and the damaged session's earlier
events. A subclass provides ``engine`` (tables created; may be shared by the
module) and names in ``damages`` the kinds its database can store.
"""

from __future__ import annotations

import json
import logging
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar, Final

import pytest
import sqlalchemy as sa
from tests.support.databases import new_session
from tests.support.waiting import eventually

from charlotte.errors import StorageError
from charlotte.events import AGENT_ACTOR, Event, EventTypes
from charlotte.http.sse import format_event
from charlotte.runtime.notifier import Notifier, Subscription
from charlotte.storage import DatabaseEventLog, SessionRecord, transaction
from charlotte.storage.tables import events, sessions

LOG: Final = DatabaseEventLog()
EPOCH: Final = "1970-01-01T00:00:00.000000Z"


@dataclass(frozen=True)
class Damage:
    """One damaged row: what is stored (bytes are stored as they are) and what must be read back."""

    payload: str | bytes
    read_payload: dict[str, Any]
    type: str | bytes = EventTypes.TEXT_DELTA
    read_type: str = EventTypes.TEXT_DELTA
    #: Stored as the timestamp (None: a valid one); read back as EPOCH when set.
    at: str | None = None
    #: Bytes go in as TEXT holding them (not UTF-8) instead of as a BLOB (SQLite).
    bytes_as_text: bool = False
    #: The row's seq is this text instead of the next integer (SQLite).
    seq_text: str | None = None


DAMAGES: Final = {
    "surrogate-escape": Damage('{"text":"a\\ud800b"}', {"text": "a\ufffdb"}),
    "surrogate-in-a-key": Damage('{"te\\udfffxt":"x","pair":"\\ud83d\\ude00"}', {"te\ufffdxt": "x", "pair": "\U0001f600"}),
    "uppercase-escape": Damage('{"text":"\\uDBFF\\uDBFF!"}', {"text": "\ufffd\ufffd!"}),
    "escaped-backslash": Damage('{"text":"\\\\ud800"}', {"text": "\\ud800"}),
    "not-json": Damage('{"text":', {}),
    "not-an-object": Damage('["text"]', {}),
    "nan": Damage('{"text":NaN}', {}),
    "forging-type": Damage('{"text":"x"}', {"text": "x"}, type="text.delta\ndata: forged", read_type="text.delta\ndata: forged"),
    "year-10000": Damage('{"text":"x"}', {"text": "x"}, at="10000-01-01 00:00:00+00"),
    "infinity": Damage('{"text":"x"}', {"text": "x"}, at="infinity"),
    "garbage-time": Damage('{"text":"x"}', {"text": "x"}, at="not a time"),
    "blob-payload": Damage(b'{"text":"caf\xe9"}', {"text": "caf\ufffd"}),
    "latin1-text-payload": Damage(b'{"text":"caf\xe9"}', {"text": "caf\ufffd"}, bytes_as_text=True),
    "latin1-text-type": Damage('{"text":"x"}', {"text": "x"}, type=b"text.delta\xff", read_type="text.delta\ufffd", bytes_as_text=True),
    "seq-not-an-integer": Damage('{"text":"x"}', {"text": "x"}, seq_text="x"),
    "year-10000-naive": Damage('{"text":"x"}', {"text": "x"}, at="10000-01-01 00:00:00"),
}

#: What PostgreSQL can store (its text is always UTF-8, its seq an integer, its timestamps aware).
POSTGRES_DAMAGES: Final = (
    "surrogate-escape", "surrogate-in-a-key", "uppercase-escape", "escaped-backslash", "not-json",
    "not-an-object", "nan", "forging-type", "year-10000", "infinity",
)  # fmt: skip
#: What SQLite can store: anything in any column.
SQLITE_DAMAGES: Final = tuple(name for name in DAMAGES if name not in {"year-10000", "infinity"})


def last_seq(engine: sa.Engine, session_id: str) -> int:
    with engine.connect() as conn:
        found: int = conn.execute(sa.select(sessions.c.last_seq).where(sessions.c.id == session_id)).scalar_one()
    return found


def first_and_second_sessions(engine: sa.Engine) -> tuple[SessionRecord, SessionRecord]:
    """Two new sessions; the first comes first in id order and in insertion order.

    The notifier's query lists sessions in one of those orders on both
    databases: a tick that stopped at the first session's failure could not
    serve the second one by luck.
    """
    suffix = uuid.uuid4().hex[2:]
    return new_session(engine, session_id=f"00{suffix}"), new_session(engine, session_id=f"ff{suffix}")


def append_text(engine: sa.Engine, session_id: str, text: str) -> int:
    with transaction(engine) as conn:
        return LOG.append(conn, session_id, EventTypes.TEXT_DELTA, {"text": text}, actor=AGENT_ACTOR)


def insert_damaged(engine: sa.Engine, session_id: str, damage: Damage) -> int | None:
    """Write ``damage`` as the session's next event with plain SQL; its seq (None: no integer seq)."""
    postgres = engine.dialect.name == "postgresql"
    with transaction(engine) as conn:
        tenant = conn.execute(sa.select(sessions.c.tenant).where(sessions.c.id == session_id)).scalar_one()
        seq: int | None = None
        if damage.seq_text is None:
            bump = (
                sa.update(sessions)
                .where(sessions.c.id == session_id)
                .values(last_seq=sessions.c.last_seq + 1)
                .returning(sessions.c.last_seq)
            )
            seq = conn.execute(bump).scalar_one()
        at = damage.at or ("2025-01-01 00:00:00+00" if postgres else "2025-01-01 00:00:00.000000")
        params = {"session_id": session_id, "seq": seq if seq is not None else damage.seq_text,
                  "tenant": tenant, "type": damage.type, "at": at, "payload": damage.payload}  # fmt: skip

        def value(name: str) -> str:
            if postgres and name == "at":
                return "CAST(:at AS timestamptz)"
            if damage.bytes_as_text and isinstance(params[name], bytes):
                return f"CAST(:{name} AS TEXT)"
            return f":{name}"

        conn.execute(
            sa.text(
                "INSERT INTO charlotte_events (session_id, seq, tenant, type, at, actor, payload) "
                f"VALUES (:session_id, :seq, :tenant, {value('type')}, {value('at')}, 'agent', {value('payload')})"
            ),
            params,
        )
    return seq


def ticked(notifier: Notifier) -> None:
    """Wait until the notifier completed one more tick than now (so it has seen every watch once)."""
    start = notifier.ticks
    eventually(lambda: notifier.ticks >= start + 2)


def frames_after(subscription: Subscription, after: int, last: int) -> list[bytes] | None:
    """The frames of the notifier's events of seqs ``after``+1 … ``last`` once it has them (framed
    as a stream frames them), None when it cached none."""
    subscription.seen(after)

    def known() -> bool:
        cached = subscription.cached(after)
        return subscription.pending() and (cached is None or len(cached) >= last - after)

    eventually(known)
    cached = subscription.cached(after)
    return None if cached is None else [format_event(event) for event in cached]


def frame_seqs(frames: list[bytes]) -> list[int | None]:
    """Each frame's ``id`` (None for a comment frame, which dispatches nothing)."""
    found: list[int | None] = []
    for frame in frames:
        text = frame.decode("utf-8")  # every frame is UTF-8
        match = re.match(r"id: (\d+)\nevent: [^\r\n]*\ndata: ([^\r\n]*)\n\n\Z", text)
        if match is None:
            assert text.startswith(":") and text.endswith("\n\n") and "\n" not in text[:-2], text
            found.append(None)
            continue
        assert json.loads(match.group(2))["seq"] == int(match.group(1))
        found.append(int(match.group(1)))
    return found


class _UnreadableFor(DatabaseEventLog):
    """The real event log, except that one session's events cannot be read (a failing adapter)."""

    def __init__(self, session_id: str) -> None:
        self.session_id = session_id

    def read(self, source: sa.Connection | sa.Engine, session_id: str, after_seq: int = 0,
             limit: int = 1000, *, tenant: str | None = None) -> list[Event]:  # fmt: skip
        if session_id == self.session_id:
            raise StorageError("storage_error")
        return super().read(source, session_id, after_seq, limit, tenant=tenant)


class DamagedLogContract:
    """Every damaged row reads, repaired; a damaged session stalls no stream (see module docstring)."""

    damages: ClassVar[tuple[str, ...]]

    @pytest.fixture
    def engine(self) -> sa.Engine:
        raise NotImplementedError

    @pytest.fixture
    def notifier(self, engine: sa.Engine) -> Iterator[Notifier]:
        made = Notifier(engine, interval=0.02)
        yield made
        made.close()

    # -- the log ----------------------------------------------------------------------

    def test_each_damaged_row_reads_repaired_between_its_neighbours(self, engine: sa.Engine) -> None:
        for name in self.damages:
            damage = DAMAGES[name]
            session = new_session(engine)
            before = append_text(engine, session.id, "before")
            seq = insert_damaged(engine, session.id, damage)
            after = append_text(engine, session.id, "after")

            found = LOG.read(engine, session.id)

            expected = [before, after] if seq is None else [before, seq, after]
            assert [e.seq for e in found] == expected, name
            assert found[0].payload == {"text": "before"} and found[-1].payload == {"text": "after"}, name
            if seq is not None:
                damaged = found[1]
                assert (damaged.type, dict(damaged.payload)) == (damage.read_type, damage.read_payload), name
                assert damaged.at == (EPOCH if damage.at else "2025-01-01T00:00:00.000000Z"), name
                assert damaged.actor == "agent", name
                # What the API answers must encode: every string is Unicode.
                json.dumps(damaged.to_dict(), ensure_ascii=False, allow_nan=False).encode("utf-8")

    def test_a_payload_with_lone_surrogates_is_stored_with_replacement_characters(self, engine: sa.Engine) -> None:
        session = new_session(engine)
        with transaction(engine) as conn:
            seq = LOG.append(conn, session.id, EventTypes.TOOL_CALLED,
                             {"name": "cms_find", "call_id": "c\ud800", "arguments": {"te\udfffxt": ["a\ud800", ("b\udc00",)]}},
                             actor=AGENT_ACTOR)  # fmt: skip
            raw = conn.execute(
                sa.select(sa.type_coerce(events.c.payload, sa.Text)).where(events.c.session_id == session.id, events.c.seq == seq)
            ).scalar_one()

        assert "\\ud800" not in raw.lower() and "\\udc00" not in raw.lower() and "\\udfff" not in raw.lower()
        assert LOG.read(engine, session.id)[-1].payload == {
            "name": "cms_find", "call_id": "c\ufffd", "arguments": {"te\ufffdxt": ["a\ufffd", ["b\ufffd"]]},
        }  # fmt: skip

    # -- the notifier -----------------------------------------------------------------

    def test_a_damaged_session_stalls_no_other_stream_nor_its_own_earlier_events(
        self, engine: sa.Engine, notifier: Notifier
    ) -> None:
        damaged, healthy = first_and_second_sessions(engine)
        bad, good = notifier.subscribe(damaged.id), notifier.subscribe(healthy.id)
        ticked(notifier)
        known_bad, known_good = last_seq(engine, damaged.id), last_seq(engine, healthy.id)

        earlier = append_text(engine, damaged.id, "earlier")
        damaged_seqs = [insert_damaged(engine, damaged.id, DAMAGES[name]) for name in self.damages]
        later = append_text(engine, damaged.id, "later")
        last_good = append_text(engine, healthy.id, "still served")

        good_frames = frames_after(good, known_good, last_good)
        assert good_frames is not None and frame_seqs(good_frames) == [last_good]
        assert b"still served" in good_frames[0]
        # The damaged session's frames: every event, the earlier one included;
        # a type that would forge fields leaves a comment in its place.
        frames = frames_after(bad, known_bad, last_seq(engine, damaged.id))
        if frames is None:  # not cached: its readers read the log, and frame what they read
            frames = [format_event(event) for event in LOG.read(engine, damaged.id, known_bad)]
        forging = {seq for seq, name in zip(damaged_seqs, self.damages, strict=True) if name == "forging-type"}
        expected = [None if seq in forging else seq for seq in [earlier, *damaged_seqs, later] if seq is not None]
        assert frame_seqs(frames) == expected
        assert b"earlier" in frames[0] and b"later" in frames[-1]

        # Later events of both sessions keep coming.
        next_bad, next_good = append_text(engine, damaged.id, "next"), append_text(engine, healthy.id, "next")
        assert frame_seqs(frames_after(good, last_good, next_good) or []) == [next_good]
        assert frame_seqs(frames_after(bad, next_bad - 1, next_bad) or []) == [next_bad]

    def test_a_session_whose_log_cannot_be_read_stalls_no_other(
        self, engine: sa.Engine, caplog: pytest.LogCaptureFixture
    ) -> None:
        broken, healthy = first_and_second_sessions(engine)
        notifier = Notifier(engine, interval=0.02, events=_UnreadableFor(broken.id))
        try:
            stuck, served = notifier.subscribe(broken.id), notifier.subscribe(healthy.id)
            ticked(notifier)
            known = last_seq(engine, healthy.id)
            with caplog.at_level(logging.WARNING, logger="charlotte.runtime.notifier"):
                unread = append_text(engine, broken.id, "unreadable")
                last = append_text(engine, healthy.id, "served")
                assert frame_seqs(frames_after(served, known, last) or []) == [last]
                # The broken session's readers are woken, with nothing cached:
                # each reads the log itself (and gets its own coded error).
                eventually(lambda: stuck.pending() and stuck.cached(unread - 1) is None)
            logged = [r.getMessage() for r in caplog.records if r.name == "charlotte.runtime.notifier"]
            assert any(broken.id in m and "storage_error" in m and "correlation id" in m for m in logged), logged
        finally:
            notifier.close()
