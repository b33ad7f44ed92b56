"""The ``charlotte`` command line — the only module that reads the environment.

Commands: ``demo`` (the main job, offline), ``serve`` (API + builder page),
``worker`` (a Celery worker for the distributed queue), ``migrate``.
Configuration: ``CHARLOTTE_DATABASE_URL``, ``CHARLOTTE_MODEL``,
``CHARLOTTE_QUEUE``, ``CHARLOTTE_BROKER_URL``, and the providers' own keys
(``OPENAI_API_KEY``, ``ANTHROPIC_API_KEY``); options win over the environment.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import click

from charlotte.app import Charlotte
from charlotte.demo import SAMPLE_BRIEF, SAMPLE_FACTS, run_demo
from charlotte.errors import StorageError
from charlotte.settings import Settings
from charlotte.storage import head_revision
from charlotte.storage import migrate as run_migrations


def _settings(**overrides: Any) -> Settings:
    given = {k: v for k, v in overrides.items() if v is not None}
    try:
        return Settings.from_env(os.environ, **given)
    except ValueError as e:
        raise click.UsageError(str(e)) from None


def _ensure_sqlite_folder(url: str) -> None:
    # SQLite creates the file but not its folder.
    prefix = "sqlite:///"
    if url.startswith(prefix) and url != "sqlite:///:memory:":
        Path(url[len(prefix) :]).parent.mkdir(parents=True, exist_ok=True)


@click.group()
def main() -> None:
    """charlotte: an AI page builder for fancy-cms pages."""


@main.command()
@click.option("--brief", default=None, help="The brief (default: a sample bakery).")
@click.option("--facts", "facts_file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, help="A JSON file of facts (an object of strings).")
@click.option("--model", default=None, help="offline (default), openai:<name>, anthropic:<name>, "
              "openai-compatible:<base_url>:<name>.")
@click.option("--approve-on-save", is_flag=True, help="Route the agent's writes through a change set, then approve it.")
@click.option("--database-url", default=None, help="Default: $CHARLOTTE_DATABASE_URL or ./.charlotte/charlotte.db.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              default=Path(".charlotte/out"), show_default=True)
def demo(brief: str | None, facts_file: Path | None, model: str | None, approve_on_save: bool,
         database_url: str | None, out_dir: Path) -> None:
    """Build, check and publish a page with the agent, end to end (offline by default)."""
    settings = _settings(database_url=database_url, model=model)
    _ensure_sqlite_folder(settings.database_url)
    facts: dict[str, str] = dict(SAMPLE_FACTS)
    if facts_file is not None:
        loaded = json.loads(facts_file.read_text(encoding="utf-8"))
        if not isinstance(loaded, dict) or not all(isinstance(v, str) for v in loaded.values()):
            raise click.UsageError("--facts must be a JSON object of strings")
        facts = loaded
    elif brief is not None:
        facts = {}
    result = run_demo(
        settings=settings,
        out_dir=out_dir,
        brief=brief or SAMPLE_BRIEF,
        facts=facts,
        approve_on_save=approve_on_save,
        echo=click.echo,
    )
    if result.failure is not None:
        click.echo(f"the turn did not finish: {result.failure}", err=True)
        sys.exit(1)
    click.echo(
        f"done: {'ready' if result.ready else 'not ready'} · revision {result.revision} · "
        f"{result.nodes} nodes · {result.errors} errors, {result.warnings} warnings\n"
        f"open {result.output} in a browser"
    )


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=int)
@click.option("--model", default=None)
@click.option("--database-url", default=None)
def serve(host: str, port: int, model: str | None, database_url: str | None) -> None:
    """Serve the API and the builder page (embedded SQLite, in-process queue)."""
    # Imported here: only this command starts the web server.
    import uvicorn

    settings = _settings(database_url=database_url, model=model)
    _ensure_sqlite_folder(settings.database_url)
    charlotte = Charlotte(settings)
    charlotte.migrate()
    # A local single-person server: every request is the local user of the
    # "local" tenant. A host embedding charlotte installs its own resolvers.
    charlotte.resolve_user_using(lambda request: "local")
    charlotte.resolve_tenant_using(lambda request: "local")
    click.echo(f"charlotte builder on http://{host}:{port}/ (model {settings.model})")
    try:
        uvicorn.run(charlotte.asgi_app(), host=host, port=port, log_level="warning")
    finally:
        charlotte.close()


@main.command()
@click.option("--broker-url", default=None, help="Default: $CHARLOTTE_BROKER_URL.")
@click.option("--database-url", default=None)
@click.option("--concurrency", default=2, show_default=True, type=int)
def worker(broker_url: str | None, database_url: str | None, concurrency: int) -> None:
    """Run a Celery worker for the distributed turn queue (with a sweeper)."""
    settings = _settings(broker_url=broker_url, database_url=database_url, queue="celery")
    if not settings.broker_url:
        raise click.UsageError("a broker URL is needed: --broker-url or $CHARLOTTE_BROKER_URL")
    # The same worker a host builds from its own Charlotte, with no host hooks:
    # worker_app() starts the sweeper, close() stops it and disposes the engine.
    charlotte = Charlotte(settings)
    try:
        charlotte.worker_app().worker_main(
            ["worker", f"--concurrency={concurrency}", "--loglevel=INFO"]
        )
    finally:
        charlotte.close()


@main.command()
@click.option("--database-url", default=None, help="Default: $CHARLOTTE_DATABASE_URL or ./.charlotte/charlotte.db.")
def migrate(database_url: str | None) -> None:
    """Create or upgrade charlotte's tables."""
    settings = _settings(database_url=database_url)
    _ensure_sqlite_folder(settings.database_url)
    try:
        engine = settings.open_engine()
        try:
            run_migrations(engine)
        finally:
            engine.dispose()
    except StorageError as e:
        raise click.ClickException(f"migration failed ({e.code})") from None
    click.echo(f"charlotte tables at revision {head_revision()}")


if __name__ == "__main__":  # pragma: no cover
    main()
