"""What a run reports: the printed table (≤ 120 columns), the totals, JSON and an HTML page.

The HTML report is one self-contained file: each case's screenshot (a data
URL) when Chromium measured it, else the rendered page in a sandboxed
``iframe srcdoc`` (no script runs in it).
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from markupsafe import escape

from charlotte.evaluation.axe import IMPACTS, AxeResult
from charlotte.evaluation.overflow import WIDTHS
from charlotte.evaluation.runner import CaseResult, Suite, TurnResult

__all__ = ["WIDTH", "Totals", "axe_line", "table", "to_json", "totals", "write_reports"]

#: The widest line the table prints.
WIDTH: Final = 120
_COLUMNS: Final = (
    ("case", 14), ("turn", 38), ("result", 8), ("checks", 6), ("sects", 5), ("facts", 5),
    ("inv", 3), ("ready", 5), ("mobile", 6), ("tools", 5), ("tokens", 7), ("time", 6),
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Totals:
    """The suite's figures: first pages, supported follow-ups applied, refusals, invented facts."""

    cases: int
    first_pages: int
    first_passed: int
    supported: int
    applied: int
    unsupported: int
    refused: int
    invented: int
    #: Follow-ups that touched nodes beyond what they asked for, and how many such nodes.
    collateral_turns: int
    collateral_nodes: int
    #: Follow-ups whose reply says the page changed while it did not.
    claimed: int
    overflowing: int
    measured: int
    axe_blocking: int
    axe_measured: int
    tool_calls: int
    tokens: int | None
    seconds: float

    @property
    def passed(self) -> bool:
        """Every expectation held, every unsupported request refused, no fact invented, nothing
        touched beyond a request."""
        return (
            self.first_passed == self.first_pages
            and self.applied == self.supported
            and self.refused == self.unsupported
            and self.invented == 0
            and self.collateral_turns == 0
            and self.claimed == 0
        )

    def to_json(self) -> dict[str, Any]:
        """The totals as the JSON report holds them."""
        return {
            "cases": self.cases,
            "first_pages": {"passed": self.first_passed, "of": self.first_pages},
            "follow_ups_supported": {"applied": self.applied, "of": self.supported},
            "follow_ups_unsupported": {"refused": self.refused, "of": self.unsupported},
            "invented": self.invented,
            "collateral": {"turns": self.collateral_turns, "nodes": self.collateral_nodes},
            "claimed": self.claimed,
            "overflow": {"pages_overflowing": self.overflowing, "measured": self.measured},
            "axe": {"serious_or_critical": self.axe_blocking, "measured": self.axe_measured},
            "tool_calls": self.tool_calls,
            "tokens": self.tokens,
            "seconds": round(self.seconds, 3),
            "passed": self.passed,
        }


def totals(suite: Suite) -> Totals:
    """Add up a run."""
    turns = [t for c in suite.cases for t in c.turns]
    first = [c.turns[0] for c in suite.cases if c.turns]
    follow = [t for c in suite.cases for t in c.turns[1:]]
    tokens = [t.tokens for t in turns if t.tokens is not None]
    worst = [c.overflow.worst() for c in suite.cases]
    return Totals(
        cases=len(suite.cases),
        first_pages=len(first),
        first_passed=sum(t.passed for t in first),
        supported=sum(t.supported for t in follow),
        applied=sum(t.passed for t in follow if t.supported),
        unsupported=sum(not t.supported for t in follow),
        refused=sum(t.passed for t in follow if not t.supported),
        invented=sum(t.invented for t in turns),
        collateral_turns=sum(1 for t in follow if t.supported and t.collateral),
        collateral_nodes=sum(len(t.collateral or ()) for t in follow if t.supported),
        claimed=sum(1 for t in follow if t.claimed),
        overflowing=sum(1 for w in worst if w),
        measured=sum(1 for w in worst if w is not None),
        axe_blocking=sum(c.axe.blocking() for c in suite.cases),
        axe_measured=sum(1 for c in suite.cases if c.axe.measured),
        tool_calls=sum(t.tool_calls for t in turns),
        tokens=sum(tokens) if tokens else None,
        seconds=suite.seconds,
    )


def _cut(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _result(turn: TurnResult) -> str:
    if turn.status != "finished":
        return turn.code or turn.status
    if not turn.supported:
        return "refused" if turn.passed else "NOT REF"
    return "pass" if turn.passed else "FAIL"


def _mobile(case: CaseResult, last: bool) -> str:
    if not last:
        return ""
    worst = case.overflow.worst()
    return "n/m" if worst is None else "ok" if worst == 0 else f"+{worst}px"


def _row(cells: list[str]) -> str:
    out = []
    for (name, width), cell in zip(_COLUMNS, cells, strict=True):
        cell = _cut(cell, width)
        out.append(cell.ljust(width) if name in ("case", "turn", "result") else cell.rjust(width))
    return " ".join(out).rstrip()


def axe_line(page: str, axe: AxeResult) -> str:
    """One page's axe violations: ``axe <page>: 390px 0/0/2/0 · …`` by impact, worst first."""
    if not axe.measured:
        return f"axe {page}: not measured ({axe.reason})"
    widths = " · ".join(
        f"{w}px {'/'.join(str(n) for n in axe.counts(w).values())}" for w in axe.violations
    )
    return f"axe {page}: {widths} ({'/'.join(IMPACTS)})"


def _axe_lines(suite: Suite) -> list[str]:
    measured = [c for c in suite.cases if c.axe.measured]
    if not measured:
        reasons = {c.axe.reason for c in suite.cases}
        return [f"axe not measured ({', '.join(sorted(reasons))})"] if reasons else []
    blocking = sum(c.axe.blocking() for c in measured)
    return [
        *(axe_line(c.id, c.axe) for c in suite.cases),
        f"axe: {blocking} serious or critical violations on {len(measured)} pages measured",
    ]


def table(suite: Suite) -> str:
    """The run as plain text: one line per turn, axe's counts per page, then the totals (≤ ``WIDTH``)."""
    lines = [_row([name for name, _ in _COLUMNS]), "-" * WIDTH]
    for case in suite.cases:
        for n, turn in enumerate(case.turns):
            label = turn.kind if n == 0 else f"{n}. {turn.kind}: {turn.message}"
            lines.append(
                _row(
                    [
                        case.id if n == 0 else "",
                        label,
                        _result(turn),
                        "ok" if turn.errors == 0 else f"{turn.errors}E",
                        str(len(turn.sections)),
                        f"{turn.facts_stated}/{turn.facts_total}",
                        str(turn.invented),
                        "yes" if turn.ready else "no",
                        _mobile(case, n == len(case.turns) - 1),
                        str(turn.tool_calls),
                        "?" if turn.tokens is None else str(turn.tokens),
                        f"{turn.seconds:.1f}s",
                    ]
                )
            )
    t = totals(suite)
    lines.append("-" * WIDTH)
    lines.extend(_axe_lines(suite))
    lines.append(
        f"model {_cut(suite.model, 40)} · {t.cases} cases · first pages {t.first_passed}/{t.first_pages}"
        f" · follow-ups applied {t.applied}/{t.supported} ({_percent(t.applied, t.supported)})"
        f" · refused {t.refused}/{t.unsupported}"
    )
    measured = (
        f"{t.overflowing} of {t.measured} pages overflow" if t.measured else "overflow not measured"
    )
    lines.append(
        f"facts invented {t.invented} · collateral {t.collateral_turns} · claimed {t.claimed} · {measured}"
    )
    lines.append(
        f"{t.tool_calls} tool calls · "
        f"tokens {'?' if t.tokens is None else t.tokens} · {t.seconds:.1f}s · "
        f"{'PASSED' if t.passed else 'NOT PASSED'}"
    )
    return "\n".join(line if len(line) <= WIDTH else line[: WIDTH - 1] + "…" for line in lines)


def _percent(n: int, of: int) -> str:
    return f"{100 * n / of:.0f} %" if of else "—"


def to_json(suite: Suite, screenshots: dict[str, str] | None = None) -> dict[str, Any]:
    """The run as JSON: model, time, totals, and every case with its turns and overflow."""
    shots = screenshots or {}
    return {
        "version": 1,
        "model": suite.model,
        "measured_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "widths": list(WIDTHS),
        "totals": totals(suite).to_json(),
        "cases": [
            {
                "id": case.id,
                "tone": case.tone,
                "overflow": case.overflow.to_json(),
                "axe": case.axe.to_json(),
                "screenshot": shots.get(case.id),
                "page": f"pages/{case.id}.html",
                "turns": [t.to_json() for t in case.turns],
            }
            for case in suite.cases
        ],
    }


_STYLE: Final = (
    "body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#111}"
    "table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ccc;padding:3px 6px;"
    "text-align:left;vertical-align:top}.pass{color:#166534}.fail{color:#b91c1c;font-weight:600}"
    "section{margin:32px 0}img,iframe{border:1px solid #999;width:390px}iframe{height:844px}"
    "small{color:#555}"
)


def _case_html(case: CaseResult) -> str:
    rows = []
    for n, turn in enumerate(case.turns):
        mark = "pass" if turn.passed else "fail"
        failing = "; ".join(
            f"{next(iter(p))}: {detail}" for p, ok, detail in turn.predicates if not ok
        )
        rows.append(
            f"<tr><td>{n}</td><td>{escape(turn.kind)}</td><td>{escape(turn.message)}</td>"
            f'<td class="{mark}">{escape(_result(turn))}</td><td>{turn.errors}</td>'
            f"<td>{turn.invented}</td><td>{'yes' if turn.ready else 'no'}</td>"
            f"<td>{escape(turn.reply[:300])}</td><td><small>{escape(failing)}</small></td></tr>"
        )
    if case.overflow.screenshot is not None:
        data = base64.b64encode(case.overflow.screenshot).decode("ascii")
        shown = f'<img alt="{escape(case.id)} at 390 px" src="data:image/jpeg;base64,{data}">'
    else:
        shown = f'<iframe sandbox="" title="{escape(case.id)}" srcdoc="{escape(case.page_html)}"></iframe>'
    overflow = (
        ", ".join(f"{w}px: {px}" for w, px in case.overflow.pixels.items())
        if case.overflow.measured
        else f"not measured ({case.overflow.reason})"
    )
    return (
        f"<section><h2>{escape(case.id)} <small>{escape(case.tone)}</small></h2>"
        "<table><tr><th>#</th><th>kind</th><th>message</th><th>result</th><th>errors</th>"
        f"<th>invented</th><th>ready</th><th>reply</th><th>failed predicates</th></tr>{''.join(rows)}"
        f"</table><p>overflow: {escape(overflow)}</p><p>{escape(axe_line(case.id, case.axe))}</p>"
        f"{shown}</section>"
    )


def html_report(suite: Suite) -> str:
    """The self-contained HTML report."""
    summary = escape(table(suite).splitlines()[-2] + " · " + table(suite).splitlines()[-1])
    body = "".join(_case_html(c) for c in suite.cases)
    return (
        '<!DOCTYPE html><html><head><meta charset="utf-8"><title>charlotte eval</title>'
        f"<style>{_STYLE}</style></head><body><h1>charlotte eval</h1><p>{summary}</p>"
        f"{body}</body></html>\n"
    )


def write_reports(suite: Suite, out_dir: Path) -> tuple[Path, Path]:
    """Write ``report.json``, ``report.html``, ``pages/<case>.html`` and screenshots under ``out_dir``."""
    pages = out_dir / "pages"
    pages.mkdir(parents=True, exist_ok=True)
    shots: dict[str, str] = {}
    for case in suite.cases:
        (pages / f"{case.id}.html").write_text(case.page_html, encoding="utf-8")
        if case.overflow.screenshot is not None:
            (pages / f"{case.id}.jpg").write_bytes(case.overflow.screenshot)
            shots[case.id] = f"pages/{case.id}.jpg"
    json_path, html_path = out_dir / "report.json", out_dir / "report.html"
    json_path.write_text(json.dumps(to_json(suite, shots), indent=2) + "\n", encoding="utf-8")
    html_path.write_text(html_report(suite), encoding="utf-8")
    return json_path, html_path
