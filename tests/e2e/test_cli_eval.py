"""``charlotte eval`` as a person runs it: a small cases file, the table, JSON and HTML, the exit code."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from charlotte.evaluation.axe import axe_source
from charlotte.evaluation.overflow import CHROMIUM

CHARLOTTE = [sys.executable, "-c", "import sys; from charlotte.cli import main; sys.exit(main())"]

#: One case the offline builder passes today (its follow-up asks for what the page already has).
PASSING: dict[str, Any] = {
    "version": 1,
    "cases": [
        {
            "id": "bakery",
            "tone": "warm",
            "brief": "Crumb & Co is a bakery in Cardiff. Sections: menu, opening hours and contact.",
            "facts": {
                "name": "Crumb & Co",
                "phone": "029 2018 0456",
                "hours": "Tue-Sun 7:00-14:00",
            },
            "expect": [{"section": "hours"}, {"fact": {"hours": "Tue-Sun 7:00-14:00"}}],
            "follow_ups": [
                {
                    "message": "Thanks, that looks right.",
                    "kind": "other",
                    "expect": [{"section": "contact"}],
                }
            ],
        }
    ],
}
#: The same with an expectation no page of this brief meets.
FAILING: dict[str, Any] = {
    "version": 1,
    "cases": [{**PASSING["cases"][0], "expect": [{"section": "team"}]}],
}


def _env() -> dict[str, str]:
    return {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("CHARLOTTE_", "OPENAI_", "ANTHROPIC_"))
    }


def _eval(cwd: Path, cases: object, *args: str) -> subprocess.CompletedProcess[str]:
    path = cwd / "small.json"
    path.write_text(cases if isinstance(cases, str) else json.dumps(cases), encoding="utf-8")
    return subprocess.run(
        [*CHARLOTTE, "eval", "--cases", str(path), "--out", str(cwd / "out"), *args],
        cwd=cwd, env=_env(), capture_output=True, text=True, timeout=180,
    )  # fmt: skip


def test_a_passing_suite_writes_json_and_html_and_exits_0(tmp_path: Path) -> None:
    done = _eval(tmp_path, PASSING, "--no-browser")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stdout.splitlines() if not line.startswith("report: ")]
    assert max(len(line) for line in lines) <= 120
    assert done.stdout.endswith(f"report: {tmp_path / 'out' / 'report.html'}\n")
    assert any(line.startswith("bakery") and " pass " in line for line in lines)
    assert "first pages 1/1" in done.stdout and "PASSED" in done.stdout
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert report["model"] == "offline" and report["totals"]["passed"] is True
    assert report["cases"][0]["overflow"] == {
        "measured": False,
        "pixels": {},
        "reason": "not asked for",
    }
    assert report["cases"][0]["axe"] == {"measured": False, "reason": "not asked for", "widths": {}}
    assert "axe not measured (not asked for)" in lines
    html = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert "<iframe" in html and "Crumb &amp;amp; Co" in html  # the page, escaped into srcdoc
    assert (tmp_path / "out" / "pages" / "bakery.html").exists()


def test_a_failed_expectation_exits_1(tmp_path: Path) -> None:
    done = _eval(tmp_path, FAILING, "--no-browser")
    assert done.returncode == 1, done.stderr
    assert "NOT PASSED" in done.stdout and (tmp_path / "out" / "report.json").exists()


#: A business whose Facebook page the facts give, and a person asking for the link.
LINKING: dict[str, Any] = {
    "version": 1,
    "cases": [
        {
            "id": "bakery",
            "brief": "Crumb & Co is a bakery in Cardiff. Sections: menu and contact.",
            "facts": {"name": "Crumb & Co", "phone": "029 2018 0456",
                      "facebook": "https://www.facebook.com/crumbandco"},
            "expect": [{"section": "contact"}],
            "follow_ups": [{"message": "add a link to our Facebook page", "kind": "add link",
                            "expect": [{"text_contains": {"type": "link", "words": ["facebook"]}}]}],
        }
    ],
}  # fmt: skip


def test_the_files_host_decides_which_outside_links_a_page_may_have(tmp_path: Path) -> None:
    allowed = {**LINKING, "host": {"allowed_origins": ["https://www.facebook.com"]}}
    done = _eval(tmp_path, allowed, "--no-browser")
    assert done.returncode == 0, done.stdout + done.stderr
    # The same file without the host's word: the page refuses the link and the reply says so.
    refused = _eval(tmp_path, LINKING, "--no-browser")
    assert refused.returncode == 1, refused.stderr
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert "external_link" in report["cases"][0]["turns"][1]["reply"]


@pytest.mark.parametrize(
    ("cases", "line"),
    [
        ("{", "not JSON (line 1, column 2)"),
        ({"version": 1, "cases": [{"id": "x", "brief": "b", "expect": [{"sectoin": "faq"}]}]},
         "cases[0].expect[0]: unknown predicate 'sectoin'"),
    ],
)  # fmt: skip
def test_a_bad_cases_file_is_one_line_and_exit_2(tmp_path: Path, cases: object, line: str) -> None:
    done = _eval(tmp_path, cases)
    assert done.returncode == 2
    assert done.stderr == f"charlotte: --cases {tmp_path / 'small.json'}: {line} (invalid_cases)\n"
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("model", "code"), [("nonsense", "unknown_model"), ("openai:gpt-4o", "model_key_missing")]
)
def test_a_model_that_cannot_run_is_one_line_and_exit_2(
    tmp_path: Path, model: str, code: str
) -> None:
    done = _eval(tmp_path, PASSING, "--model", model)  # no provider key in the environment
    assert done.returncode == 2 and done.stderr.startswith("charlotte: ")
    assert done.stderr.count("\n") == 1 and f"({code})" in done.stderr
    assert not (tmp_path / "out").exists()  # refused before any case ran


@pytest.mark.browser
def test_overflow_is_measured_through_chromium_when_present(tmp_path: Path) -> None:
    if not CHROMIUM.exists():
        reason = f"{CHROMIUM} does not exist"
        print(f"skipped: {reason}")
        pytest.skip(reason)
    done = _eval(tmp_path, PASSING)
    assert done.returncode in (0, 1), done.stderr
    case = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))["cases"][0]
    assert case["overflow"]["measured"] is True
    assert set(case["overflow"]["pixels"]) == {"390", "768", "1280"}
    assert case["screenshot"] == "pages/bakery.jpg"
    assert (tmp_path / "out" / "pages" / "bakery.jpg").read_bytes()[:2] == b"\xff\xd8"
    assert "data:image/jpeg;base64," in (tmp_path / "out" / "report.html").read_text(
        encoding="utf-8"
    )
    # axe, when its dev extra is installed: counts by impact per width, a line per page.
    if axe_source() is not None:
        assert case["axe"]["measured"] is True, case["axe"]
        assert set(case["axe"]["widths"]) == {"390", "768", "1280"}
        counts = case["axe"]["widths"]["390"]["counts"]
        assert list(counts) == ["critical", "serious", "moderate", "minor"]
        line = next(x for x in done.stdout.splitlines() if x.startswith("axe bakery: "))
        assert line.endswith("(critical/serious/moderate/minor)") and "1280px " in line
        assert "serious or critical violations on 1 pages measured" in done.stdout
