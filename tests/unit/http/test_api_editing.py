"""The editing contract on SQLite (PostgreSQL: tests/integration/test_editing_postgres.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.support.app_harness import AppHarness
from tests.support.editing_contract import EditingContract
from tests.support.hand_edit_contract import HandEditContract
from tests.support.undo_safety_contract import UndoSafetyContract


class TestEditingOnSqlite(EditingContract, HandEditContract, UndoSafetyContract):
    @pytest.fixture
    def app(self, tmp_path: Path) -> Iterator[AppHarness]:
        harness = AppHarness(tmp_path / "charlotte.db")
        yield harness
        harness.close()
