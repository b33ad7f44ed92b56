"""axe-core's violations of a rendered page at 390, 768 and 1280 px, by impact, through Chromium.

The axe-core used is the one packaged in ``axe-playwright-python`` (a dev
extra, pinned in ``pyproject.toml``; only its ``axe.min.js`` is read, so the
run needs no network). Without it, or without Chromium, every result says
*not measured* and why. axe runs as a script in the page, so its context has
JavaScript on (the rendered page has no script of its own) and the network
cut; the page is loaded once and resized to each width.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Final

__all__ = ["BLOCKING", "IMPACTS", "NOT_ASKED", "AxeResult", "Violation", "axe_source", "run_axe"]

#: axe's impacts, worst first.
IMPACTS: Final = ("critical", "serious", "moderate", "minor")
#: The impacts no published page may have.
BLOCKING: Final = frozenset({"critical", "serious"})
_PACKAGE: Final = "axe_playwright_python"
_RUN: Final = (
    "() => axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.map("
    "v => ({id: v.id, impact: v.impact || 'minor', nodes: v.nodes.length,"
    " targets: v.nodes.slice(0, 5).map(n => String(n.target))})))"
)


@dataclass(frozen=True, slots=True)
class Violation:
    """One axe rule a page breaks: its id, impact, how many elements and the first few selectors."""

    rule: str
    impact: str
    nodes: int
    targets: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """``{"rule", "impact", "nodes", "targets"}``."""
        return {
            "rule": self.rule,
            "impact": self.impact,
            "nodes": self.nodes,
            "targets": list(self.targets),
        }


@dataclass(frozen=True, slots=True)
class AxeResult:
    """axe's violations at each width measured, or why not measured."""

    measured: bool
    violations: Mapping[int, tuple[Violation, ...]] = field(default_factory=dict)
    reason: str = ""

    def counts(self, width: int) -> dict[str, int]:
        """Violated rules by impact at ``width`` (every impact present, 0 when none)."""
        found = self.violations.get(width, ())
        return {impact: sum(1 for v in found if v.impact == impact) for impact in IMPACTS}

    def blocking(self) -> int:
        """Serious and critical violations over all widths (0 when not measured)."""
        return sum(1 for vs in self.violations.values() for v in vs if v.impact in BLOCKING)

    def to_json(self) -> dict[str, Any]:
        """``{"measured", "reason", "widths": {width: {"counts", "violations"}}}``."""
        return {
            "measured": self.measured,
            "reason": self.reason,
            "widths": {
                str(w): {"counts": self.counts(w), "violations": [v.to_json() for v in vs]}
                for w, vs in self.violations.items()
            },
        }


#: What a case that no browser measured carries.
NOT_ASKED: Final = AxeResult(False, reason="not asked for")


def axe_source() -> str | None:
    """The packaged ``axe.min.js`` (None when ``axe-playwright-python`` is not installed)."""
    try:
        return (resources.files(_PACKAGE) / "axe.min.js").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        return None


def run_axe(page: Any, source: str) -> tuple[Violation, ...]:
    """axe's violations of what a Playwright ``page`` shows now (``source`` injected once per load)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(source)
    found = page.evaluate(_RUN)
    return tuple(
        Violation(str(v["id"]), str(v["impact"]), int(v["nodes"]), tuple(map(str, v["targets"])))
        for v in found
    )
