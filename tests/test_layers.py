"""The layer rules of the spec, checked over the source's imports.

No import cycle anywhere (function-level imports count, ``TYPE_CHECKING``
blocks do not). ``charlotte.errors`` (which imports only the code tables,
``charlotte.codes``, a leaf) is what every layer may import.
``page/`` imports nothing else of charlotte but ``charlotte.errors`` and does no I/O; ``storage/`` knows
no model library; only ``runtime/``, ``offline/`` and ``testing/scripted.py`` import the
model library (``offline/`` sits below ``runtime/``: it imports only ``sections/``,
``checks/`` and ``page/`` of charlotte; ``sections/``, the bands the editor's palette
shares, only ``checks/`` and ``page/``); only
``http/asgi.py`` imports the web framework, only ``contrib/django/`` imports
Django and only ``contrib/jinja.py`` imports Jinja2; third-party engines (psycopg,
Celery) only in ``storage/`` (psycopg through SQLAlchemy) or ``contrib/``.
"""

from __future__ import annotations

import ast
import re
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


def test_errors_imports_only_the_code_tables_which_are_a_leaf() -> None:
    imports = _imports()
    assert {n for n in imports["errors.py"] if _top(n) == "charlotte"} == {"charlotte.codes"}
    assert {n for n in imports["codes.py"] if _top(n) == "charlotte"} == set()


def test_page_imports_nothing_else_of_charlotte_but_errors_and_no_io() -> None:
    io_modules = {"os", "io", "pathlib", "socket", "sqlite3", "subprocess", "shutil", "tempfile", "urllib.request", "http"}
    for module, names in _imports().items():
        if not module.startswith("page/"):
            continue
        own = {n for n in names if _top(n) == "charlotte"}
        assert all(n.startswith("charlotte.page") or n == "charlotte.errors" for n in own), (module, own)
        assert not (names & io_modules), (module, names & io_modules)
        assert "sqlalchemy" not in {_top(n) for n in names}, module


def test_only_runtime_offline_and_testing_import_the_model_library() -> None:
    for module, names in _imports().items():
        if "pydantic_ai" in {_top(n) for n in names}:
            assert module.startswith(("runtime/", "offline/")) or module == "testing/scripted.py", module


def test_offline_sits_below_runtime() -> None:
    # offline/ over sections/ (the bands the editor's palette shares), both over checks/ and page/ only.
    below = {
        "offline/": ("charlotte.offline", "charlotte.sections", "charlotte.checks", "charlotte.page"),
        "sections/": ("charlotte.sections", "charlotte.checks", "charlotte.page"),
    }
    for module, names in _imports().items():
        allowed = next((own for part, own in below.items() if module.startswith(part)), None)
        if allowed is not None:
            own = {n for n in names if _top(n) == "charlotte"}
            assert all(n.startswith(allowed) or n == "charlotte.errors" for n in own), (module, own)


def test_only_the_asgi_adapter_imports_the_web_framework() -> None:
    for module, names in _imports().items():
        if {"starlette", "fastapi", "uvicorn"} & {_top(n) for n in names}:
            assert module in {"http/asgi.py", "cli.py"}, module


def _module_level_imports(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_only_the_overflow_measure_imports_playwright_and_inside_a_function() -> None:
    # Playwright is a dev extra: `charlotte eval` runs without it (overflow "not measured").
    for module, names in _imports().items():
        if "playwright" in {_top(n) for n in names}:
            assert module == "evaluation/overflow.py", module
    tree = ast.parse((SRC / "evaluation" / "overflow.py").read_text(encoding="utf-8"))
    assert "playwright" not in {_top(n) for n in _module_level_imports(tree)}


def test_only_the_django_adapter_imports_django() -> None:
    for module, names in _imports().items():
        if {"django", "asgiref"} & {_top(n) for n in names}:
            assert module.startswith("contrib/django/"), module


def test_only_the_jinja_helpers_import_jinja() -> None:
    for module, names in _imports().items():
        if "jinja2" in {_top(n) for n in names}:
            assert module == "contrib/jinja.py", module


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
    # Every statement charlotte runs lives in storage/ (stores with methods);
    # the notifier's last-seq read is SessionStore.last_seqs.
    outside = {
        path.relative_to(SRC).as_posix()
        for path in sorted(SRC.rglob("*.py"))
        if _imports_tables(ast.parse(path.read_text(encoding="utf-8")))
        and not path.relative_to(SRC).as_posix().startswith("storage/")
    }
    assert outside == set(), outside


# -- the import graph: every import (function-level ones too), TYPE_CHECKING blocks left out --


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _charlotte_imports(tree: ast.Module, package: str, modules: set[str]) -> list[tuple[str, bool]]:
    """``(imported module, inside a function)`` for every charlotte import of one module."""
    found: list[tuple[str, bool]] = []

    def target(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for other in child.orelse:
                    visit_one(other, in_function)
                continue
            visit_one(child, in_function)

    def visit_one(child: ast.AST, in_function: bool) -> None:
        inside = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        names: list[str] = []
        if isinstance(child, ast.Import):
            names = [alias.name for alias in child.names]
        elif isinstance(child, ast.ImportFrom):
            base = child.module or ""
            if child.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - child.level + 1] + ([base] if base else []))
            # ``from package import submodule`` imports the submodule.
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in child.names]
        for name in names:
            if name.split(".")[0] == "charlotte" and (found_module := target(name)) is not None:
                found.append((found_module, inside))
        visit(child, inside)

    visit(tree, False)
    return found


def _graph() -> tuple[dict[str, set[str]], list[tuple[str, str]]]:
    """charlotte module → the charlotte modules it imports; and every function-level import."""
    paths = {_module_name(path): path for path in SRC.rglob("*.py")}
    modules = set(paths)
    graph: dict[str, set[str]] = {}
    lazy: list[tuple[str, str]] = []
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges = _charlotte_imports(ast.parse(path.read_text(encoding="utf-8")), package, modules)
        graph[name] = {imported for imported, _ in edges if imported != name}
        lazy.extend((name, imported) for imported, inside in edges if inside)
    return graph, lazy


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph.get(step, ())))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_cycle_anywhere() -> None:
    graph, _ = _graph()
    assert _cycles(graph) == []


#: Imports that point up a layer, each inside the one function that needs it:
#: ``Charlotte.asgi_app`` loads the Starlette adapter (only it imports the web framework).
UPWARD: set[tuple[str, str]] = {("charlotte.app", "charlotte.http.asgi")}


def test_nothing_below_http_imports_it() -> None:
    # app.py, runtime/ and everything under them sit below the HTTP layer;
    # the Django adapter sits above it, beside the Starlette one.
    graph, lazy = _graph()
    above = {"charlotte.cli", "charlotte.demo"}
    for module, imported in graph.items():
        if module in above or module.startswith(("charlotte.http", "charlotte.contrib.django")):
            continue
        upward = {(module, name) for name in imported if name.startswith("charlotte.http")}
        assert upward <= UPWARD, module
    assert set(lazy) >= UPWARD  # the exceptions stay inside their function


#: The only charlotte imports made inside a function, each for an optional or
#: heavy engine only one code path needs: Celery (an extra) for the celery queue
#: and its worker app, Starlette for ``asgi_app``, the offline builder (and
#: pydantic-ai's FunctionModel) when the ``offline`` model is built. A lazy
#: import never dodges a cycle.
LAZY: set[tuple[str, str]] = {
    ("charlotte.app", "charlotte.contrib.celery"),
    # The MCP SDK is an extra: the ASGI app loads the MCP server when /mcp is first asked.
    ("charlotte.http.asgi", "charlotte.mcp.server"),
    ("charlotte.contrib.django.outside", "charlotte.mcp.outside"),
    ("charlotte.contrib.django.outside", "charlotte.mcp.server"),
    ("charlotte.runtime.models", "charlotte.offline"),
    *UPWARD,
}


#: The command line parses its arguments before it loads anything heavy: each
#: command imports what it needs. It is the top of the layers (nothing imports
#: it), so its function-level imports can form no cycle.
CLI_LAZY: set[tuple[str, str]] = {
    ("charlotte.cli", "charlotte.app"),
    ("charlotte.cli", "charlotte.demo"),
    ("charlotte.cli", "charlotte.evaluation.cases"),
    ("charlotte.cli", "charlotte.evaluation.report"),
    ("charlotte.cli", "charlotte.evaluation.runner"),
    ("charlotte.cli", "charlotte.mcp.server"),
    ("charlotte.cli", "charlotte.runtime.models"),
    ("charlotte.cli", "charlotte.settings"),
    ("charlotte.cli", "charlotte.storage"),
    ("charlotte.cli", "charlotte.storage.migrate"),
}


def test_function_level_imports_are_the_documented_ones() -> None:
    _, lazy = _graph()
    assert set(lazy) == LAZY | CLI_LAZY


AGENTS = SRC.parents[1] / "AGENTS.md"


def _diagram() -> list[list[str]]:
    """The tiers of the layer diagram in ``AGENTS.md``, top first; each a list of parts.

    A part is a root module (``app.py``), a package (``runtime/``) or one
    module of a package named on its own (``http/asgi.py``); text in
    parentheses is a comment.
    """
    text = AGENTS.read_text(encoding="utf-8")
    block = text.split("## Layers", 1)[1].split("```", 2)[1]
    tiers: list[list[str]] = []
    for line in block.splitlines():
        line = re.sub(r"\([^)]*\)", "", line).strip()
        if line:
            tiers.append([part.strip() for part in line.split("·")])
    return tiers


def _part_of(module: str, parts: set[str]) -> str | None:
    """The diagram part a charlotte module belongs to (the most specific one)."""
    path = module.split(".")[1:]
    if not path:
        return "__init__.py" if "__init__.py" in parts else None
    for size in range(len(path), 0, -1):
        head = "/".join(path[:size])
        for candidate in (f"{head}.py", f"{head}/"):
            if candidate in parts:
                return candidate
    return None


def test_every_module_sits_in_the_diagram() -> None:
    tiers = _diagram()
    parts = {part for tier in tiers for part in tier}
    graph, _ = _graph()
    assert len(parts) == sum(len(tier) for tier in tiers), "a part is named twice"
    assert {module for module in graph if _part_of(module, parts) is None} == set()


def _upward(graph: dict[str, set[str]], tiers: list[list[str]]) -> set[tuple[str, str]]:
    """The imports of ``graph`` that do not point down ``tiers`` (own part or a lower line)."""
    rank = {part: len(tiers) - at for at, tier in enumerate(tiers) for part in tier}
    wrong = set()
    for module, imported in graph.items():
        source = _part_of(module, set(rank))
        for name in imported:
            target = _part_of(name, set(rank))
            assert source is not None and target is not None, (module, name)
            if target != source and rank[target] >= rank[source] and (module, name) not in UPWARD:
                wrong.add((module, name))
    return wrong


def test_every_import_points_down_the_diagram() -> None:
    # A module imports its own part or a part on a lower line; peers on one
    # line do not import each other. The one exception is UPWARD.
    graph, _ = _graph()
    assert _upward(graph, _diagram()) == set()


def test_the_diagram_check_catches_an_upward_import_and_one_between_peers() -> None:
    tiers = _diagram()
    made_up = {
        "charlotte.storage.engine": {"charlotte.runtime.runner", "charlotte.page.model"},
        "charlotte.drafts.workspace": {"charlotte.offline.model", "charlotte.drafts._writes"},
        "charlotte.app": {"charlotte.http.asgi"},  # the documented exception
    }
    assert _upward(made_up, tiers) == {
        ("charlotte.storage.engine", "charlotte.runtime.runner"),
        ("charlotte.drafts.workspace", "charlotte.offline.model"),
    }
    assert _part_of("charlotte.http.asgi", {p for t in tiers for p in t}) == "http/asgi.py"
    assert _part_of("charlotte.storage.migrations.versions.v0001_initial", {p for t in tiers for p in t}) == "storage/"


#: The longest a module may grow before it is split (STYLE.md: small modules named after nouns).
MAX_MODULE_LINES = 450
#: What the package root holds: the modules a host (or its CLI) uses, and the leaves they share.
ROOT_MODULES = {
    "__init__.py", "app.py", "session.py", "access.py", "settings.py", "errors.py", "codes.py", "events.py",
    "cli.py", "demo.py",
}  # fmt: skip


def test_no_module_is_over_the_line_budget() -> None:
    long = {
        path.relative_to(SRC).as_posix(): lines
        for path in SRC.rglob("*.py")
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


def test_the_package_root_holds_only_host_facing_modules() -> None:
    assert {path.name for path in SRC.glob("*.py")} == ROOT_MODULES
