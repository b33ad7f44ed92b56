"""The soak's driver and its after-the-fact checks (``tests/reliability/test_soak.py``).

``SoakDriver`` plays one session per thread: it sends turns one after the
other and, while a turn is active, races human edits against the agent
(``Workspace.human_edit`` at the revision it last read, so ``stale_revision``
is an expected answer) and sometimes asks the turn to stop. ``Figures``
counts what happened. ``check_session`` states what must hold afterwards:
gap-free, schema-valid events and a draft equal to its op history replayed
onto the initial empty draft.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Final

import sqlalchemy as sa
from tests.support.units import in_unit

from charlotte.drafts.workspace import Workspace
from charlotte.errors import CharlotteError, Refused
from charlotte.events import Event, schema_errors
from charlotte.page.model import empty_doc
from charlotte.page.ops import reduce_all
from charlotte.page.session import PageSession
from charlotte.runtime import Turns
from charlotte.storage import (
    DatabaseEventLog,
    DatabasePageRepository,
    SessionRecord,
    SessionStore,
    TurnRecord,
    read_connection,
)
from charlotte.storage.tables import turns as turns_table

#: The longest op history / event log a soak session can reach.
MAX_ROWS: Final = 10_000
#: How often a driver thread looks at its turn (seconds).
POLL: Final = 0.03


@dataclass
class Figures:
    """What the soak did, counted across driver threads."""

    turns_sent: int = 0
    turns_finished: int = 0
    turns_stopped: int = 0
    turns_failed: int = 0
    worker_lost: int = 0
    edits_raced: int = 0
    edits_applied: int = 0
    stale_revisions: int = 0
    edits_refused: int = 0
    stops: int = 0
    busy: int = 0
    workers_killed: int = 0
    events_checked: int = 0
    ops_replayed: int = 0
    other_codes: dict[str, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, name: str, n: int = 1) -> None:
        """Add ``n`` to the counter ``name`` (thread-safe)."""
        with self.lock:
            setattr(self, name, getattr(self, name) + n)

    def code(self, code: str) -> None:
        """Count a refusal code no other counter covers."""
        with self.lock:
            self.other_codes[code] = self.other_codes.get(code, 0) + 1

    def lines(self) -> list[str]:
        """The figures as printable lines."""
        return [
            f"soak: turns run {self.turns_sent} (finished {self.turns_finished}, stopped "
            f"{self.turns_stopped}, failed {self.turns_failed} of which worker_lost {self.worker_lost})",
            f"soak: edits raced {self.edits_raced} (applied {self.edits_applied}, stale_revision "
            f"{self.stale_revisions}, other refusals {self.edits_refused} {self.other_codes})",
            f"soak: stops {self.stops}, busy answers {self.busy}, workers killed {self.workers_killed}",
            f"soak: events checked {self.events_checked}, ops replayed {self.ops_replayed}",
        ]


def human_ops(doc: dict[str, Any], rng: random.Random, tag: str) -> list[dict[str, Any]]:
    """A small edit a person might make to ``doc``: add a note, retitle or restyle a node."""
    nodes = doc.get("nodes") or {}
    choice = rng.random()
    if nodes and choice < 0.4:
        target = rng.choice(sorted(nodes))
        return [{"t": "set_style", "id": target, "breakpoint": "base", "patch": {"opacity": rng.choice([0.5, 0.8, 1])}}]
    headings = sorted(k for k, v in nodes.items() if isinstance(v, dict) and v.get("type") == "heading")
    if headings and choice < 0.7:
        return [{"t": "set_node_props", "id": rng.choice(headings), "patch": {"content": f"Edited {tag}"}}]
    return [
        {
            "t": "insert_node",
            "node": {"id": f"note-{tag}", "type": "text", "parent": None, "props": {"content": f"Note {tag}"}},
        }
    ]


@dataclass
class SoakDriver:
    """Drives sessions through turns, human edits and stops; see module docstring."""

    engine: sa.Engine
    turns: Turns
    workspace: Workspace
    figures: Figures
    turns_per_session: int
    turn_deadline: float
    seed: int = 0
    edit_chance: float = 0.7
    stop_chance: float = 0.15
    failures: list[str] = field(default_factory=list)

    def run_session(self, session: SessionRecord, index: int) -> None:
        """Play ``turns_per_session`` turns on ``session``; problems go to ``failures``."""
        rng = random.Random(self.seed * 1000 + index)
        try:
            for n in range(self.turns_per_session):
                self._one_turn(session, rng, f"{index}-{n}")
        except Exception as error:  # collected: the test reports every thread's failure
            self.failures.append(f"session {index}: {type(error).__name__}: {error}")

    def _one_turn(self, session: SessionRecord, rng: random.Random, tag: str) -> None:
        message = rng.choice(["Build the bakery landing page", "Make it warmer", "Tighten the copy"])
        turn = self._send(session, message)
        self.figures.add("turns_sent")
        # Decided up front: stop this turn while queued, while running, or not at all.
        stop_when = rng.choices(["queued", "running", None], [self.stop_chance / 3, self.stop_chance, 1])[0]
        edits = 0
        deadline = time.monotonic() + self.turn_deadline
        pause = threading.Event()
        while True:
            record = self.turns.get(turn.id)
            assert record is not None
            if not record.active:
                self._ended(record)
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"turn {turn.id} still {record.status} after {self.turn_deadline}s")
            # Edits race the agent while it runs; now and then one lands while the turn waits.
            chance = self.edit_chance if record.status == "running" else self.edit_chance / 20
            if edits < 3 and rng.random() < chance:
                edits += 1
                self._edit(session, rng, f"{tag}-{edits}")
            if stop_when == record.status:
                stop_when = None
                self.turns.stop(session.id, session.tenant, "ann")
                self.figures.add("stops")
            pause.wait(POLL if record.status == "running" else 4 * POLL)

    def _send(self, session: SessionRecord, message: str) -> TurnRecord:
        # The previous turn has ended, so the session is idle; a busy answer
        # would mean an ended turn left its session behind.
        try:
            return self.turns.send(session.id, session.tenant, message, "ann")
        except Refused as refused:
            if refused.code == "busy":
                self.figures.add("busy")
            raise

    def _edit(self, session: SessionRecord, rng: random.Random, tag: str) -> None:
        doc, revision = in_unit(self.workspace, session.id, session.tenant).draft()
        # Give the agent a moment to move the draft on: the edit then races it.
        threading.Event().wait(rng.random() * POLL)
        self.figures.add("edits_raced")
        try:
            in_unit(self.workspace, session.id, session.tenant).human_edit(human_ops(doc, rng, tag), based_on=revision, user="ann"
            )
        except CharlotteError as error:
            if error.code == "stale_revision":
                self.figures.add("stale_revisions")
            else:
                self.figures.add("edits_refused")
                self.figures.code(error.code)
            return
        self.figures.add("edits_applied")

    def _ended(self, record: TurnRecord) -> None:
        if record.status == "finished":
            self.figures.add("turns_finished")
        elif record.status == "stopped":
            self.figures.add("turns_stopped")
        else:
            self.figures.add("turns_failed")
            if record.error_code == "worker_lost":
                self.figures.add("worker_lost")
            else:
                # Shown with the figures: the code says which failure it was.
                self.figures.code(f"turn {record.id} failed {record.error_code}")


def active_turns(engine: sa.Engine, session_ids: list[str]) -> list[tuple[str, str]]:
    """``(turn id, status)`` of every queued or running turn of these sessions."""
    query = sa.select(turns_table.c.id, turns_table.c.status).where(
        turns_table.c.session_id.in_(session_ids),
        turns_table.c.status.in_(("queued", "running")),
    )
    with read_connection(engine) as conn:
        return [(row.id, row.status) for row in conn.execute(query)]


def running_count(engine: sa.Engine, session_ids: list[str]) -> int:
    """How many turns of these sessions are running right now."""
    return sum(1 for _id, status in active_turns(engine, session_ids) if status == "running")


def session_events(engine: sa.Engine, session: SessionRecord) -> list[Event]:
    """The whole event log of ``session``."""
    return DatabaseEventLog().read(engine, session.id, 0, MAX_ROWS)


def without_seq(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` without its revision counter (replay does not count revisions)."""
    return {k: v for k, v in doc.items() if k != "seq"}


def check_session(engine: sa.Engine, session: SessionRecord) -> tuple[list[str], int, int]:
    """What is wrong with ``session`` after the soak; also how many events and ops were checked."""
    problems: list[str] = []
    log = session_events(engine, session)
    seqs = [e.seq for e in log]
    if seqs != list(range(1, len(log) + 1)):
        problems.append(f"event seq not 1..{len(log)}: {seqs[:5]}…")
    for event in log:
        errors = schema_errors(event)
        if errors:
            problems.append(f"event {event.seq} ({event.type}) breaks the schema: {errors}")
    with read_connection(engine) as conn:
        record = SessionStore().get(conn, session.id, session.tenant)
        loaded = DatabasePageRepository().load_draft(conn, session.tenant, session.page)
        history = DatabasePageRepository().ops_since(conn, session.tenant, session.page, 0, limit=MAX_ROWS)
    if record is None or record.status != "idle" or record.stop_requested:
        problems.append(f"session not idle: {record}")
    if loaded is None:
        problems.append("no draft was ever written")
        return problems, len(log), 0
    doc, revision = loaded
    try:
        PageSession(doc)
    except CharlotteError as error:
        problems.append(f"draft does not load: {error.code}")
    if [entry.revision for entry in history] != list(range(1, revision + 1)):
        problems.append(f"op history does not cover revisions 1..{revision}")
    replayed, refused = reduce_all(empty_doc(session.page), [entry.op for entry in history])
    if refused:
        problems.append(f"replay refused ops: {refused[:3]}")
    if without_seq(replayed) != without_seq(doc):
        problems.append("draft differs from its replayed op history")
    return problems, len(log), len(history)


def show(request: Any, *lines: str) -> None:
    """Print figures on the terminal even while pytest captures output."""
    capture = request.config.pluginmanager.getplugin("capturemanager")
    with capture.global_and_fixture_disabled():
        print()
        for line in lines:
            print(line)
