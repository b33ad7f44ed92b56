"""The code maps: a root ``AGENTS.md`` and one per subpackage, each naming its modules.

Every ``src/charlotte/<package>/`` holds an ``AGENTS.md`` that names each of
its module files (a module it does not name fails), the root map points at
each of them, and no table cell of any map grows past ``MAX_CELL`` characters
(a long fact is a bullet list, not a cell). None of the maps ships in the wheel.
"""

from __future__ import annotations

import fnmatch
import itertools
import re
import tomllib
from pathlib import Path

import pytest

import charlotte

SRC = Path(charlotte.__file__).resolve().parent
ROOT = SRC.parents[1]
#: The longest a table cell of a map may be.
MAX_CELL = 600
#: The files a map names: code, and the data files the package ships.
MODULE_SUFFIXES = {".py", ".js", ".json", ".css", ".html"}

PACKAGES = sorted(
    path.name for path in SRC.iterdir() if path.is_dir() and path.name != "__pycache__"
)


def _module_files(package: Path) -> list[Path]:
    return sorted(
        path
        for path in package.rglob("*")
        if path.suffix in MODULE_SUFFIXES
        and path.name != "__init__.py"
        and "__pycache__" not in path.parts
    )


def _unnamed(text: str, files: list[Path]) -> set[str]:
    """The file names ``text`` does not mention as a whole name."""
    return {
        path.name
        for path in files
        if not re.search(rf"(?<![\w.-]){re.escape(path.name)}(?![\w])", text)
    }


def _cells(text: str) -> list[str]:
    """Every cell of every Markdown table in ``text`` (a ``|`` inside a code span is no border)."""
    cells: list[str] = []
    for line in text.splitlines():
        if not line.startswith("|"):
            continue
        spans = re.sub(r"`[^`]*`", lambda span: "x" * len(span.group()), line)
        borders = [at for at, char in enumerate(spans) if char == "|"]
        cells += [line[start + 1 : end].strip() for start, end in itertools.pairwise(borders)]
    return cells


def _maps() -> list[Path]:
    return [ROOT / "AGENTS.md", SRC / "AGENTS.md", *(SRC / package / "AGENTS.md" for package in PACKAGES)]


def test_the_packages_are_the_ones_the_maps_cover() -> None:
    assert {"page", "storage", "drafts", "tools", "runtime", "http", "web"} <= set(PACKAGES)


@pytest.mark.parametrize("package", PACKAGES)
def test_each_package_has_a_map_naming_every_module(package: str) -> None:
    agents = SRC / package / "AGENTS.md"
    assert agents.is_file(), f"src/charlotte/{package}/ has no AGENTS.md"
    assert _unnamed(agents.read_text(encoding="utf-8"), _module_files(SRC / package)) == set()


def test_the_package_root_has_a_map_naming_every_root_module() -> None:
    agents = SRC / "AGENTS.md"
    assert "src/charlotte/AGENTS.md" in (ROOT / "AGENTS.md").read_text(encoding="utf-8")
    modules = [path for path in SRC.glob("*.py") if path.name != "__init__.py"]
    assert _unnamed(agents.read_text(encoding="utf-8"), modules) == set()


@pytest.mark.parametrize("package", PACKAGES)
def test_the_root_map_points_at_each_package_map(package: str) -> None:
    assert f"src/charlotte/{package}/AGENTS.md" in (ROOT / "AGENTS.md").read_text(encoding="utf-8")


def test_a_module_a_map_leaves_out_is_found() -> None:
    files = [SRC / "page" / "ops.py", SRC / "page" / "op_table.py", SRC / "web" / "js" / "ops.js"]
    assert _unnamed("| `op_table.py` | the op table; `ops.js` |", files) == {"ops.py"}
    assert _unnamed("`ops.py` and `ops.js`", files) == {"op_table.py"}


@pytest.mark.parametrize("path", _maps(), ids=lambda path: path.relative_to(ROOT).as_posix())
def test_no_table_cell_is_longer_than_the_limit(path: Path) -> None:
    long = {
        cell[:80]: len(cell)
        for cell in _cells(path.read_text(encoding="utf-8"))
        if len(cell) > MAX_CELL
    }
    assert long == {}


def test_the_cell_reader_splits_on_borders_outside_code_spans() -> None:
    assert _cells("| a `x | y` b | c |\n|---|---|\ntext | not a row") == [
        "a `x | y` b",
        "c",
        "---",
        "---",
    ]


def test_no_map_ships_in_the_wheel() -> None:
    # package-data globs like `web/*` would take `web/AGENTS.md` along; exclude-package-data drops it.
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]
    included = [
        path.relative_to(SRC).as_posix()
        for pattern in setuptools["package-data"]["charlotte"]
        for path in SRC.glob(pattern)
        if path.name == "AGENTS.md"
    ]
    excluded = setuptools.get("exclude-package-data", {}).get("*", [])
    assert [
        name for name in included if not any(fnmatch.fnmatch(name, rule) for rule in excluded)
    ] == []
