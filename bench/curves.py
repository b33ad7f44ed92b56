"""The load test over N: each backend at a few sizes, drawn as curves (``docs/load-curves.svg``).

Run with ``.venv/bin/python -m bench.curves``: ``bench.load.measure`` at each
size of ``SIZES`` (PostgreSQL + Celery when ``CHARLOTTE_TEST_DATABASE_URL``
and ``CHARLOTTE_TEST_REDIS_URL`` are set), the figures to
``bench/results/load-curves.json`` and three charts to ``docs/load-curves.svg``:
commit → browser p95, send → ``turn.finished`` p95 and turns per minute, each
against the number of people. Not part of ``make bench`` (a few minutes).
The SVG is written by hand here: three charts of a few points need no
plotting library.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from bench.load import measure

ROOT = Path(__file__).resolve().parent.parent
SIZES: dict[str, tuple[int, ...]] = {"pg": (10, 50, 100, 200), "embedded": (5, 20, 40, 60)}
COLOURS = {"pg": "#4f55d9", "embedded": "#c2410c"}
NAMES = {"pg": "PostgreSQL + Celery, 2 workers", "embedded": "embedded (SQLite + threads)"}
#: (title, unit, figure of one run)
CHARTS: tuple[tuple[str, str, Callable[[dict[str, Any]], float]], ...] = (
    ("commit → browser, p95", "ms", lambda run: float(run["stream_ms"]["p95"])),
    ("send → turn finished, p95", "s", lambda run: float(run["send_to_finished_ms"]["p95"]) / 1000),
    ("turns per minute", "", lambda run: float(run["turns_per_minute"])),
)
WIDTH, HEIGHT, PAD = 300, 220, 44


def run_all() -> dict[str, list[dict[str, Any]]]:
    """Every size of every backend that can run here; a skipped backend is left out."""
    found: dict[str, list[dict[str, Any]]] = {}
    for backend, sizes in SIZES.items():
        runs = [measure(n, backend) for n in sizes]
        if all("skipped" not in run for run in runs):
            found[backend] = runs
    return found


def _chart(index: int, title: str, unit: str, value: Callable[[dict[str, Any]], float],
           data: dict[str, list[dict[str, Any]]]) -> list[str]:  # fmt: skip
    left = index * (WIDTH + 20)
    points = {b: [(float(r["sessions"]), value(r)) for r in runs] for b, runs in data.items()}
    top_x = max((x for pts in points.values() for x, _ in pts), default=1.0) or 1.0
    top_y = max((y for pts in points.values() for _, y in pts), default=1.0) * 1.1 or 1.0
    plot_w, plot_h = WIDTH - PAD - 10, HEIGHT - PAD - 30

    def at(x: float, y: float) -> tuple[float, float]:
        return left + PAD + x / top_x * plot_w, 30 + plot_h - y / top_y * plot_h

    out = [
        f'<text x="{left + PAD}" y="18" font-size="13" font-weight="600">{escape(title)}</text>',
        f'<line x1="{left + PAD}" y1="{30 + plot_h}" x2="{left + PAD + plot_w}" y2="{30 + plot_h}" stroke="#999"/>',
        f'<line x1="{left + PAD}" y1="30" x2="{left + PAD}" y2="{30 + plot_h}" stroke="#999"/>',
        f'<text x="{left + PAD + plot_w}" y="{HEIGHT - 8}" font-size="11" text-anchor="end">people</text>',
    ]
    for step in range(5):
        y = top_y * step / 4
        _x, py = at(0, y)
        label = f"{y:.0f}" if top_y >= 10 else f"{y:.1f}"
        out.append(f'<text x="{left + PAD - 6}" y="{py + 4:.1f}" font-size="10" text-anchor="end">{label}{escape(unit)}</text>')
    for step in range(5):
        px, _y = at(top_x * step / 4, 0)
        out.append(f'<text x="{px:.1f}" y="{30 + plot_h + 14}" font-size="10" text-anchor="middle">{top_x * step / 4:.0f}</text>')
    for backend, pts in points.items():
        path = " ".join(f"{'M' if i == 0 else 'L'}{at(x, y)[0]:.1f},{at(x, y)[1]:.1f}" for i, (x, y) in enumerate(pts))
        out.append(f'<path d="{path}" fill="none" stroke="{COLOURS[backend]}" stroke-width="2"/>')
        for x, y in pts:
            px, py = at(x, y)
            out.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3" fill="{COLOURS[backend]}"/>')
    return out


def svg(data: dict[str, list[dict[str, Any]]]) -> str:
    """The three charts side by side, with a legend under them."""
    total_w = len(CHARTS) * (WIDTH + 20)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w}" height="{HEIGHT + 30}" '
             'font-family="system-ui, sans-serif" fill="#222">',
             f'<rect width="{total_w}" height="{HEIGHT + 30}" fill="#fff"/>']  # fmt: skip
    for index, (title, unit, value) in enumerate(CHARTS):
        parts += _chart(index, title, unit, value, data)
    for offset, backend in enumerate(data):
        y = HEIGHT + 16
        x = PAD + offset * 320
        parts.append(f'<rect x="{x}" y="{y - 9}" width="12" height="4" fill="{COLOURS[backend]}"/>')
        parts.append(f'<text x="{x + 18}" y="{y - 4}" font-size="11">{escape(NAMES[backend])}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main(argv: list[str]) -> None:
    # --draw: the picture again from the figures of the last run, without measuring.
    saved = ROOT / "bench" / "results" / "load-curves.json"
    data = json.loads(saved.read_text()) if argv[:1] == ["--draw"] else run_all()
    results = ROOT / "bench" / "results"
    results.mkdir(exist_ok=True)
    (results / "load-curves.json").write_text(json.dumps(data, indent=2) + "\n")
    (ROOT / "docs" / "load-curves.svg").write_text(svg(data))
    for backend, runs in data.items():
        for run in runs:
            print(backend, run["sessions"], "errors", run["errors"], "gaps", run["seq_gaps"],
                  "stream p95", run["stream_ms"]["p95"], "finished p95", run["send_to_finished_ms"]["p95"],
                  "turns/min", run["turns_per_minute"], "machine", run["cpu_share"]["machine"])  # fmt: skip


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
