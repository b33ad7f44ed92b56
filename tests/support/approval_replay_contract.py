"""Why an approval can never leave part of a change set in the draft (run against every database).

``ChangeSets.approve`` replays the set on an in-memory ``PageSession``: every
chunk, every PageSession and policy check, runs before the first row is
written. A replay that conflicts — in whichever chunk — has written nothing of
the page; one that succeeds writes the draft once and the op history once.
A database error after the first write (here: the op history refusing a
revision) ends the whole transaction, so the draft saved before it is rolled
back with it. These tests watch the statements an approval sends to the
database. (The savepoint around load and replay only takes back the row a
first write inserts, see ``ChangeSetsContract``; nothing here relies on it.)

A subclass provides the ``engine`` fixture (tables created; may be shared by a
module, so every test opens its own session on its own page).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import sqlalchemy as sa
from tests.support.change_sets_contract import ChangeSetsContract, props
from tests.support.units import in_unit
from tests.support.workspace_contract import section

from charlotte.drafts.change_sets import ChangeSets
from charlotte.drafts.workspace import Workspace
from charlotte.errors import PageSessionError, StorageError
from charlotte.events import EventTypes
from charlotte.storage import DatabaseEventLog, SessionRecord, read_connection, tables, transaction
from charlotte.storage.tables import page_ops, pages
from charlotte.storage.types import dumps, loads

#: The first words of a statement that writes, and the table it writes.
_WRITE = re.compile(r"\s*(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(\S+)", re.IGNORECASE)
#: How many ops each chunk replays in these tests (small, so a set spans many chunks).
CHUNK = 2


@contextmanager
def statements(engine: sa.Engine) -> Iterator[list[str]]:
    """Every statement ``engine`` sends while the block runs, in order."""
    sent: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        sent.append(statement)

    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        yield sent
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)


def written_tables(sent: list[str]) -> list[str]:
    """The tables the statements write, in order (names without quotes or schema)."""
    out: list[str] = []
    for statement in sent:
        match = _WRITE.match(statement)
        if match:
            out.append(match.group(2).split(".")[-1].strip('"'))
    return out


class ApprovalReplayContract:
    """No partial replay: what an approval writes, for each way it can end."""

    @pytest.fixture
    def engine(self) -> sa.Engine:  # pragma: no cover - overridden per backend
        raise NotImplementedError

    @pytest.fixture
    def ws(self, engine: sa.Engine) -> Workspace:
        return Workspace(engine)

    @pytest.fixture
    def change_sets(self, ws: Workspace) -> ChangeSets:
        return ChangeSets(ws, chunk=CHUNK)

    #: An approve_on_save session whose draft holds a section and a heading (revision 2).
    session = ChangeSetsContract.session

    def stored(self, engine: sa.Engine, s: SessionRecord) -> tuple[Any, ...]:
        """The page row, its op history and the session's change sets, as stored."""
        with read_connection(engine) as conn:
            page = conn.execute(
                sa.select(pages.c.draft, pages.c.revision)
                .where(pages.c.tenant == s.tenant, pages.c.page == s.page)
            ).one()
            history = conn.execute(
                sa.select(page_ops.c.revision, page_ops.c.actor, page_ops.c.op)
                .where(page_ops.c.tenant == s.tenant, page_ops.c.page == s.page)
                .order_by(page_ops.c.revision)
            ).all()
            rows = conn.execute(
                sa.select(tables.change_sets.c.id, tables.change_sets.c.status).where(tables.change_sets.c.session_id == s.id)
            ).all()
        return tuple(page), [tuple(row) for row in history], sorted(tuple(row) for row in rows)

    def event_types(self, engine: sa.Engine, s: SessionRecord, after: int) -> list[str]:
        return [e.type for e in DatabaseEventLog().read(engine, s.id, after, 1000)]

    def last_seq(self, engine: sa.Engine, s: SessionRecord) -> int:
        found = DatabaseEventLog().read(engine, s.id, 0, 1000)
        return found[-1].seq

    def seven_ops(self, change_sets: ChangeSets, s: SessionRecord) -> None:
        """A set of seven ops (four chunks); its last op edits ``title``."""
        ops = [section(f"s{n}") for n in range(6)] + [props("title", "Rye")]
        in_unit(change_sets, s.id, s.tenant).apply_agent_ops(ops, based_on=2)

    def test_a_conflict_in_the_last_chunk_leaves_nothing_of_the_page(
        self, ws: Workspace, change_sets: ChangeSets, engine: sa.Engine, session: SessionRecord
    ) -> None:
        self.seven_ops(change_sets, session)
        in_unit(ws, session.id, session.tenant).human_edit([{"t": "remove_node", "id": "title"}], based_on=2, user="ann"
        )
        page, history, _ = self.stored(engine, session)
        after = self.last_seq(engine, session)
        with statements(engine) as sent:
            resolution = in_unit(change_sets, session.id, session.tenant).approve("bob")
        assert (resolution.status, resolution.code, resolution.at) == ("conflicted", "node_not_found", 6)
        # Three chunks replayed and their history written inside the savepoint, the
        # fourth conflicted: rolled back, the draft never written.
        written = written_tables(sent)
        assert pages.name not in written and written.count(page_ops.name) == 3, written
        assert any(statement.startswith("ROLLBACK TO SAVEPOINT") for statement in sent), sent
        assert tables.change_sets.name in written
        assert self.stored(engine, session)[:2] == (page, history)
        assert self.event_types(engine, session, after) == [EventTypes.PROPOSAL_CONFLICTED]

    def test_a_replay_writes_the_draft_once_and_its_history_chunk_by_chunk(
        self, ws: Workspace, change_sets: ChangeSets, engine: sa.Engine, session: SessionRecord
    ) -> None:
        self.seven_ops(change_sets, session)
        with statements(engine) as sent:
            resolution = in_unit(change_sets, session.id, session.tenant).approve("bob")
        assert (resolution.status, resolution.revision) == ("approved", 9)
        written = written_tables(sent)
        assert written.count(pages.name) == 1, written
        assert written.count(page_ops.name) == 4, written  # one multi-row insert per chunk
        _, history, _ = self.stored(engine, session)
        assert [(revision, actor) for revision, actor, _ in history][2:] == [
            (revision, "agent") for revision in range(3, 10)
        ]

    def test_a_storage_error_after_history_was_written_rolls_back_the_whole_approval(
        self, ws: Workspace, change_sets: ChangeSets, engine: sa.Engine, session: SessionRecord
    ) -> None:
        self.seven_ops(change_sets, session)
        # A stray history row at the revision the replay's fifth op will take: the
        # first two chunks' rows are written, then the third chunk's insert is refused.
        with transaction(engine) as conn:
            conn.execute(
                sa.insert(page_ops).values(
                    tenant=session.tenant, page=session.page, revision=7, actor="ann",
                    op=section("stray"), session_id=session.id,
                )
            )  # fmt: skip
        before = self.stored(engine, session)
        after = self.last_seq(engine, session)
        with statements(engine) as sent, pytest.raises(StorageError) as failed:
            in_unit(change_sets, session.id, session.tenant).approve("bob")
        assert failed.value.code == "conflict"
        written = written_tables(sent)
        assert written.count(page_ops.name) == 3 and pages.name not in written, written
        # The history written before the failure is gone with it; the set is still open.
        assert self.stored(engine, session) == before
        assert [status for _, status in before[2]] == ["open"]
        assert self.event_types(engine, session, after) == []
        assert in_unit(ws, session.id, session.tenant).draft()[1] == 2

    def test_the_set_is_decoded_as_it_replays_and_a_corrupt_tail_leaves_nothing(
        self, ws: Workspace, change_sets: ChangeSets, engine: sa.Engine, session: SessionRecord
    ) -> None:
        # Two writes: the second's ops are appended to the stored text.
        in_unit(change_sets, session.id, session.tenant).apply_agent_ops([section("s0"), section("s1")], based_on=2)
        more = [section(f"s{n}") for n in range(2, 6)] + [props("title", "Rye")]
        in_unit(change_sets, session.id, session.tenant).apply_agent_ops(more, based_on=4)
        with read_connection(engine) as conn:
            stored = conn.execute(
                sa.select(sa.type_coerce(tables.change_sets.c.ops, sa.Text))
                .where(tables.change_sets.c.session_id == session.id)
            ).scalar_one()
        decoded = loads(stored)
        assert stored == dumps(decoded)  # the appended text is what one write of the list writes
        assert [op.get("id") or op["node"]["id"] for op in decoded] == [
            "s0", "s1", "s2", "s3", "s4", "s5", "title"
        ]  # fmt: skip
        # Host corruption after the fifth op: the first two chunks replay (their history
        # written) before the decoder reaches it; the whole approval is then taken back.
        broken = dumps(decoded[:5])[:-1] + ',{"t":'
        assert stored.startswith(broken[:-6])
        with transaction(engine) as conn:
            conn.execute(
                sa.update(tables.change_sets)
                .where(tables.change_sets.c.session_id == session.id)
                .values(ops=sa.type_coerce(broken, sa.Text))
            )
        before = self.stored(engine, session)
        after = self.last_seq(engine, session)
        with statements(engine) as sent, pytest.raises(PageSessionError) as failed:
            in_unit(change_sets, session.id, session.tenant).approve("bob")
        assert (failed.value.code, failed.value.detail) == ("invalid_state", "change set: ops")
        written = written_tables(sent)
        assert written.count(page_ops.name) == 2 and pages.name not in written, written
        assert self.stored(engine, session) == before
        assert self.event_types(engine, session, after) == []
