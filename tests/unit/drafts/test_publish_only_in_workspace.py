"""Nothing but ``drafts/workspace.py`` writes the published copy (the agent can never publish)."""

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
    # The shipped repository contract calls it on the repository under test, in a host's test
    # suite; no part of charlotte's runtime imports it.
    assert callers == {"drafts/workspace.py", "testing/page_repository_contract.py"}


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
    # charlotte_published_pages (which revision is published) has its own store.
    assert writers <= {"storage/pages.py", "storage/published_pages.py"}


def test_only_the_workspace_records_a_published_revision() -> None:
    # The published pages' row is written with the published copy, in Workspace.publish's unit.
    callers = {
        path.relative_to(SRC).as_posix()
        for path, tree in _modules()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "record"
        and "published" in ast.unparse(node.func.value)
    }
    assert callers == {"drafts/workspace.py"}


def _publish_calls() -> dict[str, list[str]]:
    """Module → the receivers of every ``<receiver>.publish(...)`` call in it."""
    found: dict[str, list[str]] = {}
    for path, tree in _modules():
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "publish"
            ):
                receiver = ast.unparse(node.func.value)
                found.setdefault(path.relative_to(SRC).as_posix(), []).append(receiver)
    return found


def test_workspace_publish_is_reached_only_through_the_session_handle() -> None:
    # Workspace.publish is called by CharlotteSession.publish alone; the
    # publish route and the demo go through a session handle.
    workspace_callers = {
        module
        for module, receivers in _publish_calls().items()
        for receiver in receivers
        if "workspace" in receiver
    }
    assert workspace_callers == {"session.py"}


def test_nothing_the_agent_runs_can_publish() -> None:
    agent_side = ("tools/", "runtime/", "page/", "policy/", "checks/", "storage/", "drafts/change_sets.py", "drafts/_")
    offenders = {m for m in _publish_calls() if m.startswith(agent_side)}
    assert offenders == set()
