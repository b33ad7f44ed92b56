"""The offline builder against its own shipped suite: every supported follow-up applied, every other refused."""

from __future__ import annotations

from charlotte.evaluation.cases import load_default
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
