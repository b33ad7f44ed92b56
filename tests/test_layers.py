"""The layer rules of the spec, checked over the source's imports.

``page/`` imports nothing else of charlotte and does no I/O; ``storage/`` knows
no model library; only ``runtime/``, ``offline/`` and ``testing.py`` import the
model library (``offline/`` sits below ``runtime/``: it imports only ``checks/``
and ``page/`` of charlotte); only
``http/asgi.py`` imports the web framework; third-party engines (psycopg,
Celery) only in ``storage/`` (psycopg through SQLAlchemy) or ``contrib/``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import charlotte

SRC = Path(charlotte.__file__).resolve().parent


def _imports() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module)
        found[path.relative_to(SRC).as_posix()] = names
    return found


def _top(name: str) -> str:
    return name.split(".")[0]


def test_page_imports_nothing_else_of_charlotte_and_no_io() -> None:
    io_modules = {"os", "io", "pathlib", "socket", "sqlite3", "subprocess", "shutil", "tempfile", "urllib.request", "http"}
    for module, names in _imports().items():
        if not module.startswith("page/"):
            continue
        own = {n for n in names if _top(n) == "charlotte"}
        assert all(n.startswith("charlotte.page") for n in own), (module, own)
        assert not (names & io_modules), (module, names & io_modules)
        assert "sqlalchemy" not in {_top(n) for n in names}, module


def test_only_runtime_offline_and_testing_import_the_model_library() -> None:
    for module, names in _imports().items():
        if "pydantic_ai" in {_top(n) for n in names}:
            assert module.startswith(("runtime/", "offline/")) or module == "testing.py", module


def test_offline_sits_below_runtime() -> None:
    for module, names in _imports().items():
        if module.startswith("offline/"):
            own = {n for n in names if _top(n) == "charlotte"}
            assert all(n.startswith(("charlotte.offline", "charlotte.checks", "charlotte.page")) for n in own), (module, own)


def test_only_the_asgi_adapter_imports_the_web_framework() -> None:
    for module, names in _imports().items():
        if {"starlette", "fastapi", "uvicorn"} & {_top(n) for n in names}:
            assert module in {"http/asgi.py", "cli.py"}, module


def test_engines_behind_extras_stay_in_contrib() -> None:
    for module, names in _imports().items():
        if {"celery", "kombu", "redis", "psycopg"} & {_top(n) for n in names}:
            assert module.startswith("contrib/"), module


def test_storage_knows_no_model_library_and_no_policy() -> None:
    for module, names in _imports().items():
        if module.startswith("storage/"):
            tops = {n for n in names if _top(n) == "charlotte"}
            assert not {n for n in tops if n.startswith(("charlotte.runtime", "charlotte.tools", "charlotte.drafts"))}, module


def _imports_tables(tree: ast.AST) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name == "charlotte.storage.tables" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and node.level == 0:
            if node.module == "charlotte.storage.tables":
                return True
            if node.module == "charlotte.storage" and any(a.name == "tables" for a in node.names):
                return True
    return False


def test_only_storage_imports_the_tables() -> None:
    # Every statement charlotte runs lives in storage/ (stores with methods).
    # http/sse.py: the notifier's last-seq read, moving to storage/ with the notifier.
    outside = {
        path.relative_to(SRC).as_posix()
        for path in sorted(SRC.rglob("*.py"))
        if _imports_tables(ast.parse(path.read_text(encoding="utf-8")))
        and not path.relative_to(SRC).as_posix().startswith("storage/")
    }
    assert outside <= {"http/sse.py"}, outside
