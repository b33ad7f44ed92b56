"""The ``charlotte`` command as a person runs it: one line for what goes wrong, never a traceback.

Each case is a real process in an empty folder. Exit code 2: the command was
given something it cannot use (found before any work starts); 1: the work
failed while running. Every line ends in its code (``docs/errors.md``);
``test_every_command_and_option_with_a_bad_value`` walks them all.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import click
import pytest

from charlotte.cli import main

# What the installed ``charlotte`` script runs.
# Ctrl-C as at a terminal: a suite started in the background (where SIGINT is ignored,
# and children inherit that) still sends the commands a Ctrl-C they act on.
_AT_A_TERMINAL = "import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
CHARLOTTE = [sys.executable, "-c", _AT_A_TERMINAL + "from charlotte.cli import main; sys.exit(main())"]
# The same, where psycopg cannot be imported (as without the postgres extra).
WITHOUT_PSYCOPG = [
    sys.executable,
    "-c",
    "import sys; sys.modules['psycopg'] = None; from charlotte.cli import main; sys.exit(main())",
]


def _env() -> dict[str, str]:
    return {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("CHARLOTTE_", "OPENAI_", "ANTHROPIC_"))
    }


def _run(cwd: Path, *args: str, command: list[str] = CHARLOTTE) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*command, *args], cwd=cwd, env=_env(), capture_output=True, text=True, timeout=180
    )


def _one_line(run: subprocess.CompletedProcess[str], code: int) -> str:
    assert "Traceback" not in run.stderr, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert run.returncode == code, (run.returncode, run.stderr)
    assert lines[0].startswith("charlotte: ")
    return lines[0]


def test_malformed_facts_json(tmp_path: Path) -> None:
    (tmp_path / "facts.json").write_text('{"name": ', encoding="utf-8")
    line = _one_line(_run(tmp_path, "demo", "--facts", "facts.json"), 2)
    assert "facts.json is not JSON (line 1" in line


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b" " * (5 * 1024 * 1024), "larger than 4 MB"),
    ],
    ids=["deep", "large"],
)
def test_facts_files_beyond_the_bounds(tmp_path: Path, content: bytes, said: str) -> None:
    (tmp_path / "facts.json").write_bytes(content)
    assert said in _one_line(_run(tmp_path, "demo", "--facts", "facts.json"), 2)


def test_facts_that_are_not_utf8(tmp_path: Path) -> None:
    (tmp_path / "facts.json").write_bytes(b'{"name": "Caf\xe9"}')
    line = _one_line(_run(tmp_path, "demo", "--facts", "facts.json"), 2)
    assert "not UTF-8" in line


@pytest.mark.parametrize("command", ["migrate", "demo"])
def test_a_database_path_that_is_a_folder(tmp_path: Path, command: str) -> None:
    (tmp_path / "db").mkdir()
    line = _one_line(_run(tmp_path, command, "--database-url", "sqlite:///db"), 2)
    assert line.endswith("(database_path)")


def test_postgresql_without_the_driver_names_the_extra(tmp_path: Path) -> None:
    run = _run(
        tmp_path,
        "migrate",
        "--database-url",
        "postgresql://u@127.0.0.1:1/x",
        command=WITHOUT_PSYCOPG,
    )
    line = _one_line(run, 2)
    assert "pip install 'charlotte[postgres]'" in line and line.endswith("(driver_missing)")


@pytest.mark.parametrize("command", ["serve", "demo"])
def test_an_unknown_model_is_one_line_and_exit_2(tmp_path: Path, command: str) -> None:
    line = _one_line(_run(tmp_path, command, "--model", "nosuch"), 2)
    assert line.endswith("(unknown_model)")
    assert not (tmp_path / ".charlotte").exists()  # refused before anything was opened


@pytest.mark.parametrize(
    ("model", "variable"),
    [("openai:gpt-4o", "OPENAI_API_KEY"), ("anthropic:claude-sonnet-4-5", "ANTHROPIC_API_KEY")],
)
def test_a_missing_provider_key_names_the_variable_to_set(
    tmp_path: Path, model: str, variable: str
) -> None:
    line = _one_line(_run(tmp_path, "serve", "--model", model), 2)
    assert f"set {variable}," in line and line.endswith("(model_key_missing)")
    assert not (tmp_path / ".charlotte").exists()


def test_an_unreachable_model_server_fails_the_turn_without_a_traceback(tmp_path: Path) -> None:
    # Port 9 (discard) on loopback: nothing listens, the connection is refused.
    run = _run(tmp_path, "demo", "--model", "openai-compatible:http://127.0.0.1:9/v1:x")
    assert "Traceback" not in run.stderr, run.stderr
    assert run.returncode == 1
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("charlotte: the turn did not finish: ") and last.endswith(")")
    assert "run failed" in run.stdout


def test_ctrl_c_while_loading(tmp_path: Path) -> None:
    # -X importtime reports each import as it completes: Ctrl-C goes in once the
    # command has started loading the app (SQLAlchemy is imported only there).
    process = subprocess.Popen(
        [sys.executable, "-X", "importtime", *CHARLOTTE[1:], "demo"],
        cwd=tmp_path, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert process.stderr is not None
    for line in process.stderr:
        assert "charlotte demo" not in line
        if line.rsplit("|", 1)[-1].strip() == "sqlalchemy":
            break
    process.send_signal(signal.SIGINT)
    out, rest = process.communicate(timeout=120)
    said = [line for line in rest.splitlines() if not line.startswith("import time:")]
    assert "Traceback" not in rest, rest
    assert said == ["charlotte: stopped by Ctrl-C (interrupted)"]
    assert process.returncode == 1
    assert "done:" not in out


def test_a_worker_without_celery_names_the_extra(tmp_path: Path) -> None:
    without_celery = [WITHOUT_PSYCOPG[0], "-c", WITHOUT_PSYCOPG[2].replace("'psycopg'", "'celery'")]
    run = _run(tmp_path, "worker", "--broker-url", "redis://127.0.0.1:1/0", command=without_celery)
    line = _one_line(run, 2)
    assert "pip install 'charlotte[celery]'" in line and line.endswith("(extra_missing)")


def test_version(tmp_path: Path) -> None:
    run = _run(tmp_path, "--version")
    assert run.returncode == 0 and run.stdout.strip() == "charlotte 0.1.0"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_serve_prints_its_url_and_model_and_answers_there(tmp_path: Path) -> None:
    port = _free_port()
    process = subprocess.Popen(
        [*CHARLOTTE, "serve", "--port", str(port)],
        cwd=tmp_path, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        line = process.stdout.readline().strip()
        assert line == f"charlotte builder on http://127.0.0.1:{port}/ (model offline)"
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/openapi.json", timeout=5
                ) as answer:
                    assert answer.status == 200
                    break
            except OSError:
                assert time.monotonic() < deadline, "serve never answered"
                time.sleep(0.1)
    finally:
        process.send_signal(signal.SIGINT)
        _out, err = process.communicate(timeout=30)
    assert "Traceback" not in err, err


def test_serve_on_a_port_in_use_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = _run(tmp_path, "serve", "--port", str(port))
    line = _one_line(run, 1)
    assert line.startswith(f"charlotte: cannot listen on 127.0.0.1:{port}: ")
    assert line.endswith("(listen_failed)")
    assert "charlotte builder on" not in run.stdout


def test_help_parses_without_loading_the_app_and_answers_within_a_second(tmp_path: Path) -> None:
    probe = (
        "import sys\n"
        "from charlotte.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "heavy = ('charlotte.app', 'pydantic_ai', 'sqlalchemy', 'uvicorn', 'starlette')\n"
        "print(sorted(m for m in heavy if m in sys.modules), file=sys.stderr)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", probe], env=_env(), capture_output=True, text=True, timeout=60
    )
    assert run.stderr.strip() == "[]"
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        helped = _run(tmp_path, "--help")
        best = min(best, time.perf_counter() - started)
        assert helped.returncode == 0 and "demo" in helped.stdout
    assert best < 1.0, f"charlotte --help took {best:.2f} s"


def test_serve_listens_with_tcp_nodelay() -> None:
    # Accepted connections inherit it: without it each answer on a kept-alive
    # connection (the builder page's every request) waited ~40 ms for an ACK.
    from charlotte.cli import _listen

    listening = _listen("127.0.0.1", 0)
    try:
        assert listening.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
    finally:
        listening.close()


# -- every command and option with a bad value ------------------------------------------------

# A cases file whose first case's brief holds a NUL: refused whole, before any case runs.
_NUL_CASES = (
    '{"version": 1, "cases": [{"id": "bakery", "brief": "Crumb\\u0000", "expect": []}]}'
)


def _bad_inputs(folder: Path) -> None:
    (folder / "big.json").write_bytes(b'{"n": ' + b"7" * 5000 + b"}")
    (folder / "big-cases.json").write_bytes(b'{"version": 1' + b"0" * 5000 + b"}")
    (folder / "nul-cases.json").write_text(_NUL_CASES, encoding="utf-8")
    (folder / "list.json").write_text("[]", encoding="utf-8")
    (folder / "file.txt").write_text("x", encoding="utf-8")
    (folder / "a-folder").mkdir()
    (folder / "out-home" / "home.html").mkdir(parents=True)
    (folder / "out-report" / "report.json").mkdir(parents=True)
    (folder / "out-pages").mkdir()
    (folder / "out-pages" / "pages").write_text("x", encoding="utf-8")


#: (arguments, exit code, the code the line ends with). 2: what the command was given;
#: 1: what failed while it ran.
BAD_VALUES: list[tuple[tuple[str, ...], int, str]] = [
    (("nosuch",), 2, "invalid_option"),
    (("--bogus",), 2, "invalid_option"),
    (("--version=1",), 2, "invalid_option"),
    (("demo", "--brief", ""), 2, "invalid_option"),
    (("demo", "--brief", "   "), 2, "invalid_option"),
    # Bytes that are not UTF-8 reach Python as a lone surrogate: no column can hold it.
    (("demo", "--brief", "Caf\udce9"), 2, "invalid_request"),
    (("demo", "--facts", "big.json"), 2, "invalid_option"),
    (("demo", "--facts", "list.json"), 2, "invalid_option"),
    (("demo", "--facts", "absent.json"), 2, "invalid_option"),
    (("demo", "--model", "nosuch"), 2, "unknown_model"),
    (("demo", "--approve-on-save=yes"), 2, "invalid_option"),
    (("demo", "--database-url", "nope://x"), 2, "unsupported_database"),
    (("demo", "--out", "file.txt/out"), 2, "invalid_option"),
    (("demo", "--out", "out-home"), 2, "invalid_option"),
    (("demo", "--say", ""), 2, "invalid_option"),
    (("serve", "--port", "70000"), 2, "invalid_option"),
    (("serve", "--port", "-1"), 2, "invalid_option"),
    (("serve", "--port", "http"), 2, "invalid_option"),
    (("serve", "--model", ""), 2, "invalid_settings"),
    (("serve", "--database-url", ""), 2, "invalid_settings"),
    # An address of no interface here: nothing can listen on it.
    (("serve", "--host", "192.0.2.1"), 1, "listen_failed"),
    (("worker", "--broker-url", "nope://x"), 2, "invalid_settings"),
    (("worker", "--broker-url", "redis://127.0.0.1:1/0", "--database-url", "nope://x"),
     2, "unsupported_database"),
    (("worker", "--broker-url", "redis://127.0.0.1:1/0", "--concurrency", "0"), 2, "invalid_option"),
    (("worker", "--concurrency", "two"), 2, "invalid_option"),
    (("migrate", "--database-url", "nope://x"), 2, "unsupported_database"),
    (("mcp", "--tenant", "", "--user", "ann"), 2, "invalid_request"),
    (("mcp", "--tenant", "acme", "--user", "agent:x"), 2, "invalid_request"),
    (("mcp", "--tenant", "acme", "--user", "ann", "--database-url", "nope://x"), 2, "unsupported_database"),
    (("eval", "--model", "nosuch"), 2, "unknown_model"),
    (("eval", "--cases", "big-cases.json"), 2, "invalid_cases"),
    (("eval", "--cases", "nul-cases.json"), 2, "invalid_cases"),
    (("eval", "--cases", "a-folder"), 2, "invalid_option"),
    (("eval", "--out", "out-report"), 2, "invalid_option"),
    (("eval", "--out", "out-pages"), 2, "invalid_option"),
    (("eval", "--out", "file.txt/out"), 2, "invalid_option"),
    (("eval", "--no-browser=1"), 2, "invalid_option"),
    (("eval", "--timeout", "0"), 2, "invalid_option"),
    (("eval", "--timeout", "nan"), 2, "invalid_option"),
    (("eval", "--timeout", "soon"), 2, "invalid_option"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("args", "exit_code", "code"), BAD_VALUES, ids=[" ".join(a) for a, _, _ in BAD_VALUES]
)
def test_every_command_and_option_with_a_bad_value(
    tmp_path: Path, args: tuple[str, ...], exit_code: int, code: str
) -> None:
    _bad_inputs(tmp_path)
    run = _run(tmp_path, *args)
    line = _one_line(run, exit_code)
    assert line.endswith(f" ({code})"), line
    # Refused before any work: no page built, published or written, no report.
    assert "published revision" not in run.stdout and "report:" not in run.stdout
    assert not (tmp_path / ".charlotte" / "out").exists()
    assert not (tmp_path / ".charlotte" / "eval").exists()


def test_the_bad_values_walk_every_command_and_option() -> None:
    walked = {(args[0], arg.split("=")[0]) for args, _, _ in BAD_VALUES for arg in args[1:]}
    for name, command in main.commands.items():
        for option in command.params:
            if isinstance(option, click.Option) and option.name != "help":
                assert any((name, opt) in walked for opt in option.opts), (name, option.opts)


def test_an_empty_brief_is_refused_not_the_sample(tmp_path: Path) -> None:
    run = _run(tmp_path, "demo", "--brief", "")
    assert "empty" in _one_line(run, 2) and "Rosa" not in run.stdout
    assert not (tmp_path / ".charlotte").exists()


def test_a_cases_file_a_session_would_refuse_names_the_case_and_field(tmp_path: Path) -> None:
    _bad_inputs(tmp_path)
    line = _one_line(_run(tmp_path, "eval", "--cases", "nul-cases.json"), 2)
    assert line == (
        "charlotte: --cases nul-cases.json: cases[0]: brief holds a NUL character or text "
        "that is not Unicode (invalid_cases)"
    )
