"""``charlotte demo`` as ``make demo`` runs it: a real process in a fresh folder, no network."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import html5lib

from charlotte.demo import SAMPLE_FOLLOW_UP


def _run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CHARLOTTE_")}
    return subprocess.run(
        [sys.executable, "-m", "charlotte.cli", "demo", *args],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=300,
    )


def _parses_strictly(html: str) -> None:
    html5lib.HTMLParser(strict=True).parse(html)


def test_demo_builds_checks_publishes_and_writes_the_page(tmp_path: Path) -> None:
    run = _run(tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert (tmp_path / ".charlotte" / "charlotte.db").exists()
    out = tmp_path / ".charlotte" / "out" / "home.html"
    assert str(out.relative_to(tmp_path)) in run.stdout
    html = out.read_text(encoding="utf-8")
    _parses_strictly(html)
    assert "Rosa&#39;s Bakery" in html or "Rosa's Bakery" in html
    assert "<style data-cms-styles>" in html and "<h1>" in html
    # One readable line per step, the checks clean, the page ready and published.
    assert "→ cms_apply" in run.stdout and "page changed → revision" in run.stdout
    assert "checks: 0 errors" in run.stdout
    assert "turn finished · ready for review" in run.stdout
    assert "published revision" in run.stdout
    # Then one follow-up, which changes the page: the FAQ is there and the hours come before the menu.
    assert f"person: {SAMPLE_FOLLOW_UP}" in run.stdout
    moved = re.search(r"follow-up: revision (\d+) → (\d+)", run.stdout)
    assert moved is not None and int(moved.group(2)) > int(moved.group(1)), run.stdout
    assert "What does it cost" in html or "When are you open" in html, html[-2000:]
    body = html[html.index("<body") :]
    assert body.index(">Opening hours<") < body.index(">Menu<")


def test_demo_with_another_brief_and_approve_on_save(tmp_path: Path) -> None:
    facts = tmp_path / "facts.json"
    facts.write_text('{"name": "Bright Smile Dental", "phone": "+44 20 7946 0958", '
                     '"hours": "Mon-Fri 8:00-18:00"}', encoding="utf-8")
    run = _run(tmp_path, "--brief", "A calm page for Bright Smile Dental in London: services, "
               "our team, opening hours and contact.", "--facts", str(facts), "--approve-on-save")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "proposal.opened" in run.stdout and "change set approved" in run.stdout
    html = (tmp_path / ".charlotte" / "out" / "home.html").read_text(encoding="utf-8")
    _parses_strictly(html)
    assert "Bright Smile Dental" in html and "Rosa" not in html
