"""The unit of work's rules, checked over the source (AST, not text search).

- Only ``storage/`` opens transactions (``transaction``, ``read_connection``,
  ``engine.begin``/``connect``): everything else works in a unit of work
  (``storage/unit_of_work.py``). The shipped repository contract
  (``testing/page_repository_contract.py``) is the one exception: it hands a
  host's repository raw transactions, as a host's own code does.
- The services (``drafts/``, ``tools/`` and everything below them) never open
  a unit: who opens it owns it, and a service takes it as an argument.
- One writer of ``tool.called`` and ``tool.result``: the recorder's ``_call_events``.
- ``PageTools.call`` has one signature: the caller's unit first.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import charlotte
from charlotte.tools import PageTools

SRC = Path(charlotte.__file__).resolve().parent

OPENERS = frozenset({"transaction", "read_connection"})
UNIT_OPENERS = frozenset({"write", "read", "recording", "reading", "writing"})
SERVICES = ("drafts", "tools", "checks", "page", "policy", "offline", "sections")
RAW_TRANSACTIONS_ALLOWED = {"testing/page_repository_contract.py"}


def _modules() -> dict[str, ast.Module]:
    return {
        path.relative_to(SRC).as_posix(): ast.parse(path.read_text("utf-8"))
        for path in sorted(SRC.rglob("*.py"))
    }


def transactions_opened(tree: ast.AST) -> list[str]:
    """Calls that open a transaction or a connection: ``transaction(…)``, ``….begin()``, ``….connect()``."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        on_engine = isinstance(func, ast.Attribute) and name in {"begin", "connect"} and not node.args
        if name in OPENERS or (on_engine and "engine" in ast.unparse(func.value)):
            found.append(ast.unparse(node))
    return found


def units_opened(tree: ast.AST) -> list[str]:
    """Calls that open a unit of work: ``….units.write(…)``, ``units.read(…)`` and the like."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = ast.unparse(node.func.value)
            if node.func.attr in UNIT_OPENERS and owner.split(".")[-1] in {"units", "_units"}:
                found.append(ast.unparse(node))
    return found


def event_writers(tree: ast.AST, constant: str) -> list[str]:
    """The functions that make an event of ``EventTypes.<constant>``: ``NewEvent(…)`` or ``….append(…)`` of it."""
    found: list[str] = []

    def writes(call: ast.Call) -> bool:
        func = call.func
        made = isinstance(func, ast.Name) and func.id == "NewEvent"
        appended = isinstance(func, ast.Attribute) and func.attr in {"append", "append_many"}
        return (made or appended) and any(
            isinstance(arg, ast.Attribute) and arg.attr == constant for arg in call.args
        )

    def walk(node: ast.AST, where: list[str]) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            where = [*where, node.name]
        if isinstance(node, ast.Call) and writes(node):
            found.append(".".join(where))
        for child in ast.iter_child_nodes(node):
            walk(child, where)

    walk(tree, [])
    return found


def test_only_storage_opens_transactions() -> None:
    opened = {
        name: found
        for name, tree in _modules().items()
        if not name.startswith("storage/")
        and name not in RAW_TRANSACTIONS_ALLOWED
        and (found := transactions_opened(tree))
    }
    assert opened == {}


def test_the_services_never_open_a_unit_of_work() -> None:
    opened = {
        name: found
        for name, tree in _modules().items()
        if name.split("/")[0] in SERVICES and (found := units_opened(tree))
    }
    assert opened == {}


def test_the_detectors_find_what_they_look_for() -> None:
    assert transactions_opened(ast.parse("with transaction(engine) as conn: pass")) != []
    assert transactions_opened(ast.parse("with read_connection(self.engine) as conn: pass")) != []
    assert transactions_opened(ast.parse("with self.engine.begin() as conn: pass")) != []
    assert transactions_opened(ast.parse("with unit.conn.begin_nested(): pass")) == []
    assert units_opened(ast.parse("with self.workspace.units.write(sid, tenant) as unit: pass")) != []
    assert units_opened(ast.parse("with self._units.reading() as conn: pass")) != []
    assert units_opened(ast.parse("unit.emit(event)")) == []
    tree = ast.parse("class R:\n    def a(self):\n        return NewEvent(EventTypes.TOOL_CALLED, {}, 'agent')\n")
    assert event_writers(tree, "TOOL_CALLED") == ["R.a"]
    appended = ast.parse("def b(conn):\n    log.append(conn, sid, EventTypes.TOOL_CALLED, {}, actor='agent')\n")
    assert event_writers(appended, "TOOL_CALLED") == ["b"]
    assert event_writers(ast.parse("if event.type == EventTypes.TOOL_CALLED: pass"), "TOOL_CALLED") == []


def test_one_writer_of_tool_called_and_tool_result() -> None:
    for constant in ("TOOL_CALLED", "TOOL_RESULT"):
        writers = {
            name: found
            for name, tree in _modules().items()
            if name != "events.py" and (found := event_writers(tree, constant))
        }
        assert writers == {"runtime/recorder.py": ["StreamRecorder._call_events"]}, constant


def test_page_tools_call_has_one_signature_the_callers_unit_first() -> None:
    parameters = inspect.signature(PageTools.call).parameters
    assert list(parameters) == ["self", "unit", "name", "arguments", "binding"]
    assert all(p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD for p in parameters.values())
