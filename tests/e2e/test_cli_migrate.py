"""``charlotte migrate`` as a user runs it: a real process on a fresh folder."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path


def test_migrate_creates_the_tables_in_a_fresh_folder(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CHARLOTTE_")}
    run = subprocess.run(
        [sys.executable, "-m", "charlotte.cli", "migrate"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert "charlotte tables at revision" in run.stdout
    db = tmp_path / ".charlotte" / "charlotte.db"
    with sqlite3.connect(db) as conn:
        names = {row[0] for row in conn.execute("select name from sqlite_master where type='table'")}
    assert {"charlotte_sessions", "charlotte_events", "charlotte_pages", "charlotte_alembic_version"} <= names
    # Running it again is a no-op, not an error.
    again = subprocess.run(
        [sys.executable, "-m", "charlotte.cli", "migrate"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert again.returncode == 0, again.stderr
