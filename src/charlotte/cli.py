"""The ``charlotte`` command line — the only module that reads the environment.

Commands: ``demo`` (the main job, offline), ``serve`` (API + builder page),
``worker`` (a Celery worker for the distributed queue), ``migrate``, ``eval``
(a suite of cases through the real runtime, scored; ``docs/eval.md``), ``mcp``.
Configuration: ``CHARLOTTE_DATABASE_URL``, ``CHARLOTTE_MODEL``,
``CHARLOTTE_QUEUE``, ``CHARLOTTE_BROKER_URL``, and the providers' own keys
(``OPENAI_API_KEY``, ``ANTHROPIC_API_KEY``); options win over the environment.

Arguments are parsed before anything heavy loads: the app, the model library
and uvicorn are imported inside the command that needs them, so
``charlotte --help`` answers at once. Whatever goes wrong is one line on
stderr ending in its code (``docs/errors.md``), never a traceback: exit code 2
for what the command was given, checked before any work starts (an option,
command, facts or cases file, brief or ``--out`` folder it cannot use; every
charlotte error), 1 for what happened while it ran (a failed turn, a port,
a file not written, Ctrl-C, anything unforeseen: ``internal``).
"""

from __future__ import annotations

import json
import logging
import os
import socket
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import click

from charlotte.errors import MESSAGES, CharlotteError, ModelKeyMissing, Refused, code_of

if TYPE_CHECKING:
    from charlotte.app import Charlotte
    from charlotte.settings import Settings

#: Exit codes: the input was wrong / the work failed while running.
BAD_INPUT = 2
FAILED = 1


class Failure(click.ClickException):
    """One line on stderr (``charlotte: … (code)``); exit code 2 (the input was wrong)."""

    exit_code = BAD_INPUT

    def __init__(self, message: str, code: str = "invalid_option") -> None:
        # Every line ends in a code of the one table (docs/errors.md).
        assert code in MESSAGES, code
        super().__init__(f"{message} ({code})")
        self.code = code

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"charlotte: {self.format_message()}", err=True)


class RunFailure(Failure):
    """One line on stderr; exit code 1 (the work failed while running)."""

    exit_code = FAILED


def coded(error: CharlotteError) -> Failure:
    """The one line for a charlotte error: its fixed sentence (or what to fix) and its code."""
    code = code_of(error, "internal")
    if isinstance(error, ModelKeyMissing):
        # The one error whose variable part is what to do: the variable to set.
        return Failure(f"{error.spec}: no API key: set {error.variable}, or Settings.model_api_key", code)
    if code == "invalid_settings":
        # InvalidSettings: the field and its rule, never the value (a URL may carry a password).
        return Failure(str(error), code)
    field = error.detail.get("field") if isinstance(error, Refused) and error.detail else None
    if isinstance(field, str):
        return Failure(f"{field}: {MESSAGES[code]}", code)
    return Failure(MESSAGES[code], code)


def _usage(error: click.UsageError) -> Failure:
    # Click's own sentence (its words and the option's name), without the usage lines around it.
    return Failure(error.format_message().replace("\n", " "), "invalid_option")


class _Commands(click.Group):
    """The command group: every failure ends as one coded line, never a traceback or usage text."""

    def make_context(
        self, info_name: str | None, args: list[str], parent: click.Context | None = None, **extra: Any
    ) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.UsageError as error:
            # The group's own options (``charlotte --bogus``).
            raise _usage(error) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as error:
            # A command's options and arguments, an unknown command.
            raise _usage(error) from None
        except (click.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except CharlotteError as error:
            raise coded(error) from None
        except KeyboardInterrupt:
            raise RunFailure("stopped by Ctrl-C", "interrupted") from None
        except Exception:
            # Unforeseen: still one coded line; its text may hold a secret, so it goes nowhere.
            raise RunFailure(MESSAGES["internal"], "internal") from None


class _OneLine(logging.Formatter):
    """A log record as one line: the message, never the traceback it carries."""

    def format(self, record: logging.LogRecord) -> str:
        return f"charlotte: {record.getMessage()}"


def _quiet_logging() -> None:
    # Without a handler Python prints warnings with their tracebacks (the
    # runner logs a failed turn's error for hosts); a person at a terminal
    # gets the line, and the code is on the turn.
    logger = logging.getLogger("charlotte")
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(_OneLine())
        logger.addHandler(handler)
        logger.setLevel(logging.WARNING)


def _settings(**overrides: Any) -> Settings:
    from charlotte.settings import Settings

    given = {k: v for k, v in overrides.items() if v is not None}
    return Settings.from_env(os.environ, **given)


def _open(settings: Settings) -> Charlotte:
    """The app for ``settings``; building it checks the model string (``unknown_model`` is one line)."""
    from charlotte.app import Charlotte

    return Charlotte(settings)


#: The largest facts file read (bytes): far above what a session may hold.
MAX_FACTS_FILE = 4 * 1024 * 1024


def _read_facts(path: Path) -> dict[str, str]:
    try:
        with path.open("rb") as file:
            raw = file.read(MAX_FACTS_FILE + 1)
    except OSError:
        raise Failure(f"--facts: {path} cannot be read") from None
    loaded = _facts_json(path, raw)
    if not isinstance(loaded, dict) or not all(isinstance(v, str) for v in loaded.values()):
        raise Failure("--facts must be a JSON object of strings")
    return loaded


def _facts_json(path: Path, raw: bytes) -> object:
    if len(raw) > MAX_FACTS_FILE:
        raise Failure(f"--facts: {path} is larger than {MAX_FACTS_FILE // (1024 * 1024)} MB")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Failure(f"--facts: {path} is not UTF-8 text") from None
    try:
        loaded = json.loads(text)
    except json.JSONDecodeError as e:
        raise Failure(f"--facts: {path} is not JSON (line {e.lineno}, column {e.colno})") from None
    except ValueError:
        # Python reads no integer of more than 4,300 digits (sys.int_info).
        raise Failure(f"--facts: {path} holds a number with more digits than can be read") from None
    except RecursionError:
        raise Failure(f"--facts: {path} is nested too deeply") from None
    return loaded


def _out_folder(out_dir: Path, files: tuple[str, ...], folders: tuple[str, ...] = ()) -> None:
    """``--out`` can be made and take ``files`` and ``folders``: checked before any work starts."""
    found = next(p for p in (out_dir.absolute(), *out_dir.absolute().parents) if p.exists())
    # Its nearest existing folder must take new entries (permissions, a read-only mount).
    if not found.is_dir() or not os.access(found, os.W_OK | os.X_OK):
        raise Failure(f"--out: {out_dir} cannot be created or written to")
    for name in files:
        if (out_dir / name).is_dir():
            raise Failure(f"--out: {out_dir / name} is a folder, where a file is written")
    for name in folders:
        if (out_dir / name).exists() and not (out_dir / name).is_dir():
            raise Failure(f"--out: {out_dir / name} is a file, where a folder is written")


_DATABASE_URL = click.option("--database-url", default=None, help="Default: $CHARLOTTE_DATABASE_URL or ./.charlotte/charlotte.db.")


@click.group(cls=_Commands)
@click.version_option(package_name="charlotte", message="charlotte %(version)s")
def main() -> None:
    """charlotte: an AI page builder for fancy-cms pages."""
    _quiet_logging()


@main.command()
@click.option("--brief", default=None, help="The brief (default: a sample bakery).")
@click.option(
    "--facts",
    "facts_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="A JSON file of facts (an object of strings).",
)
@click.option(
    "--model",
    default=None,
    help="offline (default), openai:<name>, openai-responses:<name>, anthropic:<name>, openai-compatible:<base_url>:<name>.",
)
@click.option(
    "--approve-on-save",
    is_flag=True,
    help="Route the agent's writes through a change set, then approve it.",
)
@_DATABASE_URL
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path(".charlotte/out"),
    show_default=True,
)
@click.option(
    "--say",
    "follow_ups",
    multiple=True,
    help="A follow-up message after the first draft (repeatable). Default: the sample "
    "follow-up with the sample brief, none with --brief.",
)
def demo(
    brief: str | None,
    facts_file: Path | None,
    model: str | None,
    approve_on_save: bool,
    database_url: str | None,
    out_dir: Path,
    follow_ups: tuple[str, ...],
) -> None:
    """Build, check and publish a page with the agent, end to end (offline by default)."""
    from charlotte.demo import SAMPLE_BRIEF, SAMPLE_FACTS, SAMPLE_FOLLOW_UP, run_demo

    # Only a brief left out is the sample's: an empty one is a mistake, not a request for it.
    if brief is not None and not brief.strip():
        raise Failure("--brief must not be empty (leave it out for the sample bakery)")
    if any(not message.strip() for message in follow_ups):
        raise Failure("--say must not be empty")
    if not follow_ups and brief is None:
        follow_ups = (SAMPLE_FOLLOW_UP,)
    facts: dict[str, str] = dict(SAMPLE_FACTS)
    if facts_file is not None:
        facts = _read_facts(facts_file)
    elif brief is not None:
        facts = {}
    settings = _settings(database_url=database_url, model=model)
    _out_folder(out_dir, ("home.html",))
    try:
        result = run_demo(
            settings=settings,
            out_dir=out_dir,
            brief=SAMPLE_BRIEF if brief is None else brief,
            facts=facts,
            approve_on_save=approve_on_save,
            echo=click.echo,
            follow_ups=follow_ups,
        )
    except OSError:  # published, but its file could not be written (the disk, a folder made since)
        raise RunFailure(f"--out: {out_dir}: the page was not written", "write_failed") from None
    if result.failure is not None:
        code = result.failure if result.failure in MESSAGES else "run_failed"
        raise RunFailure(f"the turn did not finish: {MESSAGES[code]}", code)
    click.echo(
        f"done: {'ready' if result.ready else 'not ready'} · revision {result.revision} · "
        f"{result.nodes} nodes · {result.errors} errors, {result.warnings} warnings\n"
        f"open {result.output} in a browser"
    )


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option("--model", default=None, help="Default: $CHARLOTTE_MODEL or offline.")
@_DATABASE_URL
def serve(host: str, port: int, model: str | None, database_url: str | None) -> None:
    """Serve the API and the builder page (embedded SQLite, in-process queue)."""
    settings = _settings(database_url=database_url, model=model)
    charlotte = _open(settings)
    import uvicorn

    from charlotte.demo import LOCAL_TENANT

    try:
        charlotte.migrate()
        # One local person in the local tenant, the demo's (its session is there to resume).
        charlotte.resolve_user_using(lambda request: "local")
        charlotte.resolve_tenant_using(lambda request: LOCAL_TENANT)  # a host brings its own
        # Bound here, so the URL printed is one that answers (--port 0: the port given).
        listening = _listen(host, port)
        bound = listening.getsockname()[1]
        shown = f"[{host}]" if ":" in host else host
        click.echo(f"charlotte builder on http://{shown}:{bound}/ (model {settings.model})")
        config = uvicorn.Config(charlotte.asgi_app(), host=host, port=bound, log_level="warning")
        uvicorn.Server(config).run(sockets=[listening])
    finally:
        charlotte.close()


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        listening = socket.create_server((host, port), family=family)
        # Each accepted connection inherits it: without it a response's body
        # waits for the ACK of its headers (~40 ms) on a kept-alive connection.
        listening.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return listening
    except OSError as e:
        reason = e.strerror or type(e).__name__
        raise RunFailure(f"cannot listen on {host}:{port}: {reason}", "listen_failed") from None


@main.command()
@click.option("--broker-url", default=None, help="Default: $CHARLOTTE_BROKER_URL.")
@click.option("--database-url", default=None)
@click.option("--concurrency", default=2, show_default=True, type=click.IntRange(min=1))
def worker(broker_url: str | None, database_url: str | None, concurrency: int) -> None:
    """Run a Celery worker for the distributed turn queue (with a sweeper)."""
    settings = _settings(broker_url=broker_url, database_url=database_url, queue="celery")
    if not settings.broker_url:
        raise Failure("a broker URL is needed: --broker-url or $CHARLOTTE_BROKER_URL")
    # The same worker a host builds from its own Charlotte, with no host hooks:
    # worker_app() starts the sweeper, close() stops it and disposes the engine.
    try:
        charlotte = _open(settings)
    except ModuleNotFoundError as e:
        module = (e.name or "").partition(".")[0]
        if module in {"celery", "kombu", "redis"}:
            raise Failure(
                "the worker needs the celery extra: pip install 'charlotte[celery]'", "extra_missing"
            ) from None
        # The broker's transport needs a library of its own (sqs://: boto3).
        raise Failure(f"the broker's transport needs {module}", "extra_missing") from None
    try:
        charlotte.worker_app().worker_main(
            ["worker", f"--concurrency={concurrency}", "--loglevel=INFO"]
        )
    finally:
        charlotte.close()


@main.command()
@_DATABASE_URL
def migrate(database_url: str | None) -> None:
    """Create or upgrade charlotte's tables."""
    from charlotte.storage import head_revision
    from charlotte.storage import migrate as run_migrations

    settings = _settings(database_url=database_url)
    engine = settings.open_engine()
    try:
        run_migrations(engine)
    finally:
        engine.dispose()
    click.echo(f"charlotte tables at revision {head_revision()}")


@main.command(name="mcp")
@click.option("--tenant", required=True, help="The tenant the local agent works in.")
@click.option("--user", required=True, help="The host user it acts for (the authorizer decides).")
@_DATABASE_URL
def mcp_stdio(tenant: str, user: str, database_url: str | None) -> None:
    """Serve the MCP server on stdin and stdout, for a local MCP client (docs/mcp.md)."""
    try:
        from charlotte.mcp.server import run_stdio
    except ImportError:
        raise Failure("the mcp command needs the mcp extra: pip install 'charlotte[mcp]'", "extra_missing") from None
    run_stdio(_open(_settings(database_url=database_url)), tenant, user)


@main.command(name="eval")
@click.option("--model", default=None, help="Default: $CHARLOTTE_MODEL or offline.")
@click.option(
    "--cases",
    "cases_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="A JSON cases file (default: the suite charlotte ships).",
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path(".charlotte/eval"),
    show_default=True,
)
@click.option("--no-browser", is_flag=True, help="Do not measure overflow through Chromium.")
@click.option("--timeout", default=600.0, show_default=True, type=float, help="Seconds per turn.")
def evaluate(
    model: str | None, cases_file: Path | None, out_dir: Path, no_browser: bool, timeout: float
) -> None:
    """Run the evaluation suite through the real runtime and print its scores.

    Exit code 0 when every supported expectation held, every unsupported
    request was refused and no fact was invented; 1 otherwise; 2 for bad input.
    """
    from charlotte.evaluation.cases import CasesFile, load_default, load_file, problem_line
    from charlotte.evaluation.report import table, totals, write_reports
    from charlotte.evaluation.runner import run_suite
    from charlotte.runtime.models import ModelOptions

    if not 0 < timeout <= 86_400:
        raise Failure("--timeout must be between 0 and 86400 seconds")
    try:
        read = CasesFile(tuple(load_default())) if cases_file is None else load_file(cases_file)
    except Refused as error:
        raise Failure(f"--cases {cases_file}: {problem_line(error)}", error.code) from None
    settings = _settings(model=model)
    # A model that cannot be made, or a provider without its key: one line, exit 2, before any case.
    ModelOptions.of(settings, check=True)
    _out_folder(out_dir, ("report.json", "report.html"), ("pages",))
    suite = run_suite(
        read.cases,
        model=settings.model,
        settings=settings,
        allowed_origins=read.allowed_origins,
        timeout_seconds=timeout,
        measure=not no_browser,
        echo=lambda line: click.echo(line, err=True),
    )
    click.echo(table(suite))
    try:
        json_path, html_path = write_reports(suite, out_dir)
    except OSError:
        raise RunFailure(f"--out: {out_dir}: the reports could not be written", "write_failed") from None
    click.echo(f"report: {json_path}\nreport: {html_path}")
    if not totals(suite).passed:
        raise click.exceptions.Exit(FAILED)


if __name__ == "__main__":  # pragma: no cover
    main()
