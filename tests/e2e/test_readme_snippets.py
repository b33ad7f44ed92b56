"""Every snippet of the README runs as written in an empty folder, after the install line before it.

Each code block of ``README.md`` is either an install line (``pip install …``)
or carries a ``<!-- readme-snippet: NAME -->`` marker naming how this test
runs it; a block with neither fails the test, so a new snippet cannot go
untested. The packages are already in the test environment: what is checked
of an install line is that it names every extra its snippet needs (FastAPI →
``fastapi``, PostgreSQL → ``postgres``, Celery → ``celery``) and that each
extra exists in ``pyproject.toml``. Each snippet runs with an empty temporary
folder as its working directory.

What cannot run as written: the shell commands' ``charlotte`` is this
environment's (``python -c "…main()"``, what the installed script runs);
``charlotte serve`` gets a free port instead of 8000; the scaling-out
commands and the host worker get the test PostgreSQL (a schema of their own)
and a Redis database of their own instead of ``db`` and ``redis``. The Django
section's blocks run in a Django project of their own, in
``tests/django_project/test_readme_django.py``. The page repository contract
snippet is a host's test module: it runs with pytest, in a subprocess.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import tomllib
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
# Ctrl-C as at a terminal: a suite started in the background (where SIGINT is ignored,
# and children inherit that) still sends the commands a Ctrl-C they act on.
_AT_A_TERMINAL = "import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
CHARLOTTE = [sys.executable, "-c", _AT_A_TERMINAL + "from charlotte.cli import main; sys.exit(main())"]

_BLOCK = re.compile(r"(?:<!-- readme-snippet: ([\w-]+) -->\n)?```(\w*)\n(.*?)```", re.S)
_INSTALL = re.compile(r"pip install '?charlotte(?:\[([\w,]+)\])?'?")


@dataclass(frozen=True)
class Snippet:
    name: str | None
    language: str
    code: str
    extras: frozenset[str] | None  # the install line it follows (None: none before it)


def _snippets() -> list[Snippet]:
    found: list[Snippet] = []
    extras: frozenset[str] | None = None
    for match in _BLOCK.finditer(README.read_text(encoding="utf-8")):
        name, language, code = match.group(1), match.group(2), match.group(3)
        install = _INSTALL.search(code)
        if install is not None:
            extras = frozenset(filter(None, (install.group(1) or "").split(",")))
        found.append(Snippet(name, language, code, extras))
    return found


def _named(name: str) -> Snippet:
    (snippet,) = [s for s in _snippets() if s.name == name]
    return snippet


def _needs(code: str) -> set[str]:
    """The extras a snippet's code needs."""
    needs = set()
    if re.search(r"^\s*(from|import) fastapi\b", code, re.M):
        needs.add("fastapi")
    if "postgresql" in code:
        needs.add("postgres")
    if "charlotte.contrib.django" in code:
        needs.add("django")
    if "charlotte.contrib.jinja" in code or re.search(r"^\s*(from|import) jinja2\b", code, re.M):
        needs.add("fastapi")  # Jinja2 comes with the fastapi extra
    if 'queue="celery"' in code or "CHARLOTTE_QUEUE=celery" in code:
        needs.add("celery")
    return needs


def _env(**extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("CHARLOTTE_", "OPENAI_", "ANTHROPIC_"))
    }
    env.update(extra)
    return env


def _commands(code: str) -> list[list[str]]:
    """The ``charlotte …`` command lines of a shell snippet, comments dropped."""
    lines = [line.split("#", 1)[0].split() for line in code.splitlines()]
    return [words[1:] for words in lines if words and words[0] == "charlotte"]


# -- the README's blocks, and what they say to install -----------------------------------


def test_every_block_is_an_install_line_or_a_named_snippet() -> None:
    unnamed = [s.code[:60] for s in _snippets() if s.name is None and not _INSTALL.search(s.code)]
    assert unnamed == [], "give each block a <!-- readme-snippet: NAME --> marker and run it here"


def test_each_snippet_follows_an_install_line_naming_the_extras_it_needs() -> None:
    extras = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
            "optional-dependencies"
        ]
    )
    for snippet in _snippets():
        if snippet.name in (None, "repository"):
            continue
        assert snippet.extras is not None, f"{snippet.name}: no install line before it"
        assert _needs(snippet.code) <= snippet.extras, snippet.name
        assert snippet.extras <= extras, snippet.name
    assert _named("fastapi").extras == {"fastapi"}
    assert _named("serving-fastapi").extras == {"fastapi"}
    assert _named("django-settings").extras == {"django"}
    assert _named("django-site-urls").extras == {"django"}


def test_the_repository_snippet_names_make_targets_that_exist() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for line in _named("repository").code.splitlines():
        target = line.split("#", 1)[0].split()
        assert target[:1] == ["make"] and re.search(rf"^{target[1]}:", makefile, re.M), line


# -- the quick start ---------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_the_quick_start_runs_in_an_empty_folder(tmp_path: Path) -> None:
    demo, serve = _commands(_named("quick-start").code)
    assert demo == ["demo"] and serve == ["serve"]
    ran = subprocess.run(
        [*CHARLOTTE, *demo], cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=300
    )
    assert ran.returncode == 0, ran.stderr
    assert (tmp_path / ".charlotte" / "out" / "home.html").is_file()
    port = _free_port()
    process = subprocess.Popen(
        [*CHARLOTTE, *serve, "--port", str(port)],
        cwd=tmp_path, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        assert (
            process.stdout.readline().strip()
            == f"charlotte builder on http://127.0.0.1:{port}/ (model offline)"
        )
    finally:
        # Ctrl-C the moment it says it serves: it stops (and is killed, never left, if not).
        process.send_signal(signal.SIGINT)
        try:
            _out, err = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            raise
    assert "Traceback" not in err, err


# -- the FastAPI host and the session handle ---------------------------------------------


@pytest.fixture
def fastapi_host(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    # An empty folder: no ./.charlotte/ yet (the example's SQLite folder is made when opened).
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {"__name__": "readme_example"}
    exec(compile(_named("fastapi").code, "README.md", "exec"), namespace)
    try:
        yield namespace
    finally:
        namespace["charlotte"].close()


def test_the_fastapi_example_serves_the_builder(fastapi_host: dict[str, Any]) -> None:
    client = TestClient(fastapi_host["app"])
    ann = {"x-user": "ann", "x-tenant": "acme"}
    editor = {"x-user": "editor-ann", "x-tenant": "acme"}
    assert client.get("/health").json() == {"ok": True}
    assert client.post("/builder/sessions", json={"page": "home", "brief": "x"}).status_code == 401
    opened = client.post(
        "/builder/sessions",
        json={"page": "home", "brief": "A landing page for Rosa's Bakery: menu and contact.",
              "facts": {"name": "Rosa's Bakery"}},
        headers=ann,
    )  # fmt: skip
    assert opened.status_code == 201, opened.text
    sid = opened.json()["session"]["id"]
    sent = client.post(f"/builder/sessions/{sid}/turns", json={"message": "Build it"}, headers=ann)
    assert sent.status_code == 202
    handle = fastapi_host["charlotte"].find(sid, "acme", user="ann")
    assert handle.wait(timeout=60) is True
    types = [
        e["type"]
        for e in client.get(f"/builder/sessions/{sid}/events", headers=ann).json()["events"]
    ]
    assert "turn.finished" in types
    draft = client.get(f"/builder/sessions/{sid}/draft", headers=ann).json()
    assert "Rosa" in draft["html"]
    # The host's authorizer: only editors publish; other tenants see nothing.
    reviewed = {"revision": draft["revision"]}
    assert (
        client.post(f"/builder/sessions/{sid}/publish", json=reviewed, headers=ann).status_code
        == 403
    )
    other = {"x-user": "ann", "x-tenant": "other"}
    assert client.get(f"/builder/sessions/{sid}/draft", headers=other).status_code == 404
    published = client.post(f"/builder/sessions/{sid}/publish", json=reviewed, headers=editor)
    assert published.status_code == 200, published.text
    assert (
        client.get(f"/builder/sessions/{sid}/published", headers=ann).json()["html"]
        == draft["html"]
    )
    assert client.get("/builder/openapi.json").json()["openapi"].startswith("3.1")
    # The page's sessions, newest first, to resume earlier work (this tenant's only).
    listed = client.get("/builder/sessions", params={"page": "home"}, headers=ann).json()
    assert sid in [row["id"] for row in listed["sessions"]]
    listed = client.get("/builder/sessions", params={"page": "home"}, headers=other).json()
    assert listed["sessions"] == []
    assert client.delete("/builder/sessions", headers=ann).status_code == 405


def test_the_session_handle_snippet_goes_on_from_it(fastapi_host: dict[str, Any]) -> None:
    exec(compile(_named("fastapi-handle").code, "README.md", "exec"), fastapi_host)
    handle = fastapi_host["handle"]
    assert handle.status()["status"] == "idle"
    assert handle.published()["revision"] == fastapi_host["draft"]["revision"] > 0


# -- serving published pages (FastAPI and Jinja2) -------------------------------------------


def serving_site() -> dict[str, Any]:
    """The README's FastAPI site serving ``/`` from the published ``home`` page (in the working folder)."""
    namespace: dict[str, Any] = {"__name__": "readme_site"}
    exec(compile(_named("serving-fastapi").code, "README.md", "exec"), namespace)
    return namespace


def test_the_serving_snippet_serves_the_published_home_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.support.hosted_pages import DESCRIPTION, publish_sample

    monkeypatch.chdir(tmp_path)  # an empty folder: the example's SQLite file goes there
    site = serving_site()
    try:
        client = TestClient(site["app"])
        assert client.get("/").status_code == 404
        publish_sample(site["charlotte"], "acme")
        page = site["charlotte"].published_page("acme", "home")
        answer = client.get("/")
        assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html")
        text = answer.text
        assert text.startswith('<!DOCTYPE html>\n<html lang="pt-PT">')
        assert f"{page.head}\n<style data-charlotte-page>{page.css}</style>" in text
        assert f'<meta name="description" content="{DESCRIPTION}">' in text
        assert page.html in text and "<header class=\"site\">Rosa's Bakery</header>" in text
        assert answer.headers["etag"] == page.etag
        again = client.get("/", headers={"If-None-Match": page.etag})
        assert again.status_code == 304 and again.content == b""
        standalone = client.get("/builder/pages/home/published.html")
        assert standalone.status_code == 200 and standalone.headers["etag"] == page.etag
    finally:
        site["charlotte"].close()


# -- a host's page repository against the shipped contract --------------------------------


def test_the_page_repository_contract_snippet_runs_with_pytest_in_an_empty_folder(tmp_path: Path) -> None:
    from charlotte.testing.page_repository_contract import PageRepositoryContract

    (tmp_path / "test_our_pages.py").write_text(_named("page-repository-contract").code, encoding="utf-8")
    ran = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-W", "error", "-p", "no:cacheprovider", "test_our_pages.py"],
        cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stdout + ran.stderr
    contract = [name for name in dir(PageRepositoryContract) if name.startswith("test_")]
    assert f"{len(contract)} passed" in ran.stdout, ran.stdout


# -- scaling out: PostgreSQL and Celery ----------------------------------------------------


def _services() -> tuple[str, str]:
    database, redis = (
        os.environ.get("CHARLOTTE_TEST_DATABASE_URL"),
        os.environ.get("CHARLOTTE_TEST_REDIS_URL"),
    )
    if not database or not redis:
        pytest.skip("needs CHARLOTTE_TEST_DATABASE_URL and CHARLOTTE_TEST_REDIS_URL")
    # A Redis database of its own: the workers' default queue meets no other test's messages.
    return database, redis.rsplit("/", 1)[0] + "/12"


def _host_modules() -> tuple[str, str]:
    """The README's ``myhost/charlotte_setup.py`` and ``myhost/charlotte_worker.py``."""
    setup, worker = re.split(
        r"^# myhost/charlotte_worker\.py[^\n]*\n", _named("host-worker").code, flags=re.M
    )
    return setup, worker


def _until_ready(process: subprocess.Popen[str], log: Path) -> None:
    deadline = time.monotonic() + 90
    while " ready." not in log.read_text(encoding="utf-8", errors="replace"):
        assert process.poll() is None, log.read_text(encoding="utf-8", errors="replace")
        assert time.monotonic() < deadline, log.read_text(encoding="utf-8", errors="replace")
        time.sleep(0.2)


def _stop(process: subprocess.Popen[str], log: Path) -> str:
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=60)
    return log.read_text(encoding="utf-8", errors="replace")


@pytest.mark.postgres
@pytest.mark.redis
def test_the_scaling_out_commands_and_the_host_worker_run(tmp_path: Path) -> None:
    database, broker = _services()
    schema = f"readme_{uuid.uuid4().hex[:10]}"
    code = _named("scaling-out").code
    exported = dict(re.findall(r"(CHARLOTTE_\w+)=(\S+)", code))
    assert exported["CHARLOTTE_QUEUE"] == "celery"
    env = _env(**exported)
    env.update(
        CHARLOTTE_DATABASE_URL=database,
        CHARLOTTE_BROKER_URL=broker,
        CHARLOTTE_DATABASE_SCHEMA=schema,
    )
    migrate, worker = _commands(code)
    engine = sa.create_engine(database)
    try:
        migrated = subprocess.run(
            [*CHARLOTTE, *migrate],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert migrated.returncode == 0, migrated.stderr
        log = tmp_path / "worker.log"
        with log.open("w") as sink:
            process = subprocess.Popen([*CHARLOTTE, *worker, "--concurrency", "1"], cwd=tmp_path, env=env,
                                       stdout=sink, stderr=subprocess.STDOUT, text=True)  # fmt: skip
        _until_ready(process, log)
        assert "Traceback" not in _stop(process, log)

        # The host's two modules, as the README splits them, in a package of the empty folder.
        setup, host_worker = _host_modules()
        package = tmp_path / "myhost"
        package.mkdir()
        (package / "__init__.py").write_text("", encoding="utf-8")
        own_database = f"{database}?options=-csearch_path%3D{schema}"
        (package / "charlotte_setup.py").write_text(
            setup.replace("postgresql+psycopg://user@db/charlotte", own_database).replace(
                "redis://redis:6379/0", broker
            ),
            encoding="utf-8",
        )
        (package / "charlotte_worker.py").write_text(host_worker, encoding="utf-8")
        log = tmp_path / "host-worker.log"
        with log.open("w") as sink:
            process = subprocess.Popen([sys.executable, "-m", "myhost.charlotte_worker"], cwd=tmp_path,
                                       env=_env(PYTHONPATH=f"{tmp_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"),
                                       stdout=sink, stderr=subprocess.STDOUT, text=True)  # fmt: skip
        _until_ready(process, log)
        assert "Traceback" not in _stop(process, log)
    finally:
        with engine.begin() as conn:
            conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        engine.dispose()


def test_the_host_setup_builds_as_written_without_its_services(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Building the instance opens no connection: the setup runs as written, with db and redis absent.
    setup, _worker = _host_modules()
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {"__name__": "charlotte_setup"}
    exec(compile(setup, "README.md", "exec"), namespace)
    charlotte = namespace["build_charlotte"]()
    try:
        assert charlotte.settings.queue == "celery"
        assert charlotte.modes.resolve("shop_page", charlotte._guide).name == "shop_page"
    finally:
        charlotte.close()
