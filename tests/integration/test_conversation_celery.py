"""The conversation is the same when a Celery worker process runs the next turn.

Needs ``CHARLOTTE_TEST_REDIS_URL``; the database is PostgreSQL when
``CHARLOTTE_TEST_DATABASE_URL`` is set (a schema of its own), else a SQLite
file. Both processes' models reply with the conversation they were handed
(``RecallModel``), so the worker's reply, kept in the conversation, says what
history it ran with.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic_ai.models import Model
from tests.support.celery_harness import (
    TURN,
    WORKER_START,
    Broker,
    database_in,
    open_session,
    wait_until,
    worker,
)
from tests.support.conversation_model import RecallModel
from tests.support.runner_harness import Harness

from charlotte.runtime import Turns
from charlotte.storage import ConversationStore, migrate, read_connection


class _Recalling(Harness):
    def _model(self) -> Model:
        return RecallModel()


@pytest.mark.redis
@pytest.mark.slow
def test_a_worker_runs_the_next_turn_with_the_same_conversation(tmp_path: Path) -> None:
    broker = Broker.fresh()
    with database_in(tmp_path, "charlotte_conversation", migrate) as database:
        here = _Recalling(database.engine)
        session = open_session(database.engine)
        here.send(session, [], "Add a hero for Rosa")
        try:
            with worker(tmp_path, database, broker, "recall") as w:
                turns = Turns(database.engine, broker.queue_for_turns())
                turn = turns.send(session.id, session.tenant, "Make it warmer", "ann")

                def ended() -> str | None:
                    found = turns.get(turn.id)
                    return None if found is None or found.active else found.status

                status = wait_until(ended, WORKER_START + TURN, "the worker's turn to end", w)
        finally:
            broker.clear()
        assert status == "finished"
        here.send(session, [], "And the footer")

        with read_connection(database.engine) as conn:
            first, second, third = ConversationStore().recent(conn, session.id, session.tenant, 10)
        # Each reply is what its run was handed: the worker saw this process's turn,
        # and this process then saw the worker's.
        assert json.loads(first.reply) == {"asked": ["Add a hero for Rosa"], "said": []}
        assert json.loads(second.reply) == {"asked": ["Add a hero for Rosa", "Make it warmer"],
                                            "said": [first.reply]}  # fmt: skip
        assert json.loads(third.reply) == {
            "asked": ["Add a hero for Rosa", "Make it warmer", "And the footer"],
            "said": [first.reply, second.reply],
        }
