"""axe-core on every published page the offline builder makes: no violation of any impact.

The pages are each case of ``charlotte eval``'s default suite and of
``cases/people.json`` (built by its own runner, after every follow-up) and
``charlotte demo``'s page, rendered once;
one Chromium runs the pinned axe on each at 390, 768 and 1280 px (one load,
resized). The counts per page and width are written to the terminal whether
or not pytest captures output, so CI's log shows them.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import nullcontext
from dataclasses import replace
from pathlib import Path

import pytest
from tests.support.axe import SEEDED_BAD_PAGE, SEEDED_RULES, axe_on, axe_rule_ids, needs_axe
from tests.support.browser import chromium

from charlotte.demo import run_demo
from charlotte.evaluation.axe import AxeResult
from charlotte.evaluation.cases import load_cases, load_default
from charlotte.evaluation.overflow import WIDTHS
from charlotte.evaluation.report import axe_line
from charlotte.evaluation.runner import run_suite
from charlotte.settings import Settings

pytestmark = [needs_axe, pytest.mark.browser]

#: The suite written from the docs alone, in people's own wording: its pages are measured too.
PEOPLE = Path(__file__).resolve().parents[2] / "src/charlotte/evaluation/cases/people.json"
PAGES = [*(case.id for case in load_default()), *(case.id for case in load_cases(PEOPLE)), "demo"]


@pytest.fixture(scope="module")
def measured(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[dict[str, AxeResult]]:
    started = time.monotonic()
    cases = [*load_default(), *load_cases(PEOPLE)]
    pages = {case.id: case.page_html for case in run_suite(cases, measure=False).cases}
    folder = tmp_path_factory.mktemp("axe-demo")
    settings = replace(
        Settings(), database_url=f"sqlite:///{folder / 'demo.db'}", database_schema=None,
        model="offline",
    )  # fmt: skip
    demo = run_demo(settings=settings, out_dir=folder / "out", echo=lambda line: None)
    assert demo.output is not None
    pages["demo"] = Path(demo.output).read_text(encoding="utf-8")
    built = time.monotonic()
    with chromium() as launched:
        results = {page: axe_on(launched, html) for page, html in pages.items()}
    done = time.monotonic()
    lines = [axe_line(page, result) for page, result in results.items()]
    lines.append(f"axe: {len(results)} pages built in {built - started:.1f}s, axe ran {done - built:.1f}s")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    with capture.global_and_fixture_disabled() if capture is not None else nullcontext():
        print("\n" + "\n".join(lines), flush=True)
    yield results


@pytest.mark.parametrize("page", PAGES)
def test_a_published_page_has_no_axe_violation(measured: dict[str, AxeResult], page: str) -> None:
    # The bar is no serious or critical one; the pages meet the moderate and minor
    # rules too (one <main> landmark holds the page), and a regression there fails here.
    result = measured[page]
    assert result.measured, result.reason
    assert sorted(result.violations) == sorted(WIDTHS)
    found = [
        f"{width}px {v.impact} {v.rule} x{v.nodes}: {', '.join(v.targets)}"
        for width, violations in result.violations.items()
        for v in violations
    ]
    assert found == [], axe_line(page, result)


def test_axe_finds_each_fault_of_the_seeded_bad_page() -> None:
    found = axe_rule_ids(SEEDED_BAD_PAGE)
    assert found >= SEEDED_RULES, f"axe missed {sorted(SEEDED_RULES - found)}; found {sorted(found)}"
