"""The conversation contract on SQLite (PostgreSQL: tests/integration/test_conversation_postgres.py)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from tests.support.conversation_contract import ConversationContract


class TestConversationOnSqlite(ConversationContract):
    @pytest.fixture
    def engine(self, sqlite_engine: sa.Engine) -> sa.Engine:
        return sqlite_engine
