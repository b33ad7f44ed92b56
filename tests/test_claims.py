"""Claims of AGENTS.md and the spec, checked over the source (AST, not text search).

- The library never reads the process environment: only ``cli.py`` does
  (``os.environ``, ``os.getenv`` and friends, ``os.path.expandvars``), and
  only the CLI builds ``Settings`` from it (``Settings.from_env``). The model
  providers' own SDKs read their API keys; that is their code, not ours.
- Only the runner and the outside agents' tools create a ``ToolBinding``:
  outside ``tools/binding.py`` (which defines it), no module but
  ``runtime/runner.py`` (a turn's, from the stored session) and
  ``mcp/outside.py`` (an outside agent's, from the session stored in the
  caller's tenant) calls the class or one of its class methods
  (``ToolBinding.for_session``), under any name it was imported as.
- Nothing reads ``usage.observed``: it is write-only telemetry. "Reads" means
  naming the type in code: ``EventTypes.USAGE_OBSERVED`` or the literal
  ``"usage.observed"``. Outside ``events.py`` (which declares it) the only
  mention allowed is as an argument of an event-log ``append`` call (the
  write), and only in ``runtime/telemetry.py``; the builder page names it only
  in its list of the log's event types (it listens to every type to keep its
  ``Last-Event-ID``) and handles it nowhere.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import charlotte

SRC = Path(charlotte.__file__).resolve().parent


def _modules() -> dict[str, ast.Module]:
    return {
        path.relative_to(SRC).as_posix(): ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted(SRC.rglob("*.py"))
    }


# -- the environment -----------------------------------------------------------

#: Names of ``os`` (and its platform modules) that read or change the environment.
ENV_NAMES = frozenset({"environ", "environb", "getenv", "getenvb", "putenv", "unsetenv", "expandvars"})
_OS_MODULES = frozenset({"os", "os.path", "posix", "nt", "posixpath", "ntpath"})


def environment_reads(tree: ast.AST) -> list[str]:
    """Every place ``tree`` reaches the process environment, as source text."""
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in ENV_NAMES:
            found.append(ast.unparse(node))
        elif isinstance(node, ast.ImportFrom) and node.module in _OS_MODULES:
            found += [f"from {node.module} import {a.name}" for a in node.names
                      if a.name in ENV_NAMES or a.name == "*"]  # fmt: skip
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "getattr"
            and any(isinstance(a, ast.Constant) and a.value in ENV_NAMES for a in node.args)
        ):
            found.append(ast.unparse(node))
    return found


@pytest.mark.parametrize(
    "source",
    [
        "import os\nos.environ['X']",
        "import os\nos.environ.get('X')",
        "import os as o\no.getenv('X')",
        "from os import environ\nenviron.get('X')",
        "from os import getenv as g\ng('X')",
        "from os import *",
        "import os\ngetattr(os, 'environ')",
        "import os.path\nos.path.expandvars('$HOME')",
        "import os\nos.putenv('X', '1')",
    ],
)
def test_the_environment_detector_finds_every_way_in(source: str) -> None:
    assert environment_reads(ast.parse(source)) != []


def test_a_mapping_named_environ_is_not_the_environment() -> None:
    # Settings.from_env takes the environment as an argument called environ.
    assert environment_reads(ast.parse("def f(environ):\n    return environ.get('X')")) == []


def test_only_the_cli_reads_the_environment() -> None:
    readers = {name: found for name, tree in _modules().items() if (found := environment_reads(tree))}
    assert set(readers) == {"cli.py"}, readers
    assert "os.environ" in readers["cli.py"]


def test_only_the_cli_builds_settings_from_the_environment() -> None:
    callers = {
        name
        for name, tree in _modules().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "from_env"
    }
    assert callers == {"cli.py"}


# -- ToolBinding -----------------------------------------------------------------

_BINDING = "ToolBinding"


def _binding_names(tree: ast.AST) -> set[str]:
    """The local names ``ToolBinding`` is imported as in ``tree``."""
    return {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.name == _BINDING
    }


def _is_binding(node: ast.expr, names: set[str]) -> bool:
    if isinstance(node, ast.Name):
        return node.id in names
    return isinstance(node, ast.Attribute) and node.attr == _BINDING  # charlotte.tools.ToolBinding


def binding_creations(tree: ast.AST) -> list[str]:
    """Every call in ``tree`` that builds a ``ToolBinding``: the class or one of its class methods."""
    names = _binding_names(tree) | {_BINDING}
    found: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if _is_binding(func, names) or (
            isinstance(func, ast.Attribute) and _is_binding(func.value, names)
        ):
            found.append(ast.unparse(node))
    return found


@pytest.mark.parametrize(
    "source",
    [
        "from charlotte.tools import ToolBinding\nToolBinding('s', 't', 'p', 'charlotte:s')",
        "from charlotte.tools import ToolBinding\nToolBinding.for_session('s', 't', 'p')",
        "from charlotte import ToolBinding as B\nB.for_session('s', 't', 'p')",
        "from charlotte.tools.binding import ToolBinding as B\nB('s', 't', 'p', 'x')",
        "import charlotte.tools as tools\ntools.ToolBinding.for_session('s', 't', 'p')",
        "import charlotte\ncharlotte.ToolBinding('s', 't', 'p', 'x')",
    ],
)
def test_the_binding_detector_finds_every_way_to_build_one(source: str) -> None:
    assert binding_creations(ast.parse(source)) != []


def test_naming_the_type_is_not_building_one() -> None:
    source = "from charlotte.tools import ToolBinding\ndef f(b: ToolBinding) -> bool:\n    return isinstance(b, ToolBinding)"
    assert binding_creations(ast.parse(source)) == []


def test_only_the_runner_and_the_outside_tools_create_a_tool_binding() -> None:
    creators = {
        name: found
        for name, tree in _modules().items()
        if name != "tools/binding.py" and (found := binding_creations(tree))
    }
    assert set(creators) == {"runtime/runner.py", "mcp/outside.py"}, creators


# -- usage.observed ----------------------------------------------------------------

_USAGE = "usage.observed"


def _mentions(tree: ast.AST) -> Iterator[tuple[ast.AST, list[ast.AST]]]:
    """Each mention of ``usage.observed`` in ``tree`` with its ancestors (innermost first)."""

    def walk(node: ast.AST, parents: list[ast.AST]) -> Iterator[tuple[ast.AST, list[ast.AST]]]:
        if (isinstance(node, ast.Attribute) and node.attr == "USAGE_OBSERVED") or (
            isinstance(node, ast.Constant) and node.value == _USAGE
        ):
            yield node, parents
        for child in ast.iter_child_nodes(node):
            yield from walk(child, [node, *parents])

    yield from walk(tree, [])


def _is_written(node: ast.AST, parents: list[ast.AST]) -> bool:
    """True when ``node`` is an argument of an ``….append(...)``/``append_many(...)`` call,
    or the type of a ``NewEvent(...)`` handed straight to a unit's ``….emit(...)``."""
    if not parents:
        return False
    call = parents[0]
    if not isinstance(call, ast.Call) or node not in call.args:
        return False
    if isinstance(call.func, ast.Attribute) and call.func.attr in {"append", "append_many"}:
        return True
    made = isinstance(call.func, ast.Name) and call.func.id == "NewEvent" and call.args[0] is node
    emitted = len(parents) > 1 and isinstance(parents[1], ast.Call) and call in parents[1].args
    outer = parents[1] if emitted else None
    return made and isinstance(outer, ast.Call) and isinstance(outer.func, ast.Attribute) and outer.func.attr == "emit"


def usage_reads(tree: ast.AST) -> list[str]:
    """The mentions of ``usage.observed`` in ``tree`` that are not the write."""
    return [ast.unparse(node) for node, parents in _mentions(tree) if not _is_written(node, parents)]


def usage_writes(tree: ast.AST) -> list[str]:
    return [ast.unparse(node) for node, parents in _mentions(tree) if _is_written(node, parents)]


@pytest.mark.parametrize(
    "source",
    [
        "[e for e in events if e.type == EventTypes.USAGE_OBSERVED]",
        "if event.type == 'usage.observed': pass",
        "query.where(events.c.type == 'usage.observed')",
        "handlers = {EventTypes.USAGE_OBSERVED: print}",
        "log.read(conn, sid, 0, 10, types=[EventTypes.USAGE_OBSERVED])",
    ],
)
def test_the_usage_detector_finds_a_read(source: str) -> None:
    assert usage_reads(ast.parse(source)) != []


@pytest.mark.parametrize(
    "source",
    [
        "events.append(conn, sid, EventTypes.USAGE_OBSERVED, payload, actor='agent')",
        "unit.emit(NewEvent(EventTypes.USAGE_OBSERVED, payload, AGENT_ACTOR))",
    ],
)
def test_the_usage_detector_lets_the_write_through(source: str) -> None:
    assert usage_reads(ast.parse(source)) == []
    assert usage_writes(ast.parse(source)) == ["EventTypes.USAGE_OBSERVED"]


def test_nothing_reads_usage_observed_and_only_telemetry_writes_it() -> None:
    modules = _modules()
    readers = {
        name: found
        for name, tree in modules.items()
        if name != "events.py" and (found := usage_reads(tree))
    }
    assert readers == {}
    writers = {name: found for name, tree in modules.items() if (found := usage_writes(tree))}
    assert writers == {"runtime/telemetry.py": ["EventTypes.USAGE_OBSERVED"]}


def test_the_builder_page_only_lists_usage_observed_among_the_event_types() -> None:
    script = (SRC / "web" / "js" / "stream.js").read_text(encoding="utf-8")
    listed = re.search(r"export const EVENT_TYPES = Object\.freeze\(\[([^\]]*)\]\);", script)
    assert listed is not None
    assert f'"{_USAGE}"' in listed.group(1)
    # Its one mention is that list: no handler, no other use.
    assert script.count(_USAGE) == 1
    for other in [*(SRC / "web").iterdir(), *(SRC / "web" / "js").iterdir()]:
        if other.is_file() and other.name != "stream.js":
            assert _USAGE not in other.read_text(encoding="utf-8"), other.name
