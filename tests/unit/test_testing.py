"""``charlotte.testing``: the module's example runs, so it cannot name a tool that does not exist."""

from __future__ import annotations

import doctest
import subprocess
import sys

import charlotte.testing
from charlotte.tools import TOOL_NAMES


def test_the_docstring_example_plays_a_turn_through_a_real_charlotte() -> None:
    result = doctest.testmod(charlotte.testing)

    assert result.attempted > 0
    assert result.failed == 0


def test_every_tool_the_example_calls_is_one_of_the_nine() -> None:
    example = doctest.DocTestParser().get_doctest(
        charlotte.testing.__doc__ or "", {}, "charlotte.testing", None, 0
    )
    source = "\n".join(e.source for e in example.examples)
    called = {name for name in TOOL_NAMES if f'ToolCall("{name}"' in source}

    assert called and source.count("ToolCall(") == len(called)


def test_importing_the_fakes_does_not_import_pytest() -> None:
    # pytest is a dev dependency: only a test suite imports the shipped contract (which needs it).
    code = "import sys, charlotte.testing; print('pytest' in sys.modules, 'charlotte.testing.page_repository_contract' in sys.modules)"
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert ran.stdout.split() == ["False", "False"]
