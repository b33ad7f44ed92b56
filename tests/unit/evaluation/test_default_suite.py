"""The offline builder against its own shipped suite (every supported follow-up applied, every other
refused) and against the people suite written from the docs alone."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from charlotte.evaluation.cases import load_default, load_file
from charlotte.evaluation.report import totals
from charlotte.evaluation.runner import run_suite


def test_the_offline_builder_passes_its_own_suite() -> None:
    cases = load_default()
    suite = run_suite(cases, model="offline", measure=False)

    failed = [
        (case.id, turn.message)
        for case in suite.cases
        for turn in case.turns
        if not turn.passed
    ]
    assert failed == []
    sums = totals(suite)
    assert sums.cases == len(cases) >= 15
    assert sums.first_passed == sums.first_pages == sums.cases
    assert sums.applied == sums.supported >= 30
    assert sums.refused == sums.unsupported > 0
    assert sums.invented == 0


def test_the_offline_builder_on_the_people_suite_it_was_not_written_for() -> None:
    """The 35 businesses people wrote from the docs alone: the issue's bar, and nothing wrong.

    Applied, not all: what is left is honest (a question back, or a section the
    first page could not fill); what must never happen is pinned at zero.
    """
    read = load_file(Path(str(resources.files("charlotte.evaluation").joinpath("cases/people.json"))))
    suite = run_suite(read.cases, model="offline", measure=False, allowed_origins=read.allowed_origins)
    sums = totals(suite)
    assert sums.cases == 35 and sums.supported >= 180 and sums.unsupported >= 40
    assert sums.applied >= 0.95 * sums.supported, (sums.applied, sums.supported)
    assert sums.first_passed >= 32
    assert sums.refused == sums.unsupported
    assert sums.invented == 0 and sums.collateral_turns == 0 and sums.claimed == 0
    # Every fact of every case is on its first page.
    assert [c.id for c in suite.cases if c.turns[0].facts_stated < c.turns[0].facts_total] == []
