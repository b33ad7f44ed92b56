"""Nothing but ``workspace.py`` writes the published copy (the agent can never publish)."""

from __future__ import annotations

import ast
from pathlib import Path

import charlotte

SRC = Path(charlotte.__file__).resolve().parent


def _modules() -> list[tuple[Path, ast.Module]]:
    return [(p, ast.parse(p.read_text(encoding="utf-8"))) for p in sorted(SRC.rglob("*.py"))]


def test_only_the_workspace_calls_save_published() -> None:
    callers = {
        path.relative_to(SRC).as_posix()
        for path, tree in _modules()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "save_published"
    }
    assert callers == {"workspace.py"}


def test_only_the_page_repository_touches_the_published_columns() -> None:
    # Direct SQL on the published columns would bypass Workspace.publish.
    writers = {
        path.relative_to(SRC).as_posix()
        for path, tree in _modules()
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr in {"published", "published_revision", "published_at"}
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "c"
    }
    assert writers <= {"storage/pages.py"}


def test_only_the_workspace_calls_workspace_publish() -> None:
    # Later layers reach publishing only through CharlotteSession.publish and
    # the publish route; until those exist, nothing else may call it.
    allowed = {"workspace.py", "handle.py", "http/api.py"}
    callers = {
        path.relative_to(SRC).as_posix()
        for path, tree in _modules()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "publish"
    }
    assert callers <= allowed
