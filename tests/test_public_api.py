"""The public API is what ``charlotte/__init__.py`` exports, and the docs use nothing else.

The list is derived, not copied: every name in ``__all__`` is importable, and
every public attribute of the package that is not a submodule is in
``__all__`` (so a name imported into ``__init__`` is exported on purpose).
The README and ``docs/`` import from ``charlotte`` only what it exports, and
every dotted ``charlotte.…`` path they name resolves.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

import charlotte
from charlotte import errors

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])

#: The internal layers a host never names; they must stay out of the public API.
INTERNAL = {"Applied", "PageSession", "PageTools", "SiteLinks", "ToolBinding", "Workspace", "Written"}


def test_every_exported_name_is_defined() -> None:
    assert len(charlotte.__all__) == len(set(charlotte.__all__))
    for name in charlotte.__all__:
        assert getattr(charlotte, name) is not None, name
    namespace: dict[str, object] = {}
    exec("from charlotte import *", namespace)  # the star import a host could write
    assert set(namespace) - {"__builtins__"} == set(charlotte.__all__)


def test_every_public_attribute_of_the_package_is_exported() -> None:
    # The names load on first use: ask for each one, then look at what the module holds.
    for name in dir(charlotte):
        getattr(charlotte, name)
    public = {
        name
        for name, value in vars(charlotte).items()
        if not name.startswith("_") and not isinstance(value, types.ModuleType)
    }
    assert public == set(charlotte.__all__)


def test_each_name_loads_from_the_module_the_type_checker_is_shown() -> None:
    # ``_HOMES`` (what loads at run time) and the TYPE_CHECKING imports (what
    # mypy sees) must name the same module for every export.
    tree = ast.parse(Path(charlotte.__file__).read_text(encoding="utf-8"))
    shown = {
        alias.name: node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("charlotte")
        for alias in node.names
    }
    assert shown == charlotte._HOMES
    assert set(shown) == set(charlotte.__all__)


def test_import_charlotte_loads_neither_the_app_nor_the_model_library() -> None:
    code = (
        "import sys, charlotte; "
        "print(sorted(m for m in ('charlotte.app', 'pydantic_ai', 'sqlalchemy') if m in sys.modules))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert run.stdout.strip() == "[]"


def test_the_internal_layers_are_not_exported() -> None:
    assert INTERNAL.isdisjoint(charlotte.__all__)


def test_the_names_a_host_hook_needs_are_exported() -> None:
    for name in ("TurnContext", "TurnContextFactory", "OpenRequest", "Authorizer", "Resolver"):
        assert name in charlotte.__all__


def test_every_error_descends_from_the_one_root() -> None:
    for cls in (errors.PageSessionError, errors.Refused, errors.StorageError):
        assert issubclass(cls, errors.CharlotteError)
    assert charlotte.Refused is errors.Refused and charlotte.StorageError is errors.StorageError


_FROM_CHARLOTTE = re.compile(r"^\s*from charlotte(\.[\w.]+)? import ([\w, ]+)$", re.MULTILINE)
_DOTTED = re.compile(r"\bcharlotte((?:\.\w+)+)")


def _mentions() -> list[tuple[str, str, str]]:
    """(file, module, name) for each ``from charlotte… import name`` in the docs."""
    found = []
    for path in DOCS:
        for match in _FROM_CHARLOTTE.finditer(path.read_text(encoding="utf-8")):
            module = "charlotte" + (match.group(1) or "")
            found += [(path.name, module, n.strip()) for n in match.group(2).split(",") if n.strip()]
    return found


def test_the_docs_import_from_charlotte_only_what_it_exports() -> None:
    mentions = _mentions()
    assert ("README.md", "charlotte", "Charlotte") in mentions
    for file, module, name in mentions:
        if module == "charlotte":
            assert name in charlotte.__all__, (file, name)
        else:
            assert hasattr(importlib.import_module(module), name), (file, module, name)


def _resolves(path: str) -> bool:
    """True when ``charlotte.<path>`` names a submodule or an attribute of one."""
    target: object = charlotte
    module = "charlotte"
    for part in path.strip(".").split("."):
        if hasattr(target, "__path__") and importlib.util.find_spec(f"{module}.{part}") is not None:
            module = f"{module}.{part}"
            target = importlib.import_module(module)
        elif hasattr(target, part):
            target = getattr(target, part)
        else:
            return False
    return True


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_every_dotted_charlotte_name_in_the_docs_resolves(path: Path) -> None:
    # ``charlotte.Settings`` must be exported; ``charlotte.offline.offline_model``
    # must exist. Lower-case first parts that are no submodule are the host's
    # ``charlotte`` instance (``charlotte.migrate()``) or a file name.
    for match in _DOTTED.finditer(path.read_text(encoding="utf-8")):
        first = match.group(1).split(".")[1]
        if first[0].isupper():
            assert first in charlotte.__all__, (path.name, match.group(0))
        elif importlib.util.find_spec(f"charlotte.{first}") is not None:
            assert _resolves(match.group(1)), (path.name, match.group(0))
