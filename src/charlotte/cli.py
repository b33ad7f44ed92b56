"""The ``charlotte`` command line (the only module that reads the environment)."""

from __future__ import annotations

import os
from pathlib import Path

import click

DEFAULT_DATABASE_URL = "sqlite:///./.charlotte/charlotte.db"


def _database_url(explicit: str | None) -> str:
    return explicit or os.environ.get("CHARLOTTE_DATABASE_URL") or DEFAULT_DATABASE_URL


def _ensure_sqlite_folder(url: str) -> None:
    # SQLite creates the file but not its folder.
    prefix = "sqlite:///"
    if url.startswith(prefix) and url != "sqlite:///:memory:":
        Path(url[len(prefix) :]).parent.mkdir(parents=True, exist_ok=True)


@click.group()
def main() -> None:
    """charlotte: an AI page builder for fancy-cms pages."""


@main.command()
def demo() -> None:
    """Run the offline builder end to end (not yet available)."""
    click.echo(
        "charlotte demo: not yet available. The page core, policies, storage and "
        "workspace are built; the agent runtime and the demo come next."
    )


@main.command()
@click.option("--database-url", default=None, help="Defaults to $CHARLOTTE_DATABASE_URL or ./.charlotte/charlotte.db.")
def migrate(database_url: str | None) -> None:
    """Create or upgrade charlotte's tables."""
    from charlotte.storage import StorageError, head_revision
    from charlotte.storage import migrate as run_migrations

    url = _database_url(database_url)
    _ensure_sqlite_folder(url)
    try:
        run_migrations(url)
    except StorageError as e:
        raise click.ClickException(f"migration failed ({e.code})") from None
    click.echo(f"charlotte tables at revision {head_revision()}")


if __name__ == "__main__":  # pragma: no cover
    main()
