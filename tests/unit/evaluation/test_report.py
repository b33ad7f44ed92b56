"""The report: the table fits 120 columns, the totals add up, the JSON has its shape, HTML is one file."""

from __future__ import annotations

import json
from pathlib import Path

from charlotte.evaluation.axe import AxeResult, Violation
from charlotte.evaluation.overflow import Overflow
from charlotte.evaluation.report import WIDTH, html_report, table, to_json, totals, write_reports
from charlotte.evaluation.runner import CaseResult, Suite, TurnResult


def _turn(
    kind: str, passed: bool, *, supported: bool = True, invented: int = 0, message: str = "x"
) -> TurnResult:
    return TurnResult(
        message=message, kind=kind, supported=supported, status="finished", code=None, ready=supported,
        reply="I cannot do that." if not supported else "Done.",
        predicates=(({"section": "faq"}, passed, "faq: absent"),), passed=passed, errors=0, warnings=1,
        finding_codes=("vague_copy",), invented=invented, facts_stated=4, facts_total=5,
        sections=("hero", "services", "contact"), tool_calls=12, tokens=None, seconds=0.25,
    )  # fmt: skip


def _suite() -> Suite:
    long = "Please move the frequently asked questions section above the pricing and make it " * 3
    first = CaseResult(
        "a-business-with-a-very-long-case-id",
        "warm",
        (
            _turn("first page", True),
            _turn("move", False, message=long),
            _turn("unsupported", True, supported=False),
        ),
        "<!DOCTYPE html><html><body><h1>Crumb &amp; Co</h1></body></html>",
        Overflow(True, {390: 24, 768: 0, 1280: 0}, b"\xff\xd8jpeg"),
    )
    second = CaseResult(
        "plumber",
        "direct",
        (_turn("first page", True, invented=1),),
        "<p>x</p>",
        Overflow(False, reason="no chromium"),
    )
    return Suite(
        "openai-compatible:http://127.0.0.1:8080/v1:a-model-with-a-long-name", [first, second], 3.5
    )


def test_the_table_fits_120_columns_and_ends_with_the_totals() -> None:
    lines = table(_suite()).splitlines()
    assert max(len(line) for line in lines) <= WIDTH
    assert lines[0].split()[:3] == ["case", "turn", "result"]
    assert "+24px" in lines[4] and "n/m" in lines[5]
    assert "first pages 2/2" in lines[-3] and "follow-ups applied 0/1 (0 %)" in lines[-3]
    assert "refused 1/1" in lines[-3]
    assert "facts invented 1" in lines[-2] and "1 of 1 pages overflow" in lines[-2]
    assert "collateral 0 · claimed 0" in lines[-2] and "NOT PASSED" in lines[-1]


def test_totals_pass_only_when_everything_held_and_nothing_was_invented() -> None:
    suite = _suite()
    assert not totals(suite).passed
    clean = Suite(
        "offline", [CaseResult("a", "", (_turn("first page", True),), "", Overflow(False))]
    )
    assert totals(clean).passed
    invented = Suite(
        "offline",
        [CaseResult("a", "", (_turn("first page", True, invented=1),), "", Overflow(False))],
    )
    assert not totals(invented).passed


def test_the_json_shape() -> None:
    report = to_json(_suite(), {"a-business-with-a-very-long-case-id": "pages/a.jpg"})
    assert set(report) == {"version", "model", "measured_at", "widths", "totals", "cases"}
    assert report["widths"] == [390, 768, 1280]
    assert report["totals"]["follow_ups_supported"] == {"applied": 0, "of": 1}
    assert report["totals"]["follow_ups_unsupported"] == {"refused": 1, "of": 1}
    assert report["totals"]["invented"] == 1 and report["totals"]["passed"] is False
    case = report["cases"][0]
    assert set(case) == {"id", "tone", "overflow", "axe", "screenshot", "page", "turns"}
    assert case["overflow"] == {
        "measured": True,
        "pixels": {"390": 24, "768": 0, "1280": 0},
        "reason": "",
    }
    turn = case["turns"][1]
    assert set(turn) == {
        "message", "kind", "supported", "status", "code", "ready", "reply", "predicates", "passed",
        "checks", "facts", "sections", "tool_calls", "tokens", "seconds", "collateral", "claimed",
    }  # fmt: skip
    assert turn["predicates"] == [
        {"predicate": {"section": "faq"}, "passed": False, "detail": "faq: absent"}
    ]
    assert turn["facts"] == {"stated": 4, "total": 5, "invented": 0}
    json.dumps(report)  # JSON all the way down


def test_write_reports_writes_json_html_pages_and_screenshots(tmp_path: Path) -> None:
    json_path, html_path = write_reports(_suite(), tmp_path)
    assert json.loads(json_path.read_text(encoding="utf-8"))["cases"][1]["screenshot"] is None
    assert (
        tmp_path / "pages" / "a-business-with-a-very-long-case-id.jpg"
    ).read_bytes() == b"\xff\xd8jpeg"
    assert (tmp_path / "pages" / "plumber.html").read_text(encoding="utf-8") == "<p>x</p>"
    html = html_path.read_text(encoding="utf-8")
    assert "data:image/jpeg;base64," in html  # the screenshot is inside the file
    assert (
        '<iframe sandbox="" title="plumber" srcdoc="&lt;p&gt;x&lt;/p&gt;">' in html
    )  # escaped, no script
    assert html == html_report(_suite())


def _axe_suite() -> Suite:
    contrast = Violation("color-contrast", "serious", 4, ('div[data-cms="a"]',))
    region = Violation("region", "moderate", 5)
    measured = AxeResult(True, {390: (contrast, region), 768: (region,), 1280: (region,)})
    return Suite(
        "offline",
        [
            CaseResult("a", "", (_turn("first page", True),), "", Overflow(False), measured),
            CaseResult(
                "b", "", (_turn("first page", True),), "", Overflow(False),
                AxeResult(False, reason="axe could not run on the page"),
            ),
        ],
    )  # fmt: skip


def test_axe_prints_a_line_per_page_with_counts_by_impact_at_each_width() -> None:
    suite = _axe_suite()
    lines = table(suite).splitlines()
    assert max(len(line) for line in lines) <= WIDTH
    assert (
        "axe a: 390px 0/1/1/0 · 768px 0/0/1/0 · 1280px 0/0/1/0 (critical/serious/moderate/minor)"
        in lines
    )
    assert "axe b: not measured (axe could not run on the page)" in lines
    assert "axe: 1 serious or critical violations on 1 pages measured" in lines
    assert "first pages 2/2" in lines[-3] and "PASSED" in lines[-1]  # the totals stay last
    assert totals(suite).axe_blocking == 1 and totals(suite).axe_measured == 1
    case = to_json(suite)["cases"][0]["axe"]
    assert case["widths"]["390"]["counts"] == {"critical": 0, "serious": 1, "moderate": 1, "minor": 0}
    assert case["widths"]["390"]["violations"][0] == {
        "rule": "color-contrast", "impact": "serious", "nodes": 4, "targets": ['div[data-cms="a"]'],
    }  # fmt: skip
    assert "axe a: 390px 0/1/1/0" in html_report(suite)


def test_axe_not_measured_anywhere_is_one_line() -> None:
    lines = table(_suite()).splitlines()
    assert "axe not measured (not asked for)" in lines
    assert not any(line.startswith("axe a") for line in lines)
